"""The standard family (标准): ``cuopai789``, ``classic64``, ``wushuang128`` (RULES §0–§2).

Fans from the rule set's fan table (MCR rules), a minimum fan, an optional cap and base points; 报听 locks
a ready hand; 无双 kongs grow to eight tiles. The loser pays the winner's points; a 流局 moves nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any, Final

from erma.analysis import shapes
from erma.analysis.tables import INC
from erma.errors import IllegalActionError
from erma.game import deal
from erma.game.actions import AKONG, CHOW, CKONG, DISCARD, RIICHI, WIN, XKONG, Action, Kind
from erma.game.family import Family, Win
from erma.game.legal import KONG, PUNG, all_held, copies_in_sets, find_win, waits_of
from erma.game.result import WIN_HOWS, EndReason, HandResult
from erma.game.settle import hands_shown, win_deltas
from erma.game.state import GameState
from erma.game.win import WinCheck, check_win, wins
from erma.hand import Meld, MeldKind
from erma.rules import RuleSet
from erma.rules.shapes import shape_mask
from erma.scoring import plan_for
from erma.scoring.features import F_CONCEALED, F_SELF_DRAWN
from erma.scoring.floor import fan_floor
from erma.scoring.suits import kind_facts
from erma.tiles import Tile

try:
    from mypy_extensions import mypyc_attr  # read by the compiler; a no-op at run time
except ImportError:  # pure Python without mypy installed
    from erma.game.compile_options import mypyc_attr

_NO_EXTRAS: Mapping[str, Any] = {}

_INSTANCE_BOUND = 42
"""More instances of a per-instance fan than a hand can hold (tiles, flowers and sets together)."""


@cache
def table_bound(table: str) -> int:
    """An upper bound of any hand's total in a fan table: every fan, each per-instance fan as often as a
    hand could hold it (far above any real hand; what the ledger holds when no cap is set)."""
    rows = plan_for(table).rows.values()
    return sum(r.value * (_INSTANCE_BOUND if r.per_instance else 1) for r in rows)


@mypyc_attr(allow_interpreted_subclasses=True)
class Standard(Family):
    """The hooks of the standard family."""

    name = "standard"
    multiplied = False

    # ------------------------------------------------------------------------------- the deal

    def start(self, state: GameState) -> None:
        deal.deal_tiles(state)

    def stake(self, state: GameState, seat: int, yes: bool) -> None:
        raise IllegalActionError(f"{state.rules.name}: no pre-deal stakes in the standard family")

    # -------------------------------------------------------------------------------- legality

    def draws_left(self, state: GameState) -> int:
        return state.wall_left

    def kong_room(self, state: GameState) -> int:
        return state.wall_left

    def discard_options(self, state: GameState, seat: int) -> list[Action]:
        me = state.seats[seat]
        rules = state.rules
        if me.riichi:
            return [DISCARD[state.drawn]] if state.drawn is not None else []
        kinds = [t for t in rules.kinds if me.counts[t]]
        if state.claimed and not rules.same_tile_discard_after_claim and state.last_discard is not None:
            kinds = [t for t in kinds if t != state.last_discard] or kinds
        out = [DISCARD[t] for t in kinds]
        allowed = shape_mask(rules)
        # (most hands are told far from ready by counting, without the shape tables)
        shanten = (
            shapes.overall(me.key, me.size, 0, allowed)
            if shapes.may_be_ready(me.counts, me.size, allowed)
            else 1
        )
        if shanten > 0:
            _note_unready(me.key, allowed)
        elif rules.declare_ready_enabled:
            # 报听 candidates: the discards that leave the hand ready (shanten 0), then a wait it can score
            # (a hand with a wait is ready, so the shanten after each discard, all found in one pass,
            # rules out the rest before any wait is looked for)
            ready = [False] * 34
            for t, after in shapes.discard_values(me.key, me.size, 0, allowed):
                ready[t] = after == 0
            for t in kinds:
                if ready[t] and _scorable_wait(state, seat, t):
                    out.append(RIICHI[t])
        return out

    def claim_options(self, state: GameState, seat: int) -> list[Action]:
        t = state.last_discard
        assert t is not None
        me = state.seats[seat]
        out: list[Action] = []
        allowed = shape_mask(state.rules)
        if (
            not me.furiten
            and not _known_unready(me.key, me.discards, allowed)
            and shapes.may_complete(me.counts, t, me.size + 1, allowed)  # (find_win reads the shapes)
            and find_win(state, seat, t, "discard")
        ):
            out.append(WIN)
        if me.riichi or state.wall_left == 0:
            return out
        c = me.counts
        if c[t] >= 3:
            out.append(KONG)
        if c[t] >= 2:
            out.append(PUNG)
        if t < 27:  # the chows with t as their low, middle or high tile, in the suit's row
            r = t % 9
            if r >= 2 and c[t - 2] and c[t - 1]:
                out.append(CHOW[t - 2])
            if 1 <= r <= 7 and c[t - 1] and c[t + 1]:
                out.append(CHOW[t - 1])
            if r <= 6 and c[t + 1] and c[t + 2]:
                out.append(CHOW[t])
        return out

    def kong_options(self, state: GameState, seat: int) -> list[Action]:
        rules = state.rules
        me = state.seats[seat]
        if state.wall_left < 1:
            return []
        c = me.counts
        out = [CKONG[t] for t in rules.kinds if c[t] >= 4]
        for m in me.melds:
            if m.kind is MeldKind.PUNG and c[m.tile]:
                out.append(AKONG[m.tile])
            elif rules.wushuang_kong_extension and m.is_kong and m.size < 8 and c[m.tile]:
                out.append(XKONG[m.tile])
        if me.riichi:
            out = [a for a in out if _riichi_kong_ok(state, seat, a)]
        return out

    def check_win(self, state: GameState, seat: int, tile: Tile, how: str) -> Win | None:
        return check_win(state, seat, tile, how)

    def robbable(self, state: GameState, robber: int, tile: Tile, extension: bool) -> bool:
        if extension and not state.rules.rob_extended_kong:
            return False
        return not state.seats[robber].furiten and find_win(state, robber, tile, "rob") is not None

    # ------------------------------------------------------------------------------------ sets

    def set_kind(self, state: GameState, tile: Tile) -> Tile:
        return tile

    def take_claim(self, state: GameState, seat: int, action: Action, tile: Tile) -> Meld:
        me = state.seats[seat]
        if action.kind is Kind.CHOW:
            for x in (action.tile, action.tile + 1, action.tile + 2):
                if x != tile:
                    me.remove(x)
            return Meld(MeldKind.CHOW, action.tile, claimed=tile)
        if action.kind is Kind.PUNG:
            me.remove(tile, 2)
            return Meld(MeldKind.PUNG, tile, claimed=tile)
        me.remove(tile, 3)
        return Meld(MeldKind.EXPOSED_KONG, tile, claimed=tile)

    def meld_text(self, state: GameState, meld: Meld) -> str:
        return _notation(meld)

    def meld_tiles(self, state: GameState, meld: Meld) -> tuple[Tile, ...]:
        return meld.tiles

    def played(self, state: GameState, seat: int) -> tuple[tuple[int, ...], int, int]:
        me = state.seats[seat]
        return tuple(me.counts), me.key, 0

    def on_decline(self, state: GameState, seat: int, tile: Tile, how: str) -> None:
        return None

    def on_kong(self, state: GameState, seat: int, concealed: bool) -> None:
        return None

    def on_replacement_draw(self, state: GameState) -> None:
        return None

    # ------------------------------------------------------------------------------ settlement

    def settle_win(self, state: GameState, seat: int, tile: Tile, how: str, found: Win) -> HandResult:
        assert isinstance(found, WinCheck)
        return HandResult(
            EndReason.WIN,
            win_deltas(seat, found.points),
            hands=hands_shown(state),
            winner=seat,
            loser=1 - seat,
            how=WIN_HOWS[how],
            tile=tile,
            hand=found.context.to_notation(),
            fans=tuple(found.result.fans),
            fan_total=found.fan_total,
            points=found.points,
        )

    def settle_draw(self, state: GameState) -> HandResult:
        return HandResult(EndReason.DRAW, (0, 0), hands=hands_shown(state))

    def escape_points(
        self, rules: RuleSet, *, dealer: int, escaper: int, streak: int, stakes: tuple[bool, bool]
    ) -> int:
        """RULES §1.11 / §2.10: ``escape_points``, lowered to ``fan_cap`` if one is set."""
        return rules.escape_points if rules.fan_cap is None else min(rules.escape_points, rules.fan_cap)

    def max_loss(self, rules: RuleSet, *, streak: int) -> int:
        """The cap (with bonus points above it where the cap spares them), else the table's bound."""
        escape = self.escape_points(rules, dealer=0, escaper=0, streak=streak, stakes=(False, False))
        bound = table_bound(rules.fan_table) + rules.mcr_base_points
        if rules.fan_cap is not None:
            bonus = None if rules.cap_applies_to_bonus else plan_for(rules.fan_table).rows.get("bonus_tiles")
            extra = bonus.value * _INSTANCE_BOUND if bonus is not None else 0
            bound = min(bound, rules.fan_cap + extra)
        return max(escape, bound)

    def next_dealer(
        self, rules: RuleSet, dealer: int, streak: int, result: HandResult
    ) -> tuple[int | None, int]:
        if rules.dealer_rotation == "alternate":
            return 1 - dealer, 0
        if result.reason is EndReason.WIN:
            assert result.winner is not None
            return result.winner, 0
        return (dealer if rules.draw_keeps_dealer else 1 - dealer), 0

    # --------------------------------------------------------------------------- what a seat sees

    def view_extras(self, state: GameState, seat: int) -> Mapping[str, Any]:
        return _NO_EXTRAS

    def multiplier_reasons(self, rules: RuleSet) -> list[dict[str, Any]]:
        return []

    def hint_waits(self, state: GameState, seat: int) -> list[Tile] | None:
        me = state.seats[seat]
        ready = shapes.overall(me.key, me.size, 0, shape_mask(state.rules)) == 0
        return waits_of(state, seat) if ready else None

    def hint_worth(self, state: GameState, seat: int, tile: Tile, how: str) -> tuple[int, int] | None:
        found = check_win(state, seat, tile, how)
        return (found.points, 0) if found is not None else None


_NOTATIONS: Final[dict[int, str]] = {}


def _notation(meld: Meld) -> str:
    """A set's notation (sets are few values; views show them at every step), remembered by a number of
    what decides it: run or not, concealed or not, tile and size, as 温州's (a tuple key with the kind's
    text costs a tuple, its hash and a generic attribute look-up; a :class:`Meld`'s own hash runs as
    interpreted Python)."""
    kind = meld.kind
    key = (meld.tile * 9 + meld.size) * 4 + 2 * (kind is MeldKind.CHOW) + (kind is MeldKind.CONCEALED_KONG)
    found = _NOTATIONS.get(key)
    if found is None:
        found = _NOTATIONS[key] = meld.to_notation()
    return found


_UNREADY: Final[dict[int, int]] = {}
"""Hands (3k+2 tiles, packed keys) a turn found at shanten 1 or more, with the shapes asked (``allowed``):
the hand left after any discard is not ready either (adding a tile never raises the shanten, and a hand a
tile completes is ready), so no discard completes it. A bounded memo of a pure fact."""


def _note_unready(key: int, allowed: int) -> None:
    if len(_UNREADY) >= 256:
        _UNREADY.clear()
    _UNREADY[key] = allowed


def _known_unready(key: int, discards: list[Tile], allowed: int) -> bool:
    """Whether the concealed hand ``key`` (3k+1 tiles) is known not to be ready: with its last discard back
    it was a hand :func:`_note_unready` noted (else unknown: the caller asks the shapes)."""
    return bool(discards) and _UNREADY.get(key + INC[discards[-1]], -1) == allowed


def _scorable_wait(state: GameState, seat: int, discard: Tile) -> bool:
    """Whether, after discarding ``discard`` and declaring ready, some wait wins by the room's fan table
    (a shape the table cannot score, such as 组合龙 in ``cuopai13``, or fans below the minimum, would lock
    a hand that throws its own winning tile away). The state is put back as it was.

    The waits are :func:`~erma.game.legal.waits_of`'s, in the same kind order, each found as it is tried
    (:func:`~erma.analysis.shapes.draws_below` with ``first``: the changed group combined once with the
    rest): the first that scores ends the search (nearly always the first wait), so the kinds after it are
    not looked at.

    A wait whose win's fan floor (:func:`erma.scoring.floor.fan_floor`: the fans every reading of it
    scores, from the kinds it holds, self-drawn, declared ready and, with no declared set, concealed)
    reaches the minimum scores without being scored: in 万 + honours every hand is a flush of some kind
    (混一色 at least), so with 报听 and 自摸 nearly every wait is settled so."""
    me = state.seats[seat]
    rules = state.rules
    declared = me.riichi
    me.remove(discard)
    me.riichi = True
    try:
        key = me.key
        allowed = shape_mask(rules)
        copies = rules.copies
        in_sets = copies_in_sets(me.melds)
        table = rules.fan_table
        least = rules.min_fan
        held = 0  # the kinds the hand and its declared sets hold
        for t in rules.kinds:
            if (key >> (4 * t)) & 15 or in_sets[t]:
                held |= 1 << t
        situation = F_SELF_DRAWN if me.melds else F_SELF_DRAWN | F_CONCEALED
        kinds = rules.kinds
        while kinds:
            found = shapes.draws_below(key, me.size, kinds, 0, 0, allowed, True)
            if not found:
                return False
            w = found[0]
            kinds = kinds[kinds.index(w) + 1 :]
            if all_held(key, in_sets, w, copies):
                continue  # every copy held
            if fan_floor(table, kind_facts(held | 1 << w) | situation, True) >= least:
                return True
            me.add(w)
            try:
                if wins(state, seat, w, "self"):
                    return True
            finally:
                me.remove(w)
        return False
    finally:
        me.riichi = declared
        me.add(discard)


def _riichi_kong_ok(state: GameState, seat: int, action: Action) -> bool:
    """After 报听 a kong is allowed only with the drawn tile and only if the waits stay the same."""
    if state.rules.kong_after_riichi == "never" or action.tile != state.drawn:
        return False
    me = state.seats[seat]
    before = waits_of(state, seat, me.key - INC[action.tile], me.size - 1)
    removed = 4 if action.kind is Kind.CONCEALED_KONG else 1
    after_key = me.key - INC[action.tile] * removed
    return before == waits_of(state, seat, after_key, me.size - removed) and bool(before)
