"""Set-group predicates over chows (顺子组合), each given the lowest tiles in reference order."""

from __future__ import annotations

from erma.scoring.detectors.kinds import mixed, same_suit, suit
from erma.scoring.detectors.registry import group
from erma.tiles import Tile


@group("four_pure_shifted_chows", "chows", 4)
def four_pure_shifted_chows(a: Tile, b: Tile, c: Tile, d: Tile) -> bool:
    """一色四步高 Four Pure Shifted Chows: four chows of one suit stepping by 1 or by 2."""
    return same_suit(a, d) and (b - a == c - b == d - c) and b - a in (1, 2)


@group("quadruple_chow", "chows", 4)
def quadruple_chow(a: Tile, b: Tile, c: Tile, d: Tile) -> bool:
    """一色四同顺 Quadruple Chow: four identical chows."""
    return a == b == c == d


@group("mixed_shifted_chows", "chows", 3)
def mixed_shifted_chows(a: Tile, b: Tile, c: Tile) -> bool:
    """三色三步高 Mixed Shifted Chows: chows stepping by 1 in three suits."""
    r = sorted((a % 9, b % 9, c % 9))
    return mixed(a, b, c) and r[1] == r[0] + 1 and r[2] == r[1] + 1


@group("mixed_triple_chow", "chows", 3)
def mixed_triple_chow(a: Tile, b: Tile, c: Tile) -> bool:
    """三色三同顺 Mixed Triple Chow: the same chow in three suits."""
    return mixed(a, b, c) and a % 9 == b % 9 == c % 9


@group("mixed_straight", "chows", 3)
def mixed_straight(a: Tile, b: Tile, c: Tile) -> bool:
    """花龙 Mixed Straight: 123, 456, 789 in three different suits."""
    return mixed(a, b, c) and sorted((a % 9, b % 9, c % 9)) == [0, 3, 6]


@group("pure_straight", "chows", 3)
def pure_straight(a: Tile, b: Tile, c: Tile) -> bool:
    """清龙 Pure Straight: 123 456 789 of one suit."""
    return same_suit(a, c) and a % 9 == 0 and b == a + 3 and c == a + 6


@group("pure_shifted_chows", "chows", 3)
def pure_shifted_chows(a: Tile, b: Tile, c: Tile) -> bool:
    """一色三步高 Pure Shifted Chows: three chows of one suit stepping by 1 or by 2."""
    return same_suit(a, c) and b - a == c - b and b - a in (1, 2)


@group("pure_triple_chow", "chows", 3)
def pure_triple_chow(a: Tile, b: Tile, c: Tile) -> bool:
    """一色三同顺 Pure Triple Chow: three identical chows."""
    return a == b == c


@group("pure_double_chow", "chows", 2)
def pure_double_chow(a: Tile, b: Tile) -> bool:
    """一般高 Pure Double Chow: two identical chows."""
    return a == b


@group("mixed_double_chow", "chows", 2)
def mixed_double_chow(a: Tile, b: Tile) -> bool:
    """喜相逢 Mixed Double Chow: the same chow in two suits."""
    return suit(a) != suit(b) and a % 9 == b % 9


@group("short_straight", "chows", 2)
def short_straight(a: Tile, b: Tile) -> bool:
    """连六 Short Straight: two chows of one suit making six in a row."""
    return suit(a) == suit(b) and abs(a - b) == 3


@group("two_terminal_chows", "chows", 2)
def two_terminal_chows(a: Tile, b: Tile) -> bool:
    """老少副 Two Terminal Chows: 123 and 789 of one suit."""
    return suit(a) == suit(b) and {a % 9, b % 9} == {0, 6}
