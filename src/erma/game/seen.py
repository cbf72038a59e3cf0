"""What a seat has seen (所见): the copies of each kind it can see, and the copies on the table.

The one count :mod:`~erma.game.legal` (搓牌's offer), :mod:`~erma.game.seatview`, the hints and the win
context (和绝张) read; it sits below them all.
"""

from __future__ import annotations

from erma.game.state import GameState
from erma.tiles import Tile


def visible_counts(state: GameState, seat: int) -> list[int]:
    """Copies of each kind (0–41) ``seat`` can see: its own tiles and sets, both rivers, the opponent's open
    sets (a concealed kong's kind stays hidden), the revealed tiles."""
    me = state.seats[seat]
    seen = list(me.counts) + [0] * 8
    for s in state.seats:
        for t in s.discards:
            seen[t] = seen[t] + 1
    family = state.family  # (the hook called on it, not bound first: a call through the class's method table)
    for i, s in enumerate(state.seats):
        for m in s.melds:
            if i == seat or not m.is_concealed:
                for t in family.meld_tiles(state, m):
                    seen[t] = seen[t] + 1
    for t in state.revealed:
        seen[t] = seen[t] + 1
    return seen


def table_copies(state: GameState, tile: Tile) -> int:
    """Copies of a kind on the table: in both rivers and in declared sets, concealed kongs included (the
    count 和绝张 reads)."""
    n = 0
    for s in state.seats:
        n += s.discards.count(tile)
        for m in s.melds:
            n += m.tiles.count(tile)
    return n
