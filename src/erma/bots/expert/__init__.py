"""The expert bot (高手): every choice by one estimate of the hand's value to come, from the seat view alone.

The estimate (:class:`Estimator`, :mod:`~erma.bots.expert.estimate`) is a race between two seats over the
draws that are left: each of our draws moves the hand one step closer (a shanten level) with the chance the
unseen copies give, a ready hand wins on a draw or on the opponent's discard, and every opponent turn ends the
hand against us with a hazard that grows with the chance the opponent is ready (报听 seen, or the measured
share of ready hands after as many discards, :mod:`erma.bots.priors`). A win is worth its points — each
winning tile of a ready hand scored with the room's own fan table (standard family: :func:`erma.scoring.score`
on the imagined completion, with the minimum and the cap; 温州: the multiplier 软 ×1 / 硬 ×2 / 双翻 ×4 of
:func:`erma.bots.greedy.wz_wait`) — and the opponent's win costs its mean. One shanten from ready, the
estimate looks one draw further (``depth=2``): every drawn tile that makes the hand ready, the best
discard then, and that ready hand's scored waits (exact expectimax over the kinds of the next draw); such a
hand, and one a claim makes ready, may still declare 报听 on a later discard (``Settings.declare_ahead``).
level5 looks two draws ahead (``depth=3``, the standard family): a hand two from ready is valued by every
drawn tile that brings it one from ready, the best discard then, and that hand's own lookahead. A discard
that leaves the hand one from ready also counts the draws that widen it without bringing it closer (改良,
``Settings.widen``): the better, horizon by horizon, of swapping for the widest such hand and keeping. Further
from ready, rates: the level's own unseen useful tiles, typical rates below it and a share of
the mean win (:data:`TYPICAL_SLOPE`, :data:`TYPICAL_VALUE`, fitted to the exact lookahead).

A discard is also weighed by the chance it deals in (点炮, :mod:`~erma.bots.expert.opponent`): the chance the
opponent is ready times the chance the tile is among its waits (the unseen shapes that wait on it; nothing
after the opponent's 报听 passed it by). Claims, kongs, 报听, the triplet offer, 搓牌 and the start exchange
(:mod:`~erma.bots.expert.exchange`) compare the estimate of each outcome; 买底 / 顶底 weigh what each raise
adds against what it costs at even chances; 温州 takes a win now when it is worth more than the estimate of
going on. The 海底 pick is blind (random).

With ``Settings.base`` (level5, the default, :mod:`~erma.bots.expert.settings`) the bot
(:class:`ExpertBot`, :mod:`~erma.bots.expert.policy`) plays greedy's choice without 报听 (``greedy-maidi``'s,
the level4 before 2026-12-01 evening, with both stakes) and the estimate overrides it only where that
measured better in the arena: the discards that leave the hand ready, one or two from ready
(``Settings.ahead``; 温州: one or two from ready), every discard after the opponent's 报听, 报听 itself,
the triplet offer and (outside 温州) claims.

The bot reads only :class:`~erma.game.seatview.SeatView`; its random generators break exact ties.
"""

from erma.bots.expert.estimate import Estimator
from erma.bots.expert.exchange import exchange_pick
from erma.bots.expert.opponent import RON_SHARE
from erma.bots.expert.policy import ExpertBot
from erma.bots.expert.settings import TYPICAL_SLOPE, TYPICAL_VALUE, WZ_DEPTH, Settings

__all__ = [
    "RON_SHARE",
    "TYPICAL_SLOPE",
    "TYPICAL_VALUE",
    "WZ_DEPTH",
    "Estimator",
    "ExpertBot",
    "Settings",
    "exchange_pick",
]
