"""What the servers ask of the store about sessions: which of their sockets' sessions are still live (not
logged out, revoked or expired, by the database's clock), and a password change that ends every session."""

from __future__ import annotations

import asyncio
import secrets

import pytest

from erma.errors import InvalidInputError
from erma.store.accounts import session_key
from tests.store.conftest import opened


def test_live_sessions_leave_out_the_ended_ones(db_url: str) -> None:
    async def body() -> None:
        async with opened(db_url, session_ttl_s=3600) as s:
            g = await s.create_guest()
            h = await s.create_guest()
            live, out = await s.new_session(g.id), await s.new_session(g.id)
            expiring = await s.new_session(g.id, ttl_s=0)
            await s.new_session(g.id)  # a fourth, revoked below
            other = await s.new_session(h.id)
            assert await s.end_session(out)
            keys = [session_key(t) for t in (live, out, expiring, other)] + ["no-such-key"]
            await asyncio.sleep(1.1)  # SQLite's CURRENT_TIMESTAMP has whole seconds
            assert await s.live_sessions(keys) == {session_key(live), session_key(other)}
            assert await s.revoke_sessions(g.id) == 3  # live, the fourth, and the expired one's row
            assert await s.live_sessions(iter(keys)) == {session_key(other)}
            many = [session_key(secrets.token_hex(8)) for _ in range(1200)] + [session_key(other)]
            assert await s.live_sessions(many) == {session_key(other)}  # asked 500 at a time
            assert await s.live_sessions([]) == set()

    asyncio.run(body())


def test_a_password_change_ends_every_session_and_gives_a_new_one(db_url: str) -> None:
    async def body() -> None:
        async with opened(db_url) as s:
            name = f"Pw{secrets.token_hex(3)}"
            a = await s.register(name, "first secret")
            t1, t2 = await s.new_session(a.id), await s.new_session(a.id)
            assert await s.change_password(a.id, "not it", "second secret") is None
            assert await s.account_for_session(t1) == a  # a refused change ends nothing
            with pytest.raises(InvalidInputError, match="password"):
                await s.change_password(a.id, "first secret", "short")
            fresh = await s.change_password(a.id, "first secret", "second secret")
            assert fresh is not None and await s.account_for_session(fresh) == a
            assert await s.account_for_session(t1) is None and await s.account_for_session(t2) is None
            assert await s.login(name, "first secret") is None and await s.login(name, "second secret") == a
            guest = await s.create_guest()
            assert await s.change_password(guest.id, "", "a new secret") is None  # no password to give

    asyncio.run(body())
