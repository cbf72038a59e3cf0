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
