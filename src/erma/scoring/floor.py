"""The fan floor (番数下限): the fans toward a table's minimum that every reading of a win keeps, known from
the hand's facts alone — what a minimum check may settle without scoring the win (报听's legality,
:func:`erma.game.families.standard._scorable_wait`). Checked against every reading of the corpus with every
table (tests/scoring/test_floor.py)."""

from __future__ import annotations

from erma.scoring.features import ALL_SHAPES, F_CONCEALED, SHAPE_BITS
from erma.scoring.pipeline import DECLARED_FANS, PLANS, Plan, plan_for


def fan_floor(table: str, features: int, declared_ready: bool) -> int:
    """A floor of the fans toward the minimum (``counts_for_min``) that every reading of a win scores, in
    any shape the table scores, when the win's hand facts include ``features`` (hand facts only, such as
    :func:`erma.scoring.suits.kind_facts` and F_SELF_DRAWN or F_CONCEALED: fewer facts give a lower floor,
    never a wrong one) and, with ``declared_ready``, the winner had declared ready (报听's fans,
    :data:`DECLARED_FANS`). ``points_of_counts``-style minimum checks may skip scoring a win whose floor
    reaches the minimum: the win scores at least that much, whatever its readings. Memoised (a pure fact
    of the table)."""
    plan = PLANS.get(table)
    if plan is None:
        plan = PLANS[table] = plan_for(table)
    key = features << 1 | declared_ready
    memo = plan.floors
    found = memo.get(key)
    if found is None:
        if len(memo) > 1 << 12:  # a bound, far above what hands produce
            memo.clear()
        found = memo[key] = _floor(plan, features, declared_ready)
    return found


def _floor(plan: Plan, features: int, declared_ready: bool) -> int:
    """:func:`fan_floor` computed.

    In each shape the table scores, the *certain* fans are those every reading of that shape detects: the
    ``exact`` fans whose needs the facts (and the shape's bit) meet — the pipeline writes their hit without
    asking them (:func:`_selected`) — and, when declared, 报听's fans (their detectors read the flag, and
    门清报听 no claimed set: F_CONCEALED). Of those that count toward the minimum, a reading keeps some and
    loses the others (set D) to exclusions. A fan is removed only by a fan alive at its turn, which is kept
    or removed by a later one in the table's order: so every removed fan has a kept fan among those that
    exclude it directly or through others (its *excluders*). The kept fans are then worth at least the
    certain ones not in D, plus, for each f in D whose excluders include none of those, one excluder
    outside the certain fans (the least such; shared, so the largest of these minima is added, not their
    sum). The floor is the least of this over every D and shape, and, in a table with limit fans (役满: one
    alive keeps only those), the least limit fan's worth. A fan is worth its points once if it counts toward
    the minimum, else nothing. Partial exclusions (``count``, ``own``) are taken as whole ones."""
    rows = plan.rows
    above = plan.above
    if not above:
        above.update(excluders(plan))
    shapes = plan.table.shapes
    floor: int | None = None
    for shape in sorted(ALL_SHAPES if shapes is None else shapes):
        bits = features | SHAPE_BITS[shape]
        certain: list[str] = []
        for fan_id, _ in plan.by_shape[shape]:
            if not rows[fan_id].counts_for_min or plan.needs.get(fan_id, 0) & ~bits or fan_id in certain:
                continue
            if plan.exact.get(fan_id) or (
                declared_ready
                and (fan_id == DECLARED_FANS[0] or (fan_id == DECLARED_FANS[1] and features & F_CONCEALED))
            ):
                certain.append(fan_id)
        for d in range(1 << len(certain)):
            lost = [f for i, f in enumerate(certain) if d >> i & 1]
            kept = [f for i, f in enumerate(certain) if not d >> i & 1]
            pts = sum(rows[f].value for f in kept)
            extra = 0
            possible = True
            for f in lost:
                if not above[f].isdisjoint(kept):
                    continue  # its kept excluder may be one counted already
                outside = [
                    rows[g].value if rows[g].counts_for_min else 0 for g in above[f] if g not in certain
                ]
                if not outside:
                    possible = False  # nothing could remove it
                    break
                extra = max(extra, min(outside))
            if possible and (floor is None or pts + extra < floor):
                floor = pts + extra
    if plan.limits:
        least = min(rows[f].value if rows[f].counts_for_min else 0 for f in plan.limits)
        floor = least if floor is None else min(floor, least)
    return 0 if floor is None else floor


def excluders(plan: Plan) -> dict[str, frozenset[str]]:
    """Each fan of the table → the fans that exclude it, directly or through others."""
    excluded_by: dict[str, list[str]] = {}
    for g, targets in plan.targets.items():
        for t in targets:
            excluded_by.setdefault(t, []).append(g)
    out: dict[str, frozenset[str]] = {}
    for fan_id in plan.rows:
        seen: set[str] = set()
        todo = [fan_id]
        while todo:
            for g in excluded_by.get(todo.pop(), ()):
                if g not in seen:
                    seen.add(g)
                    todo.append(g)
        out[fan_id] = frozenset(seen)
    return out
