"""Legality's shortcuts give what the plain definitions give: the waits of a hand (the changed group combined
once, :func:`erma.analysis.shapes.draws_below`) and the 报听 discards (the shanten after every discard in
one pass, then a scorable wait, settled by the fan floor where it reaches the minimum), checked over random
games of every preset against the definitions written out the slow way."""

from __future__ import annotations

import copy
import itertools
import random

import pytest

from erma.analysis import shapes
from erma.analysis.tables import INC
from erma.game import Phase, apply, legal_actions, new_hand
from erma.game.actions import Kind
from erma.game.families.standard import _scorable_wait
from erma.game.legal import triples, waits_of
from erma.game.state import GameState
from erma.game.win import check_win
from erma.rules import find_ruleset
from erma.rules.shapes import shape_mask
from erma.scoring.features import F_CONCEALED, F_SELF_DRAWN
from erma.scoring.floor import fan_floor
from erma.scoring.suits import kind_facts

PRESETS = ["cuopai789", "classic64", "wushuang128", "wenzhou2p"]


def slow_waits(state: GameState, seat: int, key: int, n: int) -> list[int]:
    """Every kind that completes the 3k+1 part by shape, less kinds whose copies it holds all of."""
    me = state.seats[seat]
    in_sets = [0] * 34
    for m in me.melds:
        for t in m.tiles:
            in_sets[t] += 1
    allowed = shape_mask(state.rules)
    return [
        t
        for t in state.rules.kinds
        if ((key >> (4 * t)) & 15) + in_sets[t] < state.rules.copies
        and shapes.overall(key + INC[t], n + 1, 0, allowed) == -1
    ]


def slow_riichi(state: GameState, seat: int) -> list[int]:
    """The kinds a 报听 discard may name: the discard leaves the hand ready and declared, some wait scores
    (tried on a copy of the state, one wait at a time)."""
    me = state.seats[seat]
    out = []
    for t in state.rules.kinds:
        if not me.counts[t]:
            continue
        trial = copy.deepcopy(state)
        mine = trial.seats[seat]
        mine.remove(t)
        mine.riichi = True
        for w in slow_waits(trial, seat, mine.key, mine.size):
            mine.add(w)
            found = check_win(trial, seat, w, "self") is not None
            mine.remove(w)
            if found:
                out.append(t)
                break
    return out


@pytest.mark.parametrize("preset", PRESETS)
def test_waits_and_riichi_discards_match_their_definitions(preset: str) -> None:
    rules = find_ruleset(preset)
    rng = random.Random(f"legal:{preset}")
    checked_waits = checked_riichi = 0
    for game in range(4):
        state = new_hand(rules, f"legal:{preset}:{game}")
        while state.phase is not Phase.END:
            for s in (0, 1):
                me = state.seats[s]
                if me.size % 3 == 1:
                    assert waits_of(state, s) == slow_waits(state, s, me.key, me.size)
                    checked_waits += 1
            seat = state.actor
            legal = legal_actions(state, seat)
            me = state.seats[seat]
            if state.phase is Phase.TURN and rules.declare_ready_enabled and not me.riichi:
                riichi = [a.tile for a in legal if a.kind is Kind.DISCARD and a.riichi]
                expected = slow_riichi(state, seat)
                plain = {a.tile for a in legal if a.kind is Kind.DISCARD and not a.riichi}
                assert riichi == [t for t in expected if t in plain], (riichi, expected)
                checked_riichi += bool(expected)
            apply(state, seat, rng.choice(legal))
    assert checked_waits > 40
    if rules.declare_ready_enabled:
        assert checked_riichi > 0


@pytest.mark.parametrize("preset", ["cuopai789", "classic64", "wushuang128"])
def test_a_discard_win_is_offered_as_its_definition_says(preset: str) -> None:
    """The claim window offers a win on the discard exactly when the hand with it is complete and scores (the
    window skips the shape check for a hand known not to be ready: standard.claim_options)."""
    rules = find_ruleset(preset)
    rng = random.Random(f"claims:{preset}")
    windows = wins = 0
    for game in range(300):
        if windows > 100 and wins >= 3:
            break
        state = new_hand(rules, f"claims:{preset}:{game}")
        while state.phase is not Phase.END:
            seat = state.actor
            legal = legal_actions(state, seat)
            tile = state.last_discard
            if state.phase is Phase.CLAIM and tile is not None:
                me = state.seats[seat]
                expected = (
                    not me.furiten
                    and shapes.overall(me.key + INC[tile], me.size + 1, 0, shape_mask(rules)) == -1
                    and check_win(state, seat, tile, "discard") is not None
                )
                assert (Kind.WIN in {a.kind for a in legal}) == expected
                windows += 1
                wins += expected
            apply(state, seat, rng.choice(legal))
    assert windows > 100 and wins >= 3


@pytest.mark.parametrize("preset", ["cuopai789", "classic64", "wushuang128"])
def test_a_scorable_wait_is_what_scoring_says(preset: str) -> None:
    """报听's scorable wait (standard._scorable_wait, which takes a wait whose fan floor reaches the minimum
    without scoring it) against the definition, every wait scored (:func:`check_win`), for every discard
    of many random hands; and no wait's win keeps fewer fans toward the minimum than its floor."""
    rules = find_ruleset(preset)
    rng = random.Random(f"scorable:{preset}")
    discards = ready = settled = 0
    for game in range(40):
        state = new_hand(rules, f"scorable:{preset}:{game}")
        while state.phase is not Phase.END:
            seat = state.actor
            legal = legal_actions(state, seat)
            me = state.seats[seat]
            if state.phase is Phase.TURN and me.size % 3 == 2 and not me.riichi:
                for t in [t for t in rules.kinds if me.counts[t]]:
                    trial = copy.deepcopy(state)
                    mine = trial.seats[seat]
                    mine.remove(t)
                    mine.riichi = True
                    held = sum(1 << k for k in {*mine.tiles(), *(k for m in mine.melds for k in m.tiles)})
                    situation = F_SELF_DRAWN if mine.melds else F_SELF_DRAWN | F_CONCEALED
                    expected = False
                    for w in slow_waits(trial, seat, mine.key, mine.size):
                        floor = fan_floor(rules.fan_table, kind_facts(held | 1 << w) | situation, True)
                        mine.add(w)
                        found = check_win(trial, seat, w, "self")
                        mine.remove(w)
                        if found is not None:
                            assert found.min_total >= floor, (t, w, floor, found.min_total)
                        else:
                            assert floor < rules.min_fan, (t, w, floor)
                        settled += floor >= rules.min_fan
                        expected = expected or found is not None
                    assert _scorable_wait(state, seat, t) == expected, (t, expected)
                    discards += 1
                    ready += expected
            apply(state, seat, rng.choice(legal))
    assert discards > 1000 and ready > 30 and settled > 30, (discards, ready, settled)


@pytest.mark.parametrize("copies", [4, 8])
def test_triples_are_the_distinct_sorted_combinations(copies: int) -> None:
    """The triplet offer's choices, made without repeats, are the sorted set of every three of the held
    tiles (each kind at most three times), in its order."""
    rng = random.Random(copies)
    kinds = tuple(range(34))
    for _ in range(400):
        counts = [0] * 42
        for t in rng.sample(kinds, rng.randint(0, 9)):
            counts[t] = rng.randint(1, copies)
        held = [t for t in kinds for _ in range(min(3, counts[t]))]
        assert triples(counts, kinds) == sorted(set(itertools.combinations(held, 3))), counts
    assert triples([0] * 42, kinds) == []
    three = [0] * 42
    three[5] = 3
    assert triples(three, kinds) == [(5, 5, 5)]
