"""The novice bots (新手, ``level1`` and ``level2``): play to the shape and take every win, but never claim,
kong, declare ready (报听) or take an offer.

- ``level1`` discards to the lowest shanten, ties at random (it does not count tiles).
- ``level2`` breaks those ties as greedy does: the most unseen useful tiles, then the least connected tile.
"""

from __future__ import annotations

import random

from erma.bots.base import BotView
from erma.bots.greedy import _isolation, _minus, _sh, _ukeire
from erma.game.actions import PASS, WIN, Action, Kind
from erma.game.families import wenzhou_wins as wz
from erma.game.state import Phase


class NoviceBot:
    """新手: lowest shanten after the discard (``counts``: then the most unseen useful tiles)."""

    uses_view = True

    def __init__(self, seed: int | str = 0, *, counts: bool = False) -> None:
        self.rng = random.Random(f"novice:{seed}")
        self.counts = counts
        self.name = "level2" if counts else "level1"

    def choose(self, view: BotView, legal: list[Action]) -> Action:
        """Win if possible; on its turn the discard of lowest shanten; otherwise decline."""
        if WIN in legal:
            return WIN
        if view.phase is Phase.TURN:
            discards = [a for a in legal if a.kind is Kind.DISCARD and not a.riichi]
            scored = []
            for a in discards:
                if view.play(a.tile) == wz.JOKER:
                    continue
                k, j = _minus(view, view.key, a.tile)
                s = _sh(view, k, view.size - 1, j)
                if self.counts:
                    rank = (
                        s,
                        -_ukeire(view, k, view.size - 1, s),
                        -_isolation(view, a.tile),
                        self.rng.random(),
                    )
                else:
                    rank = (s, 0, 0, self.rng.random())
                scored.append((rank, a))
            if scored:
                return min(scored, key=lambda x: x[0])[1]
            return discards[0] if discards else legal[0]
        if view.phase is Phase.EXCHANGE:
            return Action(Kind.EXCHANGE)
        if view.phase is Phase.HAIDI:
            return self.rng.choice(legal)
        return PASS if PASS in legal else legal[0]
