"""买底 / 顶底 (温州's stakes before the deal) weighed at the chances of winning a hand, as bots choose them.

With b (买底) and d (顶底) in {0, 1} (RULES §3.7), the dealer's win is worth B × M × (1 + m) with
m = 1 + b if d else b, the non-dealer's with m = 1 + b if d else 0. So 买底 adds one share to the dealer's
wins, and one to the non-dealer's too if 顶底 follows; 顶底 adds one share to the dealer's wins and 1 + b to
the non-dealer's. Each is taken when what it adds, weighed by the chances, is positive.
"""

from __future__ import annotations

from erma.bots.base import BotView
from erma.game.actions import PASS, Action, Kind
from erma.game.state import Phase

DEALER_WINS = 0.50
"""The dealer's chance of winning a hand (it holds one tile more; greedy self-play: about half)."""
OTHER_WINS = 0.46
"""The non-dealer's chance (the rest are 流局)."""
DINGDI_LIKELY = 0.5
"""How likely the dealer thinks 顶底 follows."""


def stake_choice(view: BotView, legal: list[Action]) -> Action:
    """买底 / 顶底 or pass, by the expected shares each adds."""
    raise_ = [a for a in legal if a.kind in (Kind.MAIDI, Kind.DINGDI)]
    if not raise_:
        return PASS if PASS in legal else legal[0]
    if view.phase is Phase.MAIDI:
        gain = DEALER_WINS - DINGDI_LIKELY * OTHER_WINS
        return raise_[0] if gain > 0 else PASS
    stakes = view.extras.get("stakes") or {}
    b = int(stakes.get("maidi", 0) or 0)
    gain = OTHER_WINS * (1 + b) - DEALER_WINS
    return raise_[0] if gain > 0 else PASS
