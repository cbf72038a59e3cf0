"""A hand's settlement (结算) at a table: the ledger's one terminal transaction (a win, a draw's refund, an
escape's or a seat gone's forfeit), the rated hand stored with it, the record, and the hand_end message.

:func:`settle` is given what it needs of the table (:class:`HandAtEnd`) and returns what the table is to do
(:class:`Settled`): it never reaches into the table."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from erma.game.match import Match
from erma.game.record import to_record
from erma.game.result import EndReason, HandResult, WinHow
from erma.game.state import GameState
from erma.server.backends import match_log
from erma.server.commitment import commitment, deal_proof
from erma.server.config import Room
from erma.server.outbound import HandEnd
from erma.server.rated import block_of, rated_hand


@dataclass(frozen=True)
class HandAtEnd:
    """What a hand's settlement needs of its table."""

    match_id: str
    room: Room
    match: Match
    """The match (its hand finished here)."""
    state: GameState
    """The hand, ended."""
    players: list[str]
    """The seats' names."""
    accounts: list[int]
    """The seats' account ids."""
    unit: str
    """The ledger's unit of the hand."""
    held: dict[int, int] | None
    """What the ledger holds of each account for the hand (None: taken over without the holdings)."""
    balances_before: list[int]
    digest: str
    salt: str
    contributions: list[str] | None
    over: bool
    """Whether the table was already ending its match."""


@dataclass(frozen=True)
class Settled:
    """What a settlement leaves the table to do."""

    over: bool
    """Whether the match ends with this hand."""
    balances: list[int]
    """The balances after the settlement."""
    hand_end: HandEnd
    """The hand_end message for each person's seat."""


def forfeit_of(state: GameState, result: HandResult, gone: list[int]) -> tuple[int, int] | None:
    """(seat, points) of an escape or of a seat gone at the hand's end (forfeit: the family's escape
    penalty), or None."""
    if result.reason is EndReason.ESCAPE:
        assert result.escaper is not None
        return result.escaper, result.points
    if not gone:
        return None
    points = state.family.escape_points(
        state.rules,
        dealer=state.dealer,
        escaper=gone[0],
        streak=state.streak,
        stakes=(state.stakes[0], state.stakes[1]),
    )
    return gone[0], points


def bean_changes(
    hand: HandAtEnd, result: HandResult, gone: list[int], balances: list[int], rate: int
) -> list[int]:
    """Each seat's bean change in this hand: what the ledger moved, a payer paying at most what it staked
    (from the holdings; a bot account's balance also moves with its other tables, so no balance
    difference is used when the holdings are known)."""
    held = hand.held
    if held is None:  # taken over without the holdings: the balances tell it for one-table accounts
        return [after - before for after, before in zip(balances, hand.balances_before, strict=True)]
    ids = hand.accounts
    out = [0, 0]
    forfeit = forfeit_of(hand.state, result, gone)
    if forfeit is not None:
        payer, points = forfeit
        paid = min(points * rate, held.get(ids[payer], 0))
    elif result.reason is EndReason.WIN:
        assert result.loser is not None and result.winner is not None
        payer = result.loser
        paid = min(result.deltas[result.winner] * rate, held.get(ids[payer], 0))
    else:
        return out
    out[payer], out[1 - payer] = -paid, paid
    return out


def _how(result: HandResult, gone: list[int]) -> str:
    """How the hand ended as a player reads it (match_end's lines, the history): ``escape`` for an escape or a
    seat gone at the end (never a draw), ``draw``, else how the win came (``self_draw`` or ``discard``)."""
    if gone or result.reason is EndReason.ESCAPE:
        return "escape"
    if result.reason is not EndReason.WIN or result.how is None:
        return "draw"
    return "self_draw" if result.how in (WinHow.SELF, WinHow.HAIDI) else "discard"


async def settle(store: Any, metrics: Counter[str], hand: HandAtEnd, gone: list[int]) -> Settled:
    """The ledger's terminal transaction of the hand (``gone``: the seats gone at its end), its record, the
    match's hand finished, and the hand_end message."""
    state = hand.state
    assert state.result is not None
    result = state.result
    room, match = hand.room, hand.match
    rate = room.bean_rate
    ids = hand.accounts
    hand_no, size = match.hand_no, room.rated_hands
    block, index = block_of(hand.match_id, hand_no, size)
    rules = room.rules
    last = index == size or bool(rules.match_hands and hand_no >= rules.match_hands)
    # stored in the same transaction; the block's last hand (or an escape) rates its match there too
    rated = (
        rated_hand(rules.family, ids, result, gone, block=block, index=index, closes=last)
        if room.rated
        else None  # (a points-only friend table: no rating moves)
    )
    over = hand.over
    forfeit = forfeit_of(state, result, gone)
    if rate == 0:  # points only: no hold, no ledger transaction
        done, op = False, "none"
        over = over or forfeit is not None
    elif forfeit is not None:
        escaper, points = forfeit
        done = await store.forfeit(hand.unit, ids[escaper], points * rate, rated=rated)
        over = True
        op = "forfeit"
    elif result.reason is EndReason.WIN:
        done = await store.settle(hand.unit, {ids[i]: result.deltas[i] * rate for i in (0, 1)}, rated=rated)
        op = "settle"
    else:
        done = await store.refund(hand.unit, rated=rated)
        op = "refund"
    if done:
        metrics["ledger_transactions"] += 1
    match_log("hand_end", hand.match_id, unit=hand.unit, op=op, written=done, reason=result.reason.value)
    balances = await store.balances(ids)
    proof = deal_proof(match.secret, match.hand_no, hand.contributions)
    record = to_record(state, hand_no=match.hand_no)
    record.update(
        {
            "match": hand.match_id,
            "room": room.id,
            "players": list(hand.players),
            "digest": hand.digest,
            "salt": hand.salt,
            "bean_rate": rate,
            **proof,
        }
    )
    summary = {
        "room": room.id,
        "rules": rules.name,
        "players": list(hand.players),
        "reason": "forfeit" if gone else result.reason.value,
        "how": _how(result, gone),
        "forfeited_by": hand.players[gone[0]] if gone else None,
        "winner": result.winner,
        "points": result.points,
    }
    record_id = await store.save_record(hand.unit, ids, record, summary)
    match.finish_hand()
    if gone:
        match.over = True
    over = over or match.over
    hand_end = HandEnd(
        result=result,
        seed=state.seed,
        salt=hand.salt,
        digest=hand.digest,
        record_id=record_id,
        balances=balances,
        beans=bean_changes(hand, result, gone, balances, rate),
        bean_rate=rate,
        scores=match.scores,
        proof=deal_proof(match.secret, match.hand_no, hand.contributions),
        next_commitment=None if over else commitment(match.secret, match.hand_no + 1),
    )
    return Settled(over=over, balances=balances, hand_end=hand_end)
