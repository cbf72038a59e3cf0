"""score_record's plain path (erma.scoring.plain) gives the facts of the checked path (read_record, then
hand_facts), and declines every record the checked path would reject."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from erma.errors import ErmaError
from erma.scoring import read_record, score_record
from erma.scoring.facts import _FACTS_ORDER, HandFacts, hand_facts
from erma.scoring.plain import plain_facts

CORPUS = Path(__file__).resolve().parent.parent / "data" / "mcr_corpus.jsonl"
RECORDS = [
    json.loads(line)["record"] for line in CORPUS.read_text(encoding="utf-8").splitlines() if line.strip()
]


def _same(a: HandFacts, b: HandFacts) -> None:
    for name in _FACTS_ORDER[1:]:
        assert getattr(a, name) == getattr(b, name), name
    assert a.ctx == b.ctx
    for name in ("counts", "standing", "kinds", "suits", "honors", "ranks", "unique_wait"):
        assert getattr(a, name) == getattr(b, name), name


def _checked(record: Any) -> HandFacts | None:
    try:
        return hand_facts(read_record(record))
    except (ErmaError, TypeError, ValueError, KeyError):
        return None


def test_corpus_records_read_the_same_both_ways() -> None:
    plain = 0
    for record in RECORDS:
        got = plain_facts(record)
        if got is not None:
            plain += 1
            want = _checked(record)
            assert want is not None, record
            _same(got, want)
    assert plain > len(RECORDS) * 0.9  # the corpus is mostly plain records


_BAD_VALUES: list[Any] = [
    None,
    True,
    1,
    -1,
    4,
    9,
    "",
    " 5m",
    "5m ",
    "8z",
    "0m",
    "1f",
    "H1",
    [],
    (),
    [["PENG"]],
    1.0,
]


def _mutate(rng: random.Random, record: dict[str, Any]) -> dict[str, Any]:
    rec = copy.deepcopy(record)
    roll = rng.random()
    if roll < 0.25:
        key = rng.choice(
            [*rec, "flowers", "copies", "robbing", "is_dealer", "bonus_count", "unknown", "is_initial"]
        )
        rec[key] = rng.choice([*_BAD_VALUES, 0, 3, 8, False, "123m", ["1f"], rec.get(key)])
    elif roll < 0.5 and rec["packs"]:
        pack = rng.choice(rec["packs"])
        i = rng.randrange(len(pack))
        pack[i] = rng.choice([*_BAD_VALUES, "CHI", "PENG", "GANG", "chi", 0, 2, 3, "1m", "9s", "W9", "J3"])
        if rng.random() < 0.2:
            pack.append(rng.choice([4, 5, 8, "x"]))
    elif roll < 0.75:
        hand = rec["hand"]
        if isinstance(hand, str):
            i = rng.randrange(len(hand) + 1)
            rec["hand"] = (
                hand[:i] + rng.choice(["1", "5", "9", "m", "z", " ", "8", "f", "p5", ""]) + hand[i + 1 :]
            )
        else:
            i = rng.randrange(len(hand))
            hand[i] = rng.choice([*_BAD_VALUES, "5m", "W5", "F1", "J1", "B9", "T1", "7z"])
    else:
        rec.pop(rng.choice(list(rec)))
    return rec


@pytest.mark.parametrize("seed", range(4))
def test_mutated_records_read_the_same_or_go_the_checked_way(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(2000):
        rec = _mutate(rng, rng.choice(RECORDS))
        got = plain_facts(rec)
        want = _checked(rec)
        if got is not None:
            assert want is not None, rec
            _same(got, want)
        if want is None:
            assert "error" in score_record(rec)


@pytest.mark.parametrize(
    ("packs", "hand", "win"),
    [
        ([], "11111m23456789p9s", "9s"),  # five standing
        ([], "1111111111111m", "1m"),  # fourteen of a kind
        ([["GANG", "1m", 1], ["GANG", "1m", 2], ["GANG", "1m", 3]], "1111m", "1m"),  # 17: would wrap 4 bits
        ([["PENG", "5p", 1], ["PENG", "5p", 2]], "123456789m", "9m"),  # two pungs of a kind
        ([["GANG", "5p", 0]], "55p123456789m", "9m"),  # kong and standing
        ([["CHI", "2s", 1], ["CHI", "2s", 2], ["CHI", "2s", 3]], "1112s55m", "5m"),  # chows and standing
        ([["CHI", "2s", 1], ["CHI", "2s", 2], ["CHI", "2s", 3], ["PENG", "1s", 1]], "1s", "1s"),
    ],
)
def test_too_many_copies_go_the_checked_way(packs: list[list[Any]], hand: str, win: str) -> None:
    rec = {"packs": packs, "hand": hand, "win_tile": win}
    assert plain_facts(rec) is None
    assert score_record(rec)["error"] == "invalid_input"
