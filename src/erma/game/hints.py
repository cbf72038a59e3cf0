"""Hints (提示) for a seat: its waits, how many of each it has not seen, and what each win would be worth.

Only what the seat may know goes in: its own hand and sets, and the tiles it can see. The worth of a wait is
the points of a win on that tile as a discard (``points``) and as a self-draw (``points_self``), scored now;
None where that win would not reach the minimum fan.
"""

from __future__ import annotations

from typing import Any

from erma.analysis import shapes
from erma.analysis.tables import INC
from erma.game.engine import legal_actions, waits_of
from erma.game.state import GameState, Phase
from erma.game.win import check_win
from erma.tiles import Tile, tile_to_mpsz


def _seen(state: GameState, seat: int) -> list[int]:
    """Copies of each kind ``seat`` can see: own tiles and sets, both rivers, open sets, revealed tiles."""
    me = state.seats[seat]
    seen = list(me.counts) + [0] * 8
    for s in state.seats:
        for t in s.discards:
            seen[t] += 1
    for i, s in enumerate(state.seats):
        for m in s.melds:
            if i == seat or not m.is_concealed:
                for t in m.tiles:
                    seen[t] += 1
    for t in state.revealed:
        seen[t] += 1
    return seen


def _worth(state: GameState, seat: int, tile: Tile, own_discard_first: bool) -> tuple[int | None, int | None]:
    """Score the win on ``tile`` as it would come: after this seat's pending discard (if any), on the
    opponent's *next* discard, or on this seat's next draw. The state is put back as it was."""
    me, opp = state.seats[seat], state.seats[1 - seat]
    drawn, kind = state.drawn, state.draw_kind
    me.discards_made += own_discard_first
    opp.discards_made += 1
    try:
        on_discard = check_win(state, seat, tile, "discard")
        opp.discards_made -= 1
        me.discards_made += not own_discard_first  # a self-draw comes after one more own discard
        me.add(tile)
        state.drawn, state.draw_kind = tile, "normal"
        try:
            self_drawn = check_win(state, seat, tile, "self")
        finally:
            me.remove(tile)
            me.discards_made -= not own_discard_first
    finally:
        me.discards_made -= own_discard_first
        state.drawn, state.draw_kind = drawn, kind
        if opp.discards_made < 0:  # pragma: no cover - restored above
            opp.discards_made = 0
    return (
        on_discard.points if on_discard is not None else None,
        self_drawn.points if self_drawn is not None else None,
    )


def _waits(state: GameState, seat: int, seen: list[int], own_discard_first: bool) -> list[dict[str, Any]]:
    copies = state.rules.copies
    return [
        {
            "tile": tile_to_mpsz(t),
            "unseen": max(0, copies - seen[t]),
            "points": worth[0],
            "points_self": worth[1],
        }
        for t in waits_of(state, seat)
        for worth in [_worth(state, seat, t, own_discard_first)]
    ]


def hints_for(state: GameState, seat: int) -> dict[str, Any]:
    """``waits`` of the seat's hand now (between turns), and during its own turn ``after_discard``: for each
    discard that leaves the hand ready, the waits it leaves."""
    if state.phase is Phase.END or state.rules.family != "standard":
        return {}  # (wenzhou2p's wild tiles need their own hint; not yet)
    me = state.seats[seat]
    seen = _seen(state, seat)
    out: dict[str, Any] = {}
    if me.size % 3 == 1:
        if shapes.overall(me.key, me.size) == 0:
            out["waits"] = _waits(state, seat, seen, False)
        return out
    if state.actor != seat or state.phase is not Phase.TURN:
        return out
    after: dict[str, list[dict[str, Any]]] = {}
    discards = {a.tile for a in legal_actions(state, seat) if a.kind.value == "discard"}
    for t in sorted(discards):
        if shapes.overall(me.key - INC[t], me.size - 1) != 0:
            continue
        me.remove(t)
        try:
            found = _waits(state, seat, seen, True)
        finally:
            me.add(t)
        if found:
            after[tile_to_mpsz(t)] = found
    if after:
        out["after_discard"] = after
    return out
