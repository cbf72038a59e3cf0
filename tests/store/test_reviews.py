"""Reviews (复盘) kept with the records: written once per (record, seat), read back, the trend per account."""

from __future__ import annotations

import asyncio
import secrets

import pytest

from erma.errors import InvalidInputError
from tests.store.conftest import opened


def test_save_once_get_and_recent(db_url: str) -> None:
    async def body() -> None:
        async with opened(db_url) as s:
            a, b, c = [(await s.create_guest()).id for _ in range(3)]
            r1 = await s.save_record(
                f"rv-{secrets.token_hex(4)}",
                [a, b],
                {"rules": "cuopai789"},
                {"rules": "cuopai789", "room": "x"},
            )
            r2 = await s.save_record(
                f"rv-{secrets.token_hex(4)}", [b, a], {"rules": "classic64"}, {"rules": "classic64"}
            )
            assert await s.get_review(r1, 0) is None
            first = {"format": "erma.review/1", "decisions": [{"step": 3, "名": "弃"}], "summary": {}}
            sums = {"decisions": 1, "agreement": 1.0, "mistakes": 0, "value_lost": 0.0}
            assert await s.save_review(r1, 0, first, sums) is True
            assert await s.save_review(r1, 0, {"other": True}, {"decisions": 9}) is False  # the first stays
            got = await s.get_review(r1, 0)
            assert got is not None and got["review"] == first and "T" in got["created"]
            assert await s.get_review(r1, 1) is None
            await s.save_review(
                r1, 1, {"seat": 1}, {"decisions": 2, "agreement": 0.5, "mistakes": 1, "value_lost": 3.5}
            )
            await s.save_review(
                r2, 1, {"seat": 1}, {"decisions": 4, "agreement": 0.25, "mistakes": 2, "value_lost": 7.0}
            )
            # a's own seats: seat 0 of r1, seat 1 of r2 (newest first); b's: seat 1 of r1 (r2's seat 0: none)
            mine = await s.recent_reviews(a)
            assert [(r["id"], r["seat"]) for r in mine] == [(r2, 1), (r1, 0)]
            assert mine[0]["summary"]["value_lost"] == 7.0 and mine[0]["rules"] == "classic64"
            assert mine[1]["summary"] == sums and mine[1]["room"] == "x"
            assert [(r["id"], r["seat"]) for r in await s.recent_reviews(b)] == [(r1, 1)]
            assert await s.recent_reviews(c) == []
            assert len(await s.recent_reviews(a, limit=1)) == 1
            with pytest.raises(InvalidInputError, match="seat"):
                await s.save_review(r1, 2, {}, {})
            with pytest.raises(InvalidInputError, match="not JSON"):
                await s.save_review(r1, 0, {"x": {1, 2}}, {})  # type: ignore[dict-item]
            with pytest.raises(InvalidInputError, match="no game record"):
                await s.save_review(10**9, 0, {}, {})
            assert await s.check() == []

    asyncio.run(body())
