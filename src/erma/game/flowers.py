"""补花 (flower replacement): a flower is set aside, shown, and replaced from the tail of the wall.

Below the flow and the assists alike: after the deal, after a start exchange and after a draw a flower is
replaced the same way; the wall running out first ends the hand (流局).
"""

from __future__ import annotations

from erma.game import settle
from erma.game.state import GameState
from erma.tiles import Tile, tile_to_mpsz


def show_flower(state: GameState, seat: int, tile: Tile) -> None:
    """``seat`` sets flower ``tile`` aside and shows it."""
    state.seats[seat].flowers.append(tile)
    state.emit("flower", seat, {"tile": tile_to_mpsz(tile)})
    state.counters["flower"] += 1


def replace_flower(state: GameState, seat: int) -> bool:
    """补花 outside a turn (after the deal or an exchange): draw from the tail until a non-flower comes;
    False (and a 流局) if the wall runs out first."""
    while True:
        if state.wall_left == 0:
            settle.draw_end(state)
            return False
        state.tail -= 1
        t = state.wall[state.tail]
        if t >= 34:
            show_flower(state, seat, t)
            continue
        state.seats[seat].add(t)
        state.emit("draw", seat, {"from": "tail"}, {"tile": tile_to_mpsz(t)}, seat)
        return True
