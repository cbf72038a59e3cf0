"""The concealed hand after claiming a discard (吃碰杠后的手牌): one reckoning for greedy's claims, the
expert's and the review's."""

from __future__ import annotations

from erma.analysis.tables import INC
from erma.bots.base import BotView
from erma.game.actions import Action, Kind
from erma.hand import Meld, MeldKind


def claimed_key(view: BotView, a: Action, p: int) -> tuple[int, int] | None:
    """After claiming the discard's kind ``p`` with ``a`` (吃 chow, 碰 pung, 明杠 exposed kong): the concealed
    hand's key and size; None for another kind of action."""
    if a.kind is Kind.PUNG:
        return view.key - INC[p] * 2, view.size - 2
    if a.kind is Kind.CHOW:
        k, n = view.key, view.size
        for x in (a.tile, a.tile + 1, a.tile + 2):
            if x != p:
                k -= INC[x]
                n -= 1
        return k, n
    if a.kind is Kind.KONG:
        return view.key - INC[p] * 3, view.size - 3
    return None


def claimed_hand(view: BotView, a: Action, p: int) -> tuple[int, int, Meld] | None:
    """:func:`claimed_key` and the new set."""
    claimed = claimed_key(view, a, p)
    if claimed is None:
        return None
    k, n = claimed
    if a.kind is Kind.PUNG:
        return k, n, Meld(MeldKind.PUNG, p, claimed=p)
    if a.kind is Kind.CHOW:
        return k, n, Meld(MeldKind.CHOW, a.tile, claimed=p)
    return k, n, Meld(MeldKind.EXPOSED_KONG, p, claimed=p)
