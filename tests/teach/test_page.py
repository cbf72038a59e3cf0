"""A rules page lists every option its preset sets, with a label in both languages (web/rules-text.js), its
special phases shown on hands the engine played, and every fan with its points and example."""

from __future__ import annotations

import re
from importlib import resources

import pytest

from erma.rules.ruleset import PRESETS
from erma.teach.page import preset_options, rules_page
from erma.teach.phases import PHASES

TEXT = resources.files("erma").joinpath("web/rules-text.js").read_text(encoding="utf-8")


def _labels(lang: str) -> set[str]:
    block = TEXT.split(f"const {lang} = {{", 1)[1].split("\n};", 1)[0]
    return set(re.findall(r"^  (opt_\w+):", block, re.M))


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_the_page_lists_every_option_the_preset_sets(name: str) -> None:
    page = rules_page(name)
    own = preset_options(name)
    assert own, "every preset sets some option"
    for key, value in own.items():
        assert key in page["options"], key
        shown = page["options"][key]
        assert shown == value, (key, shown, value)
    assert page["preset_options"] == sorted(own)
    for lang in ("ZH", "EN"):
        missing = {f"opt_{k}" for k in page["options"]} - _labels(lang)
        assert not missing, f"{lang} has no label for {missing}"


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_the_page_shows_each_phase_on_a_played_hand(name: str) -> None:
    page = rules_page(name)
    assert list(page["phases"]) == [*PHASES[name], "escape"]
    assert page["phases"]["escape"]["result"]["reason"] == "escape"
    if name == "cuopai789":
        p = page["phases"]
        assert p["cuo"]["event"]["type"] == "cuo"
        assert p["exchange"]["event"]["count"] > 0
        assert p["triplet"]["event"]["type"] == "triplet_accept"
        assert p["riichi"]["event"]["riichi"] is True
        assert p["haidi"]["event"]["type"] == "haidi_pick" and p["haidi"]["event"]["wins"]
        assert any(f["id"] == "last_tile_draw" for f in p["haidi"]["result"]["fans"])  # 海底捞月
        assert any(f["id"] == "bonus_tiles" for f in p["bonus"]["result"]["fans"])
        assert p["escape"]["result"]["points"] == PRESETS[name].escape_points
        assert page["cap_example"]["total"] > 13 == page["cap_example"]["capped"]
    if name == "wenzhou2p":
        p = page["phases"]
        assert {p[g]["result"]["grade"] for g in ("grade_soft", "grade_hard", "grade_double")} == {
            "soft",
            "hard",
            "double",
        }
        assert p["maidi"]["result"]["maidi"] > 0
        assert p["guoshui"]["event"]["options"][0] == "win"


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_fan_or_multiplier_is_listed(name: str) -> None:
    page = rules_page(name)
    if "fans" in page:
        assert all(f["example"] and f["id"] in {x[0] for x in f["example"]["fans"]} for f in page["fans"])
    else:
        assert {m["id"] for m in page["multipliers"]} >= {"soft", "self_drawn", "hard_eight_pairs"}
