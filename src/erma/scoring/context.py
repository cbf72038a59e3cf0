"""The win context (和牌情境): a scoring record read into a checked, frozen value.

A record is a dict in PyMahjongGB's vocabulary (docs/scoring.md lists every key)::

    {"packs": [["PENG", "1z", 1]], "hand": "123456m789p23s5z", "win_tile": "5z",
     "flower_count": 0, "is_self_drawn": False, "is_4th_tile": False, "is_about_kong": False,
     "is_wall_last": False, "seat_wind": 0, "prevalent_wind": 0}

``read_record`` raises :class:`~erma.errors.InvalidHandError` (or ``InvalidNotationError``) quoting the
bad key; ``score_record`` turns that into an ``invalid_input`` result.

>>> ctx = read_record({"packs": [["GANG", "W1", 0]], "hand": "234m678m2225z", "win_tile": "5z"})
>>> ctx.melds, to_mpsz(ctx.concealed), ctx.win_tile
((Meld.parse('[1111m]'),), '234678m2225z', 31)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from erma.errors import InvalidHandError, InvalidNotationError
from erma.frozen import reduce_frozen
from erma.hand import Meld, MeldKind
from erma.tiles import BOTZONE, FLOWERS, NUM_ALL_KINDS, NUM_KINDS, Tile, parse, tile_to_mpsz, to_mpsz

REQUIRED_KEYS = ("packs", "hand", "win_tile")
"""Keys a record must have; the others have defaults."""

FLAG_KEYS = ("is_self_drawn", "is_4th_tile", "is_about_kong", "is_wall_last")
"""The reference calculator's win flags (default false)."""

OPTIONAL_BOOL_KEYS = (
    "is_initial",
    "is_dealer",
    "declared_ready",
    "declared_ready_first_turn",
    "ready_one_shot",
    "robbing",
    "flowers_in_play",
)
"""Context for the two-player tables (default false; ``is_dealer`` defaults to seat_wind == 0)."""

KNOWN_KEYS = frozenset(
    (
        *REQUIRED_KEYS,
        *FLAG_KEYS,
        *OPTIONAL_BOOL_KEYS,
        "flower_count",
        "flowers",
        "bonus_count",
        "seat_wind",
        "prevalent_wind",
        "copies",
    )
)

TOKENS: Final[dict[str, Tile]] = {}
"""Every one-tile token, Botzone (``W5``) and mpsz (``5m``), flowers too → its kind."""
for _t in range(NUM_ALL_KINDS):
    TOKENS[BOTZONE[_t]] = _t
    TOKENS[tile_to_mpsz(_t)] = _t
_TOKEN: Final = TOKENS


@dataclass(slots=True, unsafe_hash=True)
class WinContext:
    """A complete winning hand and how it was won: everything scoring reads.

    A value: nothing changes it once built (copies with changes: ``dataclasses.replace``). Not a frozen
    dataclass only for speed, as :class:`~erma.game.seatview.SeatView`: a frozen dataclass's constructor
    cannot assign its fields, and the generated one runs as interpreted Python even when compiled (the
    engine builds one for every win it checks); equality, hashing and pickling are a frozen one's."""

    melds: tuple[Meld, ...]
    """Declared sets (副露, and concealed kongs), in record order."""
    concealed: tuple[Tile, ...]
    """The concealed (standing) tiles without the winning tile, sorted."""
    win_tile: Tile
    """和牌张."""
    self_drawn: bool = False
    """自摸 (else won on a discard or a robbed kong)."""
    fourth_tile: bool = False
    """和绝张 as the caller sees it: the other three copies are visible."""
    about_kong: bool = False
    """杠上开花 when self-drawn (a kong replacement), 抢杠和 otherwise (a robbed added kong)."""
    wall_last: bool = False
    """The last tile of the wall: 妙手回春 when self-drawn, 海底捞月 otherwise."""
    seat_wind: int = 0
    """门风 0–3 = 东南西北."""
    prevalent_wind: int = 0
    """圈风 0–3 = 东南西北."""
    flowers: tuple[Tile, ...] = ()
    """Flowers held, by kind (34–41), when the record names them."""
    flower_count: int = 0
    """花牌 count."""
    bonus_count: int = 0
    """Bonus-tile copies held (cuopai 花牌 §1.7); no mcr fan reads it."""
    is_initial: bool = False
    """The win comes on the first turn, no claim or kong before (天和 / 地和 / 人和)."""
    is_dealer: bool = False
    """The winner is the dealer (庄家)."""
    declared_ready: bool = False
    """The winner had declared ready (报听)."""
    declared_ready_first_turn: bool = False
    """Ready declared with the winner's first discard, no claim or kong before (天听)."""
    ready_one_shot: bool = False
    """Won within one go-round of declaring ready (报听一发)."""
    robbing: bool = False
    """Won on a robbed added kong (抢杠), also when scored as self-drawn (cuopai789: then ``self_drawn`` and
    ``about_kong`` are true too, and 抢杠 and the self-draw fans score, not 杠上开花). Without it, the
    reference's convention holds: ``about_kong`` and not ``self_drawn`` is 抢杠和."""
    copies: int = 4
    """Copies of each kind in the tile set: 4, or 8 for 无双 (5–8 of a kind in one hand, extended kongs)."""
    flowers_in_play: bool = False
    """The rule set has flowers (flower variant): only then does a win without flowers score 无花牌."""

    def __init__(
        self,
        melds: tuple[Meld, ...],
        concealed: tuple[Tile, ...],
        win_tile: Tile,
        self_drawn: bool = False,
        fourth_tile: bool = False,
        about_kong: bool = False,
        wall_last: bool = False,
        seat_wind: int = 0,
        prevalent_wind: int = 0,
        flowers: tuple[Tile, ...] = (),
        flower_count: int = 0,
        bonus_count: int = 0,
        is_initial: bool = False,
        is_dealer: bool = False,
        declared_ready: bool = False,
        declared_ready_first_turn: bool = False,
        ready_one_shot: bool = False,
        robbing: bool = False,
        copies: int = 4,
        flowers_in_play: bool = False,
    ) -> None:
        """The dataclass's constructor written out (compiled, it is native code)."""
        self.melds = melds
        self.concealed = concealed
        self.win_tile = win_tile
        self.self_drawn = self_drawn
        self.fourth_tile = fourth_tile
        self.about_kong = about_kong
        self.wall_last = wall_last
        self.seat_wind = seat_wind
        self.prevalent_wind = prevalent_wind
        self.flowers = flowers
        self.flower_count = flower_count
        self.bonus_count = bonus_count
        self.is_initial = is_initial
        self.is_dealer = is_dealer
        self.declared_ready = declared_ready
        self.declared_ready_first_turn = declared_ready_first_turn
        self.ready_one_shot = ready_one_shot
        self.robbing = robbing
        self.copies = copies
        self.flowers_in_play = flowers_in_play

    def to_notation(self) -> str:
        """``[1111m](2222z)234m678m5z+5z`` (RULES §0.1 hand notation, context left out)."""
        return (
            "".join(m.to_notation() for m in self.melds)
            + to_mpsz(self.concealed)
            + "+"
            + tile_to_mpsz(self.win_tile)
        )

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Rebuilt through the constructor (copy, pickle; also when compiled)."""
        return reduce_frozen(self)


def _reference_context(
    melds: tuple[Meld, ...],
    concealed: tuple[Tile, ...],
    win: Tile,
    self_drawn: bool,
    fourth_tile: bool,
    about_kong: bool,
    wall_last: bool,
    seat: int,
    prevalent: int,
    flowers: tuple[Tile, ...],
    flower_count: int,
) -> WinContext:
    """A WinContext of the reference's keys (the others take their defaults, ``is_dealer`` is seat 0)."""
    return WinContext(
        melds=melds,
        concealed=concealed,
        win_tile=win,
        self_drawn=self_drawn,
        fourth_tile=fourth_tile,
        about_kong=about_kong,
        wall_last=wall_last,
        seat_wind=seat,
        prevalent_wind=prevalent,
        flowers=flowers,
        flower_count=flower_count,
        is_dealer=seat == 0,
    )


_MPSZ_FAST: Final = re.compile(r"(?:[1-9]+[mps]|[1-7]+z)+")
"""Plain mpsz without spaces, honour letters or flowers: read by :func:`_tiles` run by run, without
``parse`` (each new run is checked against this)."""
_RUN: Final = re.compile(r"[1-9]+[mpsz]")
_RUN_TILES: Final[dict[str, tuple[Tile, ...]]] = {}
"""Memo: one suit's run of digits (``"123m"``) → its tiles (bounded)."""
_SUIT_BASE: Final = {"m": 0, "p": 9, "s": 18, "z": 27}
_LANE: Final[tuple[int, ...]] = tuple(1 << (8 * t) for t in range(NUM_KINDS))
"""One tile of each kind in a count vector packed 8 bits a kind."""
_LANE_HIGH: Final = sum(0xF0 << (8 * t) for t in range(NUM_KINDS))
_LANE_ADD: Final = {c: sum((15 - c) << (8 * t) for t in range(NUM_KINDS)) for c in (4, 8)}
"""Added to packed counts, a count above ``c`` reaches the high half of its byte."""
_OPTIONAL_KEYS: Final = frozenset((*OPTIONAL_BOOL_KEYS, "bonus_count", "copies"))
_MELDS: Final[dict[tuple[str, str, int], Meld]] = {}
"""Memo of well-formed three-item packs ``(kind, tile, offer)`` → meld (a few hundred at most)."""


def _tile(value: object, where: str) -> Tile:
    if isinstance(value, str):
        t = _TOKEN.get(value.strip())
        if t is None:
            tiles = parse(value)
            if len(tiles) != 1:
                raise InvalidNotationError(f"{where}: {value!r} is not one tile")
            t = tiles[0]
        return t
    raise InvalidHandError(f"{where}: a tile is a string such as '5m' or 'W5', not {value!r}")


def _tiles(value: object, where: str) -> list[Tile]:
    if isinstance(value, str):
        runs = _RUN.findall(value)
        if sum(map(len, runs)) == len(value):  # nothing but runs of digits and a suit letter
            out: list[Tile] = []
            for run in runs:
                tiles = _RUN_TILES.get(run)
                if tiles is None:
                    if not _MPSZ_FAST.fullmatch(run):  # honours 8z / 9z: the general path (and its error)
                        return parse(value)
                    base = _SUIT_BASE[run[-1]] - 49  # ord("1") == 49
                    tiles = tuple([base + ord(d) for d in run[:-1]])
                    if len(_RUN_TILES) < 1 << 16:
                        _RUN_TILES[run] = tiles
                out += tiles
            return out
        return parse(value)
    if isinstance(value, list | tuple):
        try:
            return list(map(_TOKEN.__getitem__, value))
        except (KeyError, TypeError):  # spaces, other notations or a wrong value: the checked path
            return [_tile(v, where) for v in value]
    raise InvalidHandError(f"{where}: expected a notation string or a list of tiles, not {value!r}")


def _bool(record: Mapping[str, object], key: str, default: bool = False) -> bool:
    v = record.get(key, default)
    if isinstance(v, bool):
        return v
    if isinstance(v, int) and v in (0, 1):
        return bool(v)
    raise InvalidHandError(f"{key} must be true or false, not {v!r}")


def _int(record: Mapping[str, object], key: str, lo: int, hi: int, default: int = 0) -> int:
    v = record.get(key, default)
    if (type(v) is not int and (not isinstance(v, int) or isinstance(v, bool))) or not lo <= v <= hi:
        raise InvalidHandError(f"{key} must be an integer {lo}–{hi}, not {v!r}")
    return v


def _meld(raw: object, i: int) -> Meld:
    if type(raw) is list and len(raw) == 3:
        kind, tile_text, offer = raw
        if type(kind) is str and type(tile_text) is str and type(offer) is int:
            key = (kind, tile_text, offer)
            m = _MELDS.get(key)
            if m is None:
                m = _MELDS[key] = read_pack(raw, i)
            return m
    return read_pack(raw, i)


def read_pack(raw: object, i: int) -> Meld:
    """Check one pack ``[kind, tile, offer]`` (or ``[GANG, tile, offer, size]``), the ``i``-th of a record,
    and read it as a meld; raises InvalidHandError / InvalidNotationError."""
    where = f"packs[{i}]"
    if not isinstance(raw, list | tuple) or len(raw) not in (3, 4):
        raise InvalidHandError(
            f"{where}: a pack is [kind, tile, offer] (or [GANG, tile, offer, size]), not {raw!r}"
        )
    kind, tile_text, offer = raw[:3]
    size = raw[3] if len(raw) == 4 else 4
    if not isinstance(kind, str) or kind.upper() not in ("CHI", "PENG", "GANG"):
        raise InvalidHandError(f"{where}: kind must be CHI, PENG or GANG, not {kind!r}")
    if not isinstance(offer, int) or isinstance(offer, bool) or not 0 <= offer <= 3:
        raise InvalidHandError(f"{where}: offer must be 0–3, not {offer!r}")
    tile = _tile(tile_text, where)
    if tile >= NUM_KINDS:
        raise InvalidHandError(f"{where}: a flower cannot be part of a pack")
    kind = kind.upper()
    if kind != "GANG" and offer == 0:
        raise InvalidHandError(f"{where}: offer 0 (concealed) is only for a concealed kong, not {kind}")
    if kind == "CHI":
        if tile >= 27 or tile % 9 in (0, 8):
            raise InvalidHandError(f"{where}: a CHI names its middle tile (2–8 of a suit), not {tile_text!r}")
        return Meld(MeldKind.CHOW, tile - 1)
    if len(raw) == 4 and (kind != "GANG" or not isinstance(size, int) or isinstance(size, bool)):
        raise InvalidHandError(f"{where}: only a GANG takes a size (4–8 tiles), not {raw!r}")
    if kind == "PENG":
        return Meld(MeldKind.PUNG, tile)
    if not 4 <= size <= 8:
        raise InvalidHandError(f"{where}: a kong has 4 to 8 tiles, not {size!r}")
    return Meld(MeldKind.CONCEALED_KONG if offer == 0 else MeldKind.EXPOSED_KONG, tile, size)


def read_record(record: object) -> WinContext:
    """Check a record and read it into a :class:`WinContext`; raises InvalidHandError / InvalidNotationError.

    The hand must be complete in size (3 per pack + concealed tiles = 13, plus the winning tile) and
    use at most 4 copies of a kind; whether it wins is for the pipeline to say.
    """
    if type(record) is not dict and not isinstance(record, Mapping):
        raise InvalidHandError(f"a record is a JSON object, not {type(record).__name__}")
    if not ("packs" in record and "hand" in record and "win_tile" in record):
        missing = [k for k in REQUIRED_KEYS if k not in record]
        raise InvalidHandError(f"record lacks {', '.join(missing)}")
    if not KNOWN_KEYS.issuperset(record):
        unknown = sorted(str(k) for k in record if k not in KNOWN_KEYS)
        raise InvalidHandError(f"record has unknown key(s) {', '.join(unknown)}")
    packs = record["packs"]
    if not isinstance(packs, list | tuple) or len(packs) > 4:
        raise InvalidHandError(f"packs must be a list of at most 4 packs, not {packs!r}")
    melds = tuple([_meld(p, i) for i, p in enumerate(packs)]) if packs else ()
    concealed = _tiles(record["hand"], "hand")
    win = _TOKEN.get(record["win_tile"], -1) if type(record["win_tile"]) is str else -1
    if win < 0:
        win = _tile(record["win_tile"], "win_tile")
    if (concealed and max(concealed) >= NUM_KINDS) or win >= NUM_KINDS:
        raise InvalidHandError("hand: flowers are not part of a hand; give them as flower_count or flowers")
    if len(concealed) + 3 * len(melds) != 13:
        raise InvalidHandError(
            f"hand {to_mpsz(concealed)!r} has {len(concealed)} tiles beside {len(melds)} pack(s); "
            f"it needs {13 - 3 * len(melds)} (the winning tile apart)"
        )
    lanes = sum(map(_LANE.__getitem__, concealed), _LANE[win])  # 8 bits a kind: counts add in C
    for m in melds:
        lanes += _LANE[m.tile] * m.size if m.kind is not MeldKind.CHOW else _LANE[m.tile] * 0x10101
    copies = record.get("copies", 4)
    if copies not in (4, 8) or isinstance(copies, bool):
        raise InvalidHandError(f"copies must be 4 or 8, not {copies!r}")
    if (lanes + _LANE_ADD[copies]) & _LANE_HIGH:  # some count above copies
        seen = [(lanes >> (8 * t)) & 255 for t in range(NUM_KINDS)]
        over = [t for t in range(NUM_KINDS) if seen[t] > copies]
        raise InvalidHandError(f"more than {copies} copies of {', '.join(tile_to_mpsz(t) for t in over)}")
    flowers: tuple[Tile, ...] = ()
    if "flowers" in record:
        fl = _tiles(record["flowers"], "flowers")
        if any(t not in FLOWERS for t in fl) or len(set(fl)) != len(fl):
            raise InvalidHandError(
                f"flowers must be distinct flower tiles (1f–8f), not {record['flowers']!r}"
            )
        flowers = tuple(sorted(fl))
        count = _int(record, "flower_count", 0, 8, len(flowers))
        if count != len(flowers):
            raise InvalidHandError(f"flower_count {count} does not match flowers {to_mpsz(flowers)!r}")
    else:
        count = record.get("flower_count", 0)
        if type(count) is not int or not 0 <= count <= 8:
            count = _int(record, "flower_count", 0, 8)
    seat = record.get("seat_wind", 0)
    if type(seat) is not int or not 0 <= seat <= 3:
        seat = _int(record, "seat_wind", 0, 3)
    if _OPTIONAL_KEYS.isdisjoint(record):  # the reference's keys only: skip the two-player context
        get = record.get
        sd = get("is_self_drawn", False)
        ft = get("is_4th_tile", False)
        ak = get("is_about_kong", False)
        wl = get("is_wall_last", False)
        prevalent = get("prevalent_wind", 0)
        if (
            (sd is True or sd is False)
            and (ft is True or ft is False)
            and (ak is True or ak is False)
            and (wl is True or wl is False)
            and type(prevalent) is int
            and 0 <= prevalent <= 3
        ):
            concealed.sort()
            return _reference_context(
                melds, tuple(concealed), win, sd, ft, ak, wl, seat, prevalent, flowers, count
            )
    return WinContext(
        melds=melds,
        concealed=tuple(sorted(concealed)),
        win_tile=win,
        self_drawn=_bool(record, "is_self_drawn"),
        fourth_tile=_bool(record, "is_4th_tile"),
        about_kong=_bool(record, "is_about_kong"),
        wall_last=_bool(record, "is_wall_last"),
        seat_wind=seat,
        prevalent_wind=_int(record, "prevalent_wind", 0, 3),
        flowers=flowers,
        flower_count=count,
        bonus_count=_int(record, "bonus_count", 0, 64),
        is_initial=_bool(record, "is_initial"),
        is_dealer=_bool(record, "is_dealer", seat == 0),
        declared_ready=_bool(record, "declared_ready"),
        declared_ready_first_turn=_bool(record, "declared_ready_first_turn"),
        ready_one_shot=_bool(record, "ready_one_shot"),
        robbing=_bool(record, "robbing"),
        copies=copies,
        flowers_in_play=_bool(record, "flowers_in_play"),
    )
