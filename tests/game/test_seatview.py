"""The seat view is a value: its constructor (written out, native when compiled) takes every field in order,
so copies, pickles and ``dataclasses.replace`` rebuild it field for field, and two views of the same state
are equal."""

from __future__ import annotations

import copy
import dataclasses
import pickle

from erma.game import apply, legal_actions, new_hand, seat_view
from erma.game.seatview import SeatView
from erma.rules import find_ruleset


def test_the_view_rebuilds_field_for_field() -> None:
    state = new_hand(find_ruleset("classic64"), "view-value")
    for _ in range(6):
        seat = state.actor
        apply(state, seat, legal_actions(state, seat)[-1])
    for seat in (0, 1):
        view = seat_view(state, seat)
        names = [f.name for f in dataclasses.fields(SeatView)]
        assert SeatView(*(getattr(view, n) for n in names)) == view
        assert copy.copy(view) == view and pickle.loads(pickle.dumps(view)) == view
        assert seat_view(state, seat) == view
        later = dataclasses.replace(view, wall_left=view.wall_left - 1)
        assert later.wall_left == view.wall_left - 1 and later != view
        assert all(getattr(later, n) == getattr(view, n) for n in names if n != "wall_left")


def test_the_view_says_where_each_seat_declared() -> None:
    """报听 is public: each seat's view carries the declaring discard's place in the river, the other river's
    length then, and whether the declaring discard is still there (``decl-1``: seat 0 declares with its third
    discard, 4m, and seat 1 pungs it)."""
    from erma.bots import make_bot
    from erma.game import Declaration, Phase
    from erma.game.engine import apply_unchecked

    rules = find_ruleset("classic64")
    claimed = 0
    for seed in ("decl-0", "decl-1", "decl-2"):
        state = new_hand(rules, seed, 0)
        bots = [make_bot("greedy", f"{seed}:0"), make_bot("greedy", f"{seed}:1")]
        while state.phase is not Phase.END:
            seat = state.actor
            legal = legal_actions(state, seat)
            before = [list(s.discards) for s in state.seats]
            was = [s.declaration for s in state.seats]
            action = bots[seat].choose(seat_view(state, seat, legal), legal)
            apply_unchecked(state, seat, action)
            for viewer in (0, 1):
                got = seat_view(state, viewer).declarations
                if action.riichi:  # this discard declared: both seats see where
                    where = Declaration(len(before[seat]), action.tile, True, len(before[1 - seat]))
                    assert got[seat] == where
                    wire = seat_view(state, viewer).to_json()["riichi_at"]  # the client turns it sideways
                    assert wire[seat] == len(before[seat])
                    assert state.seats[seat].discards[wire[seat]] == action.tile
            for s in (0, 1):
                d, w = state.seats[s].declaration, was[s]
                if w is not None and w.kept and d is not None and not d.kept:  # its declaring discard claimed
                    claimed += seed == "decl-1"
                    assert d == w._replace(kept=False)
                    assert len(state.seats[s].discards) == len(before[s]) - 1 == d.before
                    if state.phase is not Phase.END:
                        assert d.tile in state.seats[1 - s].melds[-1].tiles  # the claimed set holds it
                    assert seat_view(state, 1 - s).to_json()["riichi_at"][s] is None  # no tile to turn
                else:
                    assert d == w or (w is None and action.riichi and seat == s)
        assert state.seats[0].declaration is None or state.seats[0].riichi
    assert claimed >= 1
