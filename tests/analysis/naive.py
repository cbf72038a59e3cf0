"""Slow, obviously-correct references for the analysis tests (independent of the tables)."""

from __future__ import annotations

import itertools
from functools import cache

from erma.tiles import KNITTED_SEQUENCES, TERMINALS_AND_HONORS


def formula(counts: tuple[int, ...], sets: int) -> int:
    """min over every (m sets, t partial sets, p pair) taken from the counts of 2N − 2m − min(t, N−m) − p."""
    return _best(tuple(counts), sets, 0, 0, 0)


@cache
def _best(c: tuple[int, ...], sets: int, m: int, t: int, p: int) -> int:
    mm = min(m, sets)
    value = 2 * sets - 2 * mm - min(t, sets - mm) - p
    i = next((k for k, n in enumerate(c) if n), -1)
    if i < 0:
        return value
    n = c[i]
    options = []
    if n >= 3:
        options.append(((i, i, i), 1, 0, 0))
    if n >= 2:
        options.append(((i, i), 0, 1, 0))
        if not p:
            options.append(((i, i), 0, 0, 1))
    if i < 27:
        r = i % 9
        if r <= 6 and c[i + 1] and c[i + 2]:
            options.append(((i, i + 1, i + 2), 1, 0, 0))
        if r <= 7 and c[i + 1]:
            options.append(((i, i + 1), 0, 1, 0))
        if r <= 6 and c[i + 2]:
            options.append(((i, i + 2), 0, 1, 0))
    options.append(((i,), 0, 0, 0))  # or one copy of the lowest tile stays a single
    for used, dm, dt, dp in options:
        rest = list(c)
        for u in used:
            rest[u] -= 1
        value = min(value, _best(tuple(rest), sets, m + dm, t + dt, p + dp))
    return value


def sets_needed(n: int) -> int:
    return (n - 1) // 3


def regular(counts: tuple[int, ...]) -> int:
    return formula(counts, sets_needed(sum(counts)))


def seven_pairs(counts: tuple[int, ...]) -> int:
    return 6 - min(7, sum(c // 2 for c in counts))


def thirteen_orphans(counts: tuple[int, ...]) -> int:
    kinds = sum(counts[t] > 0 for t in TERMINALS_AND_HONORS)
    pair = any(counts[t] >= 2 for t in TERMINALS_AND_HONORS)
    return (12 if pair else 13) - kinds


def honors_and_knitted(counts: tuple[int, ...]) -> int:
    return min(13 - sum(counts[t] > 0 for t in (*seq, *range(27, 34))) for seq in KNITTED_SEQUENCES)


def knitted_straight(counts: tuple[int, ...]) -> int:
    best = 99
    for seq in KNITTED_SEQUENCES:
        rest = list(counts)
        missing = 0
        for t in seq:
            if rest[t]:
                rest[t] -= 1
            else:
                missing += 1
        best = min(best, missing + formula(tuple(rest), sets_needed(sum(counts)) - 3))
    return best


SHAPES = {
    "regular": regular,
    "seven_pairs": seven_pairs,
    "thirteen_orphans": thirteen_orphans,
    "knitted_straight": knitted_straight,
    "honors_and_knitted": honors_and_knitted,
}


def with_jokers(shape: str, counts: tuple[int, ...], jokers: int) -> int:
    """Brute force: the best over every choice of kinds the jokers stand for."""
    fn = SHAPES[shape]
    best = 99
    for choice in itertools.combinations_with_replacement(range(34), jokers):
        c = list(counts)
        for t in choice:
            c[t] += 1
        best = min(best, fn(tuple(c)))
    return best


def is_regular_win(counts: tuple[int, ...]) -> bool:
    """Sets and one pair, by plain recursion."""

    @cache
    def go(c: tuple[int, ...], pair: bool) -> bool:
        i = next((k for k, n in enumerate(c) if n), -1)
        if i < 0:
            return pair
        rest = list(c)
        if c[i] >= 3:
            rest[i] -= 3
            if go(tuple(rest), pair):
                return True
            rest[i] += 3
        if c[i] >= 2 and not pair:
            rest[i] -= 2
            if go(tuple(rest), True):
                return True
            rest[i] += 2
        if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
            rest[i] -= 1
            rest[i + 1] -= 1
            rest[i + 2] -= 1
            if go(tuple(rest), pair):
                return True
        return False

    return go(tuple(counts), False)


def eight_pairs(counts: tuple[int, ...], four_as_two: bool = False) -> int:
    """八对 by enumeration: 16 − the most tiles a target of 8 pairs + 1 odd tile keeps (floor −1/0).

    The pair kinds are tried among the kinds present (each at most once, or twice with ``four_as_two``);
    the remaining pairs use absent kinds, which keep nothing.
    """
    present = [t for t in range(34) if counts[t]]
    pool = present * (2 if four_as_two else 1)
    best = 0
    for k in range(min(8, len(pool)) + 1):
        for combo in set(itertools.combinations(sorted(pool), k)):
            need = [0] * 34
            for t in combo:
                need[t] += 2
            kept = sum(min(counts[t], need[t]) for t in range(34))
            kept += any(counts[t] > need[t] for t in range(34))
            best = max(best, kept)
    floor = -1 if sum(counts) % 3 == 2 else 0
    return max(floor, 16 - best)


def eight_pairs_with_jokers(counts: tuple[int, ...], jokers: int, four_as_two: bool = False) -> int:
    """Brute force over what the jokers stand for: kinds present or (equivalently) up to two absent ones."""
    present = [t for t in range(34) if counts[t]]
    absent = [t for t in range(34) if not counts[t]][:jokers]
    best = 99
    for choice in itertools.combinations_with_replacement(present + absent, jokers):
        c = list(counts)
        for t in choice:
            c[t] += 1
        best = min(best, eight_pairs(tuple(c), four_as_two))
    return best
