"""The shapes a rule set can win (可和的牌型): its fan table's shapes, less those its tiles cannot build.

Shanten, useful tiles and waits wherever a rule set is known count only these shapes (the bots, the coach,
the hints, 报听). The ``erqs`` table wins regular hands and seven pairs, ``cuopai13`` adds thirteen orphans,
a table without a ``shapes`` line every MCR shape; 万 + honours (``wan_honors``) have no 筒 or 条 for
thirteen orphans or the knitted shapes; the 温州 family wins regular hands and 八对.

>>> from erma.rules import find_ruleset
>>> winnable_shapes(find_ruleset("classic64"))
<Shapes.REGULAR|SEVEN_PAIRS: 3>
>>> winnable_shapes(find_ruleset("cuopai789"))
<Shapes.REGULAR|SEVEN_PAIRS|THIRTEEN_ORPHANS: 7>
"""

from __future__ import annotations

from typing import Final

from erma.analysis.shapes import SHAPE_FLAGS, Shapes
from erma.rules.ruleset import RuleSet
from erma.scoring.table import load_table

_NEED_THREE_SUITS = Shapes.THIRTEEN_ORPHANS | Shapes.KNITTED_STRAIGHT | Shapes.HONORS_AND_KNITTED
"""The shapes that need 筒 and 条 (terminals of every suit, or a knitted sequence across the three)."""

_FOUND: dict[tuple[str, str, str], Shapes] = {}


def winnable_shapes(rules: RuleSet) -> Shapes:
    """The shapes ``rules`` can win (memoised by family, fan table and tile set)."""
    memo = (rules.family, rules.fan_table, rules.tile_set)
    found = _FOUND.get(memo)
    if found is None:
        found = _FOUND[memo] = _derive(rules)
    return found


class _Last:
    """The last rule set :func:`shape_mask` was asked about, and its mask (an engine asks at every step):
    one pair, replaced whole (threads may ask)."""

    __slots__ = ("pair",)

    def __init__(self) -> None:
        self.pair: tuple[RuleSet, int] | None = None


_LAST: Final = _Last()


def shape_mask(rules: RuleSet) -> int:
    """:func:`winnable_shapes` as the plain ``int`` the shape functions take (``allowed``)."""
    pair = _LAST.pair
    if pair is not None and pair[0] is rules:
        return pair[1]
    mask = winnable_shapes(rules).value
    _LAST.pair = (rules, mask)
    return mask


def _derive(rules: RuleSet) -> Shapes:
    if rules.family == "wenzhou":
        return Shapes.REGULAR | Shapes.EIGHT_PAIRS
    names = load_table(rules.fan_table).shapes
    out = Shapes.REGULAR
    if names is None:
        out = Shapes.MCR
    else:
        for name in names:
            out |= SHAPE_FLAGS[name]
    if rules.tile_set != "full":
        out &= ~_NEED_THREE_SUITS
    return out
