"""The bot protocol and the compact per-seat view bots decide from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from erma.game import wenzhou as wz
from erma.game.actions import Action
from erma.game.engine import offered_multiplier
from erma.game.state import GameState, Phase
from erma.hand import Meld
from erma.rules import RuleSet


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
    caishen: int | None = None
    """温州: the 财神 kind. Then ``counts`` and ``key`` are the hand *as played* (财神 left out, 白板 as the
    财神's kind) and ``jokers`` is the number of 财神 held; ``size`` counts them."""
    jokers: int = 0
    four_as_two: bool = False
    """温州 ``four_of_kind_counts_as_two_pairs`` (for 八对)."""
    win_multiplier: int = 0
    """温州: the multiplier (1 软, 2 硬, 4 双翻) of the win this seat could declare now, 0 if none."""
    rules: RuleSet | None = None
    """The rule set (public; 温州 bots classify their possible wins with it)."""

    def unseen(self, tile: int) -> int:
        """Copies of a (physical) kind this seat has not seen (the most that can still come)."""
        return max(0, self.copies - self.visible[tile])

    def play(self, tile: int) -> int:
        """How a physical tile plays (温州: −1 for a 财神, 白板 as the 财神's kind); itself otherwise."""
        return tile if self.caishen is None else wz.play_kind(tile, self.caishen)


def view_of(state: GameState, seat: int) -> BotView:
    """The bot's view of ``seat`` (no hidden information of the opponent, the wall or the reserve)."""
    me = state.seats[seat]
    opp = state.seats[1 - seat]
    visible = list(me.counts)
    for s in state.seats:
        for t in s.discards:
            visible[t] += 1
    cs = state.caishen
    open_opp = tuple(m for m in opp.melds if not m.is_concealed)
    for m in (*me.melds, *open_opp):
        for t in m.tiles:
            visible[t if cs is None else wz.phys_kind(t, cs)] += 1  # 温州: sets show 白板 for the 财神's kind
    for t in state.revealed:
        if t < 34:
            visible[t] += 1
    counts, key, jokers = tuple(me.counts), me.key, 0
    if state.caishen is not None:
        cs = state.caishen
        key, jokers = wz.play_key(me.counts, cs)
        counts = tuple((key >> (4 * t)) & 15 for t in range(34))
    return BotView(
        seat=seat,
        phase=state.phase,
        counts=counts,
        key=key,
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
        caishen=state.caishen,
        jokers=jokers,
        four_as_two=state.rules.four_of_kind_counts_as_two_pairs,
        win_multiplier=offered_multiplier(state, seat),
        rules=state.rules,
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
    return ["greedy", "greedy-plain", "random"]


def make_bot(name: str, seed: int | str = 0) -> Bot:
    """A bot by name, with its own seeded generator."""
    from erma.bots.greedy import GreedyBot
    from erma.bots.random_bot import RandomBot
    from erma.errors import RuleSetError

    if name == "random":
        return RandomBot(seed)
    if name == "greedy":
        return GreedyBot(seed)
    if name == "greedy-plain":  # without the 温州 value sense: the baseline it is measured against
        return GreedyBot(seed, value_sense=False)
    raise RuleSetError(f"unknown bot {name!r}; bots are {', '.join(bot_names())}")
