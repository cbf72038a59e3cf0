"""买底 / 顶底 (温州's stakes before the deal) weighed at the chances of winning a hand, as bots choose them.

With b (买底) and d (顶底) in {0, 1} (RULES §3.7), the dealer's win is worth B × M × (1 + m) with
m = 1 + b if d else b, the non-dealer's with m = 1 + b if d else 0. So 买底 adds one share to the dealer's
wins, and one to the non-dealer's too if 顶底 follows; 顶底 adds one share to the dealer's wins and 1 + b to
the non-dealer's. Each is taken when what it adds, weighed by the chances, is positive.
"""

from __future__ import annotations

from enum import Enum

from erma.bots.base import BotView
from erma.game.actions import PASS, Action, Kind
from erma.game.state import Phase

DEALER_WINS = 0.50
"""The dealer's chance of winning a hand (it holds one tile more; greedy self-play: about half)."""
OTHER_WINS = 0.46
"""The non-dealer's chance (the rest are 流局)."""
DINGDI_LIKELY = 0.5
"""How likely the dealer thinks 顶底 follows."""


class Stakes(Enum):
    """Which stakes a bot weighs (押注): none (always pass), only its own 买底 as dealer, or 买底 and the
    non-dealer's answer 顶底 too."""

    NONE = "none"
    RAISE = "raise"
    FULL = "full"


def stake_choice(view: BotView, legal: list[Action], stakes: Stakes = Stakes.FULL) -> Action:
    """买底 / 顶底 or pass, by the expected shares each adds (``Stakes.RAISE``: 顶底 is never weighed, so
    never taken; ``Stakes.NONE``: always pass)."""
    raise_ = [a for a in legal if a.kind in (Kind.MAIDI, Kind.DINGDI)]
    if not raise_ or stakes is Stakes.NONE:
        return PASS if PASS in legal else legal[0]
    if view.phase is Phase.MAIDI:
        gain = DEALER_WINS - DINGDI_LIKELY * OTHER_WINS
        return raise_[0] if gain > 0 else PASS
    if stakes is Stakes.RAISE:
        return PASS if PASS in legal else legal[0]
    shown = view.extras.get("stakes") or {}
    b = int(shown.get("maidi", 0) or 0)
    gain = OTHER_WINS * (1 + b) - DEALER_WINS
    return raise_[0] if gain > 0 else PASS
