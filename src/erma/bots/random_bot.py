"""The random bot: any legal action, uniformly, from its own seeded generator."""

from __future__ import annotations

import random

from erma.bots.base import BotView
from erma.game.actions import Action
from erma.game.draws import choice


class RandomBot:
    """随机: picks uniformly among the legal actions."""

    name = "random"
    uses_view = False

    def __init__(self, seed: int | str = 0) -> None:
        self.rng = random.Random(f"random:{seed}")

    def choose(self, view: BotView | None, legal: list[Action]) -> Action:
        """Any legal action (``self.rng.choice(legal)``, drawn natively: :mod:`erma.game.draws`)."""
        return choice(self.rng, legal)
