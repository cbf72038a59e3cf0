"""A hand the bots play, told event by event with each seat's hand just before and just after the action
that made the event (what a rules page pictures). The bots are the deterministic ``greedy`` bot, seeded by the
hand's seed; ``policy`` may answer some decisions instead (buy the base, pass a first win)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from erma.bots import make_bot
from erma.game import Action, Kind, Phase, apply_unchecked, legal_actions, new_hand, seat_view
from erma.game.state import GameState
from erma.game.view import view_for
from erma.rules import RuleSet

Policy = Callable[[GameState, int, list[Action]], Action | None]
"""A decision the example wants made its way (None: the bot decides)."""


@dataclass
class Told:
    """One event of a played hand with the hands around it."""

    event: dict[str, Any]
    before: list[str]
    after: list[str]
    step: int
    """The number of actions applied before the one that made the event."""


@dataclass
class Played:
    """A finished hand: its final state and its events, told."""

    state: GameState
    told: list[Told] = field(default_factory=list)


def _hands(state: GameState) -> list[str]:
    out = []
    for s in (0, 1):
        v = view_for(state, s)
        melds = "".join(v["melds"][s])
        out.append(melds + v["hand"])
    return out


def play(rules: RuleSet, seed: str, policy: Policy | None = None, stop: int | None = None) -> Played:
    """Play hand ``seed`` of ``rules`` with two greedy bots (``policy`` first); ``stop``: at most that many
    actions."""
    state = new_hand(rules, seed)
    bots = [make_bot("greedy", f"{seed}:0"), make_bot("greedy", f"{seed}:1")]
    played = Played(state)
    before = _hands(state)
    for e in state.events:
        played.told.append(Told(e.for_seat(None) or {}, before, before, 0))
    step = 0
    while state.phase is not Phase.END and (stop is None or step < stop):
        seat = state.actor
        legal = legal_actions(state, seat)
        action = policy(state, seat, legal) if policy else None
        if action is None:
            bot = bots[seat]
            action = bot.choose(seat_view(state, seat) if bot.uses_view else None, legal)  # type: ignore[arg-type]
        start = len(state.events)
        before = _hands(state)
        apply_unchecked(state, seat, action)
        after = _hands(state)
        for e in state.events[start:]:
            played.told.append(Told(e.for_seat(None) or {}, before, after, step))
        step += 1
    return played


def buy_stakes(state: GameState, seat: int, legal: list[Action]) -> Action | None:
    """买底 / 顶底: take the stake whenever offered."""
    for a in legal:
        if a.kind in (Kind.MAIDI, Kind.DINGDI):
            return a
    return None


def pass_first_win() -> Policy:
    """过水: a policy that passes the first win offered on a discard (and buys no stakes)."""
    passed: list[bool] = []

    def policy(state: GameState, seat: int, legal: list[Action]) -> Action | None:
        if not passed and state.phase is Phase.CLAIM and any(a.kind is Kind.WIN for a in legal):
            passed.append(True)
            return next(a for a in legal if a.kind is Kind.PASS)
        return None

    return policy
