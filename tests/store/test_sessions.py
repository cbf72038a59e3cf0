"""Accounts that last: session expiry and revocation, a guest upgraded to a named account."""

from __future__ import annotations

import asyncio
import secrets

import pytest

from erma.errors import InvalidInputError, NameTakenError
from erma.store.ratings import RatedHand
from tests.store.conftest import opened


def test_sessions_expire_by_the_store_setting_and_per_session(db_url: str) -> None:
    async def body() -> None:
        async with opened(db_url, session_ttl_s=3600) as s:
            g = await s.create_guest()
            lasting = await s.new_session(g.id)
            gone = await s.new_session(g.id, ttl_s=0)
            assert await s.account_for_session(lasting) == g
            await asyncio.sleep(1.1)  # SQLite's CURRENT_TIMESTAMP has whole seconds
            assert await s.account_for_session(gone) is None
            assert await s.account_for_session(lasting) == g
        async with opened(db_url, session_ttl_s=None) as s:
            forever = await s.new_session(g.id)
            assert await s.account_for_session(forever) == g
        with pytest.raises(InvalidInputError, match="session_ttl_s"):
            async with opened(db_url, session_ttl_s=-1):
                pass

    asyncio.run(body())


def test_log_out_one_session_and_everywhere(db_url: str) -> None:
    async def body() -> None:
        async with opened(db_url) as s:
            a = await s.register(f"Out{secrets.token_hex(3)}", "secret words")
            other = await s.create_guest()
            t1 = await s.new_session(a.id)
            t2 = await s.new_session(a.id)
            t3 = await s.new_session(a.id)
            keep = await s.new_session(other.id)
            assert await s.end_session(t1) is True
            assert await s.end_session(t1) is False
            assert await s.account_for_session(t1) is None
            assert await s.account_for_session(t2) == a
            assert await s.revoke_sessions(a.id) == 2
            assert await s.account_for_session(t2) is None and await s.account_for_session(t3) is None
            assert await s.account_for_session(keep) == other  # someone else's sessions stay
            assert await s.login(a.name, "secret words") == a  # the account itself stays

    asyncio.run(body())


def test_guest_upgrade_keeps_beans_records_rating_and_session(db_url: str) -> None:
    async def body() -> None:
        async with opened(db_url) as s:
            g = await s.create_guest()
            h = await s.create_guest()
            token = await s.new_session(g.id)
            unit = f"up-{secrets.token_hex(4)}"
            await s.hold(unit, {g.id: 500, h.id: 500})
            rated = RatedHand("standard", (g.id, h.id), winner=0, fans=8, points=(30, -30))
            assert await s.settle(unit, {g.id: 300, h.id: -300}, rated=rated)
            await s.save_record(unit, [g.id, h.id], {"moves": []}, {"winner": 0})
            before = (await s.balance(g.id), await s.history(g.id), await s.list_games(g.id))
            rating_before = (await s.profile(g.name))["families"]["standard"]  # type: ignore[index]
            name = f"Up{secrets.token_hex(3)}"
            up = await s.upgrade_guest(g.id, name, "a good password")
            assert up.id == g.id and up.name == name and not up.is_guest
            assert (await s.balance(g.id), await s.history(g.id), await s.list_games(g.id)) == before
            assert await s.balance(g.id) == 10_300
            assert await s.login(name, "a good password") == up
            assert await s.account_for_session(token) == up  # the guest's session is the account's
            assert await s.profile(g.name) is None
            after = (await s.profile(name))["families"]["standard"]  # type: ignore[index]
            assert after == rating_before and after["hands_played"] == 1
            with pytest.raises(InvalidInputError, match="not a guest"):
                await s.upgrade_guest(g.id, f"Up{secrets.token_hex(3)}", "a good password")
            with pytest.raises(NameTakenError):
                await s.upgrade_guest(h.id, name.upper(), "a good password")
            with pytest.raises(InvalidInputError, match="password"):
                await s.upgrade_guest(h.id, f"Up{secrets.token_hex(3)}", "short")
            with pytest.raises(InvalidInputError, match="guests"):
                await s.upgrade_guest(h.id, "guest-zzz", "a good password")
            assert (await s.account(h.id)).is_guest  # type: ignore[union-attr]
            assert await s.check() == []

    asyncio.run(body())
