"""Rebuilding a table (恢复) from its match's essentials, its log and its seats' streams: a takeover by
another process replays every hand's actions with the deterministic engine and carries on from where the log
ends."""

from __future__ import annotations

from typing import Any

from erma.bots import make_bot
from erma.game import apply
from erma.game.actions import Action
from erma.game.state import GameState
from erma.server.commitment import deal_digest
from erma.server.config import Room
from erma.server.ports import TableHost
from erma.server.seats import SeatInfo, events_sent, global_index, hand_end_posted
from erma.server.table import Table


def restore_table(
    host: TableHost,
    match_id: str,
    room: Room,
    meta: dict[str, Any],
    entries: list[dict[str, Any]],
    seat_logs: list[list[dict[str, Any]]],
) -> Table:
    """Rebuild a table from its essentials, its log and its seats' streams (a takeover): replay every
    hand's actions with the engine (deterministic), and carry on from where the log ends."""
    seats = []
    for x in meta["seats"]:
        bot = make_bot(x.get("level") or "greedy", match_id) if x["bot"] else None
        seats.append(SeatInfo(account_id=x["account"], name=x["name"], bot=bot))
    table = Table(host, match_id, room, seats, secret=meta["secret"])
    for seat, s in enumerate(seats):
        s.log = list(seat_logs[seat])
    state: GameState | None = None
    pending: dict[str, Any] | None = None  # a logged decision maybe not yet settled
    ended = False

    def settled() -> None:
        nonlocal pending
        if pending is not None:
            table.match.finish_hand()
            if pending["gone"]:
                table.match.over = True
            pending = None

    for e in entries:
        kind = e["t"]
        if kind == "hand":
            settled()
            state = table.match.next_hand(e.get("c"))
            table.contributions = e.get("c")
            table.salt = e["salt"]
            table.digest = deal_digest(table.salt, state.seed)
            table.unit = f"{match_id}:{table.match.hand_no}"
            table.balances_before = list(e["bb"])
            for s in seats:
                s.confirmed = False
            ended = False
        elif kind == "act":
            assert state is not None
            apply(state, e["s"], Action.parse(e["a"]))
            if e.get("q") is not None:
                seats[e["s"]].last_seq = max(seats[e["s"]].last_seq, e["q"])
        elif kind == "end":
            pending, ended = e, True
        elif kind == "next":
            settled()
            seats[e["s"]].confirmed = True
            seats[e["s"]].entropy = e.get("e")
        elif kind == "leave":
            settled()
            seats[e["s"]].left = True
    if pending is not None and hand_end_posted(seats):
        settled()
    table.entries = list(entries)
    if state is not None:
        state.legal_memo = {}
    table.state = state
    if state is None:
        table.resume = None
    elif pending is not None:
        table.resume, table.pending_end = "settle", pending
    elif not ended:
        table.resume = "mid"  # (a hand whose last action ended it goes on to its settlement decision)
    else:
        table.resume = "between"
        table.over = table.match.over or any(s.left for s in seats)
        table.unit = ""
    for seat, s in enumerate(seats):
        s.event_no = events_sent(s.log)
        s.sent_events = global_index(state, seat, s.event_no) if state is not None else 0
    return table
