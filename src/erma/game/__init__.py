"""The game (对局): a pure, deterministic two-player engine — phases, actions, events, views, records."""

from erma.game.actions import Action, Kind
from erma.game.engine import apply, apply_unchecked, events_for, legal_actions, new_hand, timeout_action
from erma.game.state import GameState, Phase

__all__ = [
    "Action",
    "GameState",
    "Kind",
    "Phase",
    "apply",
    "apply_unchecked",
    "events_for",
    "legal_actions",
    "new_hand",
    "timeout_action",
]
