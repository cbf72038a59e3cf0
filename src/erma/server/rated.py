"""What a hand's settlement tells the ratings (评分): the rule family, the seats' accounts and the outcome.

The table passes it to the store's terminal ledger call (``settle`` / ``forfeit`` / ``refund`` with
``rated=``), which rates the hand in the same database transaction (docs/ratings.md).
"""

from __future__ import annotations

from erma.game.result import EndReason, HandResult, WinHow
from erma.store.ratings import RatedHand


def rated_hand(family: str, accounts: list[int], result: HandResult, gone: list[int]) -> RatedHand:
    """The rated outcome of a finished hand: a win (its fan total, and whether the loser dealt in), an escape
    or a seat gone at the end (that seat loses), or a draw (counted; no rating moves)."""
    ids = (accounts[0], accounts[1])
    if result.reason is EndReason.ESCAPE:
        return RatedHand(family, ids, winner=None, escaper=result.escaper)
    if gone:
        return RatedHand(family, ids, winner=None, escaper=gone[0])
    if result.reason is EndReason.WIN:
        return RatedHand(
            family,
            ids,
            winner=result.winner,
            fans=result.fan_total,
            dealt_in=result.how in (WinHow.DISCARD, WinHow.ROB),
        )
    return RatedHand(family, ids, winner=None)
