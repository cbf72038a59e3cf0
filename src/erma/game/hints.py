"""Hints (提示) for a seat: its waits, how many of each it has not seen, and what each win would be worth.

Only what the seat may know goes in: its own hand and sets, and the tiles it can see. The worth of a wait is
the points of a win on that tile as a discard (``points``) and as a self-draw (``points_self``), scored now;
None where that win would not reach the minimum fan.

温州 (``wenzhou2p``): the hand is read as played (财神 wild, 白板 as the 财神's kind); a wait is a
physical tile, the 财神 included (drawing one completes a ready hand; it is never discarded by default,
so it has no ``points``). The worth is the settlement's points (B × M × (1 + m) plus 财神钱) as if the
opponent held no 财神 — theirs, which would lower the 财神钱, are hidden — and each wait also carries
``multiplier`` and ``multiplier_self`` (1 软, 2 硬, 4 双翻; None like the points).
"""

from __future__ import annotations

from typing import Any

from erma.analysis import shapes
from erma.analysis.tables import INC
from erma.game import wenzhou as wz
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
    cs = state.caishen
    for i, s in enumerate(state.seats):
        for m in s.melds:
            if i == seat or not m.is_concealed:
                for t in m.tiles:
                    seen[t if cs is None else wz.phys_kind(t, cs)] += 1  # 温州: sets show 白板
    for t in state.revealed:
        seen[t] += 1
    return seen


Worth = tuple[int, int] | None
"""A win's (points, multiplier) as the seat can know them (multiplier 0 outside 温州), or None."""


def _score(state: GameState, seat: int, tile: Tile, how: str) -> Worth:
    if state.caishen is None:
        found = check_win(state, seat, tile, how)
        return (found.points, 0) if found is not None else None
    rules = state.rules
    if how == "discard" and tile == state.caishen and not rules.caishen_discardable:
        return None  # a 财神 only comes by a draw
    win = wz.check_win(state, seat, tile, how)
    if win is None:
        return None
    s = win.settlement
    hidden = s.caishen_held[1] * rules.caishen_money_unit if rules.caishen_money_enabled else 0
    return s.points + hidden, win.verdict.multiplier  # as if the opponent held no 财神


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
        state.drawn, state.draw_kind = tile, "normal"
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


def _wz_ready(state: GameState, seat: int) -> bool:
    """温州: a 3k+1 hand one tile from winning (a 财神 drawn to two held makes 三财神)."""
    me = state.seats[seat]
    assert state.caishen is not None
    key, jokers = wz.play_key(me.counts, state.caishen)
    return jokers >= 2 or wz.shanten(key, me.size, jokers, not me.melds, state.rules) == 0


def _wz_waits_of(state: GameState, seat: int) -> list[Tile]:
    """温州: physical kinds that complete the hand as played, leaving out kinds whose copies it all holds."""
    me = state.seats[seat]
    cs = state.caishen
    assert cs is not None
    rules = state.rules
    key, jokers = wz.play_key(me.counts, cs)
    shanten = wz.shanten(key, me.size, jokers, not me.melds, rules)
    if shanten > 0 and jokers < 2:
        return []
    held = list(me.counts)
    for m in me.melds:
        for t in m.tiles:
            held[wz.phys_kind(t, cs)] += 1
    out = []
    for t in rules.kinds if shanten == 0 or jokers >= 3 else (cs,):  # (else only a third 财神 wins)
        if held[t] >= rules.copies:
            continue
        p = wz.play_kind(t, cs)
        k, j = (key, jokers + 1) if p == wz.JOKER else (key + INC[p], jokers)
        if wz.is_complete(k, me.size + 1, j, not me.melds, rules):
            out.append(t)
    return out


def _waits(state: GameState, seat: int, seen: list[int], own_discard_first: bool) -> list[dict[str, Any]]:
    copies = state.rules.copies
    wenzhou = state.caishen is not None
    out = []
    for t in _wz_waits_of(state, seat) if wenzhou else waits_of(state, seat):
        on_discard, self_drawn = _worth(state, seat, t, own_discard_first)
        wait: dict[str, Any] = {
            "tile": tile_to_mpsz(t),
            "unseen": max(0, copies - seen[t]),
            "points": on_discard[0] if on_discard else None,
            "points_self": self_drawn[0] if self_drawn else None,
        }
        if wenzhou:
            wait["multiplier"] = on_discard[1] if on_discard else None
            wait["multiplier_self"] = self_drawn[1] if self_drawn else None
        out.append(wait)
    return out


def hints_for(state: GameState, seat: int) -> dict[str, Any]:
    """``waits`` of the seat's hand now (between turns), and during its own turn ``after_discard``: for each
    discard that leaves the hand ready, the waits it leaves."""
    if state.phase is Phase.END or state.phase in (Phase.MAIDI, Phase.DINGDI):
        return {}
    wenzhou = state.caishen is not None
    me = state.seats[seat]
    seen = _seen(state, seat)
    out: dict[str, Any] = {}
    if me.size % 3 == 1:
        if _wz_ready(state, seat) if wenzhou else shapes.overall(me.key, me.size) == 0:
            out["waits"] = _waits(state, seat, seen, False)
        return out
    if state.actor != seat or state.phase is not Phase.TURN:
        return out
    after: dict[str, list[dict[str, Any]]] = {}
    discards = {a.tile for a in legal_actions(state, seat) if a.kind.value == "discard"}
    for t in sorted(discards):
        if not wenzhou and shapes.overall(me.key - INC[t], me.size - 1) != 0:
            continue
        me.remove(t)
        try:
            found = _waits(state, seat, seen, True) if not wenzhou or _wz_ready(state, seat) else []
        finally:
            me.add(t)
        if found:
            after[tile_to_mpsz(t)] = found
    if after:
        out["after_discard"] = after
    return out
