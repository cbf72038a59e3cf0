"""The concealed hand after claiming a discard (吃碰杠后的手牌)."""

from __future__ import annotations

from erma.analysis.tables import INC
from erma.bots.base import BotView
from erma.game.actions import Action, Kind
from erma.hand import Meld, MeldKind


def claimed_hand(view: BotView, a: Action, p: int) -> tuple[int, int, Meld] | None:
    """After claiming the discard's kind ``p`` with ``a`` (吃 chow, 碰 pung, 明杠 exposed kong): the concealed
    hand's key and size and the new set; None for another kind of action."""
    if a.kind is Kind.PUNG:
        return view.key - INC[p] * 2, view.size - 2, Meld(MeldKind.PUNG, p, claimed=p)
    if a.kind is Kind.CHOW:
        k, n = view.key, view.size
        for x in (a.tile, a.tile + 1, a.tile + 2):
            if x != p:
                k -= INC[x]
                n -= 1
        return k, n, Meld(MeldKind.CHOW, a.tile, claimed=p)
    if a.kind is Kind.KONG:
        return view.key - INC[p] * 3, view.size - 3, Meld(MeldKind.EXPOSED_KONG, p, claimed=p)
    return None
