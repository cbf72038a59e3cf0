"""Accounts and sessions: guests, registration, login, session tokens."""

from __future__ import annotations

import asyncio

import pytest

from erma.errors import InvalidInputError, NameTakenError
from erma.store import Account, Store
from tests.store.conftest import opened


def uniq(prefix: str = "p") -> str:
    import secrets

    return f"{prefix}{secrets.token_hex(4)}"


def test_guest_gets_a_name_and_the_signup_grant(db_url: str) -> None:
    async def body() -> None:
        async with opened(db_url) as s:
            g = await s.create_guest()
            assert isinstance(g, Account) and g.is_guest
            assert g.name.startswith("guest-") and len(g.name) == 12
            assert await s.balance(g.id) == 10_000
            assert await s.account(g.id) == g
            assert [h["kind"] for h in await s.history(g.id)] == ["grant"]

    asyncio.run(body())


def test_register_login_and_names(db_url: str) -> None:
    async def body() -> None:
        async with opened(db_url) as s:
            name = uniq("Ann")
            a = await s.register(name, "correct horse")
            assert not a.is_guest and a.name == name
            assert await s.balance(a.id) == 10_000
            assert await s.login(name, "correct horse") == a
            assert await s.login(name.upper(), "correct horse") == a  # names ignore case
            assert await s.login(name, "wrong horse") is None
            assert await s.login(uniq("nobody"), "correct horse") is None
            with pytest.raises(NameTakenError, match=name.lower()):
                await s.register(name.lower(), "another one")
            for bad in ("x", "a" * 25, "has space", "guest-abc123", "Guest-1", "-dash", "a:b", ""):
                with pytest.raises(InvalidInputError):
                    await s.register(bad, "long enough")
            with pytest.raises(InvalidInputError, match="password"):
                await s.register(uniq(), "short")
            zh = await s.register(uniq("张三"), "密码密码密码")
            assert await s.login(zh.name, "密码密码密码") == zh

    asyncio.run(body())


def test_concurrent_registrations_of_one_name(db_url: str) -> None:
    async def body() -> None:
        async with opened(db_url) as s:
            name = uniq("Race")
            results = await asyncio.gather(
                *(s.register(name, "password1") for _ in range(8)), return_exceptions=True
            )
            assert sum(isinstance(r, Account) for r in results) == 1
            assert all(isinstance(r, NameTakenError) for r in results if not isinstance(r, Account))
            assert await s.check() == []

    asyncio.run(body())


def test_sessions(db_url: str) -> None:
    async def body() -> None:
        async with opened(db_url) as s:
            g = await s.create_guest()
            t1, t2 = await s.new_session(g.id), await s.new_session(g.id)
            assert t1 != t2 and len(t1) >= 40
            assert await s.account_for_session(t1) == g
            assert await s.account_for_session(t2) == g
            assert await s.account_for_session("not-a-token") is None
            assert await s.account_for_session("") is None
            assert await s.account(10**9) is None
            with pytest.raises(InvalidInputError):
                await s.new_session(10**9)
            with pytest.raises(InvalidInputError):
                await s.new_session(s.issuance_id)  # a system account is nobody's

    asyncio.run(body())


def test_settings_and_the_real_hasher(db_url: str) -> None:
    async def body() -> None:
        store = await Store.open(db_url, signup_grant=123)  # the default Argon2id parameters
        try:
            a = await store.register(uniq("Real"), "a real password")
            assert await store.balance(a.id) == 123
            assert await store.login(a.name, "a real password") == a
            assert await store.login(a.name, "a real passwore") is None
            assert await store.check() == []
        finally:
            await store.close()
        with pytest.raises(InvalidInputError):
            await Store.open(db_url, signup_grant=-1)

    asyncio.run(body())
