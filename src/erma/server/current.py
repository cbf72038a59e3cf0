"""Answers to what is still current (当前): an action answers one decision of one hand, a ``next`` confirms
one hand, a snapshot offers only a decision still open (docs/protocol.md, "Decisions already made").

A decision is counted as the view counts it (``view.decision``): the seat's own actions so far in the hand,
so judging a message by it tells the seat nothing of the opponent.
"""

from __future__ import annotations

from typing import Any

from erma.game.state import GameState
from erma.server import protocol as P

STALE = "stale"
"""The error code of a message that answers a hand or a decision no longer current."""


def decisions_made(state: GameState | None, seat: int) -> int:
    """The seat's own actions so far in the hand (its next decision's number, ``view.decision``)."""
    return 0 if state is None else sum(1 for who, _ in state.actions if who == seat)


def action_refusal(msg: P.Act, hand_no: int, state: GameState | None, seat: int) -> tuple[str, str] | None:
    """Why an action naming its hand or decision answers one no longer current (None: it may go on to the
    table's other checks). An action without them is not judged here (an older client)."""
    if msg.hand is not None and msg.hand != hand_no:
        return STALE, f"action: hand {msg.hand} is not the hand being played (hand {hand_no})"
    if msg.decision is not None:
        made = decisions_made(state, seat)
        if msg.decision < made:
            return STALE, f"action: decision {msg.decision} was already taken (the current one is {made})"
        if msg.decision > made:
            return STALE, f"action: decision {msg.decision} has not been offered (the current one is {made})"
    return None


def next_refusal(msg: P.Next, hand_no: int, between: bool) -> tuple[str, str] | None:
    """Why a ``next`` does not confirm the next hand (None: it does). ``between``: no hand is being played
    and the seat has been shown the last one's end (a ``next`` sent during hand k never counts for k + 1)."""
    want = hand_no + 1
    if not between:
        return STALE, f"next: hand {hand_no} is not over; confirm hand {want} after its hand_end"
    if msg.hand is not None and msg.hand != want:
        return STALE, f"next: hand {msg.hand} is not the next hand (hand {want})"
    return None


def open_offer(view: dict[str, Any], made: int) -> dict[str, Any]:
    """A view sent earlier, as a snapshot may show it again: if the decision it offered has been taken since
    (``made`` decisions now: by the seat or by auto-play), it offers nothing."""
    if view.get("decision", made) >= made or not view.get("legal"):
        return view
    hints = {k: v for k, v in (view.get("hints") or {}).items() if k != "after_discard"}
    return {**view, "legal": [], "hints": hints}
