"""The headroom study's table (issue #39, docs/lab/2026-12-07-level5-headroom.md) from the runs' JSON lines.

    python scripts/headroom_table.py runs/h39o3

Each file ``RULES--A--B.json`` is one ``erma arena --json`` or ``python -m erma.lab.oracle`` line; files
``RULES--A--B@FIRST.json`` (``--first FIRST``) add later walls of the same seed to it. One row a
run: diff (A − B a hand), its 95 % interval, sd_hand, diff / sd, wins and deal-ins. For an oracle against
greedy, also the paired gain over level5 against greedy on the same seed (``level5-harness``'s run: the same
walls and greedy's seeds, wall by wall). ``level5-harness`` (level5 through the oracle's wrapper, changing
nothing) stands for level5 where it was run: its figures are ``erma arena``'s on the same walls.
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


def _merge(parts: list[dict]) -> dict:  # type: ignore[type-arg]
    """One run from parts of one seed (walls 0 … and ``--first`` runs after them): per_wall joined, counts
    added, sd_hand pooled exactly from each part's mean and sd."""
    parts = sorted(parts, key=lambda d: d.get("first", 0))
    if len(parts) == 1:
        return parts[0]
    out = dict(parts[0])
    out["walls"] = sum(d["walls"] for d in parts)
    out["per_wall"] = [x for d in parts for x in d["per_wall"]]
    for k in ("wins", "deal_ins"):
        out[k] = [sum(d[k][i] for d in parts) for i in (0, 1)]
    hands = [2 * d["walls"] for d in parts]
    means = [d["points_per_hand"][0] for d in parts]
    n = sum(hands)
    mean = sum(h * m for h, m in zip(hands, means, strict=True)) / n
    ss = sum(
        (h - 1) * d["sd_hand"] ** 2 + h * (m - mean) ** 2 for h, m, d in zip(hands, means, parts, strict=True)
    )
    out["sd_hand"] = math.sqrt(ss / (n - 1))
    m, h = _ci(out["per_wall"])
    out["diff"], out["diff_ci95"] = m, [m - h, m + h]
    oracle: dict[str, dict[str, int]] = {}
    for d in parts:
        for name, st in d.get("oracle", {}).items():
            tot = oracle.setdefault(name, dict.fromkeys(st, 0))
            for k, v in st.items():
                tot[k] = tot.get(k, 0) + v
    out["oracle"] = oracle
    return out


def main(folder: str) -> None:
    grouped: dict[tuple[str, ...], list[dict]] = {}  # type: ignore[type-arg]
    for f in sorted(Path(folder).glob("*.json")):
        d = json.loads(f.read_text(encoding="utf-8"))
        grouped.setdefault((d["rules"], *d["bots"]), []).append(d)
    runs = {k: _merge(v) for k, v in grouped.items()}
    print(
        "| preset | A | B | walls | diff (A−B) a hand | 95 % CI | sd_hand | diff/sd | wins A/B "
        "| deal-ins A/B | paired gain over level5 vs greedy |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for (rules, a, b), d in sorted(runs.items(), key=lambda kv: (kv[0][2], kv[0][0], kv[0][1])):
        if a == "level5" and (rules, "level5-harness", b) in runs:
            continue  # the wrapper's run of the same seed: the same figures, and later walls added
        lo, hi = d["diff_ci95"]
        gain = ""
        base = runs.get((rules, "level5-harness", b))
        if (
            b == "greedy"
            and a not in ("level5", "level5-harness")
            and base
            and "per_wall" in d
            and len(base["per_wall"]) >= d["walls"]
        ):
            p = [x - y for x, y in zip(d["per_wall"], base["per_wall"][: d["walls"]], strict=True)]
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
            print(f"{rules} {a} vs {b}: {name} {st}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "runs/h39o3")
