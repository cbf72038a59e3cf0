"""score_view's memoised outcomes (erma.scoring.pipeline._outcome) agree with the steps as written:
exclude, the limit fans, the fallback and total, on every reading of the corpus, with every table."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from erma.scoring import detect, exclude, plan_for, score_view, table_names, total
from erma.scoring.pipeline import Fans, Plan
from erma.scoring.plain import plain_facts
from erma.scoring.readings import HandView, readings_of

CORPUS = Path(__file__).resolve().parent.parent / "data" / "mcr_corpus.jsonl"
RECORDS = [
    json.loads(line)["record"] for line in CORPUS.read_text(encoding="utf-8").splitlines() if line.strip()
]


def _as_written(view: HandView, plan: Plan) -> tuple[Fans, int]:
    fans = exclude(detect(view, plan), plan)
    if plan.limits and not plan.limits.isdisjoint(fans):
        fans = {k: v for k, v in fans.items() if k in plan.limits}
    if fans.keys() <= plan.no_min:
        for fan_id, fn in plan.fallbacks:
            fans[fan_id] = fn(view)
    return fans, total(fans, plan)


@pytest.mark.parametrize("table", table_names())
def test_memoised_outcomes_are_the_steps_as_written(table: str) -> None:
    plan = plan_for(table)
    seen = 0
    for record in RECORDS:
        facts = plain_facts(record)
        assert facts is not None
        for view in readings_of(facts):
            for _ in range(2):  # the first time computes the outcome, the second reads the memo
                fans, pts = score_view(view, plan)
                want, want_pts = _as_written(view, plan)
                assert pts == want_pts, (record, view.describe())
                assert fans == want, (record, view.describe())
                assert list(fans) == sorted(fans, key=plan.order.__getitem__)  # in table order
            seen += 1
    assert seen > 3000
    if table == "mcr":  # the corpus meets partial exclusions (幺九刻 under 三风刻, 圈风刻, …)
        assert any(v is None for v in plan.outcomes.values())
