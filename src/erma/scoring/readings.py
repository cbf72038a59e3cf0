"""Step 1 of the pipeline, *decompose* (拆解): every reading of a winning hand, in the reference's order.

A reading (:class:`HandView`) fixes the hand's shape and, for the set shapes, its sets and pair; it is
what the detectors read. :func:`readings` returns the special shape first when there is one (seven
pairs, thirteen orphans, honours and knitted, knitted straight + a set + a pair), then the regular
readings (4 sets and a pair) when no special shape applies or it is seven pairs, which competes with
them (就高不就低). Regular readings come in the reference calculator's order (its sets sorted, reference
tile order m < s < p < 东南西北 < 中发白), which its tie-breaks depend on.

>>> from erma.scoring.context import read_record
>>> facts, views = readings(read_record({"packs": [], "hand": "111222333m789p5z", "win_tile": "5z"}))
>>> [v.describe() for v in views]
['111m 222m 333m 789p 55z', '123m 123m 123m 789p 55z']
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, NamedTuple

from erma.analysis import decompositions
from erma.hand import MeldKind
from erma.scoring.context import WinContext
from erma.scoring.waits import is_unique_wait, regular_waits_counts
from erma.tiles import NUM_KINDS, TERMINALS_AND_HONORS, Tile, to_mpsz

REGULAR: Final = "regular"
"""基本和型: four sets and a pair."""
SEVEN_PAIRS: Final = "seven_pairs"
"""七对: seven pairs, concealed."""
THIRTEEN_ORPHANS: Final = "thirteen_orphans"
"""十三幺."""
HONORS_KNITTED: Final = "honors_and_knitted"
"""全不靠 / 七星不靠: fourteen singles of a knitted sequence and the honours."""
KNITTED: Final = "knitted_straight"
"""组合龙 + a set + a pair."""
ALL_SHAPES: Final = frozenset({REGULAR, SEVEN_PAIRS, THIRTEEN_ORPHANS, HONORS_KNITTED, KNITTED})

CHOW: Final = 0
PUNG: Final = 1
KONG: Final = 2

REF_ORDER: Final[tuple[int, ...]] = (
    *range(0, 9),  # 1–9m
    *range(18, 27),  # 1–9p after the bamboo
    *range(9, 18),  # 1–9s
    27,
    28,
    29,
    30,  # 东南西北
    33,  # 白 last
    32,  # 发
    31,  # 中 first of the dragons
)
"""Sort key of each kind in the reference calculator's tile order (m, s, p, winds, 中 发 白)."""

KNITTED_SEQUENCES: Final[tuple[tuple[Tile, ...], ...]] = tuple(
    tuple(sorted(9 * suit + r for suit, cls in enumerate(perm) for r in range(cls, 9, 3)))
    for perm in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))
)
"""The six knitted straights (组合龙): 147, 258, 369 each in a different suit."""


class Group(NamedTuple):
    """One set of a reading (面子): chow, pung or kong."""

    kind: int
    """CHOW, PUNG or KONG."""
    tile: Tile
    """Lowest tile of a chow; the tile of a pung or kong."""
    declared: bool
    """A declared set (副露, or a concealed kong), not formed from the standing tiles."""
    melded: bool
    """Claimed from a discard (明); a concealed kong and standing sets are not."""

    @property
    def tiles(self) -> tuple[Tile, ...]:
        """The tiles of the set."""
        if self.kind == CHOW:
            return (self.tile, self.tile + 1, self.tile + 2)
        return (self.tile,) * (4 if self.kind == KONG else 3)


@dataclass(slots=True)
class HandFacts:
    """What every reading of one hand shares: counts, the tiles, the corrected win flags."""

    ctx: WinContext
    """The win context read from the record."""
    counts: list[int]
    """Count of each kind over the whole hand (declared sets, standing tiles, winning tile)."""
    standing: list[int]
    """Count of each kind among the standing tiles with the winning tile."""
    tiles: tuple[Tile, ...]
    """Every tile of the hand, sorted (kongs give four)."""
    kinds: tuple[Tile, ...]
    """The kinds present, sorted."""
    declared: tuple[Group, ...]
    """The declared sets as groups."""
    melded_sets: int
    """Declared sets claimed from a discard (concealed kongs are not)."""
    self_drawn: bool
    """自摸."""
    last_tile: bool
    """和绝张 after the reference's corrections (never with a copy in hand; forced by three in sets)."""
    kong_involved: bool
    """杠上开花 / 抢杠和 after the corrections (needs a kong / a first copy)."""
    wall_last: bool
    """The last wall tile."""
    suits: int = 0
    """Number of suits present (0–3)."""
    honors: bool = False
    """Any honour present."""
    winds: bool = False
    """Any wind present."""
    dragons: bool = False
    """Any dragon present."""
    ranks: tuple[int, int] = (0, 0)
    """Lowest and highest rank (1–9) of the suited tiles; (0, 0) if none."""
    terminals_only: bool = False
    """Only 1s and 9s (清幺九 tiles)."""
    outside_only: bool = False
    """Only terminals and honours (混幺九 tiles)."""
    simples_only: bool = False
    """No terminal or honour (断幺 tiles)."""
    _unique_wait: bool | None = field(default=None, repr=False)

    @property
    def unique_wait(self) -> bool:
        """独听 of the standing tiles (regular and seven-pairs waits, copy limit ignored)."""
        if self._unique_wait is None:
            self._unique_wait = is_unique_wait(
                self.standing, self.ctx.win_tile, seven_pairs=len(self.ctx.concealed) == 13
            )
        return self._unique_wait


@dataclass(slots=True)
class HandView:
    """One reading of a winning hand: its shape and, for set shapes, its sets and pair."""

    facts: HandFacts
    """What all readings share."""
    shape: str
    """One of the shape names (REGULAR, SEVEN_PAIRS, …)."""
    sets: tuple[Group, ...] = ()
    """The sets: declared first, then those of the standing tiles (knitted: the one set beside the 组合龙)."""
    pair: Tile = -1
    """The pair's kind (雀头), −1 if the shape has none."""
    knitted: tuple[Tile, ...] = ()
    """The nine tiles of the knitted straight (组合龙), if the reading has one."""
    chows: tuple[Tile, ...] = ()
    """Lowest tile of each chow, in reference order."""
    pungs: tuple[Tile, ...] = ()
    """Tile of each pung and kong, in reference order."""
    concealed_pungs: int = 0
    """Concealed pungs and kongs (暗刻), after a discard completing a pung made it melded."""
    melded_kongs: int = 0
    """Claimed kongs (明杠, exposed or added)."""
    concealed_kongs: int = 0
    """Concealed kongs (暗杠)."""
    _wait: int = field(default=-1, repr=False)

    def describe(self) -> str:
        """The reading in mpsz, sets then pair: ``123m 123m 123m 789p 55z``."""
        parts = [to_mpsz(g.tiles) for g in self.sets]
        if self.pair >= 0:
            parts.append(to_mpsz((self.pair, self.pair)))
        if self.knitted:
            parts.insert(0, to_mpsz(self.knitted))
        if self.shape in (SEVEN_PAIRS, THIRTEEN_ORPHANS, HONORS_KNITTED):
            return to_mpsz(self.facts.tiles)
        return " ".join(parts)

    @property
    def concealed_sets(self) -> tuple[Group, ...]:
        """Sets formed from the standing tiles."""
        return tuple(g for g in self.sets if not g.declared)

    def wait_kind(self) -> int:
        """0 none, 1 边张, 2 嵌张, 3 单钓将: the reference's wait fan for this reading (unique waits only)."""
        if self._wait < 0:
            self._wait = self._wait_kind()
        return self._wait

    def _wait_kind(self) -> int:
        f = self.facts
        win = f.ctx.win_tile
        if self.shape == KNITTED:
            if f.ctx.melds:
                if win not in self.knitted or f.standing[win] == 3:
                    return 3
                return 0
            rest = list(f.standing)
            for t in self.knitted:
                rest[t] -= 1
            rest[win] -= 1
            if len(regular_waits_counts(rest)) != 1:
                return 0
        elif self.shape != REGULAR or not f.unique_wait:
            return 0
        pos = 0
        for g in self.sets:
            if g.declared or g.kind != CHOW:
                continue
            mid = g.tile + 1
            if mid == win:
                pos |= 2
            elif mid + 1 == win or mid - 1 == win:
                pos |= 1
        if self.pair == win:
            pos |= 4
        if pos & 1:
            return 1
        if pos & 2:
            return 2
        return 3 if pos & 4 else 0


def _declared_group(kind: MeldKind, tile: Tile) -> Group:
    if kind is MeldKind.CHOW:
        return Group(CHOW, tile, True, True)
    if kind is MeldKind.PUNG:
        return Group(PUNG, tile, True, True)
    return Group(KONG, tile, True, kind is not MeldKind.CONCEALED_KONG)


def hand_facts(ctx: WinContext) -> HandFacts:
    """The shared facts of a hand, with the reference's corrections of the win flags."""
    counts = [0] * NUM_KINDS
    standing = [0] * NUM_KINDS
    fixed = [0] * NUM_KINDS
    declared = tuple(_declared_group(m.kind, m.tile) for m in ctx.melds)
    for g in declared:
        for t in g.tiles:
            fixed[t] += 1
    for t in ctx.concealed:
        standing[t] += 1
    win = ctx.win_tile
    standing[win] += 1
    tiles: list[Tile] = []
    for t in range(NUM_KINDS):
        n = counts[t] = standing[t] + fixed[t]
        if n:
            tiles.extend((t,) * n)
    last = ctx.fourth_tile and standing[win] == 1
    if fixed[win] == 3:
        last = True
    kong = ctx.about_kong
    if kong:
        if ctx.self_drawn:
            kong = any(g.kind == KONG for g in declared)
        else:
            kong = fixed[win] == 0 and standing[win] == 1
    kinds = tuple(t for t in range(NUM_KINDS) if counts[t])
    suited = [t for t in kinds if t < 27]
    ranks = [t % 9 + 1 for t in suited]
    edge = sum(1 for r in ranks if r in (1, 9))
    return HandFacts(
        suits=len({t // 9 for t in suited}),
        honors=len(suited) < len(kinds),
        winds=any(27 <= t <= 30 for t in kinds),
        dragons=kinds[-1] >= 31,
        ranks=(min(ranks), max(ranks)) if ranks else (0, 0),
        terminals_only=edge == len(kinds),
        outside_only=edge + len(kinds) - len(suited) == len(kinds),
        simples_only=edge == 0 and len(suited) == len(kinds),
        ctx=ctx,
        counts=counts,
        standing=standing,
        tiles=tuple(tiles),
        kinds=kinds,
        declared=declared,
        melded_sets=sum(g.melded for g in declared),
        self_drawn=ctx.self_drawn,
        last_tile=last,
        kong_involved=kong,
        wall_last=ctx.wall_last,
    )


def _ref_key(t: Tile) -> int:
    return REF_ORDER[t]


def _view(
    facts: HandFacts, shape: str, sets: tuple[Group, ...], pair: Tile, knitted: tuple[Tile, ...] = ()
) -> HandView:
    chows = sorted((g.tile for g in sets if g.kind == CHOW), key=_ref_key)
    pungs = sorted((g.tile for g in sets if g.kind != CHOW), key=_ref_key)
    concealed = [g for g in sets if g.kind != CHOW and not g.melded]
    cp = len(concealed)
    if shape == REGULAR and not facts.self_drawn:
        # A discard completing a concealed pung makes it melded, unless it can sit in a concealed chow.
        win = facts.ctx.win_tile
        if not any(not g.declared and g.tile <= win <= g.tile + 2 for g in sets if g.kind == CHOW):
            cp -= sum(1 for g in concealed if g.tile == win and g.kind == PUNG)
    return HandView(
        facts=facts,
        shape=shape,
        sets=sets,
        pair=pair,
        knitted=knitted,
        chows=tuple(chows),
        pungs=tuple(pungs),
        concealed_pungs=cp,
        melded_kongs=sum(1 for g in sets if g.kind == KONG and g.melded),
        concealed_kongs=sum(1 for g in sets if g.kind == KONG and not g.melded),
    )


def _special(facts: HandFacts) -> HandView | None:
    ctx = facts.ctx
    st = facts.standing
    if not ctx.melds:
        if all(n % 2 == 0 for n in st):
            return HandView(facts, SEVEN_PAIRS)
        kinds = facts.kinds
        if len(kinds) == 14:
            suited = [t for t in kinds if t < 27]
            if 7 <= len(suited) <= 9 and any(set(suited) <= set(seq) for seq in KNITTED_SEQUENCES):
                return HandView(facts, HONORS_KNITTED)
        if len(kinds) == 13 and kinds == TERMINALS_AND_HONORS_SORTED:
            return HandView(facts, THIRTEEN_ORPHANS)
    if len(ctx.melds) <= 1 and any(n >= 2 for n in st):
        for seq in KNITTED_SEQUENCES:
            if all(st[t] for t in seq):
                rest = list(st)
                for t in seq:
                    rest[t] -= 1
                if ctx.melds:
                    pairs = [t for t in range(NUM_KINDS) if rest[t]]
                    if len(pairs) != 1 or rest[pairs[0]] != 2:
                        return None
                    return _view(facts, KNITTED, facts.declared, pairs[0], seq)
                ds = decompositions([t for t in range(NUM_KINDS) for _ in range(rest[t])])
                if len(ds) != 1:
                    return None
                d = ds[0]
                g = (
                    Group(CHOW, d.chows[0], False, False)
                    if d.chows
                    else Group(PUNG, d.pungs[0], False, False)
                )
                return _view(facts, KNITTED, (g,), d.pair, seq)
    return None


TERMINALS_AND_HONORS_SORTED: Final = tuple(sorted(TERMINALS_AND_HONORS))


def readings(ctx: WinContext) -> tuple[HandFacts, list[HandView]]:
    """The hand's facts and every reading, special shape first, regular readings in reference order.

    An empty list means the hand does not win.
    """
    facts = hand_facts(ctx)
    out: list[HandView] = []
    special = _special(facts)
    if special is not None:
        out.append(special)
        if special.shape != SEVEN_PAIRS:
            return facts, out
    standing_tiles = [t for t in range(NUM_KINDS) for _ in range(facts.standing[t])]
    found = []
    for d in decompositions(standing_tiles):
        order = sorted([(REF_ORDER[t], 0) for t in d.pungs] + [(REF_ORDER[t], 1) for t in d.chows])
        found.append((order, d))
    found.sort(key=lambda x: x[0])
    for _, d in found:
        sets = (
            facts.declared
            + tuple(Group(PUNG, t, False, False) for t in d.pungs)
            + tuple(Group(CHOW, t, False, False) for t in d.chows)
        )
        out.append(_view(facts, REGULAR, sets, d.pair))
    return facts, out
