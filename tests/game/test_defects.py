"""Rule defects an independent checker found, each pinned by a fixed wall or a fixed record.

- 报听 is offered only on waits the room's fan table can score (not on a 组合龙 wait in ``cuopai13``).
- A stand-in for a person (auto-play) never declares 报听, accepts a triplet offer or takes 买底 / 顶底.
- 温州 lists 软牌 only for a soft win.
- ``flowers=true`` plays (a flower from the start exchange or a 海底 pick no longer crashes).
- Options that are not played, and keys of another family, are refused by name.
- ``classic64`` / ``wushuang128`` roll the first dealer by dice, shown in the view.
"""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from erma.bots import make_bot
from erma.errors import InvalidRecordError, RuleSetError
from erma.game import Action, Kind, Phase, apply, legal_actions, new_hand, seat_view
from erma.game.legal import stand_in_actions
from erma.game.record import replay, upgrade, verify
from erma.game.view import view_for
from erma.lab.selfplay import hand_seed, play_hand
from erma.rules import find_ruleset
from erma.rules.ruleset import _FIXED, FAMILY_KEYS

from .helpers import tile_multiset

LEGACY = Path(__file__).resolve().parent.parent / "data" / "legacy" / "cuopai789-knitted-riichi.json"


def test_riichi_is_not_offered_on_a_wait_the_table_cannot_score() -> None:
    """A format-1 record of the old engine: after discarding 7s the hand 369m147p2668s + (456p) waits on 5s
    only as 组合龙 (147p 258s 369m) + 66s, which ``cuopai13`` cannot score. The old engine offered 报听 and
    the locked hand threw its winning tiles away; now 7s may be discarded, but not with 报听."""
    record = json.loads(LEGACY.read_text(encoding="utf-8"))
    assert record["format"] == "erma.record/1" and record["actions"][24] == [0, "discard 7s riichi"]
    before = dict(upgrade(record), actions=record["actions"][:24], events=[], result=None)
    state = replay(before)
    legal = [a.to_str() for a in legal_actions(state, 0)]
    assert "discard 7s" in legal and "discard 7s riichi" not in legal
    with pytest.raises(InvalidRecordError, match="discard 7s riichi"):
        verify(record)


def test_riichi_is_offered_on_a_scorable_wait() -> None:
    rules = find_ruleset("cuopai789")
    for i in range(300):  # greedy declares whenever it may; some hands must still offer it
        state = play_hand(rules, hand_seed("riichi-ok", i), [make_bot("greedy", 1), make_bot("greedy", 2)])
        if state.riichi_order:
            return
    pytest.fail("no 报听 in 300 greedy hands")


def test_a_stand_in_never_takes_a_persons_choices() -> None:
    legal = [
        Action(Kind.DISCARD, 3),
        Action(Kind.DISCARD, 3, riichi=True),
        Action(Kind.DISCARD, 7, riichi=True),
        Action(Kind.ACCEPT, tiles=(1, 2, 3)),
        Action(Kind.MAIDI),
        Action(Kind.PASS),
        Action(Kind.WIN),
    ]
    allowed = stand_in_actions(legal)
    assert Action(Kind.WIN) in allowed and Action(Kind.PASS) in allowed
    assert not any(a.riichi or a.kind in (Kind.ACCEPT, Kind.MAIDI) for a in allowed)
    assert sorted(a.tile for a in allowed if a.kind is Kind.DISCARD) == [3, 7]  # 7s without 报听


def _wins(preset: str, n: int) -> list[dict[str, Any]]:
    rules = find_ruleset(preset)
    out = []
    for i in range(n):
        state = play_hand(rules, hand_seed("label", i), [make_bot("greedy", 1), make_bot("random", 2)])
        if state.result is not None and state.result.is_win:
            out.append(state.result.to_json())
    return out


def test_wenzhou_soft_label_matches_the_grade() -> None:
    wins = _wins("wenzhou2p", 120)
    grades = Counter(w["grade"] for w in wins)
    assert grades["soft"] and grades["hard"]  # both kinds met
    for w in wins:
        ids = [f["id"] for f in w["fans"]]
        assert ("soft" in ids) == (w["grade"] == "soft"), w
        assert max(f["points"] for f in w["fans"]) == w["multiplier"]


@pytest.mark.parametrize("preset", ["cuopai789", "classic64"])
def test_flowers_play(preset: str) -> None:
    rules = find_ruleset(preset, flowers=True)
    full = Counter(rules.tile_list())
    exchanged_flower = 0
    rng = random.Random(preset)
    for i in range(150):
        state = new_hand(rules, f"flowers:{i}")
        while state.phase is not Phase.END:
            apply(state, state.actor, rng.choice(legal_actions(state, state.actor)))
            assert tile_multiset(state) == full
        types = [e.type for e in state.events]
        exchanged_flower += any(a == "exchange" and b == "flower" for a, b in itertools.pairwise(types))
    if preset == "cuopai789":
        assert exchanged_flower  # the start exchange brought a flower and it was replaced


@pytest.mark.parametrize("key", sorted(_FIXED))
def test_options_not_played_are_refused(key: str) -> None:
    default = getattr(find_ruleset("cuopai789"), key)
    other: Any = {bool: lambda v: not v, str: lambda v: "other", int: lambda v: v + 1}.get(
        type(default), lambda v: 5.0
    )(default)
    with pytest.raises(RuleSetError, match=key):
        find_ruleset("cuopai789", {key: other})


def test_keys_of_another_family_and_bean_rate_are_refused() -> None:
    with pytest.raises(RuleSetError, match="caishen_mode belongs to the wenzhou family"):
        find_ruleset("classic64", caishen_mode="next")
    with pytest.raises(RuleSetError, match="fan_table belongs to the standard family"):
        find_ruleset("wenzhou2p", fan_table="mcr")
    with pytest.raises(RuleSetError, match="bean_rate is a room setting"):
        find_ruleset("classic64", bean_rate=3)
    assert FAMILY_KEYS["standard"].isdisjoint(FAMILY_KEYS["wenzhou"])
    assert find_ruleset("wenzhou2p", caishen_mode="next").caishen_mode == "next"


@pytest.mark.parametrize("preset", ["classic64", "wushuang128"])
def test_classic_first_dealer_by_dice(preset: str) -> None:
    rules = find_ruleset(preset)
    for i in range(20):
        seed = f"dice:{i}"
        state = new_hand(rules, seed)
        rng = random.Random(seed)
        d = (rng.randint(1, 6), rng.randint(1, 6))
        assert state.dealer_dice == d and state.dealer == (0 if sum(d) % 2 else 1)
        assert seat_view(state, 1).dealer_dice == d and view_for(state, 0)["dealer_dice"] == list(d)
    assert new_hand(rules, "x", dealer=1).dealer_dice == ()  # a given dealer rolls nothing
