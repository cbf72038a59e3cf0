"""``score_counts`` and ``score_counts_declared`` (the bots' imagined wins) against ``score`` itself."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import pytest

from erma.scoring import WinContext, read_record, score, score_counts, table_names
from erma.scoring.pipeline import score_counts_declared

from .test_two_player import _random_win

CORPUS = Path(__file__).resolve().parent.parent / "data" / "mcr_corpus.jsonl"


def _contexts() -> list[WinContext]:
    """The golden corpus's wins (all three suits, flowers, kongs, special shapes) and random 万 + honours
    wins with 4 and 8 copies, without the 报听 flags."""
    out = []
    with CORPUS.open(encoding="utf-8") as f:
        for line in f:
            out.append(read_record(json.loads(line)["record"]))
    rng = random.Random(7)
    out += [read_record(_random_win(rng, copies)) for copies in (4, 8) for _ in range(400)]
    return [
        dataclasses.replace(c, declared_ready=False, declared_ready_first_turn=False, ready_one_shot=False)
        for c in out
    ]


CONTEXTS = _contexts()


def _counts_of(ctx: WinContext, table: str) -> tuple[tuple[tuple[str, int, int], ...], int] | None:
    result = score(ctx, table)
    if result is None:
        return None
    return tuple((f.id, f.points, f.count) for f in result.fans), result.capped_total


@pytest.mark.parametrize("table", table_names())
def test_counts_are_the_scored_fans(table: str) -> None:
    for ctx in CONTEXTS[::3]:
        assert score_counts(ctx, table) == _counts_of(ctx, table), ctx.to_notation()


@pytest.mark.parametrize("table", table_names())
def test_declared_as_if_scored_with_the_flag(table: str) -> None:
    """Whether made from the plain score (tables where 报听's fans only add) or scored again, both results
    equal :func:`score` of the context as it is and with ``declared_ready``, concealed or not."""
    declared_fans = 0
    for ctx in CONTEXTS:
        plain, declared = score_counts_declared(ctx, table)
        assert plain == _counts_of(ctx, table), ctx.to_notation()
        expected = _counts_of(dataclasses.replace(ctx, declared_ready=True), table)
        assert declared == expected, ctx.to_notation()
        if expected is not None and plain is not None:
            declared_fans += expected[1] != plain[1]
    if table in ("erqs", "cuopai13"):  # tables with 报听 fans: the comparison saw them added
        assert declared_fans > 100


def test_declared_flags_are_refused() -> None:
    ctx = dataclasses.replace(CONTEXTS[0], declared_ready=True)
    with pytest.raises(ValueError, match="报听"):
        score_counts_declared(ctx, "erqs")
