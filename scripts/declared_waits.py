"""A declared opponent's waits (issue 39): collect rows from arena games, fit the model, compare it with
level5's danger (erma.lab.declared_waits; docs/lab/2026-12-07-level5-declared-waits-model.md).

    python scripts/declared_waits.py collect --rules classic64 --bots level5,greedy --walls 2000 \
        --seed h39w5-data --out runs/h39w5/c64-data.npy
    python scripts/declared_waits.py fit --train runs/h39w5/c64-data.npy --test runs/h39w5/c64-test.npy
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from erma.bots.expert.declared import FEATURE_NAMES
from erma.lab.arena import ArenaConfig
from erma.lab.declared_waits import META, col, collect, fit, summary
from erma.rules import find_ruleset


def main() -> None:
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--rules", required=True)
    c.add_argument("--bots", default="level5,greedy")
    c.add_argument("--walls", type=int, default=100)
    c.add_argument("--first", type=int, default=0)
    c.add_argument("--seed", required=True)
    c.add_argument("--out", required=True)
    f = sub.add_parser("fit")
    f.add_argument("--train", nargs="+", required=True)
    f.add_argument("--test", nargs="+", required=True)
    f.add_argument("--l2", type=float, default=1.0)
    f.add_argument(
        "--declarer", choices=("any", "A", "B"), default="any", help="rows whose declarer is bot A/B"
    )
    args = p.parse_args()
    if args.cmd == "collect":
        bots = tuple(args.bots.split(","))
        config = ArenaConfig(find_ruleset(args.rules), (bots[0], bots[1]), args.seed)
        t0 = time.time()
        rows = collect(config, range(args.first, args.first + args.walls))
        np.save(args.out, rows)
        print(json.dumps({"rows": len(rows), "elapsed_s": round(time.time() - t0, 1), "out": args.out}))
        return

    def load(paths: list[str]) -> np.ndarray:
        rows = np.concatenate([np.load(x) for x in paths])
        if args.declarer != "any":
            rows = rows[rows[:, col("declarer")] == (0 if args.declarer == "A" else 1)]
        return rows

    train, test = load(args.train), load(args.test)
    fit_rows = train[train[:, col("safe")] < 0.5]
    w = fit(fit_rows[:, len(META) :], fit_rows[:, col("label")], l2=args.l2)
    out = {"train": summary(train, w), "test": summary(test, w)}
    out["coefficients"] = {n: round(float(v), 4) for n, v in zip(FEATURE_NAMES, w, strict=True)}
    print(json.dumps(out, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
