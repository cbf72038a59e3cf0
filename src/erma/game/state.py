"""The state of one hand (一局): seats, wall, reserve, phase, and the event log.

The state is mutable inside the engine only; everything outside reads it through
:func:`erma.game.view.view_for` or the record. Hands are count vectors with a packed key kept in step, so
analysis needs no conversion.
"""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from erma.analysis.tables import INC
from erma.frozen import reduce_frozen
from erma.game.family import Family  # at run time: compiled, a dataclass field's type must exist
from erma.game.result import DrawSource, HandResult
from erma.hand import Meld
from erma.rules import RuleSet
from erma.tiles import Tile


class Phase(enum.Enum):
    """Who must decide what (the phase machine's states)."""

    MAIDI = "maidi"
    """买底 (温州): before the deal, the dealer chooses to raise what they win, or not."""
    DINGDI = "dingdi"
    """顶底 (温州): before the deal, the non-dealer chooses to raise the stake both ways, or not."""
    EXCHANGE = "exchange"
    """开始时换牌: the actor marks tiles to give back, then commits."""
    TURN = "turn"
    """The actor's own turn: win, kong, or discard (maybe declaring ready)."""
    CLAIM = "claim"
    """The actor may claim the opponent's discard (win, kong, pung, chow) or pass."""
    ROB = "rob"
    """The actor may rob the opponent's added kong (抢杠) or pass."""
    TRIPLET = "triplet"
    """游戏中换牌: the actor may accept the offered triplet, giving three tiles."""
    CUO = "cuo"
    """搓牌: the actor may choose a kind from the pool instead of drawing."""
    HAIDI = "haidi"
    """海底捞月: the actor picks a reserve position blindly."""
    END = "end"
    """The hand is over; ``result`` says how."""


class Declaration(NamedTuple):
    """Where a seat declared 报听 (public: the table saw the declaring discard)."""

    before: int
    """The seat's river tiles before its declaring discard (the declaring discard's place in the river)."""
    tile: Tile
    """The declaring discard."""
    kept: bool
    """The declaring discard is still in the river (False once the other seat claimed it)."""
    other: int
    """The other seat's river tiles when it declared."""


@dataclass(slots=True)
class Seat:
    """One player's part of the state."""

    counts: list[int] = field(default_factory=lambda: [0] * 34)
    """Concealed tiles by kind."""
    key: int = 0
    """The packed key of ``counts`` (4 bits a kind), kept in step."""
    size: int = 0
    """Concealed tiles held (the sum of ``counts``), kept in step."""
    melds: list[Meld] = field(default_factory=list)
    """Declared sets, concealed kongs included."""
    discards: list[Tile] = field(default_factory=list)
    """The river, in order (claimed tiles leave it)."""
    flowers: list[Tile] = field(default_factory=list)
    """Flowers set aside (补花)."""
    riichi: bool = False
    """Has declared ready (报听)."""
    declaration: Declaration | None = None
    """Where it declared (None before)."""
    riichi_first_turn: bool = False
    """Declared with the first discard, before any claim or kong (天听)."""
    riichi_draws: int = -1
    """Own draws since declaring (for 报听一发); −1 before declaring."""
    riichi_clean: bool = False
    """No claim or kong by either player since declaring (for 报听一发)."""
    furiten: bool = False
    """May not win on a discard now (riichi_pass_furiten)."""
    furiten_permanent: bool = False
    discards_made: int = 0
    """Discards so far (0 means the first turn is not over)."""
    cuo_offers: int = 0
    triplet_offers: int = 0
    exchanged: bool = False
    selected: list[Tile] = field(default_factory=list)
    """Tiles marked for the start exchange (private)."""
    passed_win: int = 0
    """过水 (温州): the multiplier of a discard win declined since the seat's last draw (0: none)."""

    def add(self, tile: Tile) -> None:
        """Put a tile into the concealed hand."""
        self.counts[tile] = self.counts[tile] + 1  # (not +=: compiled, a generic add; docs/performance.md)
        self.key += INC[tile]
        self.size += 1

    def remove(self, tile: Tile, n: int = 1) -> None:
        """Take tiles out of the concealed hand."""
        self.counts[tile] = self.counts[tile] - n
        self.key -= INC[tile] * n
        self.size -= n

    def tiles(self) -> list[Tile]:
        """The concealed tiles, sorted."""
        return [t for t, n in enumerate(self.counts) for _ in range(n)]

    @property
    def is_concealed(self) -> bool:
        """门清: no claimed set and no added kong (a concealed kong keeps it)."""
        return all(m.is_concealed for m in self.melds)


@dataclass(slots=True)
class Event:
    """Something that happened. ``data`` is public; ``secret`` is shown only to seat ``secret_to``."""

    type: str
    seat: int | None
    data: dict[str, Any]
    secret: dict[str, Any] | None = None
    secret_to: int | None = None
    private: bool = False
    """Only ``secret_to`` learns that it happened at all (an offer the opponent must not notice)."""

    def __init__(
        self,
        type: str,
        seat: int | None,
        data: dict[str, Any],
        secret: dict[str, Any] | None = None,
        secret_to: int | None = None,
        private: bool = False,
    ) -> None:
        """The dataclass's constructor written out (compiled, it is native code; one event a step)."""
        self.type = type
        self.seat = seat
        self.data = data
        self.secret = secret
        self.secret_to = secret_to
        self.private = private

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Rebuilt through the constructor (copy, pickle; compiled, a class with its own ``__init__`` cannot
        be made empty first)."""
        return reduce_frozen(self)

    def for_seat(self, seat: int | None) -> dict[str, Any] | None:
        """The event as ``seat`` may see it (None: the full event, as a record stores it); None if hidden."""
        if self.private and seat is not None and seat != self.secret_to:
            return None
        out: dict[str, Any] = {"type": self.type}
        if self.seat is not None:
            out["seat"] = self.seat
        out.update(self.data)
        if self.secret and (seat is None or seat == self.secret_to):
            out.update(self.secret)
        return out


@dataclass(slots=True)
class GameState:
    """One hand in progress (or finished). Build it with :func:`erma.game.engine.new_hand`."""

    rules: RuleSet
    family: Family
    """The rule family's hooks (:func:`erma.game.families.family_for` of ``rules``)."""
    seed: str
    rng: random.Random
    dealer: int
    prevalent_wind: int
    seats: list[Seat]
    wall: list[Tile]
    """The undrawn in-play wall: index ``head`` is drawn next, index ``tail - 1`` is the tail."""
    wall_public: list[bool]
    """Revealed (bonus) tiles in the wall, position by position."""
    head: int
    tail: int
    reserve: list[Tile]
    """Tiles out of play (cuopai789), in reserve order."""
    bonus_kinds: list[Tile]
    """The bonus kinds (花牌) of this hand, one entry per revealed tile."""
    revealed: list[Tile]
    """The revealed tiles themselves (public)."""
    dealer_drawn: bool = False
    """The dealer was chosen by the hand's generator (the first hand of a match)."""
    dealer_dice: tuple[int, ...] = ()
    """The dice that chose the dealer (RULES §1.4, §2.2; pairs in the order rolled), empty if none were."""
    deck: list[Tile] | None = None
    """A given tile order that replaced the shuffle (scenario tests), kept for the record."""
    phase: Phase = Phase.TURN
    actor: int = 0
    drawn: Tile | None = None
    """The tile the actor just drew (None after a claim or on the dealer's first turn)."""
    draw_kind: DrawSource = DrawSource.NONE
    """How ``drawn`` came (a :class:`~erma.game.result.DrawSource` value): deal, normal, replacement (after a
    kong), flower, cuo, haidi, claim."""
    claimed: bool = False
    """The actor's turn began with a claim (no self-draw win before a kong)."""
    last_discard: Tile | None = None
    discarder: int | None = None
    discard_riichi: bool = False
    pending_kong: tuple[int, Tile, str] | None = None
    """(seat, tile, kind) of an added/extended kong waiting for the robbing decision."""
    offer: Tile | None = None
    """The kind offered in the TRIPLET phase."""
    opened: bool = False
    """Any claim or kong has happened this hand (ends 天胡/地胡/人胡/天听 chances)."""
    riichi_order: list[int] = field(default_factory=list)
    haidi_queue: list[int] = field(default_factory=list)
    haidi_picks_left: int = 0
    exchange_order: list[int] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    actions: list[tuple[int, str]] = field(default_factory=list)
    result: HandResult | None = None
    counters: dict[str, int] = field(default_factory=dict)
    """How often random events happened (cuo, triplet offers and exchanges, haidi)."""
    wild: Tile | None = None
    """The wild kind (财神) of a family that has one, once dealt; None otherwise. Read by the family only."""
    flipped: Tile | None = None
    """The flipped tile that chose the wild kind (public)."""
    streak: int = 0
    """The dealer's streak (a family may set the base by it)."""
    stakes: list[bool] = field(default_factory=lambda: [False, False])
    """Pre-deal stake choices of dealer and non-dealer (买底 / 顶底) as made."""
    reserve_left: int = 0
    """Tiles left in a tail block kept for kong draws (a family option)."""
    kong_money: list[int] = field(default_factory=lambda: [0, 0])
    """Points each seat has received (negative: paid) for kongs this hand, where a family pays for kongs."""
    legal_memo: dict[tuple[int, int, int], list[Any]] | None = field(default=None, repr=False, compare=False)
    """Opt-in memo of :func:`~erma.game.engine.legal_actions` by (actions, events, seat): for an owner that
    changes the state only through ``apply`` (the server's tables); None (off) for everyone else."""

    @property
    def wall_left(self) -> int:
        """W: tiles left to draw."""
        return self.tail - self.head

    def seat_wind(self, seat: int) -> int:
        """门风 of a seat: the dealer has the first of ``seat_winds``."""
        return self.rules.seat_winds[0 if seat == self.dealer else 1]

    def emit(
        self,
        type_: str,
        seat: int | None,
        data: dict[str, Any] | None = None,
        secret: dict[str, Any] | None = None,
        secret_to: int | None = None,
        private: bool = False,
    ) -> None:
        """Append an event."""
        self.events.append(Event(type_, seat, data or {}, secret, secret_to, private))
