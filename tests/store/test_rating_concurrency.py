"""Two matches of the same player ending at once, on two processes: both apply to the rating, none lost,
and the rebuild (replaying the stored hands in order) equals the stored rating."""

from __future__ import annotations

import asyncio
import itertools
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import sqlalchemy as sa

from erma.store.schema import rated_hand_players as HP
from erma.store.schema import rated_hands as H
from tests.store.conftest import opened

ROOT = Path(__file__).parents[2]
HANDS = 40
BLOCK = 4
"""Hands in a rated match: each process ends HANDS / BLOCK matches of the player."""


def test_two_processes_rate_the_same_player_at_once(fresh_db: Callable[[], str]) -> None:
    url = fresh_db()

    async def setup() -> tuple[int, int, int]:
        async with opened(url) as s:
            p, a, b = (await s.create_guest()).id, (await s.create_guest()).id, (await s.create_guest()).id
            for i in range(HANDS):
                await s.hold(f"x-{i}", {p: 10, a: 10})
                await s.hold(f"y-{i}", {p: 10, b: 10})
            return p, a, b

    p, a, b = asyncio.run(setup())
    start = time.time() + 3.0
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "tests/store/rate_worker.py",
                url,
                str(p),
                str(o),
                pre,
                str(HANDS),
                str(start),
                str(BLOCK),
            ],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for o, pre in ((a, "x"), (b, "y"))
    ]
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        assert f"done {HANDS}" in out

    async def check() -> None:
        async with opened(url) as s:
            prof = (await s.profile((await s.account(p)).name))["families"]["standard"]  # type: ignore[union-attr,index]
            assert prof["hands_played"] == 2 * HANDS  # every hand of both processes stored
            assert prof["matches"] == 2 * HANDS // BLOCK  # every match of both processes rated
            async with s.engine.connect() as conn:
                rows = (
                    await conn.execute(
                        sa.select(HP.c.mu_before, HP.c.sigma_before, HP.c.mu_after, HP.c.sigma_after)
                        .select_from(HP.join(H, H.c.id == HP.c.hand_id))
                        .where(HP.c.account_id == p)
                        .order_by(H.c.id)
                    )
                ).all()
            # a chain: each hand started from the rating the previous one left (none read stale, none lost)
            assert len(rows) == 2 * HANDS
            for prev, nxt in itertools.pairwise(rows):
                assert (nxt.mu_before, nxt.sigma_before) == (prev.mu_after, prev.sigma_after)
            assert prof["rating"]["mu"] == rows[-1].mu_after
            assert (await s.rebuild_ratings(write=False)).differences == []
            assert await s.check() == []

    asyncio.run(check())
