"""What a hand's settlement tells the ratings (评分): the rule family, the seats' accounts, the outcome and
the rated match (block of hands) the hand belongs to.

The rated unit is a match (一场): a block of the room's ``rated_hands`` consecutive hands of a table, won by
the seat with more points over the block (docs/ratings.md). The table passes each hand's :class:`RatedHand`
to the store's terminal ledger call (``settle`` / ``forfeit`` / ``refund`` with ``rated=``); the hand that
ends its block rates the match in that same database transaction.
"""

from __future__ import annotations

from dataclasses import replace

from erma.game.result import EndReason, HandResult, WinHow
from erma.store.ratings import RatedHand


def block_of(match_id: str, hand_no: int, size: int) -> tuple[str, int]:
    """The rated match of hand ``hand_no`` (1-based) of a table, blocks of ``size`` hands: (its id, the
    hand's index in it, 1-based).

    >>> block_of("m1", 1, 8), block_of("m1", 8, 8), block_of("m1", 9, 8)
    (('m1:b1', 1), ('m1:b1', 8), ('m1:b2', 1))
    """
    return f"{match_id}:b{(hand_no - 1) // size + 1}", (hand_no - 1) % size + 1


def rated_hand(
    family: str,
    accounts: list[int],
    result: HandResult,
    gone: list[int],
    *,
    block: str = "",
    index: int = 1,
    closes: bool = True,
) -> RatedHand:
    """The rated outcome of a finished hand: a win (its fan total, and whether the loser dealt in), an escape
    or a seat gone at the end (that seat loses the match, which ends), or a draw; each seat's points (the
    match's outcome is their sum over the block). ``block`` / ``index``: the rated match and the hand's place
    in it; ``closes``: the hand ends the block (its last hand)."""
    ids = (accounts[0], accounts[1])
    if result.reason is EndReason.ESCAPE:
        hand = RatedHand(family, ids, winner=None, escaper=result.escaper)
    elif gone:
        hand = RatedHand(family, ids, winner=None, escaper=gone[0])
    elif result.reason is EndReason.WIN:
        hand = RatedHand(
            family,
            ids,
            winner=result.winner,
            fans=result.fan_total,
            dealt_in=result.how in (WinHow.DISCARD, WinHow.ROB),
        )
    else:
        hand = RatedHand(family, ids, winner=None)
    return replace(hand, points=result.deltas, block=block, index=index, closes=closes)
