"""The bot protocol and the compact per-seat view bots decide from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from erma.game.actions import Action
from erma.game.state import GameState, Phase
from erma.hand import Meld


@dataclass(frozen=True, slots=True)
class BotView:
    """What a seat knows, in the shape bots compute with (counts, not strings). Built by :func:`view_of`;
    holds nothing the seat may not see."""

    seat: int
    phase: Phase
    counts: tuple[int, ...]
    """Own concealed tiles by kind."""
    key: int
    """Own packed key (see erma.analysis.tables)."""
    size: int
    melds: tuple[Meld, ...]
    opponent_melds: tuple[Meld, ...]
    """The opponent's declared sets; concealed kongs appear only once the hand ends (their kind is hidden)."""
    visible: tuple[int, ...]
    """Copies of each kind this seat can see: own hand and sets, both rivers, the opponent's open sets,
    revealed bonus tiles."""
    copies: int
    kinds: tuple[int, ...]
    riichi: tuple[bool, bool]
    drawn: int | None
    last_discard: int | None
    offer: int | None
    wall_left: int
    dealer: int
    bonus_kinds: tuple[int, ...]

    def unseen(self, tile: int) -> int:
        """Copies of a kind this seat has not seen (the most that can still come)."""
        return max(0, self.copies - self.visible[tile])


def view_of(state: GameState, seat: int) -> BotView:
    """The bot's view of ``seat`` (no hidden information of the opponent, the wall or the reserve)."""
    me = state.seats[seat]
    opp = state.seats[1 - seat]
    visible = list(me.counts)
    for s in state.seats:
        for t in s.discards:
            visible[t] += 1
    for m in me.melds:
        for t in m.tiles:
            visible[t] += 1
    open_opp = tuple(m for m in opp.melds if not m.is_concealed)
    for m in open_opp:
        for t in m.tiles:
            visible[t] += 1
    for t in state.revealed:
        if t < 34:
            visible[t] += 1
    return BotView(
        seat=seat,
        phase=state.phase,
        counts=tuple(me.counts),
        key=me.key,
        size=me.size,
        melds=tuple(me.melds),
        opponent_melds=open_opp,
        visible=tuple(visible[:34]),
        copies=state.rules.copies,
        kinds=state.rules.kinds,
        riichi=(state.seats[0].riichi, state.seats[1].riichi),
        drawn=state.drawn if state.actor == seat else None,
        last_discard=state.last_discard,
        offer=state.offer if state.actor == seat else None,
        wall_left=state.wall_left,
        dealer=state.dealer,
        bonus_kinds=tuple(state.bonus_kinds),
    )


class Bot(Protocol):
    """Anything that picks one of the legal actions from a view."""

    name: str
    uses_view: bool
    """False for a bot that decides from the legal actions alone (its view may then be None)."""

    def choose(self, view: BotView, legal: list[Action]) -> Action:
        """Pick one action of ``legal`` (never empty)."""
        ...


def bot_names() -> list[str]:
    """The bots :func:`make_bot` knows."""
    return ["greedy", "random"]


def make_bot(name: str, seed: int | str = 0) -> Bot:
    """A bot by name, with its own seeded generator."""
    from erma.bots.greedy import GreedyBot
    from erma.bots.random_bot import RandomBot
    from erma.errors import RuleSetError

    if name == "random":
        return RandomBot(seed)
    if name == "greedy":
        return GreedyBot(seed)
    raise RuleSetError(f"unknown bot {name!r}; bots are {', '.join(bot_names())}")
