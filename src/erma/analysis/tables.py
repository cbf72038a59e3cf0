"""Per-group tables for the regular shape (基本和型): built lazily, shared by every analysis function.

A hand's 34 counts are packed into one int, 4 bits a kind (``key = sum(1 << 4*t)``); the 9-digit slices
are the keys of the three suits, the 7-digit slice that of the honours. For each group key we compute
once, by a memoised recursion over its lowest tile, its **profile**: for each pair flag p (0/1) and each
number of complete sets m (0..5), the largest number of partial sets t (搭子) that can be taken beside
them. Profiles are interned to small ids; two profiles combine (a max-plus product) into a profile,
memoised by the pair of ids. The regular shanten of a whole hand needing N sets is then

    min over (p, m, t) of 2N − 2m − min(t, N − m) − p,

the formula of the reference calculator (PyMahjongGB), with m ≤ N. Counts above 4 (the 8-copy 无双
set) need no other path: six of a kind is simply two pungs in the recursion.
"""

from __future__ import annotations

import threading
from typing import Final

MAX_SETS: Final = 5
"""Sets needed by the longest hand (17 tiles = 5 sets + pair)."""
_W: Final = MAX_SETS + 1

SUIT_BITS: Final = 36
SUIT_MASK: Final = (1 << SUIT_BITS) - 1
INC: Final[tuple[int, ...]] = tuple(1 << (4 * t) for t in range(34))
"""The key increment of one tile of each kind."""

Profile = int
"""12 entries packed 3 bits each, entry p*6+m at bits 3*(p*6+m): the largest t plus one, or 0 where
unreachable (native integer arithmetic when compiled, where a tuple's items are objects to unbox)."""

_EMPTY: Final[Profile] = 1
"""The empty group's profile: t = 0 at p = 0, m = 0; nothing else reachable."""

PROFILES: Final[list[Profile]] = []
"""Interned profiles, by id."""
_PROFILE_ID: Final[dict[Profile, int]] = {}
VALUES: Final[list[tuple[int, ...]]] = []
"""VALUES[id][N] = the regular-shape formula value of profile id for a hand needing N sets."""
_INTERN_LOCK: Final = threading.Lock()

SUIT_PID: Final[dict[int, int]] = {}
"""Suit key → profile id."""
HONOR_PID: Final[dict[int, int]] = {}
"""Honour key → profile id."""
COMBO: Final[dict[int, int]] = {}
"""(id_a << 20 | id_b) → id of the combined profile."""

_suit_memo: Final[dict[int, Profile]] = {0: _EMPTY}
_honor_memo: Final[dict[int, Profile]] = {0: _EMPTY}


def pack(entries: tuple[int, ...]) -> Profile:
    """The profile of 12 entries (index p*6+m → largest t, or −1)."""
    return sum((t + 1) << (3 * i) for i, t in enumerate(entries))


def unpack(prof: Profile) -> tuple[int, ...]:
    """A profile's 12 entries (index p*6+m → largest t, or −1): the inverse of :func:`pack`."""
    return tuple(((prof >> (3 * i)) & 7) - 1 for i in range(2 * _W))


def _value(prof: Profile, n: int) -> int:
    best = 2 * n
    for p in range(2):
        base = p * _W
        for m in range(min(n, MAX_SETS) + 1):
            t = ((prof >> (3 * (base + m))) & 7) - 1
            if t < 0:
                continue
            v = 2 * n - 2 * m - min(t, n - m) - p
            if v < best:
                best = v
    return best


def intern(prof: Profile) -> int:
    """The id of a profile, creating it and its values on first sight. Safe across threads (the server's
    reviews run in threads): a new profile's id, its entry in PROFILES and in VALUES are made together under
    a lock, so the two lists never disagree."""
    pid = _PROFILE_ID.get(prof)
    if pid is not None:
        return pid
    values = tuple(_value(prof, n) for n in range(MAX_SETS + 1))
    with _INTERN_LOCK:
        pid = _PROFILE_ID.get(prof)
        if pid is None:
            pid = len(PROFILES)
            PROFILES.append(prof)
            VALUES.append(values)
            _PROFILE_ID[prof] = pid  # (last: a reader that finds the id finds both entries)
    return pid


def _merge_into(acc: Profile, sub: Profile, dm: int, dt: int, dp: int) -> Profile:
    """max(acc, sub shifted by dm sets, dt partial sets and dp pairs), capped."""
    for p in range(2 - dp):
        src = sub >> (3 * _W * p)  # sub's entries of pair flag p, from m = 0
        at = 3 * _W * (p + dp) + 3 * dm  # where acc keeps (p + dp, m2)
        for m2 in range(dm, _W):  # m2 = m + dm
            t = src & 7  # t + 1; 0 where unreachable
            if t:
                t += dt
                cap = MAX_SETS - m2 + 1  # (plus one)
                if t > cap:
                    t = cap
                old = (acc >> at) & 7
                if t > old:
                    acc += (t - old) << at
            src >>= 3
            at += 3
    return acc


def _profile(key: int, honors: bool) -> Profile:
    memo = _honor_memo if honors else _suit_memo
    prof = memo.get(key)
    if prof is not None:
        return prof
    i = 0
    while not (key >> (4 * i)) & 15:
        i += 1  # the lowest kind held
    sh = 4 * i
    one = 1 << sh
    c = (key >> sh) & 15
    acc = _profile(key - one, honors)  # leave one copy as a single tile
    if c >= 3:
        acc = _merge_into(acc, _profile(key - 3 * one, honors), 1, 0, 0)  # 刻子 pung
    if c >= 2:
        sub = _profile(key - 2 * one, honors)
        acc = _merge_into(acc, sub, 0, 0, 1)  # 雀头 pair
        acc = _merge_into(acc, sub, 0, 1, 0)  # 对子搭子 pair as a partial set
    if not honors:
        c1 = (key >> (sh + 4)) & 15 if i <= 7 else 0
        c2 = (key >> (sh + 8)) & 15 if i <= 6 else 0
        if c1 and c2:
            acc = _merge_into(
                acc, _profile(key - one - (one << 4) - (one << 8), honors), 1, 0, 0
            )  # 顺子 chow
        if c1:
            acc = _merge_into(acc, _profile(key - one - (one << 4), honors), 0, 1, 0)  # 两面/边张
        if c2:
            acc = _merge_into(acc, _profile(key - one - (one << 8), honors), 0, 1, 0)  # 嵌张
    memo[key] = acc
    return acc


def suit_pid(key: int) -> int:
    """Profile id of a suit key (computed on first sight, block by block: :func:`_blocks_pid`)."""
    pid = SUIT_PID.get(key)
    if pid is None:
        pid = SUIT_PID[key] = _blocks_pid(key)
    return pid


def _blocks_pid(key: int) -> int:
    """The profile id of a non-empty suit key from its blocks: runs of held ranks that two empty ranks part
    share no set or partial set (a chow spans three ranks, a 嵌张 two), so the suit's profile is its blocks'
    profiles combined (:func:`combine`), and a block's profile does not depend on where it lies in the suit
    (each is read from its lowest rank). Random hands make many new suit keys of few new blocks."""
    if not key:
        return intern(_EMPTY)
    while not key & 15:
        key >>= 4  # the block's lowest rank first
    i = 1
    while (key >> (4 * i)) & 0xFF:
        i += 1  # ranks i and i + 1 are empty: the block ends below i
    rest = key >> (4 * i)
    if not rest:
        return intern(_profile(key, False))
    head = key & ((1 << (4 * i)) - 1)
    return combine(suit_pid(head), suit_pid(rest))


def honor_pid(key: int) -> int:
    """Profile id of an honour key (computed on first sight, kind by kind: honours make no chow or partial
    chow, so each kind is a block of its own, as in :func:`_blocks_pid`)."""
    pid = HONOR_PID.get(key)
    if pid is None:
        k = key
        while k and not k & 15:
            k >>= 4
        rest = k >> 4
        pid = combine(honor_pid(k & 15), honor_pid(rest)) if rest else intern(_profile(k, True))
        HONOR_PID[key] = pid
    return pid


def combine(a: int, b: int) -> int:
    """Id of the profile of two groups taken together (memoised)."""
    ck = a << 20 | b
    pid = COMBO.get(ck)
    if pid is None:
        pa, pb = PROFILES[a], PROFILES[b]
        acc = 0  # nothing reachable
        for p in range(2):
            for m in range(_W):
                t = (pa >> (3 * (p * _W + m))) & 7
                if t:
                    acc = _merge_into(acc, pb, m, t - 1, p)
        pid = COMBO[ck] = intern(acc)
    return pid


def regular_value(key: int, n: int) -> int:
    """Regular-shape formula value of a packed 34-kind key for a hand needing n sets (no jokers)."""
    a = SUIT_PID.get(key & SUIT_MASK)
    if a is None:
        a = suit_pid(key & SUIT_MASK)
    b = SUIT_PID.get((key >> 36) & SUIT_MASK)
    if b is None:
        b = suit_pid((key >> 36) & SUIT_MASK)
    c = SUIT_PID.get((key >> 72) & SUIT_MASK)
    if c is None:
        c = suit_pid((key >> 72) & SUIT_MASK)
    d = HONOR_PID.get(key >> 108)
    if d is None:
        d = honor_pid(key >> 108)
    ab = COMBO.get(a << 20 | b)
    if ab is None:
        ab = combine(a, b)
    abc = COMBO.get(ab << 20 | c)
    if abc is None:
        abc = combine(ab, c)
    abcd = COMBO.get(abc << 20 | d)
    if abcd is None:
        abcd = combine(abc, d)
    return VALUES[abcd][n]


def table_sizes() -> dict[str, int]:
    """How many entries each lazy table holds (for diagnostics and benchmarks)."""
    return {
        "suit_keys": len(SUIT_PID),
        "honor_keys": len(HONOR_PID),
        "profiles": len(PROFILES),
        "combinations": len(COMBO),
        "suit_memo": len(_suit_memo),
        "honor_memo": len(_honor_memo),
    }


PROFILES.append(-1)  # id 0 is never used, so that a found id is always truthy
VALUES.append(())
intern(_EMPTY)
