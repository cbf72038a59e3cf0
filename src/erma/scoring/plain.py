"""score_record's plain path: a record of the reference's own keys, read straight into hand facts.

Most records name only the reference calculator's keys (``packs``, ``hand``, ``win_tile``, the four flags,
``flower_count``, the two winds) with well-formed values. :func:`plain_facts` reads such a record into
:class:`~erma.scoring.readings.HandFacts` in one step: every tile adds a precomputed *tally* to one int,
and the packs come from a memo, so there is no WinContext, tile list or sort (the facts read the
WinContext from the record only if a detector or a message asks for it). Anything else — another key,
another notation or value type, a tile or copy count out of bounds — gives None and goes the checked
way (:func:`~erma.scoring.context.read_record`), which reads it or says what is wrong. Both ways give
the same facts (tests/scoring/test_plain.py).

>>> facts = plain_facts({"packs": [["PENG", "1z", 1]], "hand": "123456789m6z", "win_tile": "6z"})
>>> facts.text, facts.melded_sets, facts.ctx.to_notation()
('123456789m11166z', 1, '(111z)123456789m6z+6z')
>>> plain_facts({"packs": [], "hand": "123m", "win_tile": "6z"}) is None  # too few tiles: the checked way
True
"""

from __future__ import annotations

import re
from typing import Final

from erma.analysis.tables import INC
from erma.errors import ErmaError
from erma.scoring.context import FLAG_KEYS, REQUIRED_KEYS, TOKENS, read_pack
from erma.scoring.readings import Group, HandFacts, build_facts, declared_group
from erma.tiles import NUM_KINDS, Tile

PLAIN_KEYS: Final = frozenset((*REQUIRED_KEYS, *FLAG_KEYS, "flower_count", "seat_wind", "prevalent_wind"))
"""The keys a plain record may have (the reference calculator's)."""

# A tally adds up tiles in one int: their packed counts (4 bits a kind, the facts' key) in the low bits,
# the same counts 8 bits a kind from bit _LANES (room to find a count above 4 without overflow), and
# the number of tiles from bit _COUNT.
_LANES: Final = 144
_COUNT: Final = 420
_KEY_MASK: Final = (1 << 136) - 1
_LANE_HIGH: Final = sum(0xF0 << (_LANES + 8 * t) for t in range(NUM_KINDS))
_LANE_ADD: Final = sum(11 << (_LANES + 8 * t) for t in range(NUM_KINDS))
"""Added to the lanes, a count above 4 reaches the high half of its byte."""


def _lane(t: Tile) -> int:
    return 1 << (_LANES + 8 * t)


_TILE_TALLY: Final = {text: 1 << _COUNT | _lane(t) | INC[t] for text, t in TOKENS.items() if t < NUM_KINDS}
"""A hand tile's tally by token (flowers are not hand tiles: not here)."""
_WIN_TALLY: Final = {text: (t, _lane(t) | INC[t]) for text, t in TOKENS.items() if t < NUM_KINDS}
"""The winning tile and its tally (not counted among the hand tiles) by token."""
_RUN: Final = re.compile(r"[1-9]+[mpsz]")
_PLAIN_RUN: Final = re.compile(r"[1-9]+[mps]|[1-7]+z")
_RUN_TALLY: dict[str, int] = {}
"""Memo: one suit's run of mpsz digits (``"123m"``) → its tally (bounded)."""
_PACKS: dict[tuple[str, str, int], tuple[Group, int]] = {}
"""Memo: a valid pack ``(kind, tile, offer)`` → its group and the lanes of its tiles (bounded)."""


def _run_tally(run: str) -> int | None:
    if not _PLAIN_RUN.fullmatch(run):
        return None  # honours 8z / 9z: the checked way says what is wrong
    base = {"m": 0, "p": 9, "s": 18, "z": 27}[run[-1]] - 1
    tally = 0
    for d in run[:-1]:
        t = base + int(d)
        tally += 1 << _COUNT | _lane(t) | INC[t]
    if len(_RUN_TALLY) < 1 << 16:
        _RUN_TALLY[run] = tally
    return tally


def _pack(raw: list[object]) -> tuple[Group, int] | None:
    kind, text, offer = raw
    try:
        meld = read_pack(raw, 0)
    except (ErmaError, TypeError, ValueError, KeyError):
        return None
    group = declared_group(meld)
    got = (group, sum(map(_lane, group.tiles)))
    if len(_PACKS) < 1 << 12:
        _PACKS[kind, text, offer] = got  # type: ignore[index]  # the caller checked the three types
    return got


def plain_facts(record: object) -> HandFacts | None:
    """The facts of a plain, valid record (see above), or None: then the checked way reads the record."""
    if type(record) is not dict or not PLAIN_KEYS.issuperset(record):
        return None
    get = record.get
    packs = get("packs")
    hand = get("hand")
    if type(hand) is str:
        runs = _RUN.findall(hand)
        if sum(map(len, runs)) != len(hand):  # something else than runs of digits and a suit letter
            return None
        tally = 0
        for run in runs:
            t = _RUN_TALLY.get(run)
            if t is None:
                t = _run_tally(run)
                if t is None:
                    return None
            tally += t
    elif type(hand) is list:
        try:
            tally = sum(map(_TILE_TALLY.__getitem__, hand))
        except (KeyError, TypeError):  # another notation, a flower, not a string
            return None
    else:
        return None
    win_text = get("win_tile")
    w = _WIN_TALLY.get(win_text) if type(win_text) is str else None
    if w is None or type(packs) is not list or tally >> _COUNT != 13 - 3 * len(packs):
        return None
    declared: tuple[Group, ...] = ()
    if packs:
        groups = []
        for raw in packs:
            if type(raw) is not list or len(raw) != 3:
                return None
            kind, text, offer = raw
            if type(kind) is not str or type(text) is not str or type(offer) is not int:
                return None
            got = _PACKS.get((kind, text, offer)) or _pack(raw)
            if got is None:
                return None
            groups.append(got[0])
            tally += got[1]  # lanes only: the packed key is the standing tiles'

        declared = tuple(groups)
    win, win_tally = w
    tally += win_tally
    if (tally + _LANE_ADD) & _LANE_HIGH:  # more than 4 copies of some kind
        return None
    sd = get("is_self_drawn", False)
    ft = get("is_4th_tile", False)
    ak = get("is_about_kong", False)
    wl = get("is_wall_last", False)
    seat = get("seat_wind", 0)
    prevalent = get("prevalent_wind", 0)
    count = get("flower_count", 0)
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
    return build_facts(
        record, declared, tally & _KEY_MASK, win, sd, ft, ak, wl, seat, prevalent, False, (), count, 4
    )
