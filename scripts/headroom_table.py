"""The headroom study's table (issue #39, docs/lab/2026-12-07-level5-headroom.md) from the runs' JSON lines.

    python scripts/headroom_table.py runs/h39o3

Each file ``RULES--A--B.json`` is one ``erma arena --json`` or ``python -m erma.lab.oracle`` line. One row a
run: diff (A − B a hand), its 95 % interval, sd_hand, diff / sd, wins and deal-ins. For an oracle against
greedy, also the paired gain over level5 against greedy on the same seed (``level5-harness``'s run: the same
walls and greedy's seeds, wall by wall).
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path


def _ci(d: list[float]) -> tuple[float, float]:
    m = sum(d) / len(d)
    var = sum((x - m) ** 2 for x in d) / (len(d) - 1)
    return m, 1.96 * math.sqrt(var / len(d))


def main(folder: str) -> None:
    runs = {}
    for f in sorted(Path(folder).glob("*.json")):
        d = json.loads(f.read_text(encoding="utf-8"))
        runs[(d["rules"], *d["bots"])] = d
    print(
        "| preset | A | B | walls | diff (A−B) a hand | 95 % CI | sd_hand | diff/sd | wins A/B "
        "| deal-ins A/B | paired gain over level5 vs greedy |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for (rules, a, b), d in sorted(runs.items(), key=lambda kv: (kv[0][2], kv[0][0], kv[0][1])):
        if a == "level5-harness":
            continue
        lo, hi = d["diff_ci95"]
        gain = ""
        base = runs.get((rules, "level5-harness", b))
        if b == "greedy" and a != "level5" and base and "per_wall" in d:
            p = [x - y for x, y in zip(d["per_wall"], base["per_wall"], strict=True)]
            m, h = _ci(p)
            gain = f"{m:+.2f} ({m - h:+.2f} … {m + h:+.2f})"
        print(
            f"| {rules} | {a} | {b} | {d['walls']} | {d['diff']:+.2f} | {lo:+.2f} … {hi:+.2f} "
            f"| {d['sd_hand']:.1f} | {d['diff'] / d['sd_hand']:+.3f} | {d['wins'][0]} / {d['wins'][1]} "
            f"| {d['deal_ins'][0]} / {d['deal_ins'][1]} | {gain} |"
        )
    print()
    for (rules, a, b), d in sorted(runs.items()):
        for name, st in d.get("oracle", {}).items():
            if name == "level5-harness":
                continue
            print(f"{rules} {a} vs {b}: {name} {st}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "runs/h39o3")
