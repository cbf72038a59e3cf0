"""The bots by name (机器人名册): one table from names to constructors.

>>> make_bot("greedy", seed=1).name
'greedy'
>>> make_bot("level5").name
'level5'
>>> make_bot("nobody")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
erma.errors.UnknownBotError: unknown bot 'nobody'; bots are expert, greedy, ..., random
"""

from __future__ import annotations

from collections.abc import Callable

from erma.bots.base import Bot
from erma.bots.expert import ExpertBot
from erma.bots.greedy import GreedyBot
from erma.bots.novice import NoviceBot
from erma.bots.random_bot import RandomBot
from erma.bots.stakes import Stakes
from erma.errors import UnknownBotError

BOTS: dict[str, Callable[[int | str], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "greedy-plain": lambda seed: GreedyBot(seed, value_sense=False),
    "greedy-maidi": lambda seed: GreedyBot(seed, riichi=False, stakes=Stakes.RAISE),
    "expert": ExpertBot,
    "level1": NoviceBot,
    "level2": lambda seed: NoviceBot(seed, counts=True),
    "level3": lambda seed: GreedyBot(
        seed, value_sense=False, exchange=False, claim_within=0, kongs=False, closed=True
    ),
    "level4": GreedyBot,
    "level5": lambda seed: ExpertBot(seed, name="level5"),
    "nn": lambda seed: _nn(seed),
}
"""Every bot by name. ``greedy-plain`` is greedy without the 温州 value sense (its baseline);
``greedy-maidi`` is greedy without 报听 that buys 买底 as 温州 dealer (the level4 before the ladder of
2026-12-01 evening, kept for the older figures of docs/bots.md); ``level1`` … ``level5`` are the levels a
player picks (docs/bots.md): novice, novice counting, intermediate (greedy considering less: no kongs, a
closed hand where 报听 is allowed), greedy, expert."""


def bot_level(name: str) -> int | None:
    """The level (1–5) of a bot named ``levelN``, None for another bot.

    >>> bot_level("level5"), bot_level("greedy")
    (5, None)
    """
    return int(name[5:]) if name.startswith("level") and name[5:].isdigit() else None


def _nn(seed: int | str, weights: str | None = None) -> Bot:
    from pathlib import Path

    from erma.bots.nn.bot import WEIGHTS, NNBot  # numpy only when asked for

    path = WEIGHTS if weights is None else Path(weights)
    if not path.is_file():
        raise UnknownBotError(f"bot 'nn:{weights}': no weights file {str(path)!r}")
    return NNBot(seed, weights=path)


def bot_names() -> list[str]:
    """The bots :func:`make_bot` knows."""
    return sorted(BOTS)


def make_bot(name: str, seed: int | str = 0) -> Bot:
    """A bot by name, with its own seeded generator; an unknown name raises UnknownBotError. The bot's
    ``name`` is ``name`` (``make_bot("level3").name == "level3"``). ``nn:PATH`` is the ``nn`` bot with the
    weights in the file PATH (a network trained by scripts/train_nn.py or scripts/train_ppo.py)."""
    make = BOTS.get(name)
    if name.startswith("nn:"):  # the nn bot with other weights: ``nn:PATH.npz`` (scripts/train_ppo.py)
        bot = _nn(seed, name[3:])
    elif make is None:
        raise UnknownBotError(f"unknown bot {name!r}; bots are {', '.join(bot_names())}")
    else:
        bot = make(seed)
    bot.name = name  # the key it was made by (a worker process makes it again by this name)
    return bot
