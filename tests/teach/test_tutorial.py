"""The tutorial's fixed walls: on each, the person following the moves meets the preset's phases and a
claim, and wins by pressing 和 (erma.teach.tutorial)."""

from __future__ import annotations

import pytest

from erma.teach.tutorial import PERSON, SECRETS, play, script


@pytest.mark.parametrize("preset", sorted(SECRETS))
def test_the_tutorial_hand_ends_in_the_persons_win(preset: str) -> None:
    s = script(preset)
    assert s["winner"] == PERSON and s["moves"][-1] == "win"
    assert any(
        m.split(" ")[0] in ("chow", "pung", "kong") or p == "claim"
        for m, p in zip(s["moves"], s["phases"], strict=True)
    )
    if preset == "cuopai789":
        assert "cuo" in s["phases"] and "exchange" in s["phases"]
        assert any(m.endswith(" riichi") for m in s["moves"])
    else:
        assert s["phases"][0] in ("maidi", "dingdi")


@pytest.mark.parametrize("preset", sorted(SECRETS))
def test_the_tutorial_hand_is_the_same_every_time(preset: str) -> None:
    a, b = play(preset, SECRETS[preset]), play(preset, SECRETS[preset])
    assert a.moves == b.moves and a.state.actions == b.state.actions
