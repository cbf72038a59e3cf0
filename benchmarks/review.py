"""Review speed: a whole hand reviewed (both seats) by ``erma.coach.review_record``, per preset.

Hands are self-play records (benchmarks/review_hands.py, ``level5`` against ``greedy`` by default, the bots
swapping seats every hand); each is reviewed for both seats with the default samples. Times are process CPU
time of the review alone (one core; robust to other load on a shared machine), with the wall-clock time
beside them. Prints a table and, with ``--json``, one line per preset.

Usage: nice .venv/bin/python benchmarks/review.py [--hands 200] [--seed rv] [--presets cuopai789,…]
       [--samples K] [--bots level5,greedy] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from erma.coach import review_record
from review_hands import PRESETS, records


def pct(values: list[float], q: float) -> float:
    """Nearest-rank percentile."""
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q / 100 * len(s) + 0.5) - 1))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=200)
    ap.add_argument("--seed", default="rv")
    ap.add_argument("--presets", default=",".join(PRESETS))
    ap.add_argument("--samples", type=int, default=None)
    ap.add_argument("--bots", default="level5,greedy")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    bots = args.bots.split(",")
    print(f"{'preset':<12} {'hands':>5} {'dec/hand':>8} {'p50 s':>7} {'p95 s':>7} {'p99 s':>7} {'max s':>7} "
          f"{'wall p95':>8}")  # fmt: skip
    for preset in args.presets.split(","):
        cpu, wall, decisions = [], [], []
        for record in records(preset, args.seed, args.hands, bots):
            c0, w0 = time.process_time(), time.perf_counter()
            review = review_record(record, samples=args.samples)
            cpu.append(time.process_time() - c0)
            wall.append(time.perf_counter() - w0)
            decisions.append(len(review["decisions"]))
        row = {
            "preset": preset,
            "hands": len(cpu),
            "decisions_per_hand": round(statistics.mean(decisions), 1),
            "cpu_s": {
                k: round(pct(cpu, q), 3) for k, q in (("p50", 50), ("p95", 95), ("p99", 99), ("max", 100))
            },
            "wall_s_p95": round(pct(wall, 95), 3),
            "samples": args.samples,
            "seed": args.seed,
            "bots": bots,
        }
        c = row["cpu_s"]
        print(f"{preset:<12} {row['hands']:>5} {row['decisions_per_hand']:>8} {c['p50']:>7} {c['p95']:>7} "
              f"{c['p99']:>7} {c['max']:>7} {row['wall_s_p95']:>8}", flush=True)  # fmt: skip
        if args.json:
            print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
