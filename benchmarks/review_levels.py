"""Validity of the review: the mean value lost per decision of each bot level, which should order the
levels as the arena does (level1 losing most).

Each level plays ``--hands`` self-play hands against the same opponent (``greedy``; the two swap seats every
hand, benchmarks/review_hands.py) and only the level's seat is reviewed. Prints, per preset and level, the
decisions, the mean value lost per decision with a 95 % interval (from the per-hand figures, each hand
weighted by its decisions), the agreement and the mistakes per decision.

Usage: nice .venv/bin/python benchmarks/review_levels.py [--hands 60] [--seed lv] [--presets …]
       [--samples 8] [--opponent greedy] [--levels level1,…,level5] [--by-kind] [--json]

``--by-kind`` adds each level's decisions and mean value lost per kind of decision (discard, claim, 报听, …):
where the review finds a level's losses. Note that ``review_hands.play`` makes the first bot (the level) the
dealer of every hand.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
from collections import defaultdict

from erma.coach import review_record
from review_hands import PRESETS, play

LEVELS = ["level1", "level2", "level3", "level4", "level5"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=60)
    ap.add_argument("--seed", default="lv")
    ap.add_argument("--presets", default=",".join(PRESETS))
    ap.add_argument("--samples", type=int, default=8)
    ap.add_argument("--opponent", default="greedy")
    ap.add_argument("--levels", default=",".join(LEVELS), help="the bots, weakest first")
    ap.add_argument("--by-kind", action="store_true")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    for preset in args.presets.split(","):
        means = []
        for level in args.levels.split(","):
            lost, counts, agree, mistakes = [], [], 0, 0
            kinds: dict[str, list[float]] = defaultdict(list)
            for i in range(args.hands):
                record = play(preset, args.seed, i, [level, args.opponent])
                seat = record["bots"].index(level) if level != args.opponent else i % 2
                r = review_record(record, seat, samples=args.samples)
                s = r["summary"][0]
                lost.append(s["value_lost"])
                counts.append(s["decisions"])
                agree += sum(d["played"] == d["best"] for d in r["decisions"])
                for d in r["decisions"]:
                    kinds[d["kind"]].append(d["value_lost"])
                mistakes += s["mistakes"]
            n = sum(counts)
            mean = sum(lost) / n
            # ratio estimator over hands: its variance from the per-hand residuals
            resid = [x - mean * c for x, c in zip(lost, counts, strict=True)]
            se = math.sqrt(sum(e * e for e in resid) / (len(resid) - 1) / len(resid)) / (n / len(resid))
            means.append(mean)
            print(f"{preset:<12} {level:<7} {n:>5} decisions  lost/decision {mean:.4f} "
                  f"({mean - 1.96 * se:.4f} … {mean + 1.96 * se:.4f})  agreement {agree / n:.3f}  "
                  f"mistakes/decision {mistakes / n:.3f}", flush=True)  # fmt: skip
            if args.by_kind:
                parts = [f"{k} {len(v)} × {sum(v) / len(v):.4f}" for k, v in sorted(kinds.items())]
                print(f"{'':<12} {level:<7} by kind (decisions × mean lost): " + ", ".join(parts), flush=True)
            if args.json:
                print(json.dumps({"preset": preset, "level": level, "decisions": n, "lost_per_decision": mean,
                                  "ci95": [mean - 1.96 * se, mean + 1.96 * se], "agreement": agree / n,
                                  "mistakes_per_decision": mistakes / n}), flush=True)  # fmt: skip
        ordered = all(a > b for a, b in itertools.pairwise(means))
        print(f"{preset}: {args.levels} strictly decreasing: {ordered}", flush=True)


if __name__ == "__main__":
    main()
