"""Per-seat views on the wire (视角): :func:`view_for` is :func:`~erma.game.seatview.seat_view` as JSON.

Everything a view holds comes from the one typed :class:`~erma.game.seatview.SeatView`; this module only
adds the seat's events when asked.
"""

from __future__ import annotations

from typing import Any

from erma.game.events import events_for
from erma.game.seatview import seat_view
from erma.game.state import GameState


def view_for(state: GameState, seat: int, *, with_events: bool = False) -> dict[str, Any]:
    """Everything ``seat`` may see now, as plain JSON-ready data."""
    view = seat_view(state, seat).to_json()
    if with_events:
        view["events"] = events_for(state, seat)
    return view
