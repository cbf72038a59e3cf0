"""Derived inputs (派生特征) of the ``nn`` bot's second encoding: what tile efficiency says about each move,
counted with the shapes the preset can win, read from one observation (planes and scalars) only.

The network could in principle learn shanten from the planes; it learns it badly from a few hundred
thousand decisions, so the encoding hands it over, as the experts see it:

- per kind (34 each): the shanten (向听) after discarding it, the useful tiles (有效牌: unseen copies that
  lower that shanten) after discarding it, whether it is a best discard (lowest shanten, then most useful
  tiles), and — for a hand waiting to draw or claim (3k+1 tiles, the 搓牌 choice included) — whether
  taking that kind lowers the shanten;
- the shanten now, the useful tiles now (3k+1 hands), the shanten after a pung of the last discard and
  after each chow of it (as lowest, middle, highest tile, and again at each chow's place in the action
  space), and for 温州 the regular and the 八对 shanten
  with the 财神 as jokers and whether the hand is still concealed (八对 needs it).

A 温州 discard is of a physical tile: a 财神 gives a joker away, a 白板 the 财神's kind
(:meth:`erma.game.seatview.SeatView.play`); a 财神 drawn counts twice among the useful tiles, as greedy
counts it.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import numpy.typing as npt

from erma.bots.nn.layout import PLANES, SCALARS

NUM_DERIVED = 4 * 34 + 9 + 21
"""The derived inputs' length."""
CHOW_AT = 4 * 34 + 9
"""Where the 21 shanten after each chow (by the chow's index, as the action space orders chows) start."""
NONE = 9
"""The shanten given where there is none (a kind not held, no discard due, no such claim)."""
_KIND_BLOCKS = ("discard_shanten", "discard_useful", "best_discard", "improves")
_TAIL = (
    "shanten",
    "useful",
    "pung_shanten",
    "chow_low_shanten",
    "chow_mid_shanten",
    "chow_high_shanten",
    "wz_regular",
    "wz_eight_pairs",
    "concealed",
)
DERIVED_NAMES: tuple[str, ...] = (
    *(f"{b} {k}" for b in _KIND_BLOCKS for k in range(34)),
    *_TAIL,
    *(f"chow_shanten {9 * (i // 7) + i % 7}" for i in range(21)),
)
"""A name per derived input, in order."""


@cache
def _rules(name: str) -> tuple[int, tuple[int, ...], bool, bool]:
    """(allowed shapes, kinds in play, 温州 family, four of a kind as two pairs) of a preset."""
    from erma.rules import PRESETS, shape_mask

    r = PRESETS.get(name)
    if r is None:
        return 31, tuple(range(34)), False, False
    return shape_mask(r), tuple(r.kinds), r.family == "wenzhou", r.four_of_kind_counts_as_two_pairs


def derived(
    planes: npt.NDArray[np.uint8], scalars: npt.NDArray[np.uint8], rules: str
) -> npt.NDArray[np.float32]:
    """The derived inputs (unscaled: shanten as counts, useful tiles as copies) of one observation."""
    from erma.analysis import shapes
    from erma.analysis.tables import INC

    out = np.zeros(NUM_DERIVED, dtype=np.float32)
    out[0:34] = NONE
    out[136:] = NONE
    out[137] = 0
    allowed, kinds, wenzhou, four_two = _rules(rules)
    played = planes[PLANES.index("played")].tolist()
    hand = planes[PLANES.index("hand")].tolist()
    unseen = planes[PLANES.index("unseen")].tolist()
    wild_row = planes[PLANES.index("wild")]
    wild = int(np.argmax(wild_row)) if wild_row.any() else None
    jokers = int(scalars[SCALARS.index("jokers")])
    concealed = not planes[PLANES.index("melds")].any()
    key = 0
    n = jokers
    for t, c in enumerate(played):
        if c:
            key += INC[t] * c
            n += c
    if n == 0:
        return out
    wz = wenzhou and wild is not None

    def sh(k: int, m: int, j: int, closed: bool = concealed) -> int:
        if wz:
            v = shapes.regular(k, m, j)
            if closed and m in (16, 17):
                v = min(v, shapes.eight_pairs(k, m, j, four_two))
            return v
        return shapes.overall(k, m, 0, allowed)

    def play(t: int) -> int:
        if wild is None:
            return t
        if t == wild:
            return -1
        return wild if t == 31 else t

    def useful(k: int, m: int, j: int, below: int) -> tuple[int, list[int]]:
        """Unseen copies that lower the shanten ``below`` of a 3k+1 hand, and those kinds."""
        total = 0
        hits = []
        if not wz:
            for t in shapes.draws_below(k, m, kinds, below, 0, allowed):
                total += unseen[t]
                hits.append(t)
            return total, hits
        # one draw lowers a shape's shanten by at most one: a shape already two above ``below`` is skipped
        reg = shapes.regular(k, m, j) - 1 < below
        eight = concealed and m + 1 in (16, 17)
        if eight and m in (16, 17):
            eight = shapes.eight_pairs(k, m, j, four_two) - 1 < below
        for t in kinds:
            left = unseen[t]
            p = play(t)
            k1, j1, w = (k, j + 1, 2) if p == -1 else (k + INC[p], j, 1)
            if (reg and shapes.regular(k1, m + 1, j1) < below) or (
                eight and shapes.eight_pairs(k1, m + 1, j1, four_two) < below
            ):
                total += w * left
                hits.append(t)
        return total, hits

    now = sh(key, n, jokers)
    out[136] = now
    if wz:
        out[142] = shapes.regular(key, n, jokers)
        out[143] = shapes.eight_pairs(key, n, jokers, four_two) if concealed and n in (16, 17) else NONE
    out[144] = 1.0 if concealed else 0.0
    if n % 3 == 2:  # a discard is due: each physical kind held
        after: dict[int, int] = {}
        if not wz:
            for t, v in shapes.discard_values(key, n, 0, allowed):
                after[t] = v
        else:
            for t, c in enumerate(hand):
                if c:
                    p = play(t)
                    after[t] = sh(key, n - 1, jokers - 1) if p == -1 else sh(key - INC[p], n - 1, jokers)
        if not after:
            return out
        low = min(after.values())
        best = -1
        for t, v in after.items():
            out[t] = v
            if v <= low + 1 and v >= 0:
                p = play(t)
                k, j = (key, jokers - 1) if p == -1 else (key - INC[p], jokers)
                out[34 + t] = useful(k, n - 1, j, v)[0]
            if v == low:
                best = max(best, int(out[34 + t]))
        for t, v in after.items():
            if v == low and out[34 + t] == best:
                out[68 + t] = 1.0
        return out
    # 3k+1: waiting to draw or claim
    if now >= 0:
        total, hits = useful(key, n, jokers, now)
        out[137] = total
        for t in hits:
            out[102 + t] = 1.0
    last = planes[PLANES.index("last_discard")]
    if last.any():
        p = play(int(np.argmax(last)))
        if 0 <= p < 34:
            if played[p] >= 2:
                out[138] = sh(key - 2 * INC[p], n - 2, jokers, False)
            if p < 27:
                r = p % 9
                for i, (a, b) in enumerate(((1, 2), (-1, 1), (-2, -1))):
                    if 0 <= r + a <= 8 and 0 <= r + b <= 8 and played[p + a] and played[p + b]:
                        v = sh(key - INC[p + a] - INC[p + b], n - 2, jokers, False)
                        out[139 + i] = v
                        out[CHOW_AT + 7 * (p // 9) + r - i] = v
    return out


SCALE = np.array(
    [0.25] * 34 + [1 / 32] * 34 + [1.0] * 68 + [0.25, 1 / 32] + [0.25] * 6 + [1.0] + [0.25] * 21,
    dtype=np.float32,
)
"""What the derived inputs are multiplied by in the network's input."""

__all__ = ["CHOW_AT", "DERIVED_NAMES", "NONE", "NUM_DERIVED", "SCALE", "derived"]
