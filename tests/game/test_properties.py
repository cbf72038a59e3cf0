"""Properties of the engine over many seeded games of random play, for each preset.

Conservation at every step, legal actions never empty before the end, every game ends, no view changes when
what its seat cannot see is dealt again, and replay(record) reproduces the record.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from erma.game import Phase, apply, legal_actions, new_hand, seat_view
from erma.game.engine import events_for
from erma.game.record import to_record, verify
from erma.game.state import GameState
from erma.game.view import view_for
from erma.rules import find_ruleset
from erma.tiles import parse

from .helpers import play_random, tile_multiset

PRESETS = ["cuopai789", "classic64", "wushuang128", "wenzhou2p"]
# the assist mechanics are rare at their default odds; raise them so random games exercise them
BUSY = {"cuo_prob": 0.3, "triplet_offer_prob": 0.3}
PUBLIC_TILE_EVENTS = {
    "discard",
    "chow",
    "pung",
    "kong",
    "akong",
    "xkong",
    "flower",
    "win",
    "haidi_pick",
    "deal",
    "stakes",
    "maidi",
    "dingdi",
}


def rules_for(name: str, busy: bool = False):  # type: ignore[no-untyped-def]
    return find_ruleset(name, BUSY if busy and name == "cuopai789" else {})


def reshuffled(state: GameState, seat: int, rng: random.Random) -> GameState:
    """A copy of ``state`` that differs only in what ``seat`` cannot see: the opponent's concealed tiles, the
    hidden wall and the reserve, dealt again at random (sizes and every public tile kept)."""
    other = copy.deepcopy(state)
    opp = other.seats[1 - seat]
    hidden = [i for i in range(other.head, other.tail) if not other.wall_public[i]]
    pool = opp.tiles() + [other.wall[i] for i in hidden] + list(other.reserve)
    rng.shuffle(pool)
    n = opp.size
    opp.counts, opp.key, opp.size = [0] * 34, 0, 0
    flowers = [t for t in pool if t >= 34]
    pool = [t for t in pool if t < 34] + flowers  # the opponent holds no flower (they are set aside)
    for t in pool[:n]:
        opp.add(t)
    rest = pool[n:]
    rng.shuffle(rest)
    for i, t in zip(hidden, rest, strict=False):
        other.wall[i] = t
    other.reserve = rest[len(hidden) :]
    if other.actor != seat and other.drawn is not None:
        other.drawn = opp.tiles()[0]  # the opponent's own draw is theirs to know
    return other


def assert_views_hide(state: GameState, rng: random.Random) -> None:
    """What each seat sees does not change when what it cannot see is dealt again, and its wire form holds
    its own hand exactly; the opponent's secret event fields never reach it."""
    for seat in (0, 1):
        view = seat_view(state, seat)
        assert view == seat_view(reshuffled(state, seat, rng), seat)
        me = state.seats[seat]
        assert parse(view_for(state, seat)["hand"]) == me.tiles()
        assert view.opponent_hand_count == state.seats[1 - seat].size
        if state.phase is not Phase.END:
            assert view.result is None
            for m in view.meld_texts[1 - seat]:
                assert "?" in m or not m.startswith("[")  # the other seat's concealed kongs stay hidden
        for e in events_for(state, seat):
            if e.get("seat") == 1 - seat and e["type"] not in PUBLIC_TILE_EVENTS:
                hidden = {"tiles", "gave", "got", "kind", "kinds", "meld", "options"}
                assert not hidden & set(e), e
                if e["type"] == "draw":
                    assert "tile" not in e or state.events[e["v"]].data.get("tile") is not None, e


@pytest.mark.parametrize("name", PRESETS)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_conservation_and_views_every_step(name: str, data: st.DataObject) -> None:
    """Random play whose every choice hypothesis draws (a failure shrinks to a short action sequence)."""
    rules = rules_for(name, busy=True)
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    state = new_hand(rules, f"prop:{seed}")
    rng = random.Random(seed)
    full = Counter(rules.tile_list())
    steps = 0
    while state.phase is not Phase.END:
        legal = legal_actions(state, state.actor)
        assert legal
        assert not legal_actions(state, 1 - state.actor)  # one decision at a time
        apply(state, state.actor, data.draw(st.sampled_from(legal), label=f"step {steps}"))
        assert tile_multiset(state) == full
        if steps % 5 == 0:
            assert_views_hide(state, rng)
        steps += 1
    assert_views_hide(state, rng)
    assert state.result is not None and sum(state.result.deltas) == 0


@pytest.mark.parametrize("name", PRESETS)
def test_many_games_end_and_replay(name: str) -> None:
    rules = rules_for(name, busy=True)
    rng = random.Random(name)
    reasons: Counter[str] = Counter()
    for i in range(400):
        state = play_random(rules, f"bulk:{name}:{i}", rng, check=False)
        reasons[state.result.reason.value] += 1  # type: ignore[union-attr]
        if i % 8 == 0:
            record = json.loads(json.dumps(to_record(state)))
            assert verify(record) == []
    assert reasons["win"] > 0 and reasons["draw"] > 0


def test_illegal_action_changes_nothing() -> None:
    rules = find_ruleset("classic64")
    state = new_hand(rules, "illegal")
    before = (json.dumps(to_record(state)), state.rng.getstate())
    other = 1 - state.actor
    from erma.errors import IllegalActionError

    for seat, action in [
        (other, "discard 1m"),
        (state.actor, "pung"),
        (state.actor, "discard 1p"),
        (state.actor, "fly"),
        (2, "pass"),
        (state.actor, "pick 3"),
    ]:
        with pytest.raises(IllegalActionError) as info:
            apply(state, seat, action)
        assert (
            state.phase.value in str(info.value) or "seat" in str(info.value) or "unknown" in str(info.value)
        )
    assert (json.dumps(to_record(state)), state.rng.getstate()) == before
