"""Melds (副露/面子) and hands (手牌) as frozen values, validated against a tile set's copy limit.

>>> Meld.parse("(123m)")
Meld.parse('(123m)')
>>> Hand.parse("[1111m](777s) 23455m + 5m").to_notation()
'[1111m](777s)23455m+5m'
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from erma.errors import InvalidHandError, InvalidNotationError
from erma.frozen import reduce_frozen
from erma.tiles import NUM_KINDS, Tile, is_flower, is_suited, parse, to_mpsz


class MeldKind(enum.Enum):
    """The kinds of declared set."""

    CHOW = "chow"
    """吃 a run of three of one suit."""
    PUNG = "pung"
    """碰 three of a kind."""
    EXPOSED_KONG = "exposed_kong"
    """明杠 (大明杠) a kong claimed from a discard."""
    ADDED_KONG = "added_kong"
    """加杠 (补杠) a claimed pung made a kong from one's own hand; counts as melded."""
    CONCEALED_KONG = "concealed_kong"
    """暗杠 four of a kind set aside from the hand."""


KONGS = frozenset({MeldKind.EXPOSED_KONG, MeldKind.ADDED_KONG, MeldKind.CONCEALED_KONG})


@dataclass(frozen=True, slots=True)
class Meld:
    """A declared set: chow, pung or kong (5–8 tiles for the 无双 extended kong)."""

    kind: MeldKind
    """What sort of set it is."""
    tile: Tile
    """The lowest tile of a chow; the tile of a pung or kong."""
    size: int = 0
    """Tiles in the set: 3 for chow and pung, 4–8 for kongs (0 means the usual 3 or 4)."""
    claimed: Tile | None = None
    """The tile taken from a discard (chow/pung/exposed kong), when known."""

    def __post_init__(self) -> None:
        if not isinstance(self.tile, int) or not 0 <= self.tile < NUM_KINDS:
            raise InvalidHandError(f"meld tile {self.tile!r} is not a suit or honour kind (0–33)")
        if self.size == 0:
            object.__setattr__(self, "size", 4 if self.is_kong else 3)  # (a set look-up would hash the enum)
        if self.kind is MeldKind.CHOW:
            if not is_suited(self.tile) or self.tile % 9 > 6:
                raise InvalidHandError(f"a chow cannot start at {to_mpsz([self.tile])}")
            if self.size != 3:
                raise InvalidHandError(f"a chow has 3 tiles, not {self.size}")
            if self.claimed is not None and not 0 <= self.claimed - self.tile <= 2:
                raise InvalidHandError(f"claimed tile {to_mpsz([self.claimed])} is not in the chow")
        elif self.kind is MeldKind.PUNG:
            if self.size != 3:
                raise InvalidHandError(f"a pung has 3 tiles, not {self.size}")
        elif not 4 <= self.size <= 8:
            raise InvalidHandError(f"a kong has 4 to 8 tiles, not {self.size}")
        if self.claimed is not None and self.kind is not MeldKind.CHOW and self.claimed != self.tile:
            raise InvalidHandError(f"claimed tile {to_mpsz([self.claimed])} is not the meld's tile")

    @property
    def tiles(self) -> tuple[Tile, ...]:
        """Every tile of the set."""
        if self.kind is MeldKind.CHOW:
            return (self.tile, self.tile + 1, self.tile + 2)
        return (self.tile,) * self.size

    @property
    def is_kong(self) -> bool:
        """杠."""
        k = self.kind  # by identity: an enum member's hash (a set look-up) runs as interpreted Python
        return k is MeldKind.EXPOSED_KONG or k is MeldKind.ADDED_KONG or k is MeldKind.CONCEALED_KONG

    @property
    def is_concealed(self) -> bool:
        """暗: only the concealed kong among declared sets."""
        return self.kind is MeldKind.CONCEALED_KONG

    def to_notation(self) -> str:
        """``(123m)`` claimed sets, ``[1111m]`` concealed kong."""
        body = to_mpsz(self.tiles)
        return f"[{body}]" if self.is_concealed else f"({body})"

    def __repr__(self) -> str:
        return f"Meld.parse({self.to_notation()!r})"

    @classmethod
    def parse(cls, text: str, *, added: bool = False) -> Meld:
        """Read ``(123m)``, ``(777s)``, ``(7777s)`` (exposed kong; ``added=True`` for 加杠), ``[7777s]``."""
        m = re.fullmatch(r"\s*([(\[])([^()\[\]]+)([)\]])\s*", text)
        if m is None or (m.group(1) == "(") != (m.group(3) == ")"):
            raise InvalidNotationError(f"{text!r}: a meld is written (123m), (777s), (7777s) or [7777s]")
        try:
            tiles = sorted(parse(m.group(2)))
        except InvalidNotationError as exc:
            raise InvalidNotationError(f"{text!r}: {exc}") from None
        concealed = m.group(1) == "["
        if any(is_flower(t) for t in tiles):
            raise InvalidNotationError(f"{text!r}: a flower cannot be part of a meld")
        if len(tiles) == 3 and not concealed:
            if tiles[0] == tiles[2]:
                return cls(MeldKind.PUNG, tiles[0])
            if (
                tiles[1] == tiles[0] + 1
                and tiles[2] == tiles[0] + 2
                and is_suited(tiles[0])
                and tiles[0] % 9 <= 6
            ):
                return cls(MeldKind.CHOW, tiles[0])
        elif len(tiles) >= 4 and tiles[0] == tiles[-1]:
            if concealed:
                return cls(MeldKind.CONCEALED_KONG, tiles[0], len(tiles))
            return cls(MeldKind.ADDED_KONG if added else MeldKind.EXPOSED_KONG, tiles[0], len(tiles))
        raise InvalidNotationError(f"{text!r}: not a chow, pung or kong")

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Rebuilt through the constructor (copy, pickle; also when compiled)."""
        return reduce_frozen(self)


def validate_tiles(tiles: Sequence[Tile], *, copies: int = 4, where: str = "hand") -> None:
    """Raise InvalidHandError if any kind appears more than ``copies`` times or a tile is not a kind 0–33."""
    seen = [0] * NUM_KINDS
    for t in tiles:
        if not isinstance(t, int) or not 0 <= t < NUM_KINDS:
            raise InvalidHandError(f"{where}: {t!r} is not a suit or honour kind (0–33)")
        seen[t] = seen[t] + 1
    over = [t for t in range(NUM_KINDS) if seen[t] > copies]
    if over:
        kinds = ", ".join(f"{seen[t]}×{to_mpsz([t])}" for t in over)
        raise InvalidHandError(f"{where} {to_mpsz(tiles)!r}: {kinds} exceeds the {copies}-copy limit")


@dataclass(frozen=True, slots=True)
class Hand:
    """A player's hand: declared sets, concealed tiles and, once it is complete, the winning tile."""

    melds: tuple[Meld, ...] = ()
    """Declared sets, in the order they were made."""
    concealed: tuple[Tile, ...] = ()
    """The concealed (standing) tiles, without the winning tile; kept sorted."""
    win_tile: Tile | None = None
    """The tile that completes the hand, drawn or claimed."""
    flowers: tuple[Tile, ...] = field(default=())
    """Flowers set aside (花牌)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "concealed", tuple(sorted(self.concealed)))

    @property
    def all_tiles(self) -> list[Tile]:
        """Every suit and honour tile: sets, concealed, winning tile."""
        out = [t for m in self.melds for t in m.tiles]
        out.extend(self.concealed)
        if self.win_tile is not None:
            out.append(self.win_tile)
        return out

    def validate(self, *, copies: int = 4, hand_size: int = 13) -> Hand:
        """Check copy limits and the count: concealed + 3 per set == hand_size (+1 with the winning tile)."""
        validate_tiles(self.all_tiles, copies=copies, where=f"hand {self.to_notation()!r}")
        expected = hand_size - 3 * len(self.melds) + (self.win_tile is not None)
        have = len(self.concealed) + (self.win_tile is not None)
        if have != expected:
            raise InvalidHandError(
                f"hand {self.to_notation()!r}: {have} tiles beside {len(self.melds)} declared set(s); "
                f"a {hand_size}-tile hand needs {expected}"
            )
        return self

    def to_notation(self) -> str:
        """``[1111m](777s)23455m+5m`` (declared sets, concealed tiles, ``+`` winning tile)."""
        out = "".join(m.to_notation() for m in self.melds) + to_mpsz(self.concealed)
        if self.win_tile is not None:
            out += "+" + to_mpsz([self.win_tile])
        return out

    def __repr__(self) -> str:
        return f"Hand.parse({self.to_notation()!r})"

    @classmethod
    def parse(cls, text: str) -> Hand:
        """Read ``<sets> <concealed> + <winning tile>`` (test-vector notation; ``;`` context ignored)."""
        body = text.split(";", 1)[0]
        win: Tile | None = None
        if "+" in body:
            body, win_text = body.split("+", 1)
            wt = parse(win_text)
            if len(wt) != 1:
                raise InvalidNotationError(f"{text!r}: one winning tile expected after '+', read {len(wt)}")
            win = wt[0]
        melds = tuple(Meld.parse(m) for m in re.findall(r"[(\[][^()\[\]]*[)\]]", body))
        rest = re.sub(r"[(\[][^()\[\]]*[)\]]", " ", body)
        if re.search(r"[()\[\]]", rest):
            raise InvalidNotationError(f"{text!r}: unbalanced brackets")
        return cls(melds=melds, concealed=tuple(parse(rest)), win_tile=win)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Rebuilt through the constructor (copy, pickle; also when compiled)."""
        return reduce_frozen(self)


def meld_tiles(melds: Iterable[Meld]) -> list[Tile]:
    """All tiles of some sets."""
    return [t for m in melds for t in m.tiles]
