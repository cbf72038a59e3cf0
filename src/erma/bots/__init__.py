"""Bots (机器人) behind one small protocol: a view and the legal actions in, an action out, seeded.

>>> from erma.bots import make_bot
>>> make_bot("greedy", seed=1).name
'greedy'
"""

from erma.bots.base import Bot, BotView, bot_names, make_bot, view_of
from erma.bots.greedy import GreedyBot
from erma.bots.random_bot import RandomBot

__all__ = ["Bot", "BotView", "GreedyBot", "RandomBot", "bot_names", "make_bot", "view_of"]
