"""Actions (动作) a seat can take, as frozen values with a one-line text form used in records.

>>> Action.parse("discard 5m riichi")
Action.parse('discard 5m riichi')
>>> Action.parse("accept 1m1m9p").tiles
(0, 0, 17)
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, Final

from erma.errors import IllegalActionError, InvalidNotationError
from erma.frozen import reduce_frozen
from erma.tiles import Tile, parse, parse_tile, tile_to_mpsz


class Kind(enum.Enum):
    """What an action does."""

    DISCARD = "discard"
    """打牌 (with ``riichi`` it also declares ready 报听)."""
    WIN = "win"
    """和: self-draw, on a discard, robbing a kong, or on a 海底捞月 pick."""
    CHOW = "chow"
    """吃 the discard; ``tile`` is the lowest tile of the chow."""
    PUNG = "pung"
    """碰 the discard."""
    KONG = "kong"
    """明杠 the discard (exposed kong)."""
    CONCEALED_KONG = "ckong"
    """暗杠 four of ``tile`` (or more, 无双) from the hand."""
    ADDED_KONG = "akong"
    """加杠 ``tile`` onto one's pung."""
    EXTEND_KONG = "xkong"
    """无双: add one more ``tile`` to one's kong (5th–8th)."""
    PASS = "pass"
    """过: decline a claim, a robbing win, an offer."""
    SELECT = "select"
    """Start exchange: mark one more ``tile`` to give back."""
    EXCHANGE = "exchange"
    """Start exchange: give back the marked tiles (possibly none)."""
    ACCEPT = "accept"
    """Accept the triplet offer, giving the three ``tiles``."""
    CUO = "cuo"
    """搓牌: take a tile of kind ``tile`` from the pool instead of the wall's head."""
    PICK = "pick"
    """海底捞月: pick the reserve tile at ``index``."""
    TIMEOUT = "timeout"
    """The seat's clock ran out: the engine applies the default action (RULES §5.2)."""
    ESCAPE = "escape"
    """逃跑: leave during the hand."""
    MAIDI = "maidi"
    """买底 (温州): the dealer raises what they win by one base (``pass`` declines)."""
    DINGDI = "dingdi"
    """顶底 (温州): the non-dealer raises the stake by one base (``pass`` declines)."""


_TILE_KINDS: Final = {
    Kind.DISCARD,
    Kind.CHOW,
    Kind.CONCEALED_KONG,
    Kind.ADDED_KONG,
    Kind.EXTEND_KONG,
    Kind.SELECT,
    Kind.CUO,
}
_TILE_KIND_TEXTS: Final = frozenset(k.value for k in _TILE_KINDS)
"""The same kinds by their text (a set of strings: an enum member's hash and ``value`` run as interpreted
Python, even in compiled code; ``_value_`` is its plain attribute)."""


@dataclass(frozen=True, slots=True)
class Action:
    """One action; only the fields its kind uses are set."""

    kind: Kind
    """What it does."""
    tile: Tile = -1
    """The tile it names (discard, chow start, kong kind, selected or chosen kind)."""
    tiles: tuple[Tile, ...] = ()
    """The three tiles given for a triplet offer."""
    riichi: bool = False
    """A discard that declares ready (报听)."""
    index: int = -1
    """The reserve position of a 海底捞月 pick."""

    def to_str(self) -> str:
        """The text form, e.g. ``discard 5m``, ``discard 5m riichi``, ``chow 3s``, ``accept 1m1m9p``."""
        k: str = self.kind._value_
        if k in _TILE_KIND_TEXTS:
            return (
                f"{k} {tile_to_mpsz(self.tile)} riichi" if self.riichi else f"{k} {tile_to_mpsz(self.tile)}"
            )
        if self.kind is Kind.ACCEPT:
            return f"{k} " + "".join(tile_to_mpsz(t) for t in self.tiles)
        if self.kind is Kind.PICK:
            return f"{k} {self.index}"
        return k

    def __repr__(self) -> str:
        return f"Action.parse({self.to_str()!r})"

    def __eq__(self, other: object) -> bool:
        """Field by field, as the dataclass's own (written out: compiled, it is native code, and legality
        compares actions at every step)."""
        if not isinstance(other, Action):
            return False
        return (
            self.kind is other.kind
            and self.tile == other.tile
            and self.riichi == other.riichi
            and self.index == other.index
            and self.tiles == other.tiles
        )

    def __hash__(self) -> int:
        return hash((self.kind, self.tile, self.tiles, self.riichi, self.index))

    def __str__(self) -> str:
        return self.to_str()

    @classmethod
    def parse(cls, text: object) -> Action:
        """Read the text form; a malformed action raises IllegalActionError naming it."""
        if not isinstance(text, str):
            raise IllegalActionError(f"an action is a string such as 'discard 5m', not {text!r}")
        parts = text.split()
        if not parts:
            raise IllegalActionError("empty action")
        try:
            kind = Kind(parts[0])
        except ValueError:
            names = ", ".join(k.value for k in Kind)
            raise IllegalActionError(f"{text!r}: unknown action {parts[0]!r} (actions: {names})") from None
        args = parts[1:]
        try:
            if kind in _TILE_KINDS:
                riichi = kind is Kind.DISCARD and args[1:] == ["riichi"]
                if len(args) != 1 + riichi:
                    raise IllegalActionError(
                        f"{text!r}: {kind.value} takes one tile" + (" [riichi]" * riichi)
                    )
                return cls(kind, tile=parse_tile(args[0]), riichi=riichi)
            if kind is Kind.ACCEPT:
                tiles = tuple(parse("".join(args)))
                if len(tiles) != 3:
                    raise IllegalActionError(f"{text!r}: accept takes the three tiles given back")
                return cls(kind, tiles=tiles)
            if kind is Kind.PICK:
                if len(args) != 1 or not args[0].isdigit():
                    raise IllegalActionError(f"{text!r}: pick takes a reserve position")
                return cls(kind, index=int(args[0]))
        except InvalidNotationError as exc:
            raise IllegalActionError(f"{text!r}: {exc}") from None
        if args:
            raise IllegalActionError(f"{text!r}: {kind.value} takes no argument")
        return cls(kind)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Rebuilt through the constructor (copy, pickle; also when compiled)."""
        return reduce_frozen(self)


PASS: Final = Action(Kind.PASS)
WIN: Final = Action(Kind.WIN)
TIMEOUT: Final = Action(Kind.TIMEOUT)
ESCAPE: Final = Action(Kind.ESCAPE)
EXCHANGE: Final = Action(Kind.EXCHANGE)

DISCARD: Final = tuple(Action(Kind.DISCARD, t) for t in range(34))
"""The actions that name one kind, built once (legality lists them at every step; a compiled frozen
dataclass's constructor is interpreted Python, see docs/performance.md)."""
RIICHI: Final = tuple(Action(Kind.DISCARD, t, riichi=True) for t in range(34))
CHOW: Final = tuple(Action(Kind.CHOW, t) for t in range(34))
CKONG: Final = tuple(Action(Kind.CONCEALED_KONG, t) for t in range(34))
AKONG: Final = tuple(Action(Kind.ADDED_KONG, t) for t in range(34))
XKONG: Final = tuple(Action(Kind.EXTEND_KONG, t) for t in range(34))
SELECT: Final = tuple(Action(Kind.SELECT, t) for t in range(34))
CUO: Final = tuple(Action(Kind.CUO, t) for t in range(34))
_PICKS: Final[list[Action]] = []
_ACCEPTS: Final[dict[tuple[Tile, ...], Action]] = {}


def pick(index: int) -> Action:
    """``pick index`` (海底捞月), one value per index."""
    while len(_PICKS) <= index:
        _PICKS.append(Action(Kind.PICK, index=len(_PICKS)))
    return _PICKS[index]


def accept(tiles: tuple[Tile, ...]) -> Action:
    """``accept`` giving ``tiles`` (sorted), one value per triple."""
    found = _ACCEPTS.get(tiles)
    if found is None:
        found = _ACCEPTS[tiles] = Action(Kind.ACCEPT, tiles=tiles)
    return found
