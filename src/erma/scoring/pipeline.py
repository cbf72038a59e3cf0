"""The scoring pipeline (算番): decompose → detect → exclude → total → best, each step a pure function.

>>> r = score_record({"packs": [], "hand": "1112345678999m", "win_tile": "5m"})
>>> [(f["name_zh"], f["points"], f["count"]) for f in r["fans"]], r["total"]
([('九莲宝灯', 88, 1), ('双暗刻', 2, 1), ('幺九刻', 1, 1)], 91)
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from erma.errors import ErmaError
from erma.frozen import reduce_frozen
from erma.scoring.combine import GroupPlan, combine_chows, combine_pungs
from erma.scoring.context import WinContext, read_record
from erma.scoring.detectors import REGISTRY, Detector, Hit
from erma.scoring.facts import HandFacts, hand_facts
from erma.scoring.features import ALL_SHAPES, F_SHAPE_REGULAR, REGULAR
from erma.scoring.groups import KONG, part_text
from erma.scoring.plain import plain_facts
from erma.scoring.readings import HandView, readings, readings_of
from erma.scoring.table import FanRow, FanTable, load_table
from erma.tiles import NUM_KINDS

Fans = dict[str, list[Hit]]
"""Fan id → its instances (hits), for one reading (a list, never changed in place: lists are shared)."""
Selection = tuple[tuple[tuple[str, Detector], ...], tuple[str, ...], tuple[str, ...]]
"""For a reading's facts: (the detectors to ask, the ids whose one hit is the whole hand, the ids whose one
hit is the winning tile) — the table's detectors of its shape whose needs the facts meet."""


@dataclass(frozen=True, slots=True)
class Plan:
    """A table compiled for scoring: which detectors to run, in which order."""

    table: FanTable
    """The fan table."""
    by_shape: dict[str, tuple[tuple[str, Detector], ...]]
    """Shape → (id, detector) of the table's fan detectors that read it, in table order."""
    groups: GroupPlan
    """The table's set-group fans."""
    fallbacks: tuple[tuple[str, Detector], ...]
    """Fans scored when nothing else counts (无番和)."""
    excluding: tuple[FanRow, ...]
    """Rows with exclusions, in table order."""
    rows: dict[str, FanRow]
    """Row by id."""
    order: dict[str, int]
    """Priority (table position) by id."""
    needs: dict[str, int] = field(default_factory=dict)
    """Facts each fan detector needs (``FanSpec.needs``), by id."""
    exact: dict[str, str] = field(default_factory=dict)
    """``FanSpec.exact`` by id ("hand" / "win": the needs decide the fan and its one hit)."""
    selected: dict[int, Selection] = field(default_factory=dict, compare=False, repr=False)
    """Memo: a reading's facts (its shape bit among them) → the detectors of its shape that they let run."""
    group_memo: dict[object, tuple[tuple[str, list[Hit]], ...]] = field(
        default_factory=dict, compare=False, repr=False
    )
    """Memo: a reading's chows, or its pungs and their sizes → the set-group fans they make."""
    has_limits: bool = False
    """The table has limit fans (役满): when one applies, only limit fans are kept."""
    value: dict[str, int] = field(default_factory=dict)
    """Points per instance by id."""
    per_instance: frozenset[str] = frozenset()
    """Ids counted once per instance."""
    limits: frozenset[str] = frozenset()
    """Ids of the limit fans."""
    declared_adds: bool | None = field(default=None, compare=False, repr=False)
    """Memo of :func:`_declared_adds` (set once, on first use)."""
    no_min: frozenset[str] = frozenset()
    """Ids that do not count for the minimum (flowers): a reading with only these scores the fallback."""
    excluders: frozenset[str] = frozenset()
    """Ids of the rows with exclusions."""
    heads: dict[str, tuple[dict[str, Any], bool]] = field(default_factory=dict)
    """By id: a template of the fan's result entry (id, names, points, count 1, tiles to be replaced),
    copied for each result, and whether the fan is counted per instance."""
    targets: dict[str, frozenset[str]] = field(default_factory=dict)
    """The ids each row with exclusions may remove, by id (a row with none of them present is skipped)."""
    outcomes: dict[tuple[str, ...], Outcome | None] = field(default_factory=dict, compare=False, repr=False)
    """Memo: a reading's detected fan ids → what steps 3 and 4 make of them (:func:`_outcome`)."""
    aligned: dict[tuple[str, ...], Outcome] = field(default_factory=dict, compare=False, repr=False)
    """Memo: the fans kept by the steps as written → their :class:`Outcome`, hits in that order."""
    floors: dict[int, int] = field(default_factory=dict, compare=False, repr=False)
    """Memo of :func:`erma.scoring.floor.fan_floor`: hand facts and the 报听 flag (``features << 1 |
    declared``) → the floor."""
    above: dict[str, frozenset[str]] = field(default_factory=dict, compare=False, repr=False)
    """Each fan's excluders, directly or through others (:func:`erma.scoring.floor.excluders`; filled on first
    use)."""

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Rebuilt through the constructor (copy, pickle; also when compiled)."""
        return reduce_frozen(self)


@functools.cache
def plan_for(table: str) -> Plan:
    """Compile the named table (cached)."""
    t = load_table(table)
    detectors = []
    fallbacks = []
    for row in t.rows:
        spec = REGISTRY[row.id]
        if spec.detect is None:
            continue
        if spec.fallback:
            fallbacks.append((row.id, spec.detect))
        else:
            detectors.append((row.id, spec.shapes, spec.detect))
    return Plan(
        table=t,
        by_shape={s: tuple((i, fn) for i, shapes, fn in detectors if s in shapes) for s in ALL_SHAPES},
        groups=GroupPlan.for_table(t),
        fallbacks=tuple(fallbacks),
        excluding=tuple(r for r in t.rows if r.excludes),
        rows={r.id: r for r in t.rows},
        order={r.id: i for i, r in enumerate(t.rows)},
        needs={r.id: REGISTRY[r.id].needs for r in t.rows},
        exact={r.id: REGISTRY[r.id].exact for r in t.rows},
        has_limits=any(r.limit for r in t.rows),
        value={r.id: r.value for r in t.rows},
        per_instance=frozenset(r.id for r in t.rows if r.per_instance),
        limits=frozenset(r.id for r in t.rows if r.limit),
        no_min=frozenset(r.id for r in t.rows if not r.counts_for_min),
        excluders=frozenset(r.id for r in t.rows if r.excludes),
        heads={
            r.id: (
                {
                    "id": r.id,
                    "name_zh": r.name_zh,
                    "name_en": r.name_en,
                    "points": r.value,
                    "count": 1,
                    "tiles": (),
                },
                r.per_instance,
            )
            for r in t.rows
        },
        targets={r.id: frozenset(ex.target for ex in r.excludes) for r in t.rows if r.excludes},
    )


def _selected(plan: Plan, shape: str, features: int) -> Selection:
    """The :data:`Selection` of a reading's facts (memoised)."""
    memo = plan.selected
    found = memo.get(features)
    if found is None:
        if len(memo) > 1 << 16:  # a bound, far above what hands produce
            memo.clear()
        needs = plan.needs
        exact = plan.exact
        met = [(i, fn) for i, fn in plan.by_shape[shape] if not needs.get(i, 0) & ~features]
        found = memo[features] = (
            tuple((i, fn) for i, fn in met if not exact.get(i)),
            tuple(i for i, _ in met if exact.get(i) == "hand"),
            tuple(i for i, _ in met if exact.get(i) == "win"),
        )
    return found


def detect(view: HandView, plan: Plan) -> Fans:
    """Step 2: every fan of the table that applies to this reading, before exclusions.

    Detectors whose declared needs (``FanSpec.needs``) the reading lacks are not asked: they find nothing.
    Those whose needs decide them (``FanSpec.exact``) are not asked either: their one hit is written here
    (one list, shared by those fans: fans are never changed in place).
    """
    ids, hits = _detect(view, plan)
    return dict(zip(ids, hits, strict=True))


Found = tuple[list[str], list[list[Hit]]]
"""A reading's detected fans as two lists side by side: the ids in the order found, and their hits."""


def _detect(view: HandView, plan: Plan) -> Found:
    """:func:`detect` as two lists (no dict built: the memoised outcome says where each kept fan is)."""
    ids: list[str] = []
    hits: list[list[Hit]] = []
    features = view.features  # the shape's bit among them
    chosen = plan.selected.get(features)
    if chosen is None:
        chosen = _selected(plan, view.shape, features)
    ask, whole, win = chosen
    for fan_id, fn in ask:
        found = fn(view)
        if found:
            ids.append(fan_id)
            hits.append(found)
    if whole:
        hit: list[Hit] = [(view.facts.tiles,)]
        for fan_id in whole:
            ids.append(fan_id)
            hits.append(hit)
    if win:
        hit = [((view.facts.win_tile,),)]
        for fan_id in win:
            ids.append(fan_id)
            hits.append(hit)
    if features & F_SHAPE_REGULAR:
        chows = view.chows
        if len(chows) >= 2:
            memo_g = plan.group_memo
            group = memo_g.get(chows)
            if group is None:
                group = _memo_groups(memo_g, chows, combine_chows(chows, plan.groups))
            for fan_id, group_hits in group:
                ids.append(fan_id)
                hits.append(group_hits)
        pungs = view.pungs
        if len(pungs) >= 2:
            if view.melded_kongs or view.concealed_kongs:
                kongs = {g.tile for g in view.sets if g.kind == KONG}
                sizes = tuple([4 if t in kongs else 3 for t in pungs])
            else:
                sizes = _THREES[len(pungs)]
            gkey = (pungs, sizes)
            memo_g = plan.group_memo
            group = memo_g.get(gkey)
            if group is None:
                group = _memo_groups(memo_g, gkey, combine_pungs(pungs, plan.groups, sizes))
            for fan_id, group_hits in group:
                ids.append(fan_id)
                hits.append(group_hits)
    return ids, hits


_THREES: Final[tuple[tuple[int, ...], ...]] = tuple((3,) * n for n in range(6))


def _memo_groups(
    memo: dict[object, tuple[tuple[str, list[Hit]], ...]], key: object, fans: dict[str, list[Hit]]
) -> tuple[tuple[str, list[Hit]], ...]:
    """Store the set-group fans of a reading's chows or pungs (bounded; the keys are few in practice).
    The hits are shared by every reading that finds them: fans are never changed in place."""
    if len(memo) > 1 << 17:
        memo.clear()
    found = memo[key] = tuple([(k, v) for k, v in fans.items()])
    return found


def exclude(fans: Fans, plan: Plan) -> Fans:
    """Step 3: apply the table's exclusions (不计) in priority order; a removed fan excludes nothing."""
    out = dict(fans)  # the lists are replaced, never changed in place
    rows = plan.rows
    present = plan.excluders.intersection(fans)
    targets = plan.targets
    for fan_id in sorted(present, key=plan.order.__getitem__) if len(present) > 1 else present:
        mine = out.get(fan_id)
        if not mine or targets[fan_id].isdisjoint(out):
            continue
        row = rows[fan_id]
        for ex in row.excludes:
            target = out.get(ex.target)
            if not target:
                continue
            if ex.own:
                own_parts = {p for hit in mine for p in hit}
                target = [h for h in target if not all(p in own_parts for p in h)]
            elif ex.count:
                target = target[: max(0, len(target) - ex.count)]
            else:
                target = []
            if target:
                out[ex.target] = target
            else:
                del out[ex.target]
    return out


def count_of(row: FanRow, hits: list[Hit]) -> int:
    """Instances counted: every hit for a per-instance fan, else one."""
    return len(hits) if row.per_instance else 1


def total(fans: Fans, plan: Plan) -> int:
    """Step 4: the points of a reading (limit fans alone when any applies)."""
    value = plan.value
    per_instance = plan.per_instance
    keys: Iterable[str] = fans
    if plan.limits and not plan.limits.isdisjoint(fans):
        keys = [k for k in fans if k in plan.limits]
    pts = sum(map(value.__getitem__, keys))  # one instance each, summed in C
    for k in per_instance.intersection(keys):  # the rest of the per-instance fans' instances
        pts += value[k] * (len(fans[k]) - 1)
    return pts


def score_view(view: HandView, plan: Plan) -> tuple[Fans, int]:
    """Steps 2–4 for one reading: its fans after exclusions (and the fallback), in table order, and its
    total."""
    hits, out, pts = _score(view, plan)
    return _kept_fans(hits, out), pts


def _kept_fans(hits: list[list[Hit]], out: Outcome) -> Fans:
    """The fans an outcome keeps, by id in table order."""
    return {k.id: hits[k.index] for k in out.kept}


class Kept:
    """A fan an :class:`Outcome` keeps: its id, its result entry's template (id, names, points, count 1),
    its points, whether it counts per instance, and where its hits are in the reading's detected lists
    (:data:`Found`, the fallbacks' after them). A plain class (native when compiled)."""

    __slots__ = ("each", "head", "id", "index", "points")

    id: str
    head: dict[str, Any]
    points: int
    each: bool
    index: int

    def __init__(self, id: str, head: dict[str, Any], points: int, each: bool, index: int) -> None:
        self.id = id
        self.head = head
        self.points = points
        self.each = each
        self.index = index


class Outcome:
    """What steps 3 and 4 make of a reading whose detected fans are known (:func:`_outcome`): the fans kept,
    in table order (their ids, and each as :class:`Kept`), their points with one instance each, the
    per-instance ones among those counted (whose further instances add up), and the fallbacks to ask.
    A plain class (native when compiled)."""

    __slots__ = ("each", "fallbacks", "ids", "kept", "points")

    ids: tuple[str, ...]
    kept: tuple[Kept, ...]
    points: int
    each: tuple[Kept, ...]
    fallbacks: tuple[tuple[str, Detector], ...]

    def __init__(
        self,
        ids: tuple[str, ...],
        kept: tuple[Kept, ...],
        points: int,
        each: tuple[Kept, ...],
        fallbacks: tuple[tuple[str, Detector], ...],
    ) -> None:
        self.ids = ids
        self.kept = kept
        self.points = points
        self.each = each
        self.fallbacks = fallbacks


def _kept(plan: Plan, ids: tuple[str, ...], where: dict[str, int]) -> tuple[Kept, ...]:
    """The :class:`Kept` of each id (in that order), its hits at ``where[id]``."""
    heads = plan.heads
    value = plan.value
    return tuple([Kept(k, heads[k][0], value[k], heads[k][1], where[k]) for k in ids])


def _score(view: HandView, plan: Plan) -> tuple[list[list[Hit]], Outcome, int]:
    """:func:`score_view` as (the hits, the outcome that says which of them are kept, the total).

    What steps 3 and 4 make of a reading depends, but for partial exclusions (``count``, ``own``), only on
    which fans it has: that outcome is memoised by the detected fan ids (:func:`_outcome`), and the
    steps run as written only for the readings a partial exclusion touches.
    """
    ids, hits = _detect(view, plan)
    key = tuple(ids)
    memo = plan.outcomes.get(key, _UNSEEN)
    out: Outcome | None = _outcome(plan, key) if memo is _UNSEEN else memo
    if out is not None:
        for _, fn in out.fallbacks:
            hits.append(fn(view))
        pts = out.points
        for k in out.each:
            pts += k.points * (len(hits[k.index]) - 1)
        return hits, out, pts
    fans = dict(zip(ids, hits, strict=True))
    if not plan.excluders.isdisjoint(fans):
        fans = exclude(fans, plan)
    limits = plan.limits
    if limits and not limits.isdisjoint(fans):
        fans = {k: v for k, v in fans.items() if k in limits}  # 役满: the limit fans alone
    if fans.keys() <= plan.no_min:
        for fan_id, fn in plan.fallbacks:
            fans[fan_id] = fn(view)
    kept = tuple(sorted(fans, key=plan.order.__getitem__))
    aligned = plan.aligned.get(kept)
    if aligned is None:
        aligned = _aligned(plan, kept)
    return [fans[k] for k in kept], aligned, total(fans, plan)


def _aligned(plan: Plan, kept: tuple[str, ...]) -> Outcome:
    """The outcome of fans ``kept`` (in table order) whose hits are listed in that order (the steps as
    written: the points are the caller's). Memoised in ``plan.aligned``."""
    memo = plan.aligned
    if len(memo) > 1 << 16:  # a bound, far above what hands produce
        memo.clear()
    got = memo[kept] = Outcome(kept, _kept(plan, kept, {k: i for i, k in enumerate(kept)}), 0, (), ())
    return got


_UNSEEN: Final[Any] = object()


def _outcome(plan: Plan, ids: tuple[str, ...]) -> Outcome | None:
    """What :func:`exclude`, the limit fans, the fallback and :func:`total` make of a reading whose fans
    are ``ids``, when that does not depend on the hits (no partial exclusion applies); else None.
    Memoised in ``plan.outcomes``."""
    memo = plan.outcomes
    if len(memo) > 1 << 16:  # a bound, far above what hands produce
        memo.clear()
    alive = set(ids)
    for fan_id in sorted(plan.excluders.intersection(ids), key=plan.order.__getitem__):
        if fan_id not in alive:
            continue  # a removed fan excludes nothing
        for ex in plan.rows[fan_id].excludes:
            if ex.target in alive:
                if ex.own or ex.count:
                    memo[ids] = None  # the hits decide: the steps run as written
                    return None
                alive.discard(ex.target)
    limits = plan.limits
    if limits and not limits.isdisjoint(alive):
        alive &= limits  # 役满: the limit fans alone
    fallbacks = plan.fallbacks if alive <= plan.no_min else ()
    kept_ids = tuple(sorted(alive.union(i for i, _ in fallbacks), key=plan.order.__getitem__))
    counted = (
        [k for k in kept_ids if k in limits] if limits and not limits.isdisjoint(kept_ids) else kept_ids
    )  # as total
    where = {k: i for i, k in enumerate(ids)}  # (the last one, as a dict keeps it, were an id found twice)
    for j, (fan_id, _) in enumerate(fallbacks):
        where[fan_id] = len(ids) + j  # the fallbacks' hits are appended after the detected ones
    kept = _kept(plan, kept_ids, where)
    got = Outcome(
        kept_ids,
        kept,
        sum(plan.value[k] for k in counted),
        tuple([k for k in kept if k.id in counted and k.id in plan.per_instance]),
        fallbacks,
    )
    memo[ids] = got
    return got


@dataclass(slots=True, unsafe_hash=True)
class ScoredFan:
    """One fan of a result (番种): what it is, its points, how many times, and the tiles that make it.

    A value: nothing changes it once built. Not a frozen dataclass only for speed (as
    :class:`~erma.scoring.context.WinContext`: the constructor is written out, native when compiled; every
    win the engine scores builds one a fan)."""

    id: str
    """Fan id."""
    name_zh: str
    """Chinese name."""
    name_en: str
    """English name."""
    points: int
    """Points per instance."""
    count: int
    """Instances counted."""
    tiles: tuple[str, ...]
    """Each instance's sets or tiles, in mpsz (sets separated by spaces)."""

    def __init__(
        self, id: str, name_zh: str, name_en: str, points: int, count: int, tiles: tuple[str, ...]
    ) -> None:
        """The dataclass's constructor written out (compiled, it is native code)."""
        self.id = id
        self.name_zh = name_zh
        self.name_en = name_en
        self.points = points
        self.count = count
        self.tiles = tiles

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape: id, name_zh, name_en, points, count, tiles."""
        return {
            "id": self.id,
            "name_zh": self.name_zh,
            "name_en": self.name_en,
            "points": self.points,
            "count": self.count,
            "tiles": list(self.tiles),
        }

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Rebuilt through the constructor (copy, pickle; also when compiled)."""
        return reduce_frozen(self)


@dataclass(frozen=True, slots=True)
class ScoreResult:
    """A scored winning hand: the fans of the best reading, the total and the capped total."""

    fans: tuple[ScoredFan, ...]
    """Counted fans in table order."""
    total: int
    """Sum of points × count (limit fans alone if any applies)."""
    capped_total: int
    """The total after the table's cap (== total without a cap)."""
    reading: str
    """The chosen reading in mpsz (sets and pair), for explanations."""

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape of :func:`score_record`."""
        return {
            "fans": [f.to_dict() for f in self.fans],
            "total": self.total,
            "capped_total": self.capped_total,
            "reading": self.reading,
        }

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Rebuilt through the constructor (copy, pickle; also when compiled)."""
        return reduce_frozen(self)


_NUM_KINDS: Final = 34
"""``erma.tiles.NUM_KINDS`` (a name imported from another module is looked up in the module's dict at
each use in compiled code; a Final literal is a constant)."""
_SAME_TEXT: Final = tuple(tuple(part_text((t,) * n) for t in range(NUM_KINDS)) for n in range(5))
"""By the number of tiles (1–4) and the kind: the text of a tile, pair, pung or kong."""
_CHOW_TEXT: Final = tuple(
    part_text((t, t + 1, t + 2)) if t < 27 and t % 9 <= 6 else "" for t in range(NUM_KINDS)
)
"""By its lowest tile: the text of a chow ("" where no chow starts)."""


def _part_text(p: tuple[int, ...]) -> str:
    """The text of one part of a hit: a set, a pair or a tile from the tables above (no hashing of the
    part), anything else through :func:`~erma.scoring.groups.part_text`."""
    n = len(p)
    if 1 <= n <= 4:
        t = p[0]
        if 0 <= t < _NUM_KINDS:
            if n == 1 or (p[1] == t and (n == 2 or (p[2] == t and (n == 3 or p[3] == t)))):
                return _SAME_TEXT[n][t]
            if n == 3 and p[1] == t + 1 and p[2] == t + 2:
                text = _CHOW_TEXT[t]
                if text:
                    return text
    return part_text(p)


def _hit_text(hit: Hit) -> str:
    """The text of one instance: its parts' texts, separated by spaces (empty parts left out)."""
    n = len(hit)
    if n <= 1:
        return _part_text(hit[0]) if n else ""  # (a flower's hit is empty: no tile named)
    if n == 2:  # most set-group fans: one string built (no list, no join)
        a = _part_text(hit[0])
        b = _part_text(hit[1])
        if a and b:
            return f"{a} {b}"
        return a or b
    texts = []
    for p in hit:
        text = _part_text(p)
        if text:
            texts.append(text)
    return " ".join(texts)


def _text_of(hit: Hit, facts: HandFacts) -> str:
    """The text of one instance: the hand's own text for a whole-hand hit, else its parts' texts."""
    if len(hit) == 1:
        p = hit[0]
        if p is facts.tiles:
            return facts.text
        return _part_text(p)
    return _hit_text(hit)


def best(views: list[HandView], plan: Plan) -> tuple[HandView, Fans, int] | None:
    """Step 5: the reading with the highest total, with the table's tie-breaks (就高不就低)."""
    found = _best(views, plan)
    if found is None:
        return None
    view, hits, out, pts = found
    return view, _kept_fans(hits, out), pts


Best = tuple[HandView, list[list[Hit]], Outcome, int]
"""The best reading, its hits and outcome (:func:`_score`) and its total."""


def _best(views: list[HandView], plan: Plan) -> Best | None:
    """:func:`best` with the fans as :func:`_score` gives them."""
    if plan.table.shapes is not None:
        views = [v for v in views if v.shape in plan.table.shapes]
    if len(views) == 1:  # most hands: one reading, nothing to compare
        v = views[0]
        hits, out, pts = _score(v, plan)
        return v, hits, out, pts
    chosen: Best | None = None
    top = -1
    yielding = False
    prefer = plan.table.prefer
    for i, v in enumerate(views):
        hits, out, pts = _score(v, plan)
        if pts > top or (pts == top and (yielding or not prefer.isdisjoint(out.ids))):
            chosen = (v, hits, out, pts)
        if pts > top:
            top = pts
        if i == 0 and v.shape != REGULAR:
            yielding = not plan.table.yield_to_later.isdisjoint(out.ids)
    return chosen


def score(ctx: WinContext, table: str = "mcr") -> ScoreResult | None:
    """Score a win context with a table; None if the hand does not win."""
    plan = plan_for(table)
    _, views = readings(ctx)
    found = _best(views, plan)
    if found is None:
        return None
    view, hits, out, pts = found
    scored = tuple(
        [
            ScoredFan(e["id"], e["name_zh"], e["name_en"], e["points"], e["count"], tuple(e["tiles"]))
            for e in _entries(view, hits, out)
        ]
    )
    return ScoreResult(scored, pts, _capped(pts, plan), view.describe())


FanCount = tuple[str, int, int]
"""(fan id, points per instance, instances) of one scored fan, as :class:`ScoredFan` has them."""


def score_counts(ctx: WinContext, table: str = "mcr") -> tuple[tuple[FanCount, ...], int] | None:
    """:func:`score` reduced to what a points rule reads: each kept fan's (id, points, count) in table order
    and the capped total; None if the hand does not win. The same reading and fans as :func:`score`,
    without the tile texts and the reading's description (the bots score thousands of imagined wins a
    decision)."""
    plan = plan_for(table)
    _, views = readings(ctx)
    found = _best(views, plan)
    if found is None:
        return None
    _, hits, out, pts = found
    return _fan_counts(hits, out), _capped(pts, plan)


def _fan_counts(hits: list[list[Hit]], out: Outcome) -> tuple[FanCount, ...]:
    """(id, points, count) of the fans kept, counted as :func:`_entries` counts them."""
    return tuple([(k.id, k.points, _count(k, len(hits[k.index]))) for k in out.kept])


def _count(k: Kept, n: int) -> int:
    """The count of a kept fan with ``n`` hits: every hit for a per-instance fan, else one."""
    return n if k.each and n > 1 else 1


def _capped(pts: int, plan: Plan) -> int:
    """A total under the table's cap (封顶), if it has one."""
    cap = plan.table.cap
    return min(pts, cap) if cap else pts


DECLARED_FANS: Final[tuple[str, ...]] = ("declared_ready", "declared_ready_concealed")
"""The fans 报听 alone adds (:mod:`erma.scoring.detectors.twoplayer`)."""
FLAGGED_FANS: Final[frozenset[str]] = frozenset({"heavenly_ready", "ready_one_shot"})
"""天听 and 报听一发: they need flags of their own, which :func:`score_counts_declared` requires false."""


def _declared_adds(plan: Plan) -> bool:
    """Whether 报听's fans only add to a reading of this table that has neither a limit fan (役满, which keeps
    only the limit fans) nor a fallback (无番和, which a counted fan drops): nothing excludes them and they
    exclude nothing, they are no limit fans, and no tie-break reads them or a fallback fan; fallbacks are
    worth more than nothing. Then, when the best reading is such a reading, 报听 raises it by its fans, raises
    the other such readings by as much and the rest by less, and it stays the best (see
    :func:`score_counts_declared`)."""
    found = plan.declared_adds
    if found is None:
        ids = frozenset(DECLARED_FANS).intersection(plan.rows)  # a frozenset (``& keys()`` gives a set)
        fallbacks = frozenset(i for i, _ in plan.fallbacks)
        ties = plan.table.prefer | plan.table.yield_to_later
        found = (
            ids.isdisjoint(plan.targets)
            and ids.isdisjoint(plan.limits)
            and all(ids.isdisjoint(t) for k, t in plan.targets.items() if k not in FLAGGED_FANS)
            and ids.isdisjoint(ties)
            and fallbacks.isdisjoint(ties)
            and all(plan.value[i] > 0 for i in fallbacks)
        )
        object.__setattr__(plan, "declared_adds", found)
    return found


def score_counts_declared(
    ctx: WinContext, table: str = "mcr"
) -> tuple[tuple[tuple[FanCount, ...], int] | None, tuple[tuple[FanCount, ...], int] | None]:
    """:func:`score_counts` of a win as it is (``ctx`` not declared ready) and as it would be after 报听
    (``declared_ready``). The second is made from the first where :func:`_declared_adds` shows it is the
    same (the best reading with 报听's fans added), else scored (half the work for the bots, which weigh
    every imagined win both ways)."""
    if ctx.declared_ready or ctx.declared_ready_first_turn or ctx.ready_one_shot:
        raise ValueError("score_counts_declared takes a win context without 报听 flags")
    plan = plan_for(table)
    facts, views = readings(ctx)
    found = _best(views, plan)
    if found is None:
        return None, None
    _, hits, out, pts = found
    plain = _fan_counts(hits, out)
    plain_result = (plain, _capped(pts, plan))
    kept = out.ids
    fallback = any(i in kept for i, _ in plan.fallbacks)
    if fallback or not _declared_adds(plan) or not plan.limits.isdisjoint(kept):
        return plain_result, score_counts(dataclasses.replace(ctx, declared_ready=True), table)
    rows = plan.rows
    added = [
        (k, rows[k].value, 1)
        for k in DECLARED_FANS
        if k in rows and (k == "declared_ready" or facts.melded_sets == 0)
    ]
    order = plan.order
    declared = sorted([*plain, *added], key=lambda x: order[x[0]])
    return plain_result, (tuple(declared), _capped(pts + sum(v for _, v, _ in added), plan))


def _entries(view: HandView, hits: list[list[Hit]], out: Outcome) -> list[dict[str, Any]]:
    """The result entries (``ScoredFan.to_dict`` shapes) of the fans an outcome keeps, in table order."""
    facts = view.facts
    return [_entry(k, hits[k.index], facts) for k in out.kept]


def _entry(k: Kept, found: list[Hit], facts: HandFacts) -> dict[str, Any]:
    """One result entry: a copy of the fan's template (much cheaper than building it key by key), with its
    count and its hits' texts."""
    entry = k.head.copy()
    n = len(found)
    if n == 0:
        entry["tiles"] = []
    elif n == 1 or not k.each:
        entry["tiles"] = [_text_of(found[0], facts)]
    else:
        entry["count"] = n
        entry["tiles"] = [_text_of(h, facts) for h in found]
    return entry


PLANS: Final[dict[str, Plan]] = {}
""":func:`plan_for`'s plans by table name, for score_record and the fan floor (:mod:`erma.scoring.floor`):
a dict look-up costs less than a cached call."""


def score_record(record: Mapping[str, Any], table: str = "mcr") -> dict[str, Any]:
    """Score one record (PyMahjongGB's vocabulary, see docs/scoring.md) with a fan table.

    Returns ``{"fans": [...], "total", "capped_total", "reading"}``, or ``{"error": "not_win" |
    "invalid_input", "message": …}``; never raises for a bad record (an unknown or malformed *table*
    raises :class:`~erma.errors.RuleSetError`, a configuration error).
    """
    plan = PLANS.get(table)
    if plan is None:
        plan = PLANS[table] = plan_for(table)  # a bad table is the caller's error: let RuleSetError through
    facts = plain_facts(record)  # most records: straight into the hand's facts
    if facts is None:
        try:
            facts = hand_facts(read_record(record))
        except ErmaError as exc:
            return {"error": "invalid_input", "message": str(exc)}
        except (TypeError, ValueError, KeyError) as exc:  # defensive: odd values inside the record
            return {"error": "invalid_input", "message": f"malformed record: {exc}"}
    found = _best(readings_of(facts), plan)
    if found is None:
        return {"error": "not_win", "message": f"{facts.ctx.to_notation()} is not a winning hand"}
    view, hits, out, pts = found
    cap = plan.table.cap
    return {
        "fans": _entries(view, hits, out),
        "total": pts,
        "capped_total": min(pts, cap) if cap else pts,
        "reading": view.describe(),
    }
