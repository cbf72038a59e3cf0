"""Game records: save, list per account, get; idempotent per unit."""

from __future__ import annotations

import asyncio
import secrets

import pytest

from erma.errors import InvalidInputError
from tests.store.conftest import opened


def test_save_list_get(db_url: str) -> None:
    async def body() -> None:
        async with opened(db_url) as s:
            a, b, c = [(await s.create_guest()).id for _ in range(3)]
            u1, u2 = f"h-{secrets.token_hex(4)}", f"h-{secrets.token_hex(4)}"
            record = {
                "rules": "cuopai13",
                "seed": "ab" * 16,
                "events": [{"t": "draw", "seat": 0}],
                "名": "二麻",
            }
            r1 = await s.save_record(u1, [b, a], record, {"winner": b, "fan": 8})
            r2 = await s.save_record(u2, [a, c], {"events": []}, {"winner": None})
            assert r2 > r1
            assert await s.save_record(u1, [b, a], {"other": 1}, {}) == r1  # idempotent per unit
            got = await s.get_record(r1)
            assert got is not None
            assert got["record"] == record and got["summary"] == {"winner": b, "fan": 8}
            assert got["account_ids"] == [b, a] and got["unit"] == u1 and got["id"] == r1
            assert await s.get_record(10**9) is None
            assert [g["id"] for g in await s.list_games(a)] == [r2, r1]
            assert [g["unit"] for g in await s.list_games(b)] == [u1]
            assert (await s.list_games(c, limit=1))[0]["summary"] == {"winner": None}
            with pytest.raises(InvalidInputError):
                await s.save_record(f"h-{secrets.token_hex(4)}", [a], {"x": {1, 2}}, {})  # type: ignore[dict-item]
            with pytest.raises(InvalidInputError):
                await s.save_record(f"h-{secrets.token_hex(4)}", [a, 10**9], {}, {})
            with pytest.raises(InvalidInputError):
                await s.save_record(f"h-{secrets.token_hex(4)}", [a, a], {}, {})

    asyncio.run(body())
