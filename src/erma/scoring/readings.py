"""Step 1 of the pipeline, *decompose* (拆解): every reading of a winning hand, in the reference's order.

A reading (:class:`HandView`) fixes the hand's shape and, for the set shapes, its sets and pair; it is
what the detectors read. :func:`readings` returns the special shape first when there is one (seven
pairs, thirteen orphans, honours and knitted, knitted straight + a set + a pair), then the regular
readings (4 sets and a pair) when no special shape applies or it is seven pairs, which competes with
them (就高不就低). Regular readings come in the reference calculator's order (its sets sorted, reference
tile order m < s < p < 东南西北 < 中发白), which its tie-breaks depend on. What every reading shares is
:class:`~erma.scoring.facts.HandFacts`; regular readings are put together from the per-group readings of
:mod:`erma.scoring.suits`.

>>> from erma.scoring.context import read_record
>>> facts, views = readings(read_record({"packs": [], "hand": "111222333m789p5z", "win_tile": "5z"}))
>>> [v.describe() for v in views]
['111m 222m 333m 789p 55z', '123m 123m 123m 789p 55z']
"""

from __future__ import annotations

from typing import Final

from erma.analysis.tables import INC
from erma.scoring.context import WinContext
from erma.scoring.facts import HandFacts, hand_facts
from erma.scoring.features import (
    F_CHOW,
    F_CONCEALED_PUNGS,
    F_EDGE_PAIR,
    F_KONG,
    F_NO_CHOW,
    F_NO_PUNG,
    F_PAIR_FIVE,
    F_PUNG,
    F_SHAPE_HONORS_KNITTED,
    F_SHAPE_REGULAR,
    F_SHAPE_SEVEN_PAIRS,
    F_SHAPE_THIRTEEN_ORPHANS,
    F_SUITED_PAIR,
    F_WAIT_CLOSED,
    F_WAIT_EDGE,
    F_WAIT_SINGLE,
    F_WAIT_SPOT,
    HONORS_KNITTED,
    KNITTED,
    M_HONORS,
    REGULAR,
    SEVEN_PAIRS,
    SHAPE_BITS,
    THIRTEEN_ORPHANS,
    pung_facts,
)
from erma.scoring.groups import (
    CHOW,
    KONG,
    REF_ORDER,
    STANDING_CHOW,
    STANDING_PUNG,
    Group,
    part_text,
    ref_key,
    ref_sorted,
)
from erma.scoring.suits import GroupReading, SetsAndPair, SuitInfos, standing_infos, suit_infos
from erma.scoring.waits import regular_wait_count
from erma.tiles import KNITTED_SEQUENCES, NUM_KINDS, TERMINALS_AND_HONORS, Tile, to_mpsz

_F_WAIT: Final = (0, F_WAIT_EDGE, F_WAIT_CLOSED, F_WAIT_SINGLE)
"""The wait fact by :meth:`HandView.wait_kind` (none, 边张, 嵌张, 单钓将)."""
_F_NO_SETS: Final = F_NO_CHOW | F_NO_PUNG
_ODD_BITS: Final = sum(INC)
"""The low bit of every kind's count in a packed key."""
_ODD_BITS9: Final = sum(1 << (4 * r) for r in range(9))
"""The low bit of every kind's count in a group's packed counts."""
_PAIR_TEXT: Final = tuple(to_mpsz((t, t)) for t in range(NUM_KINDS))
"""mpsz of each pair, by tile."""


class HandView:
    """One reading of a winning hand: its shape and, for set shapes, its sets and pair.

    A plain class with its own ``__init__`` (compiled, a native class: a dataclass's generated
    ``__init__`` would run as interpreted Python in the compiled build)."""

    __slots__ = (
        "_wait",
        "chows",
        "concealed_kongs",
        "concealed_pungs",
        "facts",
        "features",
        "knitted",
        "melded_kongs",
        "pair",
        "pungs",
        "sets",
        "shape",
    )

    facts: HandFacts
    """What all readings share."""
    shape: str
    """One of the shape names (REGULAR, SEVEN_PAIRS, …)."""
    sets: tuple[Group, ...]
    """The sets: declared first, then those of the standing tiles (knitted: the one set beside the 组合龙)."""
    pair: Tile
    """The pair's kind (雀头), −1 if the shape has none."""
    knitted: tuple[Tile, ...]
    """The nine tiles of the knitted straight (组合龙), if the reading has one."""
    chows: tuple[Tile, ...]
    """Lowest tile of each chow, in reference order."""
    pungs: tuple[Tile, ...]
    """Tile of each pung and kong, in reference order."""
    concealed_pungs: int
    """Concealed pungs and kongs (暗刻), after a discard completing a pung made it melded."""
    melded_kongs: int
    """Claimed kongs (明杠, exposed or added)."""
    concealed_kongs: int
    """Concealed kongs (暗杠)."""
    features: int
    """The facts (``F_*`` bits) that hold for this reading: the hand's and the reading's."""
    _wait: int
    """:meth:`wait_kind` once known, −1 before."""

    def __init__(
        self,
        facts: HandFacts,
        shape: str,
        sets: tuple[Group, ...] = (),
        pair: Tile = -1,
        knitted: tuple[Tile, ...] = (),
        chows: tuple[Tile, ...] = (),
        pungs: tuple[Tile, ...] = (),
        concealed_pungs: int = 0,
        melded_kongs: int = 0,
        concealed_kongs: int = 0,
        features: int = 0,
        wait: int = -1,
    ) -> None:
        self.facts = facts
        self.shape = shape
        self.sets = sets
        self.pair = pair
        self.knitted = knitted
        self.chows = chows
        self.pungs = pungs
        self.concealed_pungs = concealed_pungs
        self.melded_kongs = melded_kongs
        self.concealed_kongs = concealed_kongs
        self.features = features
        self._wait = wait

    def __repr__(self) -> str:
        return f"HandView({self.shape!r}, {self.describe()!r})"

    def describe(self) -> str:
        """The reading in mpsz, sets then pair: ``123m 123m 123m 789p 55z``."""
        if self.shape in (SEVEN_PAIRS, THIRTEEN_ORPHANS, HONORS_KNITTED):
            return self.facts.text or part_text(self.facts.tiles)
        sets = self.sets
        if len(sets) == 4 and self.pair >= 0 and not self.knitted:  # most readings: one string built
            a, b, c, d = sets
            return f"{a.text} {b.text} {c.text} {d.text} {_PAIR_TEXT[self.pair]}"
        parts = [g.text for g in sets]
        if self.pair >= 0:
            parts.append(_PAIR_TEXT[self.pair])
        if self.knitted:
            parts.insert(0, part_text(self.knitted))
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
        win = f.win_tile
        if self.shape == KNITTED:
            if f.declared:
                if win not in self.knitted or (f.key >> (4 * win)) & 15 == 3:
                    return 3
                return 0
            rest = f.key - INC[win]
            for t in self.knitted:
                rest -= INC[t]
            if regular_wait_count(rest) != 1:
                return 0
        elif self.shape != REGULAR:
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
        if not pos or (self.shape == REGULAR and not f.unique_wait):
            return 0
        if pos & 1:
            return 1
        if pos & 2:
            return 2
        return 3 if pos & 4 else 0


def _view(
    facts: HandFacts, shape: str, sets: tuple[Group, ...], pair: Tile, knitted: tuple[Tile, ...] = ()
) -> HandView:
    chows: list[Tile] = []
    pungs: list[Tile] = []
    cp = mk = ck = 0
    win_pungs = 0
    win_in_chow = False
    pos = 0  # as in HandView._wait_kind: 1 the winning tile ends a standing chow, 2 is its middle, 4 the pair
    win = facts.win_tile
    for g in sets:
        t = g.tile
        if g.kind == CHOW:
            chows.append(t)
            if not g.declared and t <= win <= t + 2:
                win_in_chow = True
                pos |= 2 if t + 1 == win else 1
        else:
            pungs.append(t)
            if g.kind == KONG:
                if g.melded:
                    mk += 1
                else:
                    ck += 1
                    cp += 1
            elif not g.melded:
                cp += 1
                if t == win:
                    win_pungs += 1
    f = facts.features | SHAPE_BITS[shape]
    if win_in_chow or pair == win or shape != REGULAR:
        f |= F_WAIT_SPOT
    if shape == REGULAR and not facts.self_drawn and not win_in_chow:
        # A discard completing a concealed pung makes it melded, unless it can sit in a concealed chow.
        cp -= win_pungs > 0  # one pung (无双: six of a kind are two pungs, one made melded)
    if chows:
        f |= F_CHOW
        if len(chows) > 1:
            chows.sort(key=ref_key)
    else:
        f |= F_NO_CHOW
    if pungs:
        pm = 0
        for t in pungs:
            pm |= 1 << t
        f |= pung_facts(pm)
        if mk or ck:
            f |= F_KONG
        if len(pungs) > 1:
            pungs.sort(key=ref_key)
    else:
        f |= F_NO_PUNG
    if cp >= 2:
        f |= F_CONCEALED_PUNGS
    if 0 <= pair < 27:
        f |= F_SUITED_PAIR
        if pair % 9 == 4:
            f |= F_PAIR_FIVE
        elif pair % 9 in (0, 8):
            f |= F_EDGE_PAIR
    elif pair >= 27:
        f |= F_EDGE_PAIR
    view = HandView(facts, shape, sets, pair, knitted, tuple(chows), tuple(pungs), cp, mk, ck, f)
    if f & F_WAIT_SPOT:  # the wait fan is a fact of the reading: the wait detectors need it
        if shape == REGULAR:  # HandView._wait_kind, from the loop above
            if pair == win:
                pos |= 4
            w = (1 if pos & 1 else 2 if pos & 2 else 3) if facts.unique_wait else 0
        else:
            w = view._wait_kind()
        view._wait = w
        if w:
            view.features = f | _F_WAIT[w]
    return view


_KNITTED_MASKS: Final = tuple(sum(1 << t for t in seq) for seq in KNITTED_SEQUENCES)
_KNITTED_KEYS: Final = tuple(sum(INC[t] for t in seq) for seq in KNITTED_SEQUENCES)
_ORPHANS_MASK: Final = sum(1 << t for t in TERMINALS_AND_HONORS)
_KNIT_CLASSES: Final = tuple(
    sum(1 << c for c in range(3) if all(b >> r & 1 for r in (c, c + 3, c + 6))) for b in range(512)
)
"""By a suit's 9-bit presence pattern: which of 147 (bit 0), 258 (bit 1), 369 (bit 2) it holds whole."""


def _special(facts: HandFacts) -> HandView | None:
    melds = facts.declared
    if not melds:
        if (facts.k0 | facts.k1 | facts.k2 | facts.k3) & _ODD_BITS9 == 0:
            return HandView(facts, SEVEN_PAIRS, features=facts.features | _F_NO_SETS | F_SHAPE_SEVEN_PAIRS)
        nk = facts.n_kinds
        if nk == 14:
            suited = facts.mask & ~M_HONORS
            n_suited = suited.bit_count()
            if 7 <= n_suited <= 9 and any(suited & ~m == 0 for m in _KNITTED_MASKS):
                return HandView(
                    facts, HONORS_KNITTED, features=facts.features | _F_NO_SETS | F_SHAPE_HONORS_KNITTED
                )
        elif nk == 13 and facts.mask == _ORPHANS_MASK:
            return HandView(
                facts, THIRTEEN_ORPHANS, features=facts.features | _F_NO_SETS | F_SHAPE_THIRTEEN_ORPHANS
            )
    if len(melds) > 1:
        return None
    # the hand's kinds: a knitted straight needs 147, 258, 369 of distinct classes in the suits
    m = facts.mask
    k0 = _KNIT_CLASSES[m & 0x1FF]
    k1 = _KNIT_CLASSES[m >> 9 & 0x1FF]
    k2 = _KNIT_CLASSES[m >> 18 & 0x1FF]
    if not (k0 and k1 and k2) or k0 | k1 | k2 != 7:
        return None
    key = facts.key
    present = (key | key >> 1 | key >> 2 | key >> 3) & _ODD_BITS  # one bit per standing kind (4 bits a kind)
    if 9 <= present.bit_count() < 14 - 3 * len(melds):  # the nine knitted kinds, and a pair somewhere
        for seq, k in zip(KNITTED_SEQUENCES, _KNITTED_KEYS, strict=True):
            if k & ~present == 0:
                rest = key - k
                if melds:
                    pairs = [t for t in range(NUM_KINDS) if (rest >> (4 * t)) & 15]
                    if len(pairs) != 1 or (rest >> (4 * pairs[0])) & 15 != 2:
                        return None
                    return _view(facts, KNITTED, facts.declared, pairs[0], seq)
                ds = _regular(rest)
                if len(ds) != 1:
                    return None
                chows, pungs, pair = ds[0]
                g = STANDING_CHOW[chows[0]] if chows else STANDING_PUNG[pungs[0]]
                return _view(facts, KNITTED, (g,), pair, seq)
    return None


_Combo = tuple[GroupReading, GroupReading, GroupReading, GroupReading]


def _combos(infos: SuitInfos) -> tuple[list[_Combo], int]:
    """Every reading of a 3k+2 hand, given the per-suit infos of its packed key, as one part per group
    (unordered), and the group of the pair."""
    m0, m1, m2, m3 = infos
    # The pair sits in a group of 3k + 2 tiles, whose bare list is empty: the first group with paired
    # readings is the only one that can hold it (a second one would leave no bare reading for itself).
    if m0.paired:
        pi = 0
        g0, g1, g2, g3 = m0.paired, m1.bare, m2.bare, m3.bare
    elif m1.paired:
        pi = 1
        g0, g1, g2, g3 = m0.bare, m1.paired, m2.bare, m3.bare
    elif m2.paired:
        pi = 2
        g0, g1, g2, g3 = m0.bare, m1.bare, m2.paired, m3.bare
    elif m3.paired:
        pi = 3
        g0, g1, g2, g3 = m0.bare, m1.bare, m2.bare, m3.paired
    else:
        return [], 0
    if not (g0 and g1 and g2 and g3):
        return [], 0
    if len(g0) == 1 and len(g1) == 1 and len(g2) == 1 and len(g3) == 1:  # most hands: one reading
        return [(g0[0], g1[0], g2[0], g3[0])], pi
    return [(r0, r1, r2, r3) for r0 in g0 for r1 in g1 for r2 in g2 for r3 in g3], pi


def _regular(key: int) -> list[SetsAndPair]:
    """Every reading of a packed 3k+2 key as sets and one pair (chows and pungs sorted), unordered."""
    combos, pi = _combos(suit_infos(key))
    return [
        (r0.chows + r1.chows + r2.chows + r3.chows, r0.pungs + r1.pungs + r2.pungs + r3.pungs, c[pi].pair)
        for c in combos
        for r0, r1, r2, r3 in (c,)
    ]


def readings(ctx: WinContext) -> tuple[HandFacts, list[HandView]]:
    """The hand's facts and every reading, special shape first, regular readings in reference order.

    An empty list means the hand does not win.
    """
    facts = hand_facts(ctx)
    return facts, readings_of(facts)


_PAIR_FACTS: Final = tuple(
    (F_SUITED_PAIR | (F_PAIR_FIVE if t % 9 == 4 else F_EDGE_PAIR if t % 9 in (0, 8) else 0))
    if t < 27
    else F_EDGE_PAIR
    for t in range(NUM_KINDS)
)
"""The pair facts by the pair's kind."""
_WIN_GROUP: Final = tuple(min(t // 9, 3) for t in range(NUM_KINDS))


def readings_of(facts: HandFacts) -> list[HandView]:
    """:func:`readings` of a hand's facts (however they were read)."""
    out: list[HandView] = []
    declared = facts.declared
    if len(declared) <= 1:  # the special shapes have at most one declared set
        special = _special(facts)
        if special is not None:
            out.append(special)
            if special.shape != SEVEN_PAIRS:
                return out
    infos = facts.suit_infos
    if declared:  # the standing tiles' groups: those of the declared sets differ
        infos = standing_infos(facts.k0, facts.k1, facts.k2, facts.k3, infos)
    combos, pi = _combos(infos)
    if not combos:
        return out
    if len(combos) > 1:
        combos.sort(key=_combo_order)
    # What the declared sets give every reading.
    dec_chows: tuple[Tile, ...] = ()
    dec_pungs: tuple[Tile, ...] = ()
    mk = ck = 0
    dec_facts = 0
    if declared:
        pm = 0
        for g in declared:
            if g.kind == CHOW:
                dec_chows += (g.tile,)
            else:
                dec_pungs += (g.tile,)
                pm |= 1 << g.tile
                if g.kind == KONG:
                    if g.melded:
                        mk += 1
                    else:
                        ck += 1
        dec_facts = pung_facts(pm) | (F_KONG if mk or ck else 0)
    win = facts.win_tile
    wg = _WIN_GROUP[win]
    wi = win - 9 * wg
    discard = not facts.self_drawn
    for c in combos:
        r0, r1, r2, r3 = c
        pair = c[pi].pair
        pos = c[wg].win_pos[
            wi
        ]  # as in HandView._wait_kind: 1 / 2 the winning tile in a standing chow, 8 a pung
        sets = (
            declared
            + r0.pung_sets
            + r1.pung_sets
            + r2.pung_sets
            + r3.pung_sets
            + r0.chow_sets
            + r1.chow_sets
            + r2.chow_sets
        )
        chows = r0.chows + r2.chows + r1.chows  # m, s, p: the reference order
        pungs = r0.pungs + r2.pungs + r1.pungs + r3.ref_pungs
        if dec_chows:
            chows = ref_sorted(chows + dec_chows)
        if dec_pungs:
            pungs = ref_sorted(pungs + dec_pungs)
        f = (
            facts.features
            | F_SHAPE_REGULAR
            | dec_facts
            | r0.pung_facts
            | r1.pung_facts
            | r2.pung_facts
            | r3.pung_facts
            | _PAIR_FACTS[pair]
            | (F_CHOW if chows else F_NO_CHOW)
        )
        if not f & F_PUNG:
            f |= F_NO_PUNG
        cp = len(r0.pungs) + len(r1.pungs) + len(r2.pungs) + len(r3.pungs) + ck
        if discard and pos == 8:
            # A discard completing a concealed pung makes it melded, unless it can sit in a concealed chow
            # (无双: six of a kind are two pungs, one made melded).
            cp -= 1
        if cp >= 2:
            f |= F_CONCEALED_PUNGS
        w = 0
        if pos & 3 or pair == win:
            f |= F_WAIT_SPOT
            if facts.unique_wait:  # the wait fan is a fact of the reading: the wait detectors need it
                w = 1 if pos & 1 else 2 if pos & 2 else 3
                f |= _F_WAIT[w]
        out.append(HandView(facts, REGULAR, sets, pair, (), chows, pungs, cp, mk, ck, f, w))
    return out


def _combo_order(c: _Combo) -> list[tuple[int, int]]:
    r0, r1, r2, r3 = c
    return _reading_order(
        (r0.chows + r1.chows + r2.chows + r3.chows, r0.pungs + r1.pungs + r2.pungs + r3.pungs, -1)
    )


def _reading_order(r: SetsAndPair) -> list[tuple[int, int]]:
    return sorted([(REF_ORDER[t], 0) for t in r[1]] + [(REF_ORDER[t], 1) for t in r[0]])
