"""A process killed (SIGKILL) in the middle of settling loses and duplicates nothing."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import sqlalchemy as sa

from erma.store.schema import transactions
from tests.store.conftest import opened

LOOP = Path(__file__).with_name("settle_loop.py")
ROOT = Path(__file__).parents[2]


def run_and_kill(url: str, prefix: str, rng: random.Random) -> tuple[int, int, int]:
    """Start the loop, let it end some units, SIGKILL it at a random moment; the accounts and the last unit
    it reported done."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    proc = subprocess.Popen(
        [sys.executable, str(LOOP), url, prefix], stdout=subprocess.PIPE, text=True, env=env, cwd=ROOT
    )
    assert proc.stdout is not None
    _, a, b = proc.stdout.readline().split()
    done = -1
    target = rng.randint(3, 15)
    deadline = time.monotonic() + 60
    while done < target and time.monotonic() < deadline:
        line = proc.stdout.readline()
        assert line, "the loop stopped by itself"
        done = int(line.split()[1])
    time.sleep(rng.uniform(0, 0.05))  # land anywhere inside the next transactions
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    for line in proc.stdout:  # what it reported after the last line read (a fast store runs ahead)
        if line.startswith("done "):
            done = max(done, int(line.split()[1]))
    proc.stdout.close()
    return int(a), int(b), done


def test_sigkill_mid_settlement_loses_and_duplicates_nothing(fresh_db: Callable[[], str]) -> None:
    url = fresh_db()
    rng = random.Random(7)
    runs = [(f"kill{k}", *run_and_kill(url, f"kill{k}", rng)) for k in range(3)]

    async def body() -> None:
        async with opened(url) as s:
            assert await s.check() == []
            async with s.engine.connect() as conn:
                for prefix, _a, _b, done in runs:
                    ended = (
                        await conn.execute(
                            sa.select(sa.func.count()).where(
                                transactions.c.unit.like(f"{prefix}-%"),
                                transactions.c.kind.in_(("settle", "forfeit")),
                            )
                        )
                    ).scalar_one()
                    assert ended >= done + 1  # every unit reported done stayed done
            # The unit in flight, if its hold had committed, is still in escrow: ending it now balances all.
            for prefix, a, b, done in runs:
                for n in (done + 1, done + 2):
                    await s.refund(f"{prefix}-{n}")
                for n in range(done + 1):  # a retry after the restart is refused, not paid twice
                    assert not await s.settle(f"{prefix}-{n}", {a: 1, b: -1})
            assert await s.check() == []
            async with s.engine.connect() as conn:
                users = (
                    await conn.execute(sa.text("SELECT SUM(balance) FROM accounts WHERE kind = 'user'"))
                ).scalar_one()
            assert users == -(await s.balance(s.issuance_id))

    asyncio.run(body())
