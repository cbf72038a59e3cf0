"""Per-seat views (视角): what one seat may know, and nothing more.

A view never holds the opponent's concealed tiles, the wall order or the reserve, except what a rule shows
that seat: the revealed bonus tiles, the kinds offered to it for 搓牌, the triplet offered to it. At the end
of the hand both hands are shown (the result carries them).
"""

from __future__ import annotations

from typing import Any

from erma.game import wenzhou as wz
from erma.game.engine import draws_left, events_for, legal_actions
from erma.game.state import GameState, Phase
from erma.tiles import tile_to_mpsz, to_mpsz


def _melds(state: GameState, owner: int, viewer: int) -> list[str]:
    out = []
    for m in state.seats[owner].melds:
        if m.is_concealed and owner != viewer and state.phase is not Phase.END:
            out.append(f"[{m.size}?]")  # a concealed kong: its kind stays hidden until the hand ends
        elif state.caishen is not None:
            out.append(wz.meld_notation(m, state.caishen))
        else:
            out.append(m.to_notation())
    return out


def view_for(state: GameState, seat: int, *, with_events: bool = False) -> dict[str, Any]:
    """Everything ``seat`` may see now, as plain JSON-ready data."""
    me = state.seats[seat]
    opp = state.seats[1 - seat]
    view: dict[str, Any] = {
        "seat": seat,
        "rules": state.rules.name,
        "phase": state.phase.value,
        "actor": state.actor,
        "dealer": state.dealer,
        "prevalent_wind": state.prevalent_wind,
        "seat_winds": [state.seat_wind(0), state.seat_wind(1)],
        "hand": to_mpsz(me.tiles()),
        "drawn": tile_to_mpsz(state.drawn) if state.drawn is not None and state.actor == seat else None,
        "melds": [_melds(state, 0, seat), _melds(state, 1, seat)],
        "discards": [[tile_to_mpsz(t) for t in s.discards] for s in state.seats],
        "flowers": [[tile_to_mpsz(t) for t in s.flowers] for s in state.seats],
        "riichi": [s.riichi for s in state.seats],
        "opponent_hand_count": opp.size,
        "wall": state.wall_left,
        "reserve": len(state.reserve),
        "revealed": [tile_to_mpsz(t) for t in state.revealed],
        "bonus_kinds": [tile_to_mpsz(t) for t in state.bonus_kinds],
        "last_discard": tile_to_mpsz(state.last_discard) if state.last_discard is not None else None,
        "version": len(state.events),
        "legal": [a.to_str() for a in legal_actions(state, seat)],
    }
    if state.rules.family == "wenzhou":  # 财神 and the flipped tile are public; who holds 财神 is not
        view["caishen"] = tile_to_mpsz(state.caishen) if state.caishen is not None else None
        view["flipped"] = tile_to_mpsz(state.flipped) if state.flipped is not None else None
        view["streak"] = state.streak
        view["base"] = wz.base_points(state.rules, state.streak)
        view["stakes"] = {"maidi": state.stakes[0], "dingdi": state.stakes[1]}
        view["draws_left"] = max(0, draws_left(state))
    if state.phase is Phase.TRIPLET and state.actor == seat and state.offer is not None:
        view["offer"] = tile_to_mpsz(state.offer)
    if state.phase is Phase.EXCHANGE and state.actor == seat:
        view["selected"] = to_mpsz(me.selected)
    if state.phase is Phase.CUO and state.actor == seat:
        view["cuo_kinds"] = [a.split()[1] for a in view["legal"] if a.startswith("cuo ")]
    if state.result is not None:
        view["result"] = state.result
    if with_events:
        view["events"] = events_for(state, seat)
    return view
