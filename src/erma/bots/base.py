"""The bot protocol: a seat's typed view and the legal actions in, one action out, seeded.

Bots read :class:`~erma.game.seatview.SeatView` — everything their seat may know, built by
:func:`~erma.game.seatview.seat_view` — and nothing else of the game state.
"""

from __future__ import annotations

from typing import Protocol

from erma.game.actions import Action
from erma.game.seatview import SeatView

BotView = SeatView
"""The view bots decide from (the one typed seat view)."""


class Bot(Protocol):
    """Anything that picks one of the legal actions from a view."""

    name: str
    uses_view: bool
    """False for a bot that decides from the legal actions alone (its view may then be None)."""

    def choose(self, view: SeatView, legal: list[Action]) -> Action:
        """Pick one action of ``legal`` (never empty)."""
        ...
