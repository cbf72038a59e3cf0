"""Open holds (``Store.open_holds``) on SQLite and PostgreSQL: a unit held and not ended, with its beans and
age; an ended unit, or one younger than asked, is not listed; a refund's reason is kept."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from erma.errors import InvalidInputError
from tests.store.conftest import opened


def test_open_holds_lists_units_held_and_not_ended(fresh_db: Callable[[], str]) -> None:
    url = fresh_db()

    async def go() -> None:
        async with opened(url) as s:
            a, b = await s.create_guest(), await s.create_guest()
            assert await s.open_holds() == []
            await s.hold("m1:1", {a.id: 100, b.id: 50})
            await s.hold("m2:4", {a.id: 10, b.id: 10})
            await s.settle("m2:4", {a.id: 10, b.id: -10})
            held = await s.open_holds()
            assert [(h.unit, h.beans, h.match) for h in held] == [("m1:1", 150, "m1")]
            assert 0 <= held[0].age_s < 60
            assert await s.open_holds(3600) == []  # younger than an hour
            assert "'m1:1' has held 150 beans" in held[0].sentence()
            assert await s.refund("m1:1", reason="sweep")
            assert await s.open_holds() == []
            assert [h["reason"] for h in await s.history(a.id) if h["kind"] == "refund"] == ["sweep"]
            assert await s.check() == []
            with pytest.raises(InvalidInputError, match="older_than_s"):
                await s.open_holds(-1)
            with pytest.raises(InvalidInputError, match="reason"):
                await s.refund("m3:1", reason="")

    asyncio.run(go())
