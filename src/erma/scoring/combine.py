"""Set-group fans and the principles that bound them: 不得相同 (no repeat with the same set) and 套算一次
(an unused set combines once with a used one), as the reference calculator applies them.

Chows (by lowest tile) and pungs (by tile) come sorted in reference order. The table gives the
candidate fans of each size in priority order; the predicates are :mod:`erma.scoring.detectors`'s.

Chows: a fan of four chows ends the search; else the first three-chow fan found (trying the triples
012, 013, 023, 123) and at most one two-chow fan pairing the fourth chow with one of the three; else
the two-chow fans of every pair, at most (chows related to another) − 1 of them, dropping repeats of
the lowest-priority fans first (234567s234567p: 喜相逢 ×2 + 连六 ×1, not ×2 each).

Pungs: a four-pung fan ends the search; else the first three-pung fan found and at most one two-pung
fan pairing the fourth pung; else every pair's two-pung fan.

>>> from erma.scoring.table import load_table
>>> plan = GroupPlan.for_table(load_table("mcr"))
>>> found = combine_chows((0, 3, 9, 12), plan)  # 123m 456m 123p 456p: 喜相逢 ×2 + 连六 ×1
>>> sorted((k, len(v)) for k, v in found.items())
[('mixed_double_chow', 2), ('short_straight', 1)]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from erma.frozen import reduce_frozen
from erma.scoring.detectors import REGISTRY, Hit
from erma.scoring.table import FanTable
from erma.tiles import Tile

Pred = Callable[..., bool]
Cands = tuple[tuple[str, Pred], ...]

_TRIPLES: Final = ((0, 1, 2, 3), (0, 1, 3, 2), (0, 2, 3, 1), (1, 2, 3, 0))
_PAIRS4: Final[tuple[tuple[int, int], ...]] = ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))
_PAIRS3: Final[tuple[tuple[int, int], ...]] = ((0, 1), (0, 2), (1, 2))


@dataclass(frozen=True, slots=True)
class GroupPlan:
    """The set-group fans a table scores, by family and size, in priority order."""

    chows: tuple[Cands, Cands, Cands]
    """Candidates over 2, 3 and 4 chows."""
    pungs: tuple[Cands, Cands, Cands]
    """Candidates over 2, 3 and 4 pungs."""

    @classmethod
    def for_table(cls, table: FanTable) -> GroupPlan:
        """Collect the table's set-group fans."""

        def cands(family: str, arity: int) -> Cands:
            out = []
            for row in table.rows:
                spec = REGISTRY[row.id]
                if spec.family == family and spec.arity == arity and spec.predicate is not None:
                    out.append((row.id, spec.predicate))
            return tuple(out)

        return cls(
            chows=(cands("chows", 2), cands("chows", 3), cands("chows", 4)),
            pungs=(cands("pungs", 2), cands("pungs", 3), cands("pungs", 4)),
        )

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Rebuilt through the constructor (copy, pickle; also when compiled)."""
        return reduce_frozen(self)


def _first(cands: Cands, *ts: Tile) -> str | None:
    for fan_id, pred in cands:
        if pred(*ts):
            return fan_id
    return None


def _chow(t: Tile) -> tuple[Tile, ...]:
    return (t, t + 1, t + 2)


def _add(out: dict[str, list[Hit]], fan_id: str, hit: Hit) -> None:
    out.setdefault(fan_id, []).append(hit)


def combine_chows(chows: Sequence[Tile], plan: GroupPlan) -> dict[str, list[Hit]]:
    """The chow-group fans of a reading's chows (lowest tiles, reference order)."""
    two, three, four = plan.chows
    out: dict[str, list[Hit]] = {}
    n = len(chows)
    if n == 4:
        f4 = _first(four, *chows)
        if f4:
            return {f4: [tuple(_chow(t) for t in chows)]}
        for i, j, k, x in _TRIPLES:
            f3 = _first(three, chows[i], chows[j], chows[k])
            if f3:
                out[f3] = [(_chow(chows[i]), _chow(chows[j]), _chow(chows[k]))]
                for fan_id, pred in two:
                    for m in (i, j, k):
                        if pred(chows[m], chows[x]):
                            out[fan_id] = [(_chow(chows[m]), _chow(chows[x]))]
                            return out
                return out
        found = [(_first(two, chows[a], chows[b]), a, b) for a, b in _PAIRS4]
        related = sum(1 for i in range(4) if any(f and i in (a, b) for f, a, b in found))
        return _bounded(found, related - 1, two, chows)
    if n == 3:
        f3 = _first(three, *chows)
        if f3:
            return {f3: [tuple(_chow(t) for t in chows)]}
        found = [(_first(two, chows[a], chows[b]), a, b) for a, b in _PAIRS3]
        return _bounded(found, 2, two, chows)
    if n == 2:
        f2 = _first(two, chows[0], chows[1])
        if f2:
            out[f2] = [(_chow(chows[0]), _chow(chows[1]))]
    return out


def _bounded(
    found: list[tuple[str | None, int, int]], max_cnt: int, two: Cands, chows: Sequence[Tile]
) -> dict[str, list[Hit]]:
    """套算一次: keep at most ``max_cnt`` pair fans, dropping repeats of the lowest-priority fans first."""
    order = [fan_id for fan_id, _ in two]
    count = {fan_id: 0 for fan_id in order}
    for f, _, _ in found:
        if f:
            count[f] += 1
    cnt = sum(count.values())
    limit = 1
    while cnt > max_cnt and limit >= 0:
        for fan_id in reversed(order):
            if cnt <= max_cnt:
                break
            while count[fan_id] > limit and cnt > max_cnt:
                count[fan_id] -= 1
                cnt -= 1
        limit -= 1
    out: dict[str, list[Hit]] = {}
    for f, a, b in found:
        if f and count[f] > len(out.get(f, ())):
            _add(out, f, (_chow(chows[a]), _chow(chows[b])))
    return out


def combine_pungs(pungs: Sequence[Tile], plan: GroupPlan, sizes: Sequence[int] = ()) -> dict[str, list[Hit]]:
    """The pung-group fans of a reading's pungs and kongs (tiles, reference order; ``sizes`` 3 or 4 each)."""
    two, three, four = plan.pungs

    def _pung(i: int) -> tuple[Tile, ...]:
        return (pungs[i],) * (sizes[i] if sizes else 3)

    out: dict[str, list[Hit]] = {}
    n = len(pungs)
    if n == 4:
        f4 = _first(four, *pungs)
        if f4:
            return {f4: [tuple(_pung(i) for i in range(n))]}
        for i, j, k, free in _TRIPLES:
            f3 = _first(three, pungs[i], pungs[j], pungs[k])
            if f3:
                out[f3] = [(_pung(i), _pung(j), _pung(k))]
                for m in range(4):
                    if m == free:
                        continue
                    f2 = _first(two, pungs[m], pungs[free])
                    if f2:
                        out[f2] = [(_pung(m), _pung(free))]
                        break
                return out
        pairs = _PAIRS4
    elif n == 3:
        f3 = _first(three, *pungs)
        if f3:
            return {f3: [tuple(_pung(i) for i in range(n))]}
        pairs = _PAIRS3
    elif n == 2:
        pairs = ((0, 1),)
    else:
        return out
    for a, b in pairs:
        f2 = _first(two, pungs[a], pungs[b])
        if f2:
            _add(out, f2, (_pung(a), _pung(b)))
    return out
