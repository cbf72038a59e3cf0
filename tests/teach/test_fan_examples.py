"""Every fan of each standard preset's table has a stored example hand, and the scorer scores that fan on
it (erma.teach.fan_examples; the rules pages show these hands)."""

from __future__ import annotations

import pytest

from erma.rules.ruleset import PRESETS
from erma.scoring import load_table, score_record
from erma.teach.fan_examples import CAP_KEY, STANDARD_PRESETS, stored


@pytest.mark.parametrize("preset", STANDARD_PRESETS)
def test_every_fan_has_an_example_that_scores_it(preset: str) -> None:
    table = PRESETS[preset].fan_table
    examples = stored()[preset]
    rows = load_table(table).rows
    assert {r.id for r in rows} <= set(examples), "a fan of the table has no example"
    for row in rows:
        got = score_record(examples[row.id], table)
        assert "error" not in got, (row.id, got)
        assert row.id in {f["id"] for f in got["fans"]}, (row.id, examples[row.id], got["fans"])
        if row.limit:  # a limit fan's example scores only limit fans
            limits = {r.id for r in rows if r.limit}
            assert {f["id"] for f in got["fans"]} <= limits


@pytest.mark.parametrize("preset", STANDARD_PRESETS)
def test_the_examples_keep_to_the_preset_tiles(preset: str) -> None:
    rules = PRESETS[preset]
    kinds = {t for t in rules.kinds}
    from erma.hand import Hand

    for fid, rec in stored()[preset].items():
        sets = "".join(f"({p[1]})" for p in rec["packs"])
        hand = Hand.parse(f"{rec['hand']}{rec['win_tile']}")
        assert set(hand.concealed) <= kinds, (fid, sets, rec["hand"])


def test_the_cap_example_goes_over_the_cap() -> None:
    rec = stored()["cuopai789"][CAP_KEY]
    got = score_record(rec, "cuopai13")
    assert got["total"] > 13 and got["capped_total"] == 13
    assert not any(r.limit for r in load_table("cuopai13").rows if r.id in {f["id"] for f in got["fans"]})
