"""Reproducibility of the review's mistakes: the same hands reviewed with two seeds of the hidden-tile
samples; the share of the mistakes flagged with the first seed that are flagged again with the second.

Hands are self-play records (benchmarks/review_hands.py, ``level5`` against ``greedy`` by default), reviewed
for both seats.

Usage: nice .venv/bin/python benchmarks/review_repro.py [--hands 100] [--seed rp] [--presets …]
       [--seeds review,again] [--samples K] [--json]
"""

from __future__ import annotations

import argparse
import json

from erma.coach import review_record
from review_hands import PRESETS, records


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=100)
    ap.add_argument("--seed", default="rp")
    ap.add_argument("--presets", default=",".join(PRESETS))
    ap.add_argument("--seeds", default="review,again")
    ap.add_argument("--samples", type=int, default=None)
    ap.add_argument("--bots", default="level5,greedy")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    first, second = args.seeds.split(",")
    total = {"decisions": 0, "flagged": 0, "again": 0, "flagged_second": 0}
    for preset in args.presets.split(","):
        row = {"decisions": 0, "flagged": 0, "again": 0, "flagged_second": 0}
        for record in records(preset, args.seed, args.hands, args.bots.split(",")):
            a = review_record(record, seed=first, samples=args.samples)["decisions"]
            b = review_record(record, seed=second, samples=args.samples)["decisions"]
            row["decisions"] += len(a)
            for x, y in zip(a, b, strict=True):
                row["flagged"] += x["mistake"]
                row["again"] += x["mistake"] and y["mistake"]
                row["flagged_second"] += y["mistake"]
        for k in total:
            total[k] += row[k]
        share = row["again"] / row["flagged"] if row["flagged"] else float("nan")
        print(f"{preset:<12} {args.hands} hands, {row['decisions']} decisions: {row['flagged']} mistakes "
              f"({first}), {row['again']} flagged again ({second}): {100 * share:.1f} %; "
              f"{row['flagged_second']} with {second}", flush=True)  # fmt: skip
        if args.json:
            print(json.dumps({"preset": preset, **row, "share": share}), flush=True)
    share = total["again"] / total["flagged"] if total["flagged"] else float("nan")
    print(f"all: {total['flagged']} mistakes, {total['again']} flagged again: {100 * share:.1f} %")


if __name__ == "__main__":
    main()
