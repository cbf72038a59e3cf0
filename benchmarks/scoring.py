"""Fan scoring: erma's ``score_record`` (table ``mcr``) against PyMahjongGB's
``MahjongFanCalculator(..., verbose=True)`` (C++) on the same corpus, in one run: erma as this process
runs it (compiled after ``make install``) and pure Python (``ERMA_PURE=1``, a child process on the same
corpus: benchmarks/builds.py).

Both are timed on every winning hand of tests/data/mcr_corpus.jsonl, each given its own input form
(erma: the record dict as stored; the reference: pre-built Botzone tuples). Per-hand time is the CPU
time of this process (``time.process_time``: other processes on a shared machine do not count) for one
pass over the corpus divided by the number of hands; the script prints the median of several
passes for each (the passes alternate) and their ratio. The first erma pass runs with cold caches
(per-suit memo tables and the other bounded memos) and is reported apart.

With ``--instructions`` it also counts machine instructions per hand under valgrind (callgrind), which a
shared machine measures far more steadily than time: each side runs warm passes over the corpus in a
process of its own, once with one pass and once with four, and the difference over three passes is
divided by the number of hands (process start-up and the first, cold pass cancel out).

Usage: .venv/bin/python benchmarks/scoring.py [--repeats 7] [--instructions]
Machines here are shared and noisy; benchmarks never gate CI.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import MahjongGB

from erma.scoring import score_record
from erma.tiles import BOTZONE, parse, parse_tile

sys.path.insert(0, str(Path(__file__).resolve().parent))
from builds import PURE_SIDE, emit, pure_side, this_build

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "data" / "mcr_corpus.jsonl"


def load() -> list[dict[str, Any]]:
    with CORPUS.open(encoding="utf-8") as fh:
        rows = [json.loads(line) for line in fh if line.strip()]
    return [r["record"] for r in rows if "fans" in r["expected"]]


def reference_args(rec: dict[str, Any]) -> tuple[Any, ...]:
    def bz(t: str) -> str:
        return BOTZONE[parse_tile(t)]

    hand = rec["hand"]
    tiles = parse(hand) if isinstance(hand, str) else [parse_tile(t) for t in hand]
    return (
        tuple((k, bz(t), o) for k, t, o in rec["packs"]),
        tuple(BOTZONE[t] for t in tiles),
        bz(rec["win_tile"]),
        rec["flower_count"],
        rec["is_self_drawn"],
        rec["is_4th_tile"],
        rec["is_about_kong"],
        rec["is_wall_last"],
        rec["seat_wind"],
        rec["prevalent_wind"],
    )


def time_pass(fn: Any, items: list[Any]) -> float:
    t0 = time.process_time()
    for x in items:
        fn(x)
    return (time.process_time() - t0) / len(items) * 1e6


def run_passes(side: str, passes: int) -> None:
    """A cold pass, then ``passes`` warm passes of one side (what --instructions counts under valgrind)."""
    records = load()
    if side == "erma":
        fn: Any = score_record
        items: list[Any] = records
    else:
        calc = MahjongGB.MahjongFanCalculator

        def fn(a: tuple[Any, ...]) -> Any:
            return calc(*a, verbose=True)

        items = [reference_args(r) for r in records]
    for _ in range(1 + passes):
        for x in items:
            fn(x)


def instructions(side: str, hands: int) -> float:
    """Machine instructions per hand of one side, counted by callgrind (four passes less one)."""
    counts = []
    for passes in (1, 4):
        cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, __file__]
        done = subprocess.run(
            [*cmd, "--passes", side, str(passes)], capture_output=True, text=True, check=True
        )
        m = re.search(r"Collected\s*:\s*([\d,]+)", done.stderr)
        if m is None:
            raise SystemExit(f"no instruction count in valgrind's output:\n{done.stderr[-2000:]}")
        counts.append(int(m.group(1).replace(",", "")))
    return (counts[1] - counts[0]) / 3 / hands


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--instructions", action="store_true", help="also count instructions per hand (valgrind)")
    ap.add_argument("--passes", nargs=2, metavar=("SIDE", "N"), help=argparse.SUPPRESS)  # valgrind's child
    ap.add_argument(PURE_SIDE, action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.passes:
        run_passes(args.passes[0], int(args.passes[1]))
        return
    records = load()
    if args.pure_side:
        time_pass(score_record, records)
        runs = [time_pass(score_record, records) for _ in range(args.repeats)]
        emit({"build": this_build(), "median_us": statistics.median(runs)})
        return
    ref_args = [reference_args(r) for r in records]
    calc = MahjongGB.MahjongFanCalculator

    def ref(a: tuple[Any, ...]) -> Any:
        return calc(*a, verbose=True)

    cold = time_pass(score_record, records)
    ours: list[float] = []
    theirs: list[float] = []
    for _ in range(args.repeats):  # interleaved, so that load from other processes hits both alike
        ours.append(time_pass(score_record, records))
        theirs.append(time_pass(ref, ref_args))
    m_ours, m_ref = statistics.median(ours), statistics.median(theirs)
    pure = pure_side(__file__, ["--repeats", str(args.repeats)])
    assert pure["build"] == "pure", pure
    m_pure = float(pure["median_us"])
    build = this_build()
    print(f"hands: {len(records)} (tests/data/mcr_corpus.jsonl), repeats: {args.repeats}")
    rows = [
        ("PyMahjongGB MahjongFanCalculator (C++):", f"{m_ref:8.2f} µs/hand (median)"),
        (f"erma score_record ({build}):", f"{m_ours:8.2f} µs/hand (median); first, cold pass {cold:.2f}"),
        ("erma score_record (pure, ERMA_PURE=1):", f"{m_pure:8.2f} µs/hand (median, a child process)"),
        (f"ratio erma {build} / reference:", f"{m_ours / m_ref:8.2f}×"),
        ("ratio erma pure / reference:", f"{m_pure / m_ref:8.2f}×"),
        ("compiled/pure speed-up:", f"{m_pure / m_ours:8.2f}×"),
    ]
    for label, value in rows:
        print(f"{label:<40}{value}")
    if args.instructions:
        if shutil.which("valgrind") is None:
            raise SystemExit("--instructions needs valgrind")
        i_ours = instructions("erma", len(records))
        i_ref = instructions("reference", len(records))
        print(f"instructions per hand (valgrind): erma {i_ours:,.0f}, reference {i_ref:,.0f}")
        print(f"ratio of instructions:                  {i_ours / i_ref:8.2f}×")


if __name__ == "__main__":
    main()
