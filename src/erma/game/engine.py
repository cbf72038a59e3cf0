"""The referee (裁判), one import for the engine's entry points.

The engine is split by concern: :mod:`~erma.game.start` (family, shuffle and dealer), :mod:`~erma.game.deal`
(the dealing helpers), :mod:`~erma.game.legal` (the single source of legality), :mod:`~erma.game.flow`
(applying actions), :mod:`~erma.game.assists` (搓牌's assist mechanics), :mod:`~erma.game.settle` (ending a
hand) and :mod:`~erma.game.events`; rule families plug in behind :class:`~erma.game.family.Family`
(:func:`family_for` finds a rule set's).
"""

from __future__ import annotations

from erma.game.events import events_for, replay_events
from erma.game.families import family_for
from erma.game.flow import apply, apply_unchecked
from erma.game.legal import legal_actions, offered_multiplier, timeout_action, waits_of
from erma.game.start import new_hand

__all__ = [
    "apply",
    "apply_unchecked",
    "events_for",
    "family_for",
    "legal_actions",
    "new_hand",
    "offered_multiplier",
    "replay_events",
    "timeout_action",
    "waits_of",
]
