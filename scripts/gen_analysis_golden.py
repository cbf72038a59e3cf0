"""Write tests/data/analysis_reference.jsonl: shanten and useful tiles by shape from PyMahjongGB.

The reference (``pymahjonggb``, a dev dependency) is only imported here and in tests/benchmarks.
Run: .venv/bin/python scripts/gen_analysis_golden.py
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import MahjongGB

from erma.tiles import BOTZONE, KNITTED_SEQUENCES, TERMINALS_AND_HONORS, to_mpsz

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "analysis_reference.jsonl"
SHAPE_FUNCS = {
    "regular": "RegularShanten",
    "seven_pairs": "SevenPairsShanten",
    "thirteen_orphans": "ThirteenOrphansShanten",
    "knitted_straight": "KnittedStraightShanten",
    "honors_and_knitted": "HonorsAndKnittedTilesShanten",
}


def shapes_for(n: int) -> list[str]:
    if n == 13:
        return list(SHAPE_FUNCS)
    if n == 10:
        return ["regular", "knitted_straight"]
    return ["regular"]


def reference(hand: list[int]) -> dict[str, object]:
    bz = tuple(BOTZONE[t] for t in hand)
    row: dict[str, object] = {"hand": to_mpsz(hand)}
    for name in shapes_for(len(hand)):
        s, useful = getattr(MahjongGB, SHAPE_FUNCS[name])(hand=bz)
        row[name] = [s, to_mpsz(BOTZONE.index(u) for u in useful)]
    packs = tuple(("PENG", "W1", 1) for _ in range((13 - len(hand)) // 3))
    row["overall"] = MahjongGB.MahjongShanten(pack=packs, hand=bz)
    return row


def hands(rng: random.Random) -> list[list[int]]:
    full = [t for t in range(34) for _ in range(4)]
    wan_honors = [t for t in [*range(9), *range(27, 34)] for _ in range(4)]
    out = [rng.sample(full, 13) for _ in range(600)]
    out += [rng.sample(wan_honors, 13) for _ in range(300)]
    out += [rng.sample(full, n) for n in (10, 7, 4, 1) for _ in range(75)]
    out += [rng.sample(wan_honors, n) for n in (10, 7, 4) for _ in range(25)]
    for _ in range(100):  # near thirteen orphans / honours-and-knitted / knitted straight / seven pairs
        kind = rng.randrange(4)
        if kind == 0:
            base = rng.sample(TERMINALS_AND_HONORS, 11) + rng.sample(full, 2)
        elif kind == 1:
            seq = rng.choice(KNITTED_SEQUENCES)
            base = rng.sample(list(seq) + list(range(27, 34)), 11) + rng.sample(full, 2)
        elif kind == 2:
            seq = rng.choice(KNITTED_SEQUENCES)
            base = rng.sample(list(seq), 8) + rng.sample(full, 5)
        else:
            pairs = rng.sample(range(34), 6)
            base = [t for t in pairs for _ in range(2)] + [rng.randrange(34)]
        counts = [base.count(t) for t in range(34)]
        if max(counts) <= 4:
            out.append(base)
    return out


def main() -> None:
    rng = random.Random(20261129)
    rows = [reference(h) for h in hands(rng)]
    OUT.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    print(f"wrote {len(rows)} hands to {OUT}")


if __name__ == "__main__":
    main()
