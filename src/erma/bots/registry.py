"""The bots by name (机器人名册): one table from names to constructors.

>>> make_bot("greedy", seed=1).name
'greedy'
>>> make_bot("nobody")
Traceback (most recent call last):
...
erma.errors.UnknownBotError: unknown bot 'nobody'; bots are greedy, greedy-plain, random
"""

from __future__ import annotations

from collections.abc import Callable

from erma.bots.base import Bot
from erma.bots.greedy import GreedyBot
from erma.bots.random_bot import RandomBot
from erma.errors import UnknownBotError

BOTS: dict[str, Callable[[int | str], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "greedy-plain": lambda seed: GreedyBot(seed, value_sense=False),
}
"""Every bot by name. ``greedy-plain`` is greedy without the 温州 value sense (its baseline)."""


def bot_names() -> list[str]:
    """The bots :func:`make_bot` knows."""
    return sorted(BOTS)


def make_bot(name: str, seed: int | str = 0) -> Bot:
    """A bot by name, with its own seeded generator; an unknown name raises UnknownBotError."""
    make = BOTS.get(name)
    if make is None:
        raise UnknownBotError(f"unknown bot {name!r}; bots are {', '.join(bot_names())}")
    return make(seed)
