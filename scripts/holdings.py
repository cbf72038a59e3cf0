"""The opponent's concealed tiles (issue 39): collect rows from arena games, fit the per-copy model, compare
it with the base rate (erma.lab.holdings; docs/lab/2026-12-08-level5-live-tiles.md).

    python scripts/holdings.py collect --rules classic64 --bots level5,greedy --walls 1000 \
        --seed h27l-data --out runs/h27l/c64-data.npy
    python scripts/holdings.py fit --train runs/h27l/c64-data.npy --test runs/h27l/c64-test.npy
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from erma.lab.arena import ArenaConfig
from erma.lab.holdings import META, coefficients, col, collect, fit, summary
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
        "--opponent", choices=("any", "A", "B"), default="B", help="rows whose opponent is bot A/B"
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
        if args.opponent != "any":
            rows = rows[rows[:, col("opp_bot")] == (0 if args.opponent == "A" else 1)]
        return rows

    train, test = load(args.train), load(args.test)
    x = train[:, len(META) :]
    w = fit(x, train[:, col("held")], train[:, col("unseen")], l2=args.l2)
    out = {"train": summary(train, w), "test": summary(test, w), "coefficients": coefficients(w)}
    print(json.dumps(out, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
