"""Rule sets as data: presets, defaults, validated overrides."""

from __future__ import annotations

import pytest

from erma.errors import RuleSetError
from erma.rules import PRESETS, find_ruleset, preset_names


def test_presets() -> None:
    assert preset_names() == ["classic64", "cuopai789", "wenzhou2p", "wushuang128"]
    cuo = find_ruleset("cuopai789")
    assert (cuo.inplay_tiles, cuo.fan_table, cuo.fan_cap, cuo.min_fan, cuo.escape_points) == (
        71,
        "cuopai13",
        13,
        1,
        13,
    )
    assert len(cuo.tile_list()) == 136 and cuo.bonus_reveal_count == 1
    classic = find_ruleset("classic64")
    assert len(classic.tile_list()) == 64 and classic.min_fan == 8 and classic.fan_table == "erqs"
    ws = find_ruleset("wushuang128")
    assert len(ws.tile_list()) == 128 and ws.copies == 8 and ws.wushuang_kong_extension
    assert len(find_ruleset("classic64", flowers=True).tile_list()) == 72
    assert PRESETS["classic64"].overrides() == {}
    from erma.scoring.table import table_names

    assert {r.fan_table for r in PRESETS.values()} <= set(table_names())
    assert find_ruleset("classic64", min_fan=0).overrides() == {"min_fan": 0}


@pytest.mark.parametrize(
    ("overrides", "fragment"),
    [
        ({"nonsense": 1}, "unknown option 'nonsense'"),
        ({"min_fan": -1}, "min_fan must be an int ≥ 0"),
        ({"min_fan": True}, "min_fan must be an int"),
        ({"cuo_prob": 2}, "cuo_prob must be a number in 0.0–1.0"),
        ({"haidi_mode": "swim"}, "haidi_mode must be one of"),
        ({"flowers": "yes"}, "flowers must be true or false"),
        ({"seat_winds": [0]}, "seat_winds must be two winds"),
        ({"fan_table": "nope"}, "unknown fan table 'nope'"),
        ({"name": "x"}, "unknown option 'name'"),
    ],
)
def test_bad_overrides(overrides: dict[str, object], fragment: str) -> None:
    with pytest.raises(RuleSetError) as info:
        find_ruleset("cuopai789", overrides)
    assert fragment in str(info.value)
    assert "'cuopai789'" in str(info.value)


def test_unknown_preset() -> None:
    with pytest.raises(RuleSetError, match="unknown rule set 'mahjong'"):
        find_ruleset("mahjong")


def test_wenzhou_preset_and_keys() -> None:
    wz = find_ruleset("wenzhou2p")
    assert (wz.family, wz.hand_size, wz.first_dealer, wz.declare_ready_enabled) == (
        "wenzhou",
        16,
        "dice",
        False,
    )
    assert len(wz.tile_list()) == 136
    assert wz.base_by_streak == (10, 20, 30, 40) and wz.escape_penalty == (16, 8) and wz.reserve_tiles == 16
    assert PRESETS["wenzhou2p"].overrides() == {}
    changed = find_ruleset(
        "wenzhou2p", {"escape_penalty": {"dealer": 10, "other": 4}, "base_by_streak": [2, 4]}
    )
    assert changed.escape_penalty == (10, 4) and changed.overrides()["base_by_streak"] == [2, 4]
    assert find_ruleset("wenzhou2p", changed.overrides()) == changed  # overrides round-trip (records)
    for bad in ({"double_fan_set": ["nope"]}, {"base_by_streak": []}, {"follow_wind_payment": "yes"}):
        with pytest.raises(RuleSetError):
            find_ruleset("wenzhou2p", bad)
    # 跟风 has no two-player reading: the error says why (docs/engine.md)
    with pytest.raises(RuleSetError, match=r"follow_wind_payment=true has no two-player reading.*跟打"):
        find_ruleset("wenzhou2p", {"follow_wind_payment": True})
    # the other presets keep their behaviour: the §3 keys only act in the wenzhou family
    assert {PRESETS[n].family for n in ("cuopai789", "classic64", "wushuang128")} == {"standard"}
