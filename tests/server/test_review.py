"""erma.server.review: a hand re-played by the engine step by step; rules pages from the fan tables."""

from __future__ import annotations

import pytest

from erma.bots import make_bot
from erma.errors import InvalidRecordError
from erma.game.record import replay, to_record
from erma.lab.selfplay import hand_seed, play_hand
from erma.rules import find_ruleset
from erma.rules.ruleset import PRESETS
from erma.scoring.table import load_table
from erma.server.review import replay_steps, rules_page
from erma.tiles import tile_to_mpsz, to_mpsz


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_replay_steps_follow_the_record(name: str) -> None:
    rules = find_ruleset(name)
    state = play_hand(rules, hand_seed(7, 1), [make_bot("greedy", seed=1), make_bot("random", seed=2)])
    record = to_record(state)
    for seat in (0, 1):
        steps = replay_steps(record, seat)
        assert len(steps) == len(record["actions"]) + 1
        assert steps[0]["action"] is None and steps[0]["events"][0]["type"] in ("deal", "stakes")
        for k, step in enumerate(steps):
            if k:
                assert step["action"] == record["actions"][k - 1]
            assert step["view"]["seat"] == seat and step["view"]["legal"] == []
            # the record re-played to this step (erma.game.record.replay on its first k actions)
            part = replay({**record, "actions": record["actions"][:k]})
            assert step["hands"] == [to_mpsz(s.tiles()) for s in part.seats]
            assert step["view"]["hand"] == to_mpsz(part.seats[seat].tiles())
            assert step["view"]["discards"] == [[tile_to_mpsz(t) for t in s.discards] for s in part.seats]
        assert steps[-1]["view"]["phase"] == "end"
        # a seat's step never shows the opponent's drawn tile
        events = [e for s in steps for e in s["events"]]
        opp_draws = [e for e in events if e["type"] == "draw" and e.get("seat") == 1 - seat]
        assert opp_draws and all("tile" not in e for e in opp_draws)


def test_a_record_that_does_not_replay_is_refused() -> None:
    bots = [make_bot("greedy", seed=1), make_bot("greedy", seed=2)]
    state = play_hand(find_ruleset("classic64"), "x", bots)
    record = to_record(state)
    with pytest.raises(InvalidRecordError):
        replay_steps({**record, "actions": [[0, "discard 9z"]]}, 0)
    with pytest.raises(InvalidRecordError):
        replay_steps({**record, "format": "other"}, 0)


@pytest.mark.parametrize("name", ["cuopai789", "classic64", "wushuang128"])
def test_rules_page_lists_the_fan_table(name: str) -> None:
    page = rules_page(name)
    table = load_table(PRESETS[name].fan_table)
    assert [(f["id"], f["points"]) for f in page["fans"]] == [(r.id, r.value) for r in table.rows]
    assert page["copies"] == PRESETS[name].copies and len(page["kinds"]) == len(PRESETS[name].kinds)


def test_wenzhou_rules_page_lists_the_multipliers() -> None:
    page = rules_page("wenzhou2p")
    mult = {r["id"]: r["points"] for r in page["multipliers"]}
    assert mult["soft"] == 1 and mult["self_drawn"] == 2 and mult["tianhu"] == 4
    with pytest.raises(KeyError):
        rules_page("nope")
