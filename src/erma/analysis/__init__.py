"""Hand analysis (牌型分析): win test, shanten by shape, useful tiles, waits and decompositions.

Table-driven and pure: see :mod:`erma.analysis.tables` for the per-suit tables.
"""

from erma.analysis.api import (
    eight_pairs_shanten,
    is_win,
    regular_shanten,
    shanten,
    shanten_by_shape,
    shape_mask,
    useful_by_shape,
    useful_tiles,
    waits,
)
from erma.analysis.decompose import Decomposition, decompositions
from erma.analysis.shapes import EIGHT_PAIRS, SHAPES, Shapes

__all__ = [
    "EIGHT_PAIRS",
    "SHAPES",
    "Decomposition",
    "Shapes",
    "decompositions",
    "eight_pairs_shanten",
    "is_win",
    "regular_shanten",
    "shanten",
    "shanten_by_shape",
    "shape_mask",
    "useful_by_shape",
    "useful_tiles",
    "waits",
]
