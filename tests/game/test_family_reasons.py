"""Family.multiplier_reasons: 温州's multiplier reasons for a rules page; none for fan-table presets."""

from __future__ import annotations

from erma.game.families import family_for
from erma.rules import RuleSet, find_ruleset


def multiplier_reasons(rules: RuleSet) -> list[dict[str, object]]:
    return family_for(rules).multiplier_reasons(rules)


def test_wenzhou_reasons_follow_the_options() -> None:
    rows = {r["id"]: r["points"] for r in multiplier_reasons(find_ruleset("wenzhou2p"))}
    assert rows["soft"] == 1 and rows["self_drawn"] == 2 and rows["dandiao"] == 4
    fewer = find_ruleset("wenzhou2p", {"double_fan_set": ["tianhu"]})
    rows = {r["id"]: r["points"] for r in multiplier_reasons(fewer)}
    assert rows["tianhu"] == 4 and rows["dandiao"] == 2


def test_fan_table_presets_have_none() -> None:
    assert multiplier_reasons(find_ruleset("classic64")) == []


def test_wenzhou_reasons_english_names_are_english() -> None:
    """An English name reads "Three wild tiles", never a Chinese term (it read "Three 财神")."""
    rows = multiplier_reasons(find_ruleset("wenzhou2p"))
    assert rows
    for r in rows:
        assert str(r["name_en"]).isascii(), r
    names = {r["id"]: r["name_en"] for r in rows}
    assert names["three_caishen"] == "Three wild tiles (with a shape)"
    assert names["no_substitute"] == "No wild tile standing in"
