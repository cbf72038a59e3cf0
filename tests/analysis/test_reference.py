"""Shanten and useful tiles by shape equal the reference calculator's (PyMahjongGB).

Golden data (tests/data/analysis_reference.jsonl, written by scripts/gen_analysis_golden.py) holds the
reference's answers, so these tests need no reference at run time; when it is installed (the dev
extra), a further seeded sample is compared live.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from erma.analysis import shanten, useful_by_shape
from erma.tiles import BOTZONE, parse, to_mpsz

GOLDEN = Path(__file__).resolve().parent.parent / "data" / "analysis_reference.jsonl"
ROWS = [json.loads(line) for line in GOLDEN.read_text().splitlines()]


def test_golden_is_broad() -> None:
    sizes = {len(parse(r["hand"])) for r in ROWS}
    assert sizes == {1, 4, 7, 10, 13}
    assert len(ROWS) >= 1000
    # every shape is the best one somewhere, and ready hands are present
    winners = {
        name for r in ROWS for name in r if name not in ("hand", "overall") and r[name][0] == r["overall"]
    }
    assert winners == {"regular", "seven_pairs", "thirteen_orphans", "knitted_straight", "honors_and_knitted"}
    assert any(r["overall"] == 0 for r in ROWS)


@pytest.mark.parametrize("chunk", range(5))
def test_golden(chunk: int) -> None:
    for row in ROWS[chunk::5]:
        hand = row["hand"]
        mine = useful_by_shape(hand)
        for name, (s, useful) in mine.items():
            assert [s, to_mpsz(useful)] == row[name], (hand, name)
        assert shanten(hand) == row["overall"], hand


def test_live_against_reference() -> None:
    mgb = pytest.importorskip("MahjongGB")
    funcs = {
        "regular": mgb.RegularShanten,
        "seven_pairs": mgb.SevenPairsShanten,
        "thirteen_orphans": mgb.ThirteenOrphansShanten,
        "knitted_straight": mgb.KnittedStraightShanten,
        "honors_and_knitted": mgb.HonorsAndKnittedTilesShanten,
    }
    rng = random.Random(7)
    full = [t for t in range(34) for _ in range(4)]
    wan_honors = [t for t in [*range(9), *range(27, 34)] for _ in range(4)]
    checked = 0
    for i in range(3000):
        n = (13, 13, 10, 7, 4)[i % 5]
        hand = rng.sample(wan_honors if i % 3 == 0 else full, n)
        bz = tuple(BOTZONE[t] for t in hand)
        for name, (s, useful) in useful_by_shape(hand).items():
            ref_s, ref_useful = funcs[name](hand=bz)
            assert (s, sorted(useful)) == (ref_s, sorted(BOTZONE.index(u) for u in ref_useful)), (hand, name)
            checked += 1
        packs = tuple(("PENG", "W1", 1) for _ in range((13 - n) // 3))
        assert shanten(hand) == mgb.MahjongShanten(pack=packs, hand=bz)
    assert checked > 6000
