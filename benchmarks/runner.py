"""Scaling of the runner: walls per second of one balance workload on 1 and 2 local workers and as Ray tasks.

The workload is `erma balance --rules cuopai789 --vary cuo_prob=0,0.05 --bots greedy,greedy` (each wall
played under 2 combinations; the bots being equal, its swapped hands are the same hands, counted not
played). Each set-up runs the same walls; the repeats are interleaved
(1 worker, 2 workers, Ray, then again) so that the machine's other work spreads over all of them; the
figures are medians of wall-clock walls/s. Ray runs on a Ray instance started by this script with two CPUs
(`ray.init(num_cpus=2)`, its start-up timed apart); its overhead is its time over the 2-worker pool's.
Every run's results are checked equal to the first run's.

Usage: .venv/bin/python benchmarks/runner.py [--walls 400] [--repeats 3]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time

from erma.lab.balance import BalanceConfig, balance_shard, combinations, parse_vary
from erma.lab.runner import run_walls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--walls", type=int, default=400)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    combos = combinations("cuopai789", parse_vary(["cuo_prob=0,0.05"]))
    config = BalanceConfig(tuple(r for _, r in combos), ("greedy", "greedy"), "bench")
    run_walls(balance_shard, config, 20)  # warm the analysis and scoring tables of this process

    import ray

    t0 = time.perf_counter()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="warning")
    ray_start = time.perf_counter() - t0
    setups = {"workers=1": {"workers": 1}, "workers=2": {"workers": 2}, "ray (2 CPUs)": {"cluster": "auto"}}
    rates: dict[str, list[float]] = {k: [] for k in setups}
    first = None
    for _ in range(args.repeats):
        for name, kw in setups.items():
            t0 = time.perf_counter()
            got = run_walls(balance_shard, config, args.walls, **kw)  # type: ignore[arg-type]
            dt = time.perf_counter() - t0
            if first is None:
                first = got
            assert got == first, f"{name}: results differ from the first run"
            rates[name].append(args.walls / dt)
    ray.shutdown()
    med = {k: statistics.median(v) for k, v in rates.items()}
    base = med["workers=1"]
    out = {
        "walls": args.walls,
        "hands_played_per_wall": 2,
        "repeats": args.repeats,
        "cpus": os.cpu_count(),
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "walls_per_second": {k: round(v, 2) for k, v in med.items()},
        "all_runs": {k: [round(x, 2) for x in v] for k, v in rates.items()},
        "speedup_vs_one_worker": {k: round(v / base, 2) for k, v in med.items()},
        "ray_overhead_vs_two_workers": round(med["workers=2"] / med["ray (2 CPUs)"] - 1, 3),
        "ray_start_seconds": round(ray_start, 2),
    }
    if args.json:
        print(json.dumps(out))
        return
    print(
        f"{args.walls} walls × 2 hands, median of {args.repeats}, {out['cpus']} CPUs, "
        f"load {out['load_average']}"
    )
    for k, v in med.items():
        print(f"  {k:<13} {v:7.2f} walls/s  ×{v / base:.2f}   runs {out['all_runs'][k]}")
    print(
        f"  Ray: {out['ray_overhead_vs_two_workers']:+.1%} time over the 2-worker pool; "
        f"start-up {ray_start:.1f} s"
    )


if __name__ == "__main__":
    main()
