"""Textbook agreement (牌效): on clear-cut early discards labelled without erma's analysis
(tests/data/textbook_discards.json, ``python -m scripts.textbook --write``), level5 and the coach's best move
play the textbook discard."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from scripts.textbook import MARGIN, OUT, clear_cut, discard_table

from erma.bots import make_bot
from erma.coach.review import level5_choice, review_decision
from erma.game.legal import legal_actions
from erma.game.record import replay
from erma.game.seatview import seat_view
from erma.tiles import to_mpsz

DATA = json.loads(Path(OUT).read_text(encoding="utf-8"))
CASES: list[dict[str, Any]] = DATA["cases"]
TARGET = 0.97


def _position(case: dict[str, Any]) -> tuple[Any, Any]:
    state = replay(case["record"])
    seat = case["seat"]
    return seat_view(state, seat), legal_actions(state, seat)


def test_the_set_is_large_and_spans_the_presets() -> None:
    assert DATA["margin"] == MARGIN >= 4
    assert len(CASES) >= 150
    assert {c["rules"] for c in CASES} == {"cuopai789", "classic64", "wushuang128"}


def test_the_labels_are_the_independent_counters() -> None:
    """Every case replays to the hand it names, and the counter (no erma analysis) gives its label."""
    for case in CASES[::5]:
        view, _ = _position(case)
        counts = list(view.counts[:34])
        assert to_mpsz([t for t in range(34) for _ in range(counts[t])]) == case["hand"]
        unseen = [max(0, view.rules.copies - view.visible[t]) for t in range(34)]
        found = clear_cut(discard_table(counts, unseen, view.kinds))
        assert found is not None and to_mpsz([found[0]]) == case["best"]
        assert found[1] - found[2] >= MARGIN


def _agreement(name: str) -> tuple[float, list[str]]:
    missed = []
    for i, case in enumerate(CASES):
        view, legal = _position(case)
        move = make_bot(name, f"textbook:{i}").choose(view, legal)
        if move.to_str() not in (f"discard {case['best']}", f"discard {case['best']} riichi"):
            missed.append(f"{case['rules']} {case['hand']}: {move.to_str()} (textbook {case['best']})")
    return 1 - len(missed) / len(CASES), missed


@pytest.mark.parametrize("name", ["level5", "greedy"])
def test_bots_play_the_textbook_discard(name: str) -> None:
    share, missed = _agreement(name)
    assert share >= TARGET, (share, missed)


def test_the_coach_best_is_level5s_and_textbook() -> None:
    """The review's best move (a few cases: a review samples the hidden tiles) is level5's, and textbook."""
    agree = 0
    picked = CASES[:: max(1, len(CASES) // 12)]
    for i, case in enumerate(picked):
        view, legal = _position(case)
        choice = level5_choice(view, legal, f"tb:{i}")
        r = review_decision(view, legal, choice, seed="tb", samples=2, step=i)
        assert r["best"] == choice.to_str() and not r["mistake"]
        agree += r["best"] == f"discard {case['best']}"
    assert agree >= TARGET * len(picked), (agree, len(picked))
