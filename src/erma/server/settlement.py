"""A hand's settlement (结算) at a table: the ledger's one terminal transaction (a win, a draw's refund, an
escape's or a seat gone's forfeit), the rated hand stored with it, the record, and the hand_end messages."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from erma.game.record import to_record
from erma.game.result import EndReason, HandResult
from erma.server.backend import match_log
from erma.server.rated import block_of, rated_hand

if TYPE_CHECKING:
    from erma.server.table import Table


def forfeit_of(table: Table, result: HandResult, gone: list[int]) -> tuple[int, int] | None:
    """(seat, points) of an escape or of a seat gone at the hand's end (forfeit: the family's escape
    penalty), or None."""
    if result.reason is EndReason.ESCAPE:
        assert result.escaper is not None
        return result.escaper, result.points
    if not gone:
        return None
    state = table.state
    assert state is not None
    points = state.family.escape_points(
        state.rules,
        dealer=state.dealer,
        escaper=gone[0],
        streak=state.streak,
        stakes=(state.stakes[0], state.stakes[1]),
    )
    return gone[0], points


def bean_changes(
    table: Table, result: HandResult, gone: list[int], balances: list[int], rate: int
) -> list[int]:
    """Each seat's bean change in this hand: what the ledger moved, a payer paying at most what it staked
    (from the holdings; a bot account's balance also moves with its other tables, so no balance
    difference is used when the holdings are known)."""
    held = table.held
    if held is None:  # taken over without the holdings: the balances tell it for one-table accounts
        return [after - before for after, before in zip(balances, table.balances_before, strict=True)]
    ids = [s.account_id for s in table.seats]
    out = [0, 0]
    forfeit = forfeit_of(table, result, gone)
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


async def settle(table: Table, end: dict[str, Any]) -> None:
    """The ledger's terminal transaction of the hand, its record, and the hand_end messages."""
    state = table.state
    assert state is not None and state.result is not None
    result = state.result
    rate = table.room.bean_rate
    ids = [s.account_id for s in table.seats]
    gone: list[int] = end["gone"]
    store = table.hub.store
    hand_no, size = table.match.hand_no, table.room.rated_hands
    block, index = block_of(table.id, hand_no, size)
    rules = table.room.rules
    last = index == size or bool(rules.match_hands and hand_no >= rules.match_hands)
    # stored in the same transaction; the block's last hand (or an escape) rates its match there too
    rated = rated_hand(rules.family, ids, result, gone, block=block, index=index, closes=last)
    forfeit = forfeit_of(table, result, gone)
    if forfeit is not None:
        escaper, points = forfeit
        done = await store.forfeit(table.unit, ids[escaper], points * rate, rated=rated)
        table.over = True
        op = "forfeit"
    elif result.reason is EndReason.WIN:
        done = await store.settle(table.unit, {ids[i]: result.deltas[i] * rate for i in (0, 1)}, rated=rated)
        op = "settle"
    else:
        done = await store.refund(table.unit, rated=rated)
        op = "refund"
    if done:
        table.hub.metrics["ledger_transactions"] += 1
    match_log("hand_end", table.id, unit=table.unit, op=op, written=done, reason=result.reason.value)
    balances = await store.balances(ids)
    table.balances_after = balances
    record = to_record(state, hand_no=table.match.hand_no)
    record.update(
        {
            "match": table.id,
            "room": table.room.id,
            "players": [s.name for s in table.seats],
            "digest": table.digest,
            "salt": table.salt,
            "bean_rate": rate,
            **deal_proof(table),
        }
    )
    summary = {
        "room": table.room.id,
        "rules": table.room.rules.name,
        "players": [s.name for s in table.seats],
        "reason": "forfeit" if gone else result.reason.value,
        "forfeited_by": table.seats[gone[0]].name if gone else None,
        "winner": result.winner,
        "points": result.points,
    }
    record_id = await store.save_record(table.unit, ids, record, summary)
    table.match.finish_hand()
    if gone:
        table.match.over = True
    table.over = table.over or table.match.over
    for seat, s in enumerate(table.seats):
        if s.is_bot:
            continue
        s.needs_view = False
        table.post(
            seat,
            {
                "type": "hand_end",
                "result": result.to_json(),
                "seed": state.seed,
                "salt": table.salt,
                "digest": table.digest,
                "record_id": record_id,
                "balances": balances,
                "beans": bean_changes(table, result, gone, balances, rate),
                "bean_rate": rate,
                "scores": table.match.scores,
                **deal_proof(table),
                "next_commitment": None if table.over else table.commitment(table.match.hand_no + 1),
            },
        )
    for seat in range(2):  # (the pause after one's last discard holds the hand_end too)
        table.release(seat)
    table.unit = ""


def deal_proof(table: Table) -> dict[str, Any]:
    """What shows that the hand's seed combined the server's committed part with both contributions."""
    if table.contributions is None:
        return {}
    n = table.match.hand_no
    return {
        "server_seed": table.server_part(n),
        "commitment": table.commitment(n),
        "contributions": list(table.contributions),
    }
