"""Settlement (结算): the driver that ends a hand with the family's :class:`~erma.game.result.HandResult`.

A win, a 流局 or an escape: the family says what each is worth; the driver records the result, ends the
phase machine and emits the public event. The server turns the points into beans (× the room's rate,
capped by balance) and never computes points itself.
"""

from __future__ import annotations

from erma.game.family import Win
from erma.game.result import EndReason, HandResult
from erma.game.state import GameState, Phase
from erma.tiles import Tile, to_mpsz


def hands_shown(state: GameState) -> tuple[str, str]:
    """Both hands as shown at the end: declared sets, then the concealed tiles."""
    text = state.family.meld_text
    shown = ["".join(text(state, m) for m in s.melds) + to_mpsz(s.tiles()) for s in state.seats]
    return shown[0], shown[1]


def win_deltas(winner: int, points: int) -> tuple[int, int]:
    """Each seat's points when ``winner`` receives ``points`` from the other."""
    return (points, -points) if winner == 0 else (-points, points)


def finish_win(state: GameState, seat: int, tile: Tile, how: str, found: Win) -> None:
    """``seat`` wins with ``tile``."""
    state.result = result = state.family.settle_win(state, seat, tile, how, found)
    state.phase = Phase.END
    data = result.to_json()
    del data["reason"]
    state.emit("win", seat, data)


def draw_end(state: GameState) -> None:
    """流局: the wall ran out (or no tile was left for a replacement)."""
    state.result = result = state.family.settle_draw(state)
    state.phase = Phase.END
    state.emit("exhausted", None, {"hands": list(result.hands or ())})


def escape(state: GameState, seat: int) -> None:
    """逃跑: ``seat`` leaves during the hand and pays the family's escape penalty to the other."""
    penalty = state.family.escape_points(
        state.rules,
        dealer=state.dealer,
        escaper=seat,
        streak=state.streak,
        stakes=(state.stakes[0], state.stakes[1]),
    )
    state.result = HandResult(EndReason.ESCAPE, win_deltas(1 - seat, penalty), escaper=seat, points=penalty)
    state.phase = Phase.END
    state.emit("escape", seat, {"points": penalty})
