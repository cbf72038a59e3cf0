"""Bots (机器人) behind one small protocol: a seat view and the legal actions in, an action out, seeded.

>>> from erma.bots import make_bot
>>> make_bot("greedy", seed=1).name
'greedy'
"""

from erma.bots.base import Bot, BotView
from erma.bots.greedy import GreedyBot
from erma.bots.random_bot import RandomBot
from erma.bots.registry import bot_names, make_bot

__all__ = ["Bot", "BotView", "GreedyBot", "RandomBot", "bot_names", "make_bot"]
