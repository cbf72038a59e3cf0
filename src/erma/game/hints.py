"""Hints (提示) for a seat: its waits, how many of each it has not seen, and what each win would be worth.

Only what the seat may know goes in: its own hand and sets, and the tiles it can see. The worth of a wait is
the points of a win on that tile as a discard (``points``) and as a self-draw (``points_self``), scored now;
None where that win would not reach the minimum fan.

A family with wild tiles (温州): the hand is read as played (财神 wild, 白板 as the 财神's kind); a wait is a
physical tile, the 财神 included (drawing one completes a ready hand; it is never discarded by default,
so it has no ``points``). The worth is the settlement's points (B × M × (1 + m) plus 财神钱) as if the
opponent held no 财神 — theirs, which would lower the 财神钱, are hidden — and each wait also carries
``multiplier`` and ``multiplier_self`` (1 软, 2 硬, 4 双翻; None like the points).
"""

from __future__ import annotations

from typing import Any

from erma.game.legal import legal_actions
from erma.game.result import DrawSource
from erma.game.seen import visible_counts
from erma.game.state import GameState, Phase
from erma.tiles import Tile, tile_to_mpsz

Worth = tuple[int, int] | None
"""A win's (points, multiplier) as the seat can know them (multiplier 0 without multipliers), or None."""


def _score(state: GameState, seat: int, tile: Tile, how: str) -> Worth:
    return state.family.hint_worth(state, seat, tile, how)


def _worth(state: GameState, seat: int, tile: Tile, own_discard_first: bool) -> tuple[Worth, Worth]:
    """Score the win on ``tile`` as it would come: after this seat's pending discard (if any), on the
    opponent's *next* discard, or on this seat's next draw. The state is put back as it was."""
    me, opp = state.seats[seat], state.seats[1 - seat]
    drawn, kind = state.drawn, state.draw_kind
    me.discards_made += own_discard_first
    opp.discards_made += 1
    try:
        on_discard = _score(state, seat, tile, "discard")
        opp.discards_made -= 1
        me.discards_made += not own_discard_first  # a self-draw comes after one more own discard
        me.add(tile)
        state.drawn, state.draw_kind = tile, DrawSource.NORMAL
        try:
            self_drawn = _score(state, seat, tile, "self")
        finally:
            me.remove(tile)
            me.discards_made -= not own_discard_first
    finally:
        me.discards_made -= own_discard_first
        state.drawn, state.draw_kind = drawn, kind
        if opp.discards_made < 0:  # pragma: no cover - restored above
            opp.discards_made = 0
    return on_discard, self_drawn


def _waits(
    state: GameState, seat: int, seen: list[int], own_discard_first: bool, waits: list[Tile]
) -> list[dict[str, Any]]:
    copies = state.rules.copies
    multiplied = state.family.multiplied
    out = []
    for t in waits:
        on_discard, self_drawn = _worth(state, seat, t, own_discard_first)
        wait: dict[str, Any] = {
            "tile": tile_to_mpsz(t),
            "unseen": max(0, copies - seen[t]),
            "points": on_discard[0] if on_discard else None,
            "points_self": self_drawn[0] if self_drawn else None,
        }
        if multiplied:
            wait["multiplier"] = on_discard[1] if on_discard else None
            wait["multiplier_self"] = self_drawn[1] if self_drawn else None
        out.append(wait)
    return out


def hints_for(state: GameState, seat: int) -> dict[str, Any]:
    """``waits`` of the seat's hand now (between turns), and during its own turn ``after_discard``: for each
    discard that leaves the hand ready, the waits it leaves."""
    if state.phase is Phase.END or state.phase in (Phase.MAIDI, Phase.DINGDI):
        return {}
    family = state.family
    me = state.seats[seat]
    seen = visible_counts(state, seat)
    out: dict[str, Any] = {}
    if me.size % 3 == 1:
        waits = family.hint_waits(state, seat)
        if waits is not None:
            out["waits"] = _waits(state, seat, seen, False, waits)
        return out
    if state.actor != seat or state.phase is not Phase.TURN:
        return out
    after: dict[str, list[dict[str, Any]]] = {}
    discards = {a.tile for a in legal_actions(state, seat) if a.kind.value == "discard"}
    for t in sorted(discards):
        me.remove(t)
        try:
            waits = family.hint_waits(state, seat)
            found = _waits(state, seat, seen, True, waits) if waits else []
        finally:
            me.add(t)
        if found:
            after[tile_to_mpsz(t)] = found
    if after:
        out["after_discard"] = after
    return out
