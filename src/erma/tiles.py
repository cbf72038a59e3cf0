"""Tile kinds (牌) as small ints, named constants and groups, and the notations in and out.

Kinds: 0–8 = 1–9m 万, 9–17 = 1–9p 筒, 18–26 = 1–9s 条, 27–33 = 1–7z = 东 南 西 北 白 发 中,
34–41 = flowers 1–8f 春 夏 秋 冬 梅 兰 竹 菊.

Three notations are read, and each can be written:

- mpsz (canonical): ``"123m456p789s1155z"``; honours may also be letters ``E S W N P F C``.
- Botzone / PyMahjongGB tokens: ``"W1 W2 B3 F1 J3 H2"`` (``J1`` 中, ``J2`` 发, ``J3`` 白).
- Chinese names: ``"一万 二万 东 白"`` (also 1万, 饼, 索, 东风, 红中, 发财, 白板 and traditional forms).

>>> parse("123m5z")
[0, 1, 2, 31]
>>> to_mpsz([33, 0, 9])
'1m1p7z'
>>> to_botzone(parse("5z6z7z"))  # 白 发 中
'J3 J2 J1'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import TypeAlias

from erma.errors import InvalidNotationError

Tile: TypeAlias = int
"""A tile kind, 0–41."""

NUM_KINDS = 34
"""Kinds that take part in hands (suits and honours); flowers are 34–41."""
NUM_ALL_KINDS = 42

M1, M2, M3, M4, M5, M6, M7, M8, M9 = range(0, 9)
P1, P2, P3, P4, P5, P6, P7, P8, P9 = range(9, 18)
S1, S2, S3, S4, S5, S6, S7, S8, S9 = range(18, 27)
EAST, SOUTH, WEST, NORTH = 27, 28, 29, 30
WHITE, GREEN, RED = 31, 32, 33
"""Dragons: 白 (5z), 发 (6z), 中 (7z)."""
SPRING, SUMMER, AUTUMN, WINTER, PLUM, ORCHID, BAMBOO, CHRYSANTHEMUM = range(34, 42)

CHARACTERS: tuple[Tile, ...] = tuple(range(0, 9))
"""万 characters."""
DOTS: tuple[Tile, ...] = tuple(range(9, 18))
"""筒 dots."""
BAMBOOS: tuple[Tile, ...] = tuple(range(18, 27))
"""条 bamboo."""
SUITED: tuple[Tile, ...] = tuple(range(0, 27))
"""数牌 suited tiles."""
WINDS: tuple[Tile, ...] = (EAST, SOUTH, WEST, NORTH)
"""风牌 winds."""
DRAGONS: tuple[Tile, ...] = (WHITE, GREEN, RED)
"""箭牌 dragons."""
HONORS: tuple[Tile, ...] = tuple(range(27, 34))
"""字牌 honours."""
TERMINALS: tuple[Tile, ...] = (M1, M9, P1, P9, S1, S9)
"""老头 terminals."""
TERMINALS_AND_HONORS: tuple[Tile, ...] = TERMINALS + HONORS
"""幺九牌 terminals and honours (the thirteen orphans)."""
SIMPLES: tuple[Tile, ...] = tuple(t for t in SUITED if t % 9 not in (0, 8))
"""中张 simples, 2–8."""
FLOWERS: tuple[Tile, ...] = tuple(range(34, 42))
"""花牌 flowers."""
SEASONS: tuple[Tile, ...] = (SPRING, SUMMER, AUTUMN, WINTER)
PLANTS: tuple[Tile, ...] = (PLUM, ORCHID, BAMBOO, CHRYSANTHEMUM)
KNITTED_SEQUENCES: tuple[tuple[Tile, ...], ...] = tuple(
    tuple(9 * suit + r for suit, cls in enumerate(perm) for r in range(cls, 9, 3))
    for perm in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))
)
"""The six knitted sequences (组合龙): 147, 258, 369 spread over the three suits."""
GREENS: tuple[Tile, ...] = (S2, S3, S4, S6, S8, GREEN)
"""绿一色 tiles."""

SUIT_LETTERS = "mpszf"


def suit_of(tile: Tile) -> int:
    """0 万, 1 筒, 2 条, 3 字 honours, 4 花 flowers."""
    return 3 + (tile >= 34) if tile >= 27 else tile // 9


def rank_of(tile: Tile) -> int:
    """The digit of the tile in mpsz: 1–9 for suits, 1–7 for honours, 1–8 for flowers."""
    if tile >= 34:
        return tile - 33
    if tile >= 27:
        return tile - 26
    return tile % 9 + 1


def is_suited(tile: Tile) -> bool:
    """数牌."""
    return 0 <= tile < 27


def is_honor(tile: Tile) -> bool:
    """字牌."""
    return 27 <= tile < 34


def is_terminal(tile: Tile) -> bool:
    """老头: a 1 or 9 of a suit."""
    return tile < 27 and tile % 9 in (0, 8)


def is_terminal_or_honor(tile: Tile) -> bool:
    """幺九牌."""
    return is_terminal(tile) or is_honor(tile)


def is_flower(tile: Tile) -> bool:
    """花牌."""
    return 34 <= tile < 42


# ---------------------------------------------------------------------------------------------- names

_CN_DIGITS = "一二三四五六七八九"
_HONOR_ZH = ("东", "南", "西", "北", "白", "发", "中")
_FLOWER_ZH = ("春", "夏", "秋", "冬", "梅", "兰", "竹", "菊")
_HONOR_EN = ("East", "South", "West", "North", "White", "Green", "Red")
_FLOWER_EN = ("Spring", "Summer", "Autumn", "Winter", "Plum", "Orchid", "Bamboo", "Chrysanthemum")


def name_zh(tile: Tile) -> str:
    """Chinese name: 一万, 五筒, 九条, 东, 白, 春 …"""
    _check_kind(tile)
    if tile < 27:
        return _CN_DIGITS[tile % 9] + "万筒条"[tile // 9]
    if tile < 34:
        return _HONOR_ZH[tile - 27]
    return _FLOWER_ZH[tile - 34]


def name_en(tile: Tile) -> str:
    """English name: 1 Character, 5 Dot, 9 Bamboo, East, White, Spring …"""
    _check_kind(tile)
    if tile < 27:
        return f"{tile % 9 + 1} " + ("Character", "Dot", "Bamboo")[tile // 9]
    if tile < 34:
        return _HONOR_EN[tile - 27]
    return _FLOWER_EN[tile - 34]


def _botzone_token(tile: Tile) -> str:
    if tile < 27:
        return "WBT"[tile // 9] + str(tile % 9 + 1)
    if tile < 31:
        return f"F{tile - 26}"
    if tile < 34:
        return f"J{34 - tile}"  # 31 白 = J3, 32 发 = J2, 33 中 = J1
    return f"H{tile - 33}"


_MPSZ: tuple[str, ...] = tuple(f"{rank_of(t)}{SUIT_LETTERS[suit_of(t)]}" for t in range(NUM_ALL_KINDS))

_BOTZONE_TO_TILE: dict[str, Tile] = {_botzone_token(t): t for t in range(NUM_ALL_KINDS)}
BOTZONE: tuple[str, ...] = tuple(_botzone_token(t) for t in range(NUM_ALL_KINDS))
"""Botzone / PyMahjongGB token of each kind."""

_ZH_TO_TILE: dict[str, Tile] = {}


def _build_zh() -> None:
    suit_words = (("万", "萬"), ("筒", "饼", "餅"), ("条", "條", "索"))
    for s, words in enumerate(suit_words):
        for r in range(9):
            for w in words:
                _ZH_TO_TILE[_CN_DIGITS[r] + w] = s * 9 + r
                _ZH_TO_TILE[str(r + 1) + w] = s * 9 + r
    honors = (
        ("东", "東", "东风", "東風"),
        ("南", "南风", "南風"),
        ("西", "西风", "西風"),
        ("北", "北风", "北風"),
        ("白", "白板"),
        ("发", "發", "发财", "發財", "青发", "青發"),
        ("中", "红中", "紅中"),
    )
    for i, words in enumerate(honors):
        for w in words:
            _ZH_TO_TILE[w] = 27 + i
    for i, w in enumerate(_FLOWER_ZH):
        _ZH_TO_TILE[w] = 34 + i


_build_zh()

_LETTER_HONORS = {"E": EAST, "S": SOUTH, "W": WEST, "N": NORTH, "P": WHITE, "F": GREEN, "C": RED}
_MAX_DIGIT = {"m": 9, "p": 9, "s": 9, "z": 7, "f": 8}
_BASE = {"m": 0, "p": 9, "s": 18, "z": 27, "f": 34}
_BOTZONE_RE = re.compile(r"[WBTFJH][1-9]")


def _check_kind(tile: object) -> None:
    _kind(tile)


def _kind(tile: object) -> Tile:
    """``tile`` if it is a tile kind, else InvalidNotationError naming it (typed ``object``: the caller's
    values are checked here, not at a compiled function's boundary)."""
    if not isinstance(tile, int) or isinstance(tile, bool) or not 0 <= tile < NUM_ALL_KINDS:
        raise InvalidNotationError(f"{tile!r} is not a tile kind (an int 0–41)")
    return tile


def parse(text: str | Iterable[int]) -> list[Tile]:
    """Read tiles in mpsz, Botzone tokens or Chinese names; a list of kinds passes through, checked.

    The order of the input is kept.

    >>> parse("W1 B9 J1")
    [0, 17, 33]
    >>> parse("一万 九筒 红中")
    [0, 17, 33]
    >>> parse("EESP")
    [27, 27, 28, 31]
    """
    if not isinstance(text, str):
        items: Iterable[object] = text
        return [_kind(t) for t in items]
    stripped = "".join(text.split())
    if not stripped:
        return []
    if _BOTZONE_RE.match(stripped) and _looks_botzone(text):
        return _parse_botzone(text)
    if any(ch in _ZH_TO_TILE or "\u4e00" <= ch <= "\u9fff" for ch in stripped):
        # Chinese names, possibly mixed token by token with the other notations
        out: list[Tile] = []
        for tok in re.split(r"[\s,，]+", text.strip()):
            if not tok:
                continue
            if _BOTZONE_RE.fullmatch(tok):
                out.append(_BOTZONE_TO_TILE[tok])
            elif any("\u4e00" <= ch <= "\u9fff" for ch in tok):
                out.extend(_parse_zh(tok, text))
            else:
                out.extend(_parse_mpsz(text, tok))
        return out
    return _parse_mpsz(text, stripped)


def _looks_botzone(text: str) -> bool:
    tokens = [tok for tok in re.split(r"[\s,]+", text.strip()) if tok]
    return all(_BOTZONE_RE.fullmatch(tok) for tok in tokens) or (
        # a run like "W1W2B3" without separators
        re.fullmatch(r"(?:[WBTFJH][1-9])+", "".join(tokens)) is not None
        and not re.search(r"[mpszf]", "".join(tokens))
    )


def _parse_botzone(text: str) -> list[Tile]:
    joined = "".join(re.split(r"[\s,]+", text.strip()))
    tiles: list[Tile] = []
    for i in range(0, len(joined), 2):
        tok = joined[i : i + 2]
        tile = _BOTZONE_TO_TILE.get(tok)
        if tile is None:
            raise InvalidNotationError(
                f"{text!r}: {tok!r} is not a Botzone tile (W1–9, B1–9, T1–9, F1–4, J1–3, H1–8)"
            )
        tiles.append(tile)
    return tiles


def _parse_zh(token: str, text: str) -> list[Tile]:
    tiles: list[Tile] = []
    for tok in token.split():
        pos = 0
        while pos < len(tok):
            for length in (4, 3, 2, 1):
                piece = tok[pos : pos + length]
                if piece in _ZH_TO_TILE:
                    tiles.append(_ZH_TO_TILE[piece])
                    pos += length
                    break
            else:
                raise InvalidNotationError(f"{text!r}: cannot read {tok[pos:]!r} as a Chinese tile name")
    return tiles


def _parse_mpsz(text: str, stripped: str) -> list[Tile]:
    tiles: list[Tile] = []
    digits: list[int] = []
    for pos, ch in enumerate(stripped):
        if ch.isdigit():
            if ch == "0":
                raise InvalidNotationError(
                    f"{text!r}: digit 0 at position {pos} is not a tile (no red fives)"
                )
            digits.append(int(ch))
        elif ch in _BASE:
            if not digits:
                raise InvalidNotationError(
                    f"{text!r}: suit letter {ch!r} at position {pos} has no digits before it"
                )
            for d in digits:
                if d > _MAX_DIGIT[ch]:
                    raise InvalidNotationError(
                        f"{text!r}: {d}{ch} is not a tile ({ch} runs 1–{_MAX_DIGIT[ch]})"
                    )
                tiles.append(_BASE[ch] + d - 1)
            digits = []
        elif ch in _LETTER_HONORS and not digits:
            tiles.append(_LETTER_HONORS[ch])
        else:
            raise InvalidNotationError(f"{text!r}: unexpected character {ch!r} at position {pos}")
    if digits:
        raise InvalidNotationError(
            f"{text!r}: digits {''.join(map(str, digits))!r} at the end have no suit letter"
        )
    return tiles


def parse_tile(text: str) -> Tile:
    """Read exactly one tile.

    >>> parse_tile("J2")
    32
    """
    tiles = parse(text)
    if len(tiles) != 1:
        raise InvalidNotationError(f"{text!r}: expected one tile, read {len(tiles)}")
    return tiles[0]


def to_mpsz(tiles: Iterable[Tile]) -> str:
    """Canonical mpsz, sorted by kind and grouped by suit m, p, s, z, f.

    >>> to_mpsz(parse("1155z789s456p123m"))
    '123m456p789s1155z'
    """
    groups: dict[str, list[str]] = {c: [] for c in SUIT_LETTERS}
    for t in sorted(_checked(tiles)):
        groups[SUIT_LETTERS[suit_of(t)]].append(str(rank_of(t)))
    return "".join("".join(ds) + c for c, ds in groups.items() if ds)


def next_kind(t: Tile) -> Tile:
    """The kind after ``t`` (the indicator order): 1→…→9→1 within a suit, 东→南→西→北→东, 白→中→发→白.

    >>> [tile_to_mpsz(next_kind(parse_tile(x))) for x in ("9m", "4z", "5z", "7z", "6z")]
    ['1m', '1z', '7z', '6z', '5z']
    """
    if t < 27:
        return t - 8 if t % 9 == 8 else t + 1
    if t < 31:
        return 27 if t == 30 else t + 1
    return {31: 33, 33: 32, 32: 31}[t]


def tile_to_mpsz(tile: Tile) -> str:
    """One tile in mpsz: ``"5z"``."""
    if type(tile) is int and 0 <= tile < NUM_ALL_KINDS:
        return _MPSZ[tile]
    _check_kind(tile)
    return _MPSZ[tile]  # pragma: no cover - _check_kind raised


def to_botzone(tiles: Iterable[Tile]) -> str:
    """Botzone tokens separated by spaces, in the given order."""
    return " ".join(BOTZONE[t] for t in _checked(tiles))


def to_zh(tiles: Iterable[Tile]) -> str:
    """Chinese names separated by spaces, in the given order."""
    return " ".join(name_zh(t) for t in _checked(tiles))


def _checked(tiles: Iterable[Tile]) -> list[Tile]:
    items: Iterable[object] = tiles
    return [_kind(t) for t in items]


def counts(tiles: Sequence[Tile], size: int = NUM_KINDS) -> list[int]:
    """Count vector of the kinds 0..size-1."""
    c = [0] * size
    for t in tiles:
        c[t] = c[t] + 1
    return c


def from_counts(c: Sequence[int]) -> list[Tile]:
    """The sorted tiles of a count vector."""
    return [t for t, n in enumerate(c) for _ in range(n)]
