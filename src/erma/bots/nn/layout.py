"""The observation's layout (观察的排列): the names of the planes (rows of 34) and of the scalars, in order.

Shared by the encoder (:mod:`erma.bots.nn.features`) and the derived inputs (:mod:`erma.bots.nn.derived`),
which reads the planes it needs by name.
"""

from __future__ import annotations

from erma.game.state import Phase

__all__ = ["NUM_PLANES", "NUM_SCALARS", "PHASES", "PLANES", "SCALARS"]

PLANES: tuple[str, ...] = (
    "hand",
    "drawn",
    "melds",
    "concealed_kongs",
    "opponent_melds",
    "river",
    "opponent_river",
    "last_discard",
    "visible",
    "unseen",
    "revealed",
    "bonus_kinds",
    "wild",
    "flipped",
    "offer",
    "selected",
    "cuo_kinds",
    "played",
)
"""The planes (rows of 34), in order; docs/env.md says what each holds."""
NUM_PLANES = len(PLANES)

PHASES: tuple[Phase, ...] = tuple(Phase)
SCALARS: tuple[str, ...] = (
    "seat",
    "dealer",
    "seat_wind",
    "prevalent_wind",
    "riichi",
    "opponent_riichi",
    "opponent_hand_count",
    "wall_left",
    "draws_left",
    "reserve_count",
    "win_multiplier",
    "jokers",
    "size",
    "flowers",
    "opponent_flowers",
    "melds",
    "opponent_melds",
    "acting",
    *(f"phase_{p.value}" for p in PHASES),
)
"""The scalars, in order (each 0–255); the phase is one-hot."""
NUM_SCALARS = len(SCALARS)
