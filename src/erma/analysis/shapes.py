"""Shanten (向听数) of each winning shape, on a packed count key, with wild tiles (财神) as a count.

Every function here takes ``key`` (4 bits a kind, see :mod:`erma.analysis.tables`), the number of
tiles ``n`` including jokers, and ``jokers``. Shanten is the number of tiles still to exchange before
the hand is ready; −1 means complete (only for 3k+2 tiles). A joker may stand for any kind, so each
joker lowers a shape's shanten by one until the floor (0 for 3k+1 tiles, −1 for 3k+2).
"""

from __future__ import annotations

import enum
from typing import Final

from erma.analysis.tables import COMBO, SUIT_MASK, VALUES, combine, honor_pid, regular_value, suit_pid

REGULAR: Final = "regular"
SEVEN_PAIRS: Final = "seven_pairs"
THIRTEEN_ORPHANS: Final = "thirteen_orphans"
KNITTED_STRAIGHT: Final = "knitted_straight"
HONORS_AND_KNITTED: Final = "honors_and_knitted"
SHAPES: Final = (REGULAR, SEVEN_PAIRS, THIRTEEN_ORPHANS, KNITTED_STRAIGHT, HONORS_AND_KNITTED)
"""The MCR shape names, in the order results list them (what ``overall`` and the defaults use)."""
EIGHT_PAIRS: Final = "eight_pairs"
"""八对 (温州): eight pairs and one odd tile, 16–17 tiles; not among the MCR ``SHAPES``."""


class Shapes(enum.IntFlag):
    """The winning shapes (和牌型) a rule set and its fan table can win, as flags. The shape functions
    take the plain ``int`` of a set (``allowed``); the regular shape is always counted."""

    REGULAR = 1
    SEVEN_PAIRS = 2
    THIRTEEN_ORPHANS = 4
    KNITTED_STRAIGHT = 8
    HONORS_AND_KNITTED = 16
    EIGHT_PAIRS = 32
    MCR = 31
    """The five MCR shapes (what the plain API counts by default)."""


ALL: Final = 31
"""The five MCR shapes as the plain ``int`` the shape functions take (``Shapes.MCR``)."""
_SEVEN: Final = 2
_ORPHANS: Final = 4
_KNITTED: Final = 8
_HONORS_KNITTED: Final = 16
_KNITS: Final = 24
"""The two knitted shapes (组合龙, 全不靠)."""
_SPECIAL: Final = 30
"""The shapes besides the regular one that :func:`overall` searches."""

SHAPE_FLAGS: Final = {
    REGULAR: Shapes.REGULAR,
    SEVEN_PAIRS: Shapes.SEVEN_PAIRS,
    THIRTEEN_ORPHANS: Shapes.THIRTEEN_ORPHANS,
    KNITTED_STRAIGHT: Shapes.KNITTED_STRAIGHT,
    HONORS_AND_KNITTED: Shapes.HONORS_AND_KNITTED,
    EIGHT_PAIRS: Shapes.EIGHT_PAIRS,
}
"""Each shape name's flag."""

KNIT_PERMS: Final = ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))
"""The six knitted sequences: for 万, 筒, 条, which of 147 (0), 258 (1), 369 (2) each takes."""


def shapes_for(n: int) -> tuple[str, ...]:
    """The shapes a concealed part of n tiles (jokers included) can take."""
    if n in (13, 14):
        return SHAPES
    if n in (10, 11):
        return (REGULAR, KNITTED_STRAIGHT)
    if n in (16, 17):
        return (REGULAR, EIGHT_PAIRS)
    return (REGULAR,)


# ----------------------------------------------------------------------------------- per-group facts


class SuitInfo:
    """What the special shapes need to know of one suit's counts (computed once per suit key)."""

    __slots__ = (
        "_remainder",
        "has_terminal_pair",
        "key",
        "knit",
        "knit_code",
        "odd",
        "paired",
        "pairs",
        "pid",
        "rem_pid",
        "single",
        "spec",
        "terminals",
    )

    def __init__(self, key: int) -> None:
        self.key = key
        self.pid = suit_pid(key)
        """Profile id of the regular shape (see tables)."""
        pairs = odd = paired = single = 0
        k0 = k1 = k2 = 0
        k = key
        for r in range(9):
            x = k & 15
            k >>= 4
            if x:
                pairs += x >> 1
                odd += x & 1
                if x >= 2:
                    paired += 1
                else:
                    single += 1
                if r % 3 == 0:
                    k0 += 1
                elif r % 3 == 1:
                    k1 += 1
                else:
                    k2 += 1
        c0, c8 = key & 15, (key >> 32) & 15
        self.pairs = pairs
        """Pairs for seven pairs (four of a kind gives two)."""
        self.odd = odd
        """Kinds left unpaired."""
        self.paired = paired
        """Kinds with two copies or more (八对 without four as two pairs)."""
        self.single = single
        """Kinds with one copy."""
        self.terminals = (c0 > 0) + (c8 > 0)
        """Terminal kinds present (1 and 9)."""
        self.has_terminal_pair = c0 >= 2 or c8 >= 2
        self.knit = (k0, k1, k2)
        """Kinds present among 147, 258, 369."""
        self.knit_code = k0 | k1 << 2 | k2 << 4
        """The three knit counts packed in 6 bits."""
        self.spec = _spec(pairs, odd, self.terminals, self.has_terminal_pair)
        """Pairs, odd kinds, orphan kinds and orphan pair, packed so that groups add up field by field."""
        self._remainder: tuple[int, ...] | None = None
        self.rem_pid: tuple[int, ...] | None = None
        """Profile ids of the three remainders (:meth:`remainder_pids`: made when a knitted shape asks)."""

    @property
    def remainder(self) -> tuple[int, ...]:
        """The suit key less one copy of each present tile of 147, 258, 369 (made on first use)."""
        found = self._remainder
        if found is None:
            key = self.key
            found = self._remainder = tuple(
                key - sum(1 << (4 * r) for r in range(x, 9, 3) if (key >> (4 * r)) & 15) for x in range(3)
            )
        return found

    def remainder_pids(self) -> tuple[int, ...]:
        """:attr:`rem_pid`, computed on first use (most suit keys never reach the knitted shapes)."""
        found = self.rem_pid
        if found is None:
            found = self.rem_pid = tuple(suit_pid(r) for r in self.remainder)
        return found


class HonorInfo:
    """What the special shapes need to know of the honours' counts."""

    __slots__ = ("has_pair", "kinds", "odd", "paired", "pairs", "pid", "single", "spec")

    def __init__(self, key: int) -> None:
        c = [(key >> (4 * r)) & 15 for r in range(7)]
        self.pid = honor_pid(key)
        self.pairs = sum(x // 2 for x in c)
        self.odd = sum(x % 2 for x in c)
        self.kinds = sum(x > 0 for x in c)
        self.has_pair = any(x >= 2 for x in c)
        self.paired = sum(x >= 2 for x in c)
        """Kinds with two copies or more."""
        self.single = self.kinds - self.paired
        """Kinds with one copy."""
        self.spec = _spec(self.pairs, self.odd, self.kinds, self.has_pair)


def _spec(pairs: int, odd: int, orphans: int, orphan_pair: bool) -> int:
    return pairs | odd << 6 | orphans << 12 | orphan_pair << 18


_SUIT_INFO: Final[dict[int, SuitInfo]] = {}
_HONOR_INFO: Final[dict[int, HonorInfo]] = {}


def suit_info(key: int) -> SuitInfo:
    """Facts of a suit key (memoised)."""
    info = _SUIT_INFO.get(key)
    if info is None:
        info = _SUIT_INFO[key] = SuitInfo(key)
    return info


def honor_info(key: int) -> HonorInfo:
    """Facts of an honour key (memoised)."""
    info = _HONOR_INFO.get(key)
    if info is None:
        info = _HONOR_INFO[key] = HonorInfo(key)
    return info


def _groups(key: int) -> tuple[SuitInfo, SuitInfo, SuitInfo, HonorInfo]:
    return (
        suit_info(key & SUIT_MASK),
        suit_info((key >> 36) & SUIT_MASK),
        suit_info((key >> 72) & SUIT_MASK),
        honor_info(key >> 108),
    )


# ----------------------------------------------------------------------------------------- shapes


def floor_of(n: int) -> int:
    """The lowest shanten of n tiles: −1 (complete) for 3k+2, 0 (ready) for 3k+1."""
    return -1 if n % 3 == 2 else 0


def may_complete(counts: list[int], added: int, n: int, allowed: int = ALL) -> bool:
    """A quick necessary condition of ``overall(key, n, 0, allowed) == -1`` (no jokers) on the counts of the
    kinds with the tile ``added`` (-1: none): most hands a seat is asked about are far from complete, and
    counting tells so without the shape tables. The regular shape needs each honour kind and each suit's
    tiles to be sets and at most one pair (a count of 3k or 3k+2, one such pair in all) and no lone suit
    tile (a single with no tile of its suit a rank away: a chow holding it holds one); seven pairs (14
    tiles) an even count of every kind; thirteen orphans (14 tiles) every terminal and honour kind and
    nothing else; the knitted shapes are not tested (True when they are allowed and could be made)."""
    if n % 3 != 2:
        return False
    if allowed & _KNITS and n >= 11:
        return True
    regular = True  # each shape still possible; the test stops once none is
    seven = n == 14 and allowed & _SEVEN != 0
    orphans = n == 14 and allowed & _ORPHANS != 0
    pairs = kinds = 0  # groups holding the pair; terminal and honour kinds held
    for t in range(27, 34):
        x = counts[t] + 1 if t == added else counts[t]
        if x == 0:
            continue
        kinds += 1
        if x & 1:
            seven = False
        r = x % 3
        if r == 1:
            regular = False
            if not seven and not orphans:
                return False
        elif r == 2:
            pairs += 1
    for first in range(0, 27, 9):
        total = 0
        last = -3  # the last rank held
        single = -1  # a single's rank with nothing held a rank below it, waiting for a neighbour above
        for i in range(9):
            t = first + i
            x = counts[t] + 1 if t == added else counts[t]
            if x == 0:
                continue
            if single >= 0:
                if i - single > 1:
                    regular = False  # a lone single: nothing of its suit a rank away
                single = -1
            if x == 1 and i - last > 1:
                single = i
            last = i
            total += x
            if x & 1:
                seven = False
            if i == 0 or i == 8:
                kinds += 1
            else:
                orphans = False
        if single >= 0:
            regular = False
        r = total % 3
        if r == 1:
            regular = False
        elif r == 2:
            pairs += 1
        if not regular and not seven and not orphans:
            return False
    return (regular and pairs == 1) or seven or (orphans and kinds == 13)


def may_be_ready(counts: list[int], n: int, allowed: int = ALL) -> bool:
    """A quick necessary condition of ``overall(key, n, 0, allowed) <= 0`` for 3k+2 tiles (some discard
    leaves the hand ready), on the counts of the kinds, no jokers: what 报听's offer asks of every turn.

    Ready after a discard means complete after one tile out and one in, which touch at most two groups
    (an honour kind, or a suit). A group untouched must already be sets and at most a pair: so the groups
    that are not (an honour count of 3k+1; a suit of 3k+1 tiles or with a lone single, nothing of its suit
    a rank away) and the pair groups past one (a count of 3k+2) are two at most. Seven pairs needs six
    pairs already, thirteen orphans twelve of its kinds; the knitted shapes are not tested."""
    if n % 3 != 2 or (allowed & _KNITS and n >= 11):
        return True
    bad = pair_groups = pairs = kinds = 0  # kinds: terminal and honour kinds held
    for t in range(27, 34):
        x = counts[t]
        if x == 0:
            continue
        kinds += 1
        pairs += x >> 1
        r = x % 3
        if r == 1:
            bad += 1
        elif r == 2:
            pair_groups += 1
    for first in range(0, 27, 9):
        total = 0
        lone = False
        before = 0  # the count a rank below
        for i in range(9):
            x = counts[first + i]
            if x:
                total += x
                pairs += x >> 1
                if i == 0 or i == 8:
                    kinds += 1
                if x == 1 and before == 0 and (i == 8 or counts[first + i + 1] == 0):
                    lone = True
            before = x
        r = total % 3
        if r == 1 or lone:
            bad += 1
        elif r == 2:
            pair_groups += 1
    if bad + max(0, pair_groups - 1) <= 2:
        return True
    if n != 14:
        return False
    return (allowed & _SEVEN != 0 and pairs >= 6) or (allowed & _ORPHANS != 0 and kinds >= 12)


def regular(key: int, n: int, jokers: int = 0) -> int:
    """基本和型 sets and a pair."""
    v = regular_value(key, (n - 1) // 3) - jokers
    f = -1 if n % 3 == 2 else 0
    return v if v > f else f


def seven_pairs(key: int, n: int, jokers: int = 0) -> int:
    """七对 seven pairs; four of a kind counts as two pairs."""
    m, p, s, h = _groups(key)
    pairs = m.pairs + p.pairs + s.pairs + h.pairs
    if jokers:
        odd = m.odd + p.odd + s.odd + h.odd
        used = min(jokers, odd)
        pairs += used + (jokers - used) // 2
    return max(floor_of(n), 6 - min(pairs, 7))


def eight_pairs(key: int, n: int, jokers: int = 0, four_as_two: bool = False) -> int:
    """八对 (温州麻将): eight pairs and one odd tile from 17 tiles (shanten for 16–17 tiles; 99 otherwise).

    A pair is two natural tiles of a kind, a natural tile and a joker, or two jokers; the odd tile is
    anything. Without ``four_as_two`` no two pairs share a kind (four of a kind is one pair and two odd
    tiles). The shanten is (tiles of the best target the hand lacks) − 1: the best target keeps, of each
    of eight pair kinds, up to two tiles, plus one odd tile if any natural tile is left, and jokers fill
    the rest.

    >>> eight_pairs(sum(2 << (4 * t) for t in range(8)) + (1 << (4 * 27)), 17)
    -1
    """
    if n not in (16, 17):
        return 99
    m, p, s, h = _groups(key)  # (the groups' memoised facts: no shift of the whole key a kind)
    if four_as_two:
        return _eight_pairs(m.pairs + p.pairs + s.pairs + h.pairs, m.odd + p.odd + s.odd + h.odd, n, jokers)
    return _eight_pairs(
        m.paired + p.paired + s.paired + h.paired, m.single + p.single + s.single + h.single, n, jokers
    )


def eight_pairs_counts(counts: list[int], n: int, jokers: int = 0, four_as_two: bool = False) -> int:
    """:func:`eight_pairs` of the hand whose counts of the 34 kinds are ``counts`` (for a caller that has
    counts, not a packed key).

    >>> eight_pairs_counts([2] * 8 + [0] * 19 + [1] + [0] * 6, 17)
    -1
    """
    if n not in (16, 17):
        return 99
    twos = ones = 0
    for t in range(34):
        c = counts[t]
        if c:
            if four_as_two:
                twos += c >> 1
                ones += c & 1
            elif c >= 2:
                twos += 1
            else:
                ones += 1
    return _eight_pairs(twos, ones, n, jokers)


def _eight_pairs(twos: int, ones: int, n: int, jokers: int) -> int:
    """八对's shanten from the pairs the hand can keep (``twos``) and its odd tiles (``ones``)."""
    pairs = twos if twos < 8 else 8
    kept = 2 * pairs + min(ones, 8 - pairs)
    if n - jokers > kept:
        kept += 1  # a natural tile left over is the odd tile
    v = 16 - kept - jokers
    f = -1 if n == 17 else 0
    return v if v > f else f


def thirteen_orphans(key: int, n: int, jokers: int = 0) -> int:
    """十三幺 the thirteen terminals and honours plus a duplicate."""
    m, p, s, h = _groups(key)
    kinds = m.terminals + p.terminals + s.terminals + h.kinds
    has_pair = m.has_terminal_pair or p.has_terminal_pair or s.has_terminal_pair or h.has_pair
    return max(floor_of(n), (12 if has_pair else 13) - kinds - jokers)


def honors_and_knitted(key: int, n: int, jokers: int = 0) -> int:
    """全不靠 / 七星不靠: singles of one knitted sequence and the honours."""
    m, p, s, h = _groups(key)
    best = max(m.knit[a] + p.knit[b] + s.knit[c] for a, b, c in KNIT_PERMS)
    return max(floor_of(n), 13 - h.kinds - best - jokers)


def knitted_straight(key: int, n: int, jokers: int = 0, bound: int = 99) -> int:
    """组合龙: a knitted straight (147/258/369 in three suits) plus a set and a pair.

    Patterns whose lower bound is not below ``bound`` are skipped (the result is then ``bound`` or more).
    """
    m, p, s, _ = _groups(key)
    f = floor_of(n)
    rest_sets = (n - 1) // 3 - 3
    honors = (key >> 108) << 108
    best = bound
    for a, b, c in KNIT_PERMS:
        missing = 9 - m.knit[a] - p.knit[b] - s.knit[c]
        if max(f, missing - 1 - jokers) >= best:
            continue
        rem = m.remainder[a] | p.remainder[b] << 36 | s.remainder[c] << 72 | honors
        v = max(f, missing + regular_value(rem, rest_sets) - jokers)
        if v < best:
            best = v
    return best


def knitted_patterns(key: int, n: int) -> list[tuple[int, tuple[int, int, int]]]:
    """(shanten without jokers, pattern) for each knitted sequence, as the reference computes them."""
    m, p, s, _ = _groups(key)
    rest_sets = (n - 1) // 3 - 3
    honors = (key >> 108) << 108
    out = []
    for perm in KNIT_PERMS:
        a, b, c = perm
        missing = 9 - m.knit[a] - p.knit[b] - s.knit[c]
        rem = m.remainder[a] | p.remainder[b] << 36 | s.remainder[c] << 72 | honors
        out.append((missing + regular_value(rem, rest_sets), perm))
    return out


def knitted_remainder(key: int, perm: tuple[int, int, int]) -> int:
    """The key left when one copy of each present tile of the knitted sequence ``perm`` is removed."""
    m, p, s, _ = _groups(key)
    a, b, c = perm
    return m.remainder[a] | p.remainder[b] << 36 | s.remainder[c] << 72 | (key >> 108) << 108


SHAPE_FUNCS: Final = {
    REGULAR: regular,
    SEVEN_PAIRS: seven_pairs,
    THIRTEEN_ORPHANS: thirteen_orphans,
    KNITTED_STRAIGHT: knitted_straight,
    HONORS_AND_KNITTED: honors_and_knitted,
    EIGHT_PAIRS: eight_pairs,
}


def _knit_best(code: int) -> tuple[int, tuple[tuple[int, tuple[int, int, int]], ...]]:
    """For the packed knit counts of three suits: the best count and every (count, pattern), best first."""
    found = _KNIT_BEST.get(code)
    if found is None:
        km, kp, ks = code & 63, (code >> 6) & 63, code >> 12
        scored = sorted(
            (
                (((km >> 2 * a) & 3) + ((kp >> 2 * b) & 3) + ((ks >> 2 * c) & 3), (a, b, c))
                for a, b, c in KNIT_PERMS
            ),
            reverse=True,
        )
        found = _KNIT_BEST[code] = (scored[0][0], tuple(scored))
    return found


_KNIT_BEST: Final[dict[int, tuple[int, tuple[tuple[int, tuple[int, int, int]], ...]]]] = {}


class _Last:
    """The last hand :func:`overall` was asked about and its answer, as one tuple replaced whole (threads
    may ask): the engine asks about the same hand twice in a row at every turn (a self-drawn win, then
    报听)."""

    __slots__ = ("entry",)

    def __init__(self) -> None:
        self.entry: tuple[int, int, int, int, int] | None = None


_LAST: Final = _Last()


def overall(key: int, n: int, jokers: int = 0, allowed: int = ALL) -> int:
    """The least shanten over the shapes n tiles can take, of those in ``allowed`` (a :class:`Shapes` as
    an ``int``; the regular shape always; the hot path: one lookup per group)."""
    last = _LAST.entry
    if last is not None and last[0] == key and last[1] == n and last[2] == jokers and last[3] == allowed:
        return last[4]
    v = _overall(key, n, jokers, allowed)
    _LAST.entry = (key, n, jokers, allowed, v)
    return v


def _overall(key: int, n: int, jokers: int, allowed: int) -> int:
    k = key & SUIT_MASK
    m = _SUIT_INFO.get(k) or suit_info(k)
    k = (key >> 36) & SUIT_MASK
    p = _SUIT_INFO.get(k) or suit_info(k)
    k = (key >> 72) & SUIT_MASK
    s = _SUIT_INFO.get(k) or suit_info(k)
    h = _HONOR_INFO.get(key >> 108) or honor_info(key >> 108)
    k = m.pid << 20 | p.pid
    pid = COMBO.get(k) or combine(m.pid, p.pid)
    k = pid << 20 | s.pid
    pid = COMBO.get(k) or combine(pid, s.pid)
    k = pid << 20 | h.pid
    pid = COMBO.get(k) or combine(pid, h.pid)
    f = -1 if n % 3 == 2 else 0
    best = VALUES[pid][(n - 1) // 3] - jokers
    if best <= f:
        return f
    if n < 10 or n in (12, 15, 16, 17) or not allowed & _SPECIAL:
        return best
    return _special(m, p, s, h, n, jokers, best, f, allowed)


def _rests(m: SuitInfo, p: SuitInfo, s: SuitInfo, h: HonorInfo) -> tuple[int, int, int, int]:
    """For each group (万, 筒, 条, honours), the profile id of the other three combined. Combining profiles is
    a capped max-plus product, commutative and associative, and profiles are interned by content: so a
    changed group combined once with the rest has the id :func:`overall` reaches in its own order."""
    mp = COMBO.get(m.pid << 20 | p.pid) or combine(m.pid, p.pid)
    sh = COMBO.get(s.pid << 20 | h.pid) or combine(s.pid, h.pid)
    return (
        COMBO.get(p.pid << 20 | sh) or combine(p.pid, sh),
        COMBO.get(m.pid << 20 | sh) or combine(m.pid, sh),
        COMBO.get(mp << 20 | h.pid) or combine(mp, h.pid),
        COMBO.get(mp << 20 | s.pid) or combine(mp, s.pid),
    )


def _special_floor(
    m: SuitInfo, p: SuitInfo, s: SuitInfo, h: HonorInfo, n: int, jokers: int, added: int, allowed: int = ALL
) -> int:
    """A floor under every special shape's shanten (:func:`_special`) of ``n`` tiles made from these groups
    with ``added`` tiles more (a draw: 1) or a discard (0): each formula of :func:`_special` with ``added``
    more pairs, orphan kinds and knitted tiles, which is the most a tile can bring (a discard brings none)."""
    knit = 0
    if allowed & _KNITS:  # (only the knitted shapes read the knit counts)
        k = m.knit_code | p.knit_code << 6 | s.knit_code << 12
        knit = (_KNIT_BEST.get(k) or _knit_best(k))[0] + added
    # the knitted straight: its missing tiles, less one for a complete rest
    low = 8 - knit - jokers if allowed & _KNITTED else 99
    if n >= 13:
        spec = m.spec + p.spec + s.spec + h.spec
        if allowed & _SEVEN:
            low = min(low, 6 - min((spec & 63) + added + jokers, 7))
        if allowed & _ORPHANS:  # less one for an orphan pair
            low = min(low, 12 - ((spec >> 12) & 63) - added - jokers)
        if allowed & _HONORS_KNITTED:  # 全不靠
            low = min(low, 13 - h.kinds - knit - jokers)
    return low


def draws_below(
    key: int,
    n: int,
    kinds: tuple[int, ...],
    below: int,
    jokers: int = 0,
    allowed: int = ALL,
    first: bool = False,
) -> tuple[int, ...]:
    """The kinds ``t`` among ``kinds`` with ``overall(key + INC[t], n + 1, jokers) < below``: the draws that
    complete a 3k+1 hand (``below=0``) or bring it closer (``below=`` its shanten), what the bots ask of every
    hand they weigh. The changed group is combined once with the other three (:func:`_rests`); the special
    shapes are read only when the regular one does not already go below, and only as far as ``below`` (none
    when :func:`_special_floor` shows they cannot go below it). With ``first``, only the first such kind
    (the kinds after it are not looked at)."""
    m, p, s, h = _groups(key)
    rm, rp, rs, rh = _rests(m, p, s, h)
    n1 = n + 1
    f = -1 if n1 % 3 == 2 else 0
    sets = (n1 - 1) // 3
    special = not (n1 < 10 or n1 in (12, 15, 16, 17)) and allowed & _SPECIAL != 0
    if special:  # when no special shape could go below ``below`` after any draw, none is searched
        special = _special_floor(m, p, s, h, n1, jokers, 1, allowed) < below
    out = []
    for t in kinds:
        mm, pp, ss, hh = m, p, s, h
        if t >= 27:
            k = (key >> 108) + (1 << (4 * (t - 27)))
            hh = _HONOR_INFO.get(k) or honor_info(k)
            pid = COMBO.get(hh.pid << 20 | rh) or combine(hh.pid, rh)
        elif t >= 18:
            k = ((key >> 72) & SUIT_MASK) + (1 << (4 * (t - 18)))
            ss = _SUIT_INFO.get(k) or suit_info(k)
            pid = COMBO.get(ss.pid << 20 | rs) or combine(ss.pid, rs)
        elif t >= 9:
            k = ((key >> 36) & SUIT_MASK) + (1 << (4 * (t - 9)))
            pp = _SUIT_INFO.get(k) or suit_info(k)
            pid = COMBO.get(pp.pid << 20 | rp) or combine(pp.pid, rp)
        else:
            k = (key & SUIT_MASK) + (1 << (4 * t))
            mm = _SUIT_INFO.get(k) or suit_info(k)
            pid = COMBO.get(mm.pid << 20 | rm) or combine(mm.pid, rm)
        v = VALUES[pid][sets] - jokers
        if v <= f:
            v = f
        elif v >= below and special:
            # overall's special shapes, searched from ``below``: what they find below it is exact
            v = _special(mm, pp, ss, hh, n1, jokers, below, f, allowed)
        if v < below:
            out.append(t)
            if first:
                break
    return tuple(out)


def discard_values(key: int, n: int, jokers: int = 0, allowed: int = ALL) -> tuple[tuple[int, int], ...]:
    """``(t, overall(key - INC[t], n - 1, jokers))`` for each kind ``t`` held, in kind order: the shanten
    after each discard of a hand of ``n`` tiles, the changed group combined once with the other three
    (:func:`_rests`), and the special shapes searched only where :func:`_special_floor` lets them go below
    the regular shape (a discard takes a pair, an orphan kind or a knitted tile away, never adds one)."""
    m, p, s, h = _groups(key)
    rm, rp, rs, rh = _rests(m, p, s, h)
    n0 = n - 1
    f = -1 if n0 % 3 == 2 else 0
    sets = (n0 - 1) // 3
    if n0 < 10 or n0 in (12, 15, 16, 17) or not allowed & _SPECIAL:
        low = 99
    else:
        low = _special_floor(m, p, s, h, n0, jokers, 0, allowed)
    out = []
    t = -1
    k = key
    while k:
        t += 1
        if not k & 15:
            k >>= 4
            continue
        k >>= 4
        mm, pp, ss, hh = m, p, s, h
        if t >= 27:
            g = (key >> 108) - (1 << (4 * (t - 27)))
            hh = _HONOR_INFO.get(g) or honor_info(g)
            pid = COMBO.get(hh.pid << 20 | rh) or combine(hh.pid, rh)
        elif t >= 18:
            g = ((key >> 72) & SUIT_MASK) - (1 << (4 * (t - 18)))
            ss = _SUIT_INFO.get(g) or suit_info(g)
            pid = COMBO.get(ss.pid << 20 | rs) or combine(ss.pid, rs)
        elif t >= 9:
            g = ((key >> 36) & SUIT_MASK) - (1 << (4 * (t - 9)))
            pp = _SUIT_INFO.get(g) or suit_info(g)
            pid = COMBO.get(pp.pid << 20 | rp) or combine(pp.pid, rp)
        else:
            g = (key & SUIT_MASK) - (1 << (4 * t))
            mm = _SUIT_INFO.get(g) or suit_info(g)
            pid = COMBO.get(mm.pid << 20 | rm) or combine(mm.pid, rm)
        v = VALUES[pid][sets] - jokers
        if v <= f:
            v = f
        elif low < v:
            v = _special(mm, pp, ss, hh, n0, jokers, v, f, allowed)
        out.append((t, v))
    return tuple(out)


def _special(
    m: SuitInfo,
    p: SuitInfo,
    s: SuitInfo,
    h: HonorInfo,
    n: int,
    jokers: int,
    best: int,
    f: int,
    allowed: int = ALL,
) -> int:
    """:func:`overall` past the regular shape: seven pairs, thirteen orphans and the knitted shapes (those
    in ``allowed``), for hands of 10, 11, 13 or 14 tiles whose regular shanten ``best`` is above the floor
    ``f``."""
    knit = 0
    perms: tuple[tuple[int, tuple[int, int, int]], ...] = ()
    if allowed & _KNITS:  # (only the knitted shapes read the knit counts)
        k = m.knit_code | p.knit_code << 6 | s.knit_code << 12
        knit, perms = _KNIT_BEST.get(k) or _knit_best(k)
    if n >= 13:
        spec = m.spec + p.spec + s.spec + h.spec
        pairs = spec & 63
        if jokers:
            odd = (spec >> 6) & 63
            used = min(jokers, odd)
            pairs += used + (jokers - used) // 2
        if allowed & _SEVEN:
            v = 6 - min(pairs, 7)
            if v < best:
                best = v
        if allowed & _ORPHANS:
            v = (12 if spec >> 18 else 13) - ((spec >> 12) & 63) - jokers
            if v < best:
                best = v
        if allowed & _HONORS_KNITTED:
            v = 13 - h.kinds - knit - jokers
            if v < best:
                best = v
        if best <= f:
            return f
    if not allowed & _KNITTED or 8 - knit - jokers >= best:
        return best
    rest_sets = (n - 1) // 3 - 3
    hp = h.pid
    mr = m.rem_pid or m.remainder_pids()
    pr = p.rem_pid or p.remainder_pids()
    sr = s.rem_pid or s.remainder_pids()
    for count, (a, b, c) in perms:
        missing = 9 - count
        if missing - 1 - jokers >= best:
            break
        x, y = mr[a], pr[b]
        pid = COMBO.get(x << 20 | y) or combine(x, y)
        y = sr[c]
        pid = COMBO.get(pid << 20 | y) or combine(pid, y)
        pid = COMBO.get(pid << 20 | hp) or combine(pid, hp)
        v = missing + VALUES[pid][rest_sets] - jokers
        if v < best:
            best = v
    return best if best > f else f
