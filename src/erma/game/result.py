"""The result of a hand (一局的结果), typed: how it ended, who paid whom, and why.

A :class:`HandResult` is what the engine settles and every consumer reads (the server's ledger, records,
``hand_end``, self-play, the arena). :meth:`HandResult.to_json` is its wire and record form — the keys
documented in docs/records.md — and :meth:`HandResult.from_json` reads it back.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from erma.errors import InvalidRecordError
from erma.frozen import reduce_frozen
from erma.scoring.pipeline import ScoredFan
from erma.tiles import Tile, parse_tile, tile_to_mpsz


class EndReason(enum.Enum):
    """How a hand ended."""

    WIN = "win"
    """和牌: a seat won."""
    DRAW = "draw"
    """流局: the wall ran out (or no tile was left for a replacement)."""
    ESCAPE = "escape"
    """逃跑: a seat left during the hand and pays the escape penalty."""


class WinHow(enum.Enum):
    """How the winning tile came."""

    SELF = "self"
    """自摸: drawn by the winner."""
    DISCARD = "discard"
    """点和: the opponent's discard."""
    ROB = "rob"
    """抢杠: the tile the opponent added to a pung."""
    HAIDI = "haidi"
    """海底捞月: picked from the reserve after the wall ran out."""


WIN_HOWS: Final[dict[str, WinHow]] = {
    "self": WinHow.SELF,
    "discard": WinHow.DISCARD,
    "rob": WinHow.ROB,
    "haidi": WinHow.HAIDI,
}
"""Each :class:`WinHow` by its text (``WinHow(text)`` runs as interpreted Python, even in compiled code)."""


class DrawSource(enum.Enum):
    """Where the tile the actor holds as ``drawn`` came from."""

    DEAL = "deal"
    """The dealer's 14th (17th) tile."""
    NORMAL = "normal"
    """From the head of the wall."""
    REPLACEMENT = "replacement"
    """From the tail, after a kong (岭上)."""
    FLOWER = "flower"
    """From the tail, after a flower (补花)."""
    CUO = "cuo"
    """搓牌: a kind chosen from the pool."""
    HAIDI = "haidi"
    """海底捞月: a reserve pick."""
    CLAIM = "claim"
    """The turn began with a claim: nothing drawn."""
    NONE = ""
    """No draw yet."""


class Grade(enum.Enum):
    """温州 软 / 硬 / 双翻: the multiplier class of a win."""

    SOFT = "soft"
    HARD = "hard"
    DOUBLE = "double"


FanEntry = ScoredFan
"""One fan of a win (温州: one reason for the multiplier): scoring's own value; ``to_dict()`` is its form."""


@dataclass(slots=True, unsafe_hash=True)
class HandResult:
    """How a hand ended and what it moved (points; beans are points × the room's rate, capped by balance).

    A value: nothing changes it once built. Not a frozen dataclass only for speed, as
    :class:`~erma.scoring.WinContext`: a frozen dataclass's generated constructor runs as interpreted Python
    even when compiled (one a hand); equality, hashing and pickling are a frozen one's."""

    reason: EndReason
    deltas: tuple[int, int]
    """Each seat's points from this hand (they sum to zero)."""
    hands: tuple[str, str] | None = None
    """Both hands shown at the end (sets, then concealed tiles); None after an escape."""
    winner: int | None = None
    loser: int | None = None
    how: WinHow | None = None
    tile: Tile | None = None
    """The winning tile."""
    hand: str = ""
    """The winner's hand as scored (sets, concealed tiles, ``+`` the winning tile)."""
    fans: tuple[FanEntry, ...] = ()
    fan_total: int = 0
    """F: every fan (温州: the multiplier)."""
    points: int = 0
    """What the loser pays the winner, or the escaper the other seat."""
    escaper: int | None = None
    grade: Grade | None = None
    """温州: 软 / 硬 / 双翻 of the win."""
    extra: Mapping[str, Any] = field(default_factory=dict)
    """Family terms of the win's worth, listed before ``points`` (温州: multiplier, grade, base, 财神钱)."""
    facts: Mapping[str, Any] = field(default_factory=dict)
    """Family facts of the hand, listed after ``points`` (温州: streak, 买底 / 顶底, kong money; at a 流局,
    财神钱), in their wire form."""

    def __init__(
        self,
        reason: EndReason,
        deltas: tuple[int, int],
        hands: tuple[str, str] | None = None,
        winner: int | None = None,
        loser: int | None = None,
        how: WinHow | None = None,
        tile: Tile | None = None,
        hand: str = "",
        fans: tuple[FanEntry, ...] = (),
        fan_total: int = 0,
        points: int = 0,
        escaper: int | None = None,
        grade: Grade | None = None,
        extra: Mapping[str, Any] | None = None,
        facts: Mapping[str, Any] | None = None,
    ) -> None:
        """The dataclass's constructor written out (compiled, it is native code); ``extra`` and ``facts``
        default to new empty dicts."""
        self.reason = reason
        self.deltas = deltas
        self.hands = hands
        self.winner = winner
        self.loser = loser
        self.how = how
        self.tile = tile
        self.hand = hand
        self.fans = fans
        self.fan_total = fan_total
        self.points = points
        self.escaper = escaper
        self.grade = grade
        self.extra = {} if extra is None else extra
        self.facts = {} if facts is None else facts

    @property
    def is_win(self) -> bool:
        """A seat won."""
        return self.reason is EndReason.WIN

    def to_json(self) -> dict[str, Any]:
        """The wire and record form (docs/records.md)."""
        if self.reason is EndReason.ESCAPE:
            return {
                "reason": "escape",
                "escaper": self.escaper,
                "points": self.points,
                "deltas": list(self.deltas),
            }
        if self.reason is EndReason.DRAW:
            return {
                "reason": "draw",
                **self.facts,
                "deltas": list(self.deltas),
                "hands": list(self.hands or ()),
            }
        assert self.how is not None and self.tile is not None
        out: dict[str, Any] = {
            "reason": "win",
            "winner": self.winner,
            "loser": self.loser,
            "how": self.how.value,
            "tile": tile_to_mpsz(self.tile),
            "hand": self.hand,
            "fans": [f.to_dict() for f in self.fans],
            "fan_total": self.fan_total,
        }
        out.update(self.extra)
        out["points"] = self.points
        out.update(self.facts)
        out["deltas"] = list(self.deltas)
        out["hands"] = list(self.hands or ())
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> HandResult:
        """Read a result back from its wire form (records, ``hand_end``). Raises InvalidRecordError."""
        try:
            reason = EndReason(data["reason"])
            deltas = (int(data["deltas"][0]), int(data["deltas"][1]))
            hands = data.get("hands")
            if reason is EndReason.ESCAPE:
                return cls(reason, deltas, escaper=int(data["escaper"]), points=int(data["points"]))
            known = {"reason", "deltas", "hands"}
            if reason is EndReason.DRAW:
                facts = {k: v for k, v in data.items() if k not in known}
                return cls(reason, deltas, hands=_pair(hands), facts=facts)
            known |= {"winner", "loser", "how", "tile", "hand", "fans", "fan_total", "points"}
            grade = data.get("grade")
            keys = list(data)
            after = keys.index("points") + 1
            rest = [k for k in keys if k not in known]
            return cls(
                reason,
                deltas,
                hands=_pair(hands),
                winner=int(data["winner"]),
                loser=int(data["loser"]),
                how=WinHow(data["how"]),
                tile=parse_tile(data["tile"]),
                hand=str(data["hand"]),
                fans=tuple(
                    FanEntry(f["id"], f["name_zh"], f["name_en"], f["points"], f["count"], tuple(f["tiles"]))
                    for f in data["fans"]
                ),
                fan_total=int(data["fan_total"]),
                points=int(data["points"]),
                grade=Grade(grade) if grade is not None else None,
                extra={k: data[k] for k in rest if keys.index(k) < after},
                facts={k: data[k] for k in rest if keys.index(k) >= after},
            )
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise InvalidRecordError(f"result: not a hand result ({exc!r}): {dict(data)!r}") from None

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Rebuilt through the constructor (copy, pickle; also when compiled)."""
        return reduce_frozen(self)


def _pair(hands: Any) -> tuple[str, str] | None:
    if hands is None:
        return None
    a, b = hands
    return str(a), str(b)
