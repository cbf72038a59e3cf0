"""The game (对局): a pure, deterministic two-player engine — phases, actions, events, views, records."""

from erma.game.actions import Action, Kind
from erma.game.engine import apply, apply_unchecked, events_for, legal_actions, new_hand, timeout_action
from erma.game.result import DrawSource, EndReason, FanEntry, Grade, HandResult, WinHow
from erma.game.seatview import SeatView, seat_view
from erma.game.state import Declaration, GameState, Phase

__all__ = [
    "Action",
    "Declaration",
    "DrawSource",
    "EndReason",
    "FanEntry",
    "GameState",
    "Grade",
    "HandResult",
    "Kind",
    "Phase",
    "SeatView",
    "WinHow",
    "apply",
    "apply_unchecked",
    "events_for",
    "legal_actions",
    "new_hand",
    "seat_view",
    "timeout_action",
]
