"""score_record's plain path: a record of the reference's own keys, read straight into hand facts.

Most records name only the reference calculator's keys (``packs``, ``hand``, ``win_tile``, the four flags,
``flower_count``, the two winds) with well-formed values. :func:`plain_facts` reads such a record into
:class:`~erma.scoring.facts.HandFacts` in one step: every tile adds its packed count to its group's small
int (m, p, s, z: four ints, never one big key), and so do the packs, so there is no WinContext, tile list
or sort (the facts read the WinContext from the record only if a detector or a message asks for it).
Anything else — another key, another notation or value type, a tile or copy count out of bounds — gives None
and goes the checked way (:func:`~erma.scoring.context.read_record`), which reads it or says what is
wrong. Both ways give the same facts (tests/scoring/test_plain.py).

>>> facts = plain_facts({"packs": [["PENG", "1z", 1]], "hand": "123456789m6z", "win_tile": "6z"})
>>> facts.text, facts.melded_sets, facts.ctx.to_notation()
('123456789m11166z', 1, '(111z)123456789m6z+6z')
>>> plain_facts({"packs": [], "hand": "123m", "win_tile": "6z"}) is None  # too few tiles: the checked way
True
"""

from __future__ import annotations

from typing import Final

from erma.errors import ErmaError
from erma.scoring.context import FLAG_KEYS, REQUIRED_KEYS, TOKENS, read_pack
from erma.scoring.facts import HandFacts, build_facts
from erma.scoring.groups import CHOW, Group, declared_group
from erma.tiles import NUM_KINDS

PLAIN_KEYS: Final = frozenset((*REQUIRED_KEYS, *FLAG_KEYS, "flower_count", "seat_wind", "prevalent_wind"))
"""The keys a plain record may have (the reference calculator's)."""

# A count above 4 is found in a group's packed counts (4 bits a kind) without overflow in two steps: the
# standing tiles first (at most 14 of a kind), then the whole hand, whose counts stay at most 12 once no
# kind has two declared pungs or kongs (4 standing, 4 in a pung or kong, 4 in chows).
_ADD3: Final = sum(3 << (4 * r) for r in range(9))
_BIT3: Final = sum(8 << (4 * r) for r in range(9))
"""Added to a group's packed counts of at most 12, a count above 4 sets the high bit of its 4."""

_TILE_OF: Final = {text: t for text, t in TOKENS.items() if t < NUM_KINDS}
"""A hand tile's kind by token (flowers are not hand tiles: not here)."""
_WIN_PART: Final = {
    text: (t, min(t // 9, 3), 1 << (4 * (t - 9 * min(t // 9, 3))))
    for t, text in ((t, text) for text, t in TOKENS.items() if t < NUM_KINDS)
}
"""The winning tile by token: its kind, its group and its packed count within the group."""
_ONE: Final = 49
"""``ord("1")``."""
_NINE: Final = 57
"""``ord("9")``."""
_M: Final = 109
"""``ord("m")``; and so ``_P``, ``_S``, ``_Z``."""
_P: Final = 112
_S: Final = 115
_Z: Final = 122
_HIGH_HONORS: Final = 0xFF << 28
"""The lanes of 8z and 9z in a group's packed counts: no such honour."""
_ABSENT: Final = object()
"""What a record's ``get`` gives for a key it does not have."""
_PACKS: Final[dict[str, dict[str, list[tuple[Group, int] | None]]]] = {}
"""Memo: a valid pack by its tile's text, then its kind, then its offer (0–3) → its group, and the bit of
its kind if it is a pung or a kong, 0 for a chow (bounded; two string look-ups, no key tuple built)."""


def hand_key(hand: str) -> tuple[int, int, int, int, int]:
    """The packed counts (4 bits a kind) of each group (m, p, s, z) of a plain mpsz hand (runs of digits
    1–9 each closed by ``m``, ``p``, ``s`` or ``z``, honours 1–7z) and its number of tiles; that number is
    −1 for anything else. Each group's counts add up in a small int of their own; the characters are read
    by index as code points (compiled, far cheaper than iterating over one-character strings)."""
    k0 = k1 = k2 = k3 = 0
    run = 0  # the digits since the last suit letter, as one group's packed counts
    n = 0
    pending = False
    for i in range(len(hand)):
        c = ord(hand[i])
        if _ONE <= c <= _NINE:
            run += 1 << (4 * (c - _ONE))
            n += 1
            pending = True
        elif not pending:
            return 0, 0, 0, 0, -1
        elif c == _M:
            k0 += run
            run = 0
            pending = False
        elif c == _P:
            k1 += run
            run = 0
            pending = False
        elif c == _S:
            k2 += run
            run = 0
            pending = False
        elif c == _Z and not run & _HIGH_HONORS:
            k3 += run
            run = 0
            pending = False
        else:
            return 0, 0, 0, 0, -1
    if pending:
        return 0, 0, 0, 0, -1
    return k0, k1, k2, k3, n


def tokens_key(hand: list[object]) -> tuple[int, int, int, int, bool]:
    """The packed counts of each group of a hand given as a list of one-tile tokens (``"5m"``, ``"W5"``),
    and False if one is not a hand tile. As :func:`hand_key`, four small per-group ints; an mpsz token is
    read from its two code points, any other through the token table."""
    k0 = k1 = k2 = k3 = 0
    for token in hand:
        if type(token) is not str:
            return 0, 0, 0, 0, False
        if len(token) == 2:
            d = ord(token[0]) - _ONE
            c = ord(token[1])
            if 0 <= d <= 8:
                if c == _M:
                    k0 += 1 << (4 * d)
                    continue
                if c == _P:
                    k1 += 1 << (4 * d)
                    continue
                if c == _S:
                    k2 += 1 << (4 * d)
                    continue
                if c == _Z and d <= 6:
                    k3 += 1 << (4 * d)
                    continue
        t = _TILE_OF.get(token, -1)
        if t < 0:
            return 0, 0, 0, 0, False
        if t < 9:
            k0 += 1 << (4 * t)
        elif t < 18:
            k1 += 1 << (4 * (t - 9))
        elif t < 27:
            k2 += 1 << (4 * (t - 18))
        else:
            k3 += 1 << (4 * (t - 27))
    return k0, k1, k2, k3, True


def _over4(k: int) -> bool:
    """A count above 4 (and at most 14) in a group's packed standing counts (from 8 up, its own high bit)."""
    return (k | (k + _ADD3)) & _BIT3 != 0


def _pack(raw: list[object]) -> tuple[Group, int] | None:
    kind, text, offer = raw
    try:
        meld = read_pack(raw, 0)
    except (ErmaError, TypeError, ValueError, KeyError):
        return None
    group = declared_group(meld)
    got = (group, 0 if group.kind == CHOW else 1 << group.tile)
    if type(kind) is str and type(text) is str and type(offer) is int and 0 <= offer < 4:
        by_kind = _PACKS.get(text)
        if by_kind is None:
            if len(_PACKS) >= 1 << 12:
                return got
            by_kind = _PACKS[text] = {}
        by_offer = by_kind.get(kind)
        if by_offer is None:
            if len(by_kind) >= 16:
                return got
            by_offer = by_kind[kind] = [None, None, None, None]
        by_offer[offer] = got
    return got


def _known_pack(kind: str, text: str, offer: int) -> tuple[Group, int] | None:
    """A pack from :data:`_PACKS`, or None if it is not there."""
    by_kind = _PACKS.get(text)
    if by_kind is None:
        return None
    by_offer = by_kind.get(kind)
    if by_offer is None or not 0 <= offer < 4:
        return None
    return by_offer[offer]


def plain_facts(record: object) -> HandFacts | None:
    """The facts of a plain, valid record (see above), or None: then the checked way reads the record."""
    if type(record) is not dict or len(record) > len(PLAIN_KEYS):
        return None
    packs = record.get("packs")
    hand = record.get("hand")
    if type(hand) is str:
        if len(hand) > 40:  # far more than 14 tiles
            return None
        k0, k1, k2, k3, n = hand_key(hand)
        if n < 0:
            return None
    elif type(hand) is list:
        n = len(hand)
        if n > 14:
            return None
        k0, k1, k2, k3, ok = tokens_key(hand)
        if not ok:  # another notation, a flower, not a string
            return None
    else:
        return None
    win_text = record.get("win_tile")
    w = _WIN_PART.get(win_text) if type(win_text) is str else None
    if w is None or type(packs) is not list or n != 13 - 3 * len(packs):
        return None
    win, wg, wpart = w
    if wg == 0:
        k0 += wpart
    elif wg == 1:
        k1 += wpart
    elif wg == 2:
        k2 += wpart
    else:
        k3 += wpart
    if _over4(k0) or _over4(k1) or _over4(k2) or _over4(k3):
        return None
    declared: tuple[Group, ...] = ()
    if packs:
        groups = []
        f0, f1, f2, f3 = k0, k1, k2, k3
        held = 0  # the kinds of the declared pungs and kongs
        for raw in packs:
            if type(raw) is not list or len(raw) != 3:
                return None
            kind, text, offer = raw
            if type(kind) is not str or type(text) is not str or type(offer) is not int:
                return None
            got = _known_pack(kind, text, offer)
            if got is None:
                got = _pack(raw)
            if got is None or got[1] & held:  # (two pungs or kongs of one kind: too many copies)
                return None
            g = got[0]
            groups.append(g)
            gi = g.group
            if gi == 0:
                f0 += g.part
            elif gi == 1:
                f1 += g.part
            elif gi == 2:
                f2 += g.part
            else:
                f3 += g.part
            held |= got[1]
        if (f0 + _ADD3) & _BIT3 or (f1 + _ADD3) & _BIT3 or (f2 + _ADD3) & _BIT3 or (f3 + _ADD3) & _BIT3:
            return None  # a count above 4 in the whole hand
        declared = tuple(groups)
    # The keys read here are the plain keys; the record has no other if it has as many keys as were found
    # (packs, hand and win_tile were, or it would not have got this far).
    found = 3
    sd = record.get("is_self_drawn", _ABSENT)
    if sd is _ABSENT:
        sd = False
    else:
        found += 1
    ft = record.get("is_4th_tile", _ABSENT)
    if ft is _ABSENT:
        ft = False
    else:
        found += 1
    ak = record.get("is_about_kong", _ABSENT)
    if ak is _ABSENT:
        ak = False
    else:
        found += 1
    wl = record.get("is_wall_last", _ABSENT)
    if wl is _ABSENT:
        wl = False
    else:
        found += 1
    seat = record.get("seat_wind", _ABSENT)
    if seat is _ABSENT:
        seat = 0
    else:
        found += 1
    prevalent = record.get("prevalent_wind", _ABSENT)
    if prevalent is _ABSENT:
        prevalent = 0
    else:
        found += 1
    count = record.get("flower_count", _ABSENT)
    if count is _ABSENT:
        count = 0
    else:
        found += 1
    if not (
        found == len(record)
        and (sd is True or sd is False)
        and (ft is True or ft is False)
        and (ak is True or ak is False)
        and (wl is True or wl is False)
        and type(seat) is int
        and 0 <= seat <= 3
        and type(prevalent) is int
        and 0 <= prevalent <= 3
        and type(count) is int
        and 0 <= count <= 8
    ):
        return None
    return build_facts(
        record, declared, k0, k1, k2, k3, win, sd, ft, ak, wl, seat, prevalent, False, (), count, 4
    )
