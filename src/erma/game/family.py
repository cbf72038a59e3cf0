"""The rule-family seam (规则家族): what a family of rule sets decides, behind one small base class.

The engine core (deal, legal, flow, settle, assists, events) plays every family alike and asks the family
through these hooks wherever the rules differ; it never names a family or probes a family's data. A family
is one module under :mod:`erma.game.families` (registered there, in ``FAMILIES``, by the name a rule set's
``family`` option gives; :func:`erma.game.families.family_for` looks it up), plus presets in :mod:`erma.rules`
and a fan table. docs/design.md shows how to add one.

A family subclasses :class:`Family` and overrides every hook (each here raises NotImplementedError): compiled,
the core then calls a hook through the class's method table; typed as a protocol, each call was a look-up by
name and a call through Python's protocol (a few hundred machine instructions; 15–20 calls an environment
step). The base and the families allow interpreted subclasses: a test changes a hook by registering a
subclass's instance in ``FAMILIES`` (a compiled class's method patched in place would not be called).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

from erma.hand import Meld
from erma.tiles import Tile

try:
    from mypy_extensions import mypyc_attr  # read by the compiler; a no-op at run time
except ImportError:  # pure Python without mypy installed
    from erma.game.compile_options import mypyc_attr

if TYPE_CHECKING:
    from erma.game.actions import Action
    from erma.game.result import HandResult
    from erma.game.state import GameState
    from erma.rules import RuleSet


class Win(Protocol):
    """A win found in a state (what :meth:`Family.check_win` returns)."""

    @property
    def points(self) -> int:
        """What the loser pays the winner."""
        ...

    @property
    def multiplier(self) -> int:
        """The win's multiplier where the family has one (温州 ×1 / ×2 / ×4); 0 otherwise."""
        ...


@mypyc_attr(allow_interpreted_subclasses=True)
class Family:
    """The hooks of one rule family (its base class: a family overrides them all). Every method is pure
    with respect to everything but ``state``."""

    name: str
    multiplied: bool
    """Wins carry a multiplier (温州 ×1 / ×2 / ×4) that hints show."""

    # --- the deal
    def start(self, state: GameState) -> None:
        """After the shuffle: the pre-deal phases or the deal itself, up to the first decision."""
        raise NotImplementedError

    def stake(self, state: GameState, seat: int, yes: bool) -> None:
        """A pre-deal choice (买底 / 顶底) made by ``seat``; the family moves on (to the deal)."""
        raise NotImplementedError

    # --- legality
    def draws_left(self, state: GameState) -> int:
        """Normal draws left before the 流局."""
        raise NotImplementedError

    def kong_room(self, state: GameState) -> int:
        """Tiles left for kong replacement draws."""
        raise NotImplementedError

    def discard_options(self, state: GameState, seat: int) -> list[Action]:
        """The discards (and 报听 discards) ``seat`` may make on its turn."""
        raise NotImplementedError

    def claim_options(self, state: GameState, seat: int) -> list[Action]:
        """What ``seat`` may do with the opponent's discard, pass excluded."""
        raise NotImplementedError

    def kong_options(self, state: GameState, seat: int) -> list[Action]:
        """The kongs ``seat`` may declare on its turn."""
        raise NotImplementedError

    def check_win(self, state: GameState, seat: int, tile: Tile, how: str) -> Win | None:
        """``seat`` winning with ``tile`` (``how``: self, discard, rob, haidi), or None if it may not."""
        raise NotImplementedError

    def robbable(self, state: GameState, robber: int, tile: Tile, extension: bool) -> bool:
        """Whether ``robber`` is offered to rob the added (or extended) kong on ``tile``."""
        raise NotImplementedError

    # --- sets
    def set_kind(self, state: GameState, tile: Tile) -> Tile:
        """The kind a set of physical ``tile`` is declared as (温州: 白板 as the 财神's kind)."""
        raise NotImplementedError

    def take_claim(self, state: GameState, seat: int, action: Action, tile: Tile) -> Meld:
        """Take the tiles of a claimed chow, pung or kong out of ``seat``'s hand; the set it makes."""
        raise NotImplementedError

    def meld_text(self, state: GameState, meld: Meld) -> str:
        """A declared set as events and views show it."""
        raise NotImplementedError

    def meld_tiles(self, state: GameState, meld: Meld) -> tuple[Tile, ...]:
        """The physical tiles of a declared set (温州: 白板 where it plays the 财神's kind)."""
        raise NotImplementedError

    def played(self, state: GameState, seat: int) -> tuple[tuple[int, ...], int, int]:
        """``seat``'s concealed tiles as played: (counts by kind, packed key, wild tiles held)."""
        raise NotImplementedError

    def on_decline(self, state: GameState, seat: int, tile: Tile, how: str) -> None:
        """``seat`` passed up, or claimed instead of, a win on ``tile`` (温州 过水)."""
        raise NotImplementedError

    def on_kong(self, state: GameState, seat: int, concealed: bool) -> None:
        """A kong was declared (温州 kong money)."""
        raise NotImplementedError

    def on_replacement_draw(self, state: GameState) -> None:
        """A replacement tile is about to be drawn from the tail."""
        raise NotImplementedError

    # --- settlement
    def settle_win(self, state: GameState, seat: int, tile: Tile, how: str, found: Win) -> HandResult:
        """The result of ``seat``'s win."""
        raise NotImplementedError

    def settle_draw(self, state: GameState) -> HandResult:
        """The result of a 流局."""
        raise NotImplementedError

    def escape_points(
        self, rules: RuleSet, *, dealer: int, escaper: int, streak: int, stakes: tuple[bool, bool]
    ) -> int:
        """What an escape costs the escaper (RULES §5.4)."""
        raise NotImplementedError

    def max_loss(self, rules: RuleSet, *, streak: int) -> int:
        """The most one hand can cost a seat in points, escape included (what the ledger holds)."""
        raise NotImplementedError

    def next_dealer(
        self, rules: RuleSet, dealer: int, streak: int, result: HandResult
    ) -> tuple[int | None, int]:
        """The next hand's dealer (None: drawn again by the next hand's dice) and streak."""
        raise NotImplementedError

    # --- what a seat sees
    def view_extras(self, state: GameState, seat: int) -> Mapping[str, Any]:
        """Family facts a seat may see (wire form, JSON-ready)."""
        raise NotImplementedError

    def multiplier_reasons(self, rules: RuleSet) -> list[dict[str, Any]]:
        """The reasons a win is multiplied by, each with its multiplier (a rules page); empty for a family
        scored by a fan table alone."""
        raise NotImplementedError

    def hint_waits(self, state: GameState, seat: int) -> list[Tile] | None:
        """The kinds that complete ``seat``'s 3k+1 hand, or None if it is not ready."""
        raise NotImplementedError

    def hint_worth(self, state: GameState, seat: int, tile: Tile, how: str) -> tuple[int, int] | None:
        """(points, multiplier) of a win on ``tile`` as the seat can know it (hidden tiles left out)."""
        raise NotImplementedError
