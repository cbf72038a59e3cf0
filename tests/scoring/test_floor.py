"""The fan floor (erma.scoring.floor.fan_floor) never promises more than a win scores: on every reading
of the corpus, with every table, declared ready or not, the fans toward the minimum that the reading keeps
reach at least the floor of the hand's facts; and the facts the kinds decide (erma.scoring.suits.kind_facts)
are the hand's own."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from erma.scoring import plan_for, read_record, readings, score_view, table_names
from erma.scoring.features import (
    F_GREEN_ONLY,
    F_HONORS,
    F_NO_HONORS,
    F_ONE_SUIT,
    F_OUTSIDE_ONLY,
    F_RANKS_1_4,
    F_RANKS_4_6,
    F_RANKS_6_9,
    F_REVERSIBLE_ONLY,
    F_SELF_DRAWN,
    F_SIMPLES_ONLY,
    F_TERMINALS_ONLY,
    F_THREE_SUITS,
    F_TWO_SUITS,
    F_WINDS_DRAGONS,
)
from erma.scoring.floor import fan_floor
from erma.scoring.suits import kind_facts

CORPUS = Path(__file__).resolve().parent.parent / "data" / "mcr_corpus.jsonl"
RECORDS = [
    json.loads(line)["record"] for line in CORPUS.read_text(encoding="utf-8").splitlines() if line.strip()
]
KIND_BITS = (
    F_HONORS
    | F_NO_HONORS
    | F_ONE_SUIT
    | F_TWO_SUITS
    | F_THREE_SUITS
    | F_WINDS_DRAGONS
    | F_TERMINALS_ONLY
    | F_OUTSIDE_ONLY
    | F_SIMPLES_ONLY
    | F_GREEN_ONLY
    | F_REVERSIBLE_ONLY
    | F_RANKS_1_4
    | F_RANKS_4_6
    | F_RANKS_6_9
)
"""Every fact kind_facts may set."""


def test_kind_facts_are_the_hands() -> None:
    for record in RECORDS:
        facts, _ = readings(read_record(record))
        assert kind_facts(facts.mask) == facts.features & KIND_BITS, record


@pytest.mark.parametrize("table", table_names())
def test_no_reading_scores_below_the_floor(table: str) -> None:
    plan = plan_for(table)
    shapes = plan.table.shapes
    rows = plan.rows
    checked = reached = 0
    for record in RECORDS:
        ctx = read_record(record)
        for declared in (False, True):
            facts, views = readings(dataclasses.replace(ctx, declared_ready=declared))
            # the hand's facts, and fewer of them (what 报听's legality passes: the kinds' and self-drawn)
            floors = {
                fan_floor(table, facts.features, declared),
                fan_floor(table, kind_facts(facts.mask) | (facts.features & F_SELF_DRAWN), declared),
            }
            for view in views:
                if shapes is not None and view.shape not in shapes:
                    continue
                fans, _ = score_view(view, plan)
                counted = sum(
                    rows[k].value * (len(hits) if rows[k].per_instance and hits else 1)
                    for k, hits in fans.items()
                    if rows[k].counts_for_min
                )
                assert max(floors) <= counted, (record, declared, view.describe(), floors, counted)
                checked += 1
                reached += max(floors) > 0
    assert checked > 3000
    assert reached > 100  # the floor says something
