"""score_record's plain path: a record of the reference's own keys, read straight into hand facts.

Most records name only the reference calculator's keys (``packs``, ``hand``, ``win_tile``, the four flags,
``flower_count``, the two winds) with well-formed values. :func:`plain_facts` reads such a record into
:class:`~erma.scoring.facts.HandFacts` in one step: every tile adds its packed count to one int (runs
of mpsz digits come from a memo), and so do the packs, so there is no WinContext, tile list or sort (the
facts read the WinContext from the record only if a detector or a message asks for it). Anything else —
another key, another notation or value type, a tile or copy count out of bounds — gives None and goes the
checked way (:func:`~erma.scoring.context.read_record`), which reads it or says what is wrong. Both ways
give the same facts (tests/scoring/test_plain.py).

>>> facts = plain_facts({"packs": [["PENG", "1z", 1]], "hand": "123456789m6z", "win_tile": "6z"})
>>> facts.text, facts.melded_sets, facts.ctx.to_notation()
('123456789m11166z', 1, '(111z)123456789m6z+6z')
>>> plain_facts({"packs": [], "hand": "123m", "win_tile": "6z"}) is None  # too few tiles: the checked way
True
"""

from __future__ import annotations

from typing import Final

from erma.analysis.tables import INC
from erma.errors import ErmaError
from erma.scoring.context import FLAG_KEYS, REQUIRED_KEYS, TOKENS, read_pack
from erma.scoring.facts import HandFacts, build_facts
from erma.scoring.groups import CHOW, Group, declared_group
from erma.tiles import NUM_KINDS

PLAIN_KEYS: Final = frozenset((*REQUIRED_KEYS, *FLAG_KEYS, "flower_count", "seat_wind", "prevalent_wind"))
"""The keys a plain record may have (the reference calculator's)."""

# A count above 4 is found in the packed counts (4 bits a kind) without overflow in two steps: the
# standing tiles first (at most 14 of a kind), then the whole hand, whose counts stay at most 12 once no
# kind has two declared pungs or kongs (4 standing, 4 in a pung or kong, 4 in chows).
_ADD3: Final = sum(3 << (4 * t) for t in range(NUM_KINDS))
_BIT3: Final = sum(8 << (4 * t) for t in range(NUM_KINDS))
"""Added to packed counts of at most 12, a count above 4 sets the high bit of its 4."""

_TILE_OF: Final = {text: t for text, t in TOKENS.items() if t < NUM_KINDS}
"""A hand tile's kind by token (flowers are not hand tiles: not here)."""
_WIN_KEY: Final = {text: (t, INC[t]) for text, t in TOKENS.items() if t < NUM_KINDS}
"""The winning tile and its packed count by token."""
_RANK: Final = tuple(1 << (4 * (d - 1)) if 1 <= d <= 9 else 0 for d in range(10))
"""One tile of rank ``d`` (1–9) in a group's packed counts (4 bits a rank)."""
_HIGH_HONORS: Final = 0xFF << 28
"""The lanes of 8z and 9z in a group's packed counts: no such honour."""
_PACKS: dict[tuple[str, str, int], tuple[Group, int]] = {}
"""Memo: a valid pack ``(kind, tile, offer)`` → its group, and the bit of its kind if it is a pung or a
kong, 0 for a chow (bounded)."""


def hand_key(hand: str) -> tuple[int, int]:
    """The packed counts (4 bits a kind) and the number of tiles of a plain mpsz hand (runs of digits 1–9
    each closed by ``m``, ``p``, ``s`` or ``z``, honours 1–7z); (−1, 0) for anything else. Each group's
    counts add up in a small int of their own (four ints, joined once at the end)."""
    k0 = k1 = k2 = k3 = 0
    run = 0  # the digits since the last suit letter, as one group's packed counts
    n = 0
    pending = False
    for c in hand:
        d = ord(c) - 48  # ord("0")
        if 1 <= d <= 9:
            run += _RANK[d]
            n += 1
            pending = True
        elif not pending:
            return -1, 0
        elif c == "m":
            k0 += run
            run = 0
            pending = False
        elif c == "p":
            k1 += run
            run = 0
            pending = False
        elif c == "s":
            k2 += run
            run = 0
            pending = False
        elif c == "z" and not run & _HIGH_HONORS:
            k3 += run
            run = 0
            pending = False
        else:
            return -1, 0
    if pending:
        return -1, 0
    return k0 | k1 << 36 | k2 << 72 | k3 << 108, n


def tokens_key(hand: list[object]) -> int:
    """The packed counts of a hand given as a list of one-tile tokens (``"5m"``, ``"W5"``); −1 if one is not
    a hand tile. As :func:`hand_key`, four small per-group ints joined at the end."""
    k0 = k1 = k2 = k3 = 0
    for token in hand:
        t = _TILE_OF.get(token, -1) if type(token) is str else -1
        if t < 0:
            return -1
        if t < 9:
            k0 += 1 << (4 * t)
        elif t < 18:
            k1 += 1 << (4 * (t - 9))
        elif t < 27:
            k2 += 1 << (4 * (t - 18))
        else:
            k3 += 1 << (4 * (t - 27))
    return k0 | k1 << 36 | k2 << 72 | k3 << 108


def _pack(raw: list[object]) -> tuple[Group, int] | None:
    kind, text, offer = raw
    try:
        meld = read_pack(raw, 0)
    except (ErmaError, TypeError, ValueError, KeyError):
        return None
    group = declared_group(meld)
    got = (group, 0 if group.kind == CHOW else 1 << group.tile)
    if len(_PACKS) < 1 << 12:
        _PACKS[kind, text, offer] = got  # type: ignore[index]  # the caller checked the three types
    return got


def plain_facts(record: object) -> HandFacts | None:
    """The facts of a plain, valid record (see above), or None: then the checked way reads the record."""
    if type(record) is not dict:
        return None
    for k in record:
        if k not in PLAIN_KEYS:
            return None
    packs = record.get("packs")
    hand = record.get("hand")
    if type(hand) is str:
        if len(hand) > 40:  # far more than 14 tiles
            return None
        key, n = hand_key(hand)
        if key < 0:
            return None
    elif type(hand) is list:
        n = len(hand)
        if n > 14:
            return None
        key = tokens_key(hand)
        if key < 0:  # another notation, a flower, not a string
            return None
    else:
        return None
    win_text = record.get("win_tile")
    w = _WIN_KEY.get(win_text) if type(win_text) is str else None
    if w is None or type(packs) is not list or n != 13 - 3 * len(packs):
        return None
    win, win_key = w
    key += win_key
    if (key | (key + _ADD3)) & _BIT3:  # a standing count above 4 (from 8 up, its own high bit)
        return None
    declared: tuple[Group, ...] = ()
    if packs:
        groups = []
        full = key
        held = 0  # the kinds of the declared pungs and kongs
        for raw in packs:
            if type(raw) is not list or len(raw) != 3:
                return None
            kind, text, offer = raw
            if type(kind) is not str or type(text) is not str or type(offer) is not int:
                return None
            got = _PACKS.get((kind, text, offer)) or _pack(raw)
            if got is None or got[1] & held:  # (two pungs or kongs of one kind: too many copies)
                return None
            g = got[0]
            groups.append(g)
            full += g.key
            held |= got[1]
        if (full + _ADD3) & _BIT3:  # a count above 4 in the whole hand
            return None
        declared = tuple(groups)
    sd = record.get("is_self_drawn", False)
    ft = record.get("is_4th_tile", False)
    ak = record.get("is_about_kong", False)
    wl = record.get("is_wall_last", False)
    seat = record.get("seat_wind", 0)
    prevalent = record.get("prevalent_wind", 0)
    count = record.get("flower_count", 0)
    if not (
        (sd is True or sd is False)
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
    return build_facts(record, declared, key, win, sd, ft, ak, wl, seat, prevalent, False, (), count, 4)
