"""A match's summary (终场结算): each hand's line, the beans the match moved, the rating change, the winner:
what ``match_end`` shows (:class:`erma.server.outbound.MatchEnd`). Read from the match's records and log
and from the store, so a table rebuilt by another process sums up the same match."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from erma.server.config import Room
from erma.server.friends import FRIEND_PREFIX
from erma.server.outbound import MatchEnd
from erma.server.pairing import DEFAULT_RATING
from erma.server.seats import SeatInfo

HOW = {"self": "self_draw", "haidi": "self_draw", "discard": "discard", "rob": "discard"}
"""A win's ``how`` as a line shows it: drawn by the winner (自摸, 海底) or paid by the opponent's tile (点和,
抢杠)."""


def hand_lines(records: Sequence[dict[str, Any]], entries: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """One line per finished hand: ``hand_no``, ``winner`` (a seat or None), ``how`` (``self_draw``,
    ``discard``, ``draw`` or ``escape``: an escape, or a seat gone at the hand's end, is never a draw) and the
    hand's ``points`` (what it added to the match score)."""
    gone = [e.get("gone") or [] for e in entries if e.get("t") == "end"]
    lines = []
    for i, record in enumerate(records):
        result = record.get("result") or {}
        deltas = list(result.get("deltas") or [0, 0])
        left = gone[i] if i < len(gone) else []
        winner: int | None
        if result.get("reason") == "escape":
            escaper = result.get("escaper")
            how, winner = "escape", None if escaper is None else 1 - int(escaper)
        elif left:
            how, winner = "escape", 1 - int(left[0])
        elif result.get("reason") == "win":
            how, winner = HOW.get(str(result.get("how")), "discard"), result.get("winner")
        else:
            how, winner = "draw", None
        lines.append(
            {"hand_no": record.get("hand_no", i + 1), "winner": winner, "how": how, "points": deltas}
        )
    return lines


def match_winner(scores: Sequence[int], lines: Sequence[dict[str, Any]], left: Sequence[int]) -> int | None:
    """The match's winner: the other seat if one escaped or left, else the higher score (None: level)."""
    escaped = [ln for ln in lines if ln["how"] == "escape"]
    if escaped:
        return escaped[-1]["winner"]  # type: ignore[no-any-return]
    if len(left) == 1:
        return 1 - left[0]
    if scores[0] == scores[1]:
        return None
    return 0 if scores[0] > scores[1] else 1


async def ratings(store: Any, room: Room, seats: Sequence[SeatInfo]) -> list[float | None]:
    """Each person's rating (mu) in the room's family now (None for a bot or an unrated room)."""
    out: list[float | None] = []
    for s in seats:
        out.append(
            None if s.is_bot or not room.rated else await store.rating_of(s.account_id, room.rules.family)
        )
    return out


async def summarize(
    store: Any,
    match_id: str,
    room: Room,
    seats: Sequence[SeatInfo],
    scores: list[int],
    hands: int,
    records: Sequence[dict[str, Any]],
    entries: Sequence[dict[str, Any]],
    left: Sequence[int],
    before: Sequence[float | None] | None,
) -> MatchEnd:
    """The match_end message of a finished match (``before``: the ratings at its first hand, if known)."""
    lines = hand_lines(records, entries)
    accounts = [s.account_id for s in seats]
    beans = await store.match_beans(match_id, accounts) if room.bean_rate else [0, 0]
    rating: list[dict[str, float] | None] = [None, None]
    if room.rated and before is not None and hands:
        after = await ratings(store, room, seats)
        for seat, (b, a) in enumerate(zip(before, after, strict=True)):
            if a is not None:
                rating[seat] = {"before": round(DEFAULT_RATING if b is None else b, 2), "after": round(a, 2)}
    return MatchEnd(
        scores=list(scores),
        hands=hands,
        lines=lines,
        beans=beans,
        rating=rating,
        winner=match_winner(scores, lines, left) if hands else None,
        friend=match_id.startswith(FRIEND_PREFIX),
    )
