"""Winning (和牌) in the game: the win context from the state, scoring with the rule set's table, points.

A win is legal only if the hand is complete and its fans, without bonus and flower fans, reach
``min_fan``. Scoring results are memoised per state step so legality and settlement agree and cost once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from erma.analysis import shapes
from erma.frozen import reduce_frozen
from erma.game.result import DrawSource
from erma.game.seen import table_copies
from erma.game.state import GameState
from erma.rules import RuleSet
from erma.rules.shapes import shape_mask
from erma.scoring import WinContext, plan_for, score, score_counts
from erma.scoring.pipeline import ScoreResult
from erma.tiles import Tile


@dataclass(slots=True, unsafe_hash=True)
class WinCheck:
    """A scored win: the fans, the totals that matter for the rules, and the points it is worth.

    A value: nothing changes it once built. Not a frozen dataclass only for speed, as
    :class:`~erma.scoring.WinContext`: a frozen dataclass's generated constructor runs as interpreted Python
    even when compiled (one a win found); equality, hashing and pickling are a frozen one's."""

    result: ScoreResult
    fan_total: int
    """F: every fan, bonus and flowers included."""
    min_total: int
    """The fans that count toward the minimum."""
    points: int
    """What the loser pays (cap and base points applied)."""
    context: WinContext

    def __init__(
        self, result: ScoreResult, fan_total: int, min_total: int, points: int, context: WinContext
    ) -> None:
        """The dataclass's constructor written out (compiled, it is native code)."""
        self.result = result
        self.fan_total = fan_total
        self.min_total = min_total
        self.points = points
        self.context = context

    @property
    def multiplier(self) -> int:
        """The standard family has no win multipliers."""
        return 0

    def to_dict(self) -> dict[str, Any]:
        """The settlement's view of the win (every fan with its tiles)."""
        return {
            "hand": self.context.to_notation(),
            "fans": [
                {
                    "id": f.id,
                    "name_zh": f.name_zh,
                    "name_en": f.name_en,
                    "points": f.points,
                    "count": f.count,
                    "tiles": list(f.tiles),
                }
                for f in self.result.fans
            ],
            "fan_total": self.fan_total,
            "points": self.points,
        }

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Rebuilt through the constructor (copy, pickle; also when compiled)."""
        return reduce_frozen(self)


def check_win(state: GameState, seat: int, tile: Tile, how: str) -> WinCheck | None:
    """Score ``seat`` winning with ``tile``: ``how`` is self (drawn, in hand), discard, rob or haidi.

    For ``self`` and ``haidi`` the tile is already in the concealed hand. Returns None when the hand is
    not complete or the fans do not reach the minimum.
    """
    ctx = win_context(state, seat, tile, how)
    if ctx is None:
        return None
    rules = state.rules
    result = score(ctx, rules.fan_table)
    if result is None:
        return None
    worth = points_of(rules, result)
    if worth is None:
        return None
    min_total, points = worth
    fan_total = result.total
    return WinCheck(result, fan_total, min_total, points, ctx)


def wins(state: GameState, seat: int, tile: Tile, how: str) -> bool:
    """Whether :func:`check_win` finds a win, counted without building it (the fans' ids, points and
    counts only: :func:`erma.scoring.score_counts`; 报听's legality asks this of every wait it tries)."""
    ctx = win_context(state, seat, tile, how)
    if ctx is None:
        return False
    rules = state.rules
    counted = score_counts(ctx, rules.fan_table)
    return counted is not None and points_of_counts(rules, counted[0], counted[1]) is not None


def win_context(state: GameState, seat: int, tile: Tile, how: str) -> WinContext | None:
    """The win context of ``seat`` winning with ``tile`` as :func:`check_win` reads it; None when the hand
    is not complete."""
    rules = state.rules
    me = state.seats[seat]
    drawn = how in ("self", "haidi")  # the tile is in the hand already
    n = me.size + (0 if drawn else 1)
    allowed = shape_mask(rules)
    if not shapes.may_complete(me.counts, -1 if drawn else tile, n, allowed):
        return None  # (most hands asked about: told by counting, without the shape tables)
    key = me.key if drawn else me.key + (1 << (4 * tile))
    if shapes.overall(key, n, 0, allowed) != -1:
        return None
    concealed = me.tiles()
    if drawn:
        concealed.remove(tile)
    self_drawn = drawn or (how == "rob" and rules.robbing_kong_counts_as_self_draw)
    initial = False
    if not state.opened:
        if how == "self" and seat == state.dealer and me.discards_made == 0:
            initial = True  # 天胡
        elif how == "self" and seat != state.dealer and me.discards_made == 0:
            initial = True  # 地胡
        elif how == "discard" and seat != state.dealer and state.seats[state.dealer].discards_made == 1:
            initial = me.discards_made == 0  # 人胡
    visible = table_copies(state, tile) - (1 if how == "discard" else 0)
    bonus = 0
    if state.bonus_kinds:
        all_tiles = [*concealed, tile, *(t for m in me.melds for t in m.tiles)]
        bonus = sum(all_tiles.count(k) for k in state.bonus_kinds)
    ctx = WinContext(
        melds=tuple(me.melds),
        concealed=tuple(concealed),
        win_tile=tile,
        self_drawn=self_drawn,
        fourth_tile=visible >= rules.copies - 1,
        about_kong=(how == "self" and state.draw_kind is DrawSource.REPLACEMENT) or how == "rob",
        wall_last=(drawn and (state.wall_left == 0 or how == "haidi"))
        or (how == "discard" and state.wall_left == 0),
        seat_wind=state.seat_wind(seat),
        prevalent_wind=state.prevalent_wind,
        flowers=tuple(me.flowers),
        flower_count=len(me.flowers),
        bonus_count=bonus,
        is_initial=initial,
        is_dealer=seat == state.dealer,
        declared_ready=me.riichi,
        declared_ready_first_turn=me.riichi and me.riichi_first_turn,
        ready_one_shot=me.riichi and me.riichi_draws <= 1 and me.riichi_clean,
        robbing=how == "rob",
        copies=rules.copies,
        flowers_in_play=rules.flowers,
    )
    return ctx


def points_of(rules: RuleSet, result: ScoreResult) -> tuple[int, int] | None:
    """(fans toward the minimum, points) of a scored win under ``rules``: base points added, the cap applied
    (sparing bonus points where ``cap_applies_to_bonus`` is false); None below ``min_fan``."""
    return points_of_counts(rules, [(f.id, f.points, f.count) for f in result.fans], result.capped_total)


def points_of_counts(
    rules: RuleSet, fans: Sequence[tuple[str, int, int]], capped_total: int
) -> tuple[int, int] | None:
    """:func:`points_of` from each fan's (id, points, count) and the capped total
    (:func:`erma.scoring.pipeline.score_counts`)."""
    rows = plan_for(rules.fan_table).rows
    min_total = sum(
        points * count
        for fan_id, points, count in fans
        if rows[fan_id].counts_for_min
        or (rules.bonus_counts_for_min_fan and fan_id == "bonus_tiles")
        or (rules.flowers_count_for_min_fan and fan_id != "bonus_tiles")
    )
    if min_total < rules.min_fan:
        return None
    points = capped_total + rules.mcr_base_points
    if rules.fan_cap is not None:
        if rules.cap_applies_to_bonus:
            points = min(points, rules.fan_cap)
        else:
            bonus_pts = sum(p * c for fan_id, p, c in fans if fan_id == "bonus_tiles")
            points = min(points - bonus_pts, rules.fan_cap) + bonus_pts
    return min_total, points
