"""Events (事件) as each seat may see them, and as a record stores them.

Every event is appended by the engine with :meth:`~erma.game.state.GameState.emit`; its public ``data`` goes
to both seats, its ``secret`` only to the seat it concerns, and a ``private`` event reaches no one else at
all (an offer the opponent must not notice).
"""

from __future__ import annotations

from typing import Any

from erma.game.state import Event, GameState


def events_for(state: GameState, seat: int | None, start: int = 0) -> list[dict[str, Any]]:
    """The events from ``start`` as ``seat`` may see them, each with its version ``v``."""
    out = []
    for i, e in enumerate(state.events[start:], start):
        seen = e.for_seat(seat)
        if seen is not None:
            seen["v"] = i
            out.append(seen)
    return out


def replay_events(events: list[Event]) -> list[dict[str, Any]]:
    """Full events as a record stores them."""
    out = []
    for e in events:
        full = e.for_seat(None)
        assert full is not None
        out.append(full)
    return out
