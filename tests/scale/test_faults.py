"""The fault suite's short cases that need no database retry (benchmarks/faults.py --short): Redis restarted,
Redis paused, an owner stopped and resumed, an owner killed — each on two ``erma serve`` processes under
``erma loadtest``: no match lost or ended early, no forfeit charged, no client stuck, no stake left in escrow,
no traceback, the ledger sound."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import _admin, _unavailable

ROOT = Path(__file__).resolve().parents[2]
CASES = ("redis_restart", "redis_pause", "owner_stopped", "owner_killed")


@pytest.fixture(scope="module")
def rows() -> dict[str, dict[str, object]]:
    import asyncio

    if not (shutil.which("redis-server") and shutil.which("redis-cli")):
        _unavailable("the fault suite needs redis-server (a private Redis it may restart)")
    try:
        asyncio.run(_admin("SELECT 1"))
    except Exception as e:
        _unavailable(f"PostgreSQL is not reachable: {e}")
    script = str(ROOT / "benchmarks" / "faults.py")
    out = subprocess.run(
        [sys.executable, script, "--short", "--json", "--only", ",".join(CASES)],
        capture_output=True,
        text=True,
        timeout=900,
        cwd=ROOT,
    )
    got = [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]
    assert len(got) == len(CASES), out.stderr[-3000:]
    return {r["fault"]: r for r in got}


@pytest.mark.parametrize("fault", CASES)
def test_a_fault_loses_nothing(rows: dict[str, dict[str, object]], fault: str) -> None:
    row = rows[fault]
    assert row["tables"] and row["hands"], row
    lost = {k: row[k] for k in ("lost", "early", "forfeits", "stuck", "open_holds", "tracebacks")}
    assert lost == dict.fromkeys(lost, 0), row
    assert row["check"] == [], row
