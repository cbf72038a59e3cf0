"""The expert bot (高手): every choice by one estimate of the hand's value to come, from the seat view alone.

The estimate (:meth:`Estimator.after_discard`) is a race between two seats over the draws that are left:
each of our draws moves the hand one step closer (a shanten level) with the chance the unseen copies give,
a ready hand wins on a draw or on the opponent's discard, and every opponent turn ends the hand against us
with a hazard that grows with the chance the opponent is ready (报听 seen, or the measured share of ready
hands after as many discards, :mod:`erma.bots.priors`). A win is worth its points — each winning tile of
a ready hand scored with the room's own fan table (standard family: :func:`erma.scoring.score` on the
imagined completion, with the minimum and the cap; 温州: the multiplier 软 ×1 / 硬 ×2 / 双翻 ×4 of
:func:`erma.bots.greedy.wz_wait`) — and the opponent's win costs its mean. One shanten from ready, the
estimate looks one draw further (``depth=2``): every drawn tile that makes the hand ready, the best
discard then, and that ready hand's scored waits (exact expectimax over the kinds of the next draw); such a
hand, and one a claim makes ready, may still declare 报听 on a later discard (``Settings.declare_ahead``).
level5 looks two draws ahead (``depth=3``, the standard family): a hand two from ready is valued by every
drawn tile that brings it one from ready, the best discard then, and that hand's own lookahead. A discard
that leaves the hand one from ready also counts the draws that widen it without bringing it closer (改良,
``Settings.widen``): the better, horizon by horizon, of swapping for the widest such hand and keeping. Further
from ready, rates: the level's own unseen useful tiles, typical rates below it and a share of
the mean win (:data:`TYPICAL_SLOPE`, :data:`TYPICAL_VALUE`, fitted to the exact lookahead).

A discard is also weighed by the chance it deals in (点炮): the chance the opponent is ready times the
chance the tile is among its waits (the unseen shapes that wait on it; nothing after the opponent's 报听
passed it by). Claims, kongs, 报听, the triplet offer, 搓牌 and the start exchange compare the estimate of
each outcome; 买底 / 顶底 weigh what each raise adds against what it costs at even chances; 温州 takes a
win now when it is worth more than the estimate of going on. The 海底 pick is blind (random).

With ``Settings.base`` (level5, the default) the bot plays greedy's choice without 报听 (``greedy-maidi``'s,
the level4 before 2026-12-01 evening, with both stakes) and the estimate overrides it only where that
measured better in the arena: the discards that leave the hand ready, one or two from ready
(``Settings.ahead``; 温州: one or two from ready), every discard after the opponent's 报听, 报听 itself,
the triplet offer and (outside 温州) claims.

The bot reads only :class:`~erma.game.seatview.SeatView`; its random generators break exact ties.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass

from erma.analysis import shapes
from erma.analysis.tables import INC
from erma.bots.base import BotView
from erma.bots.greedy import OPPONENT_WIN_COST, GreedyBot, _isolation, _sh, exchange_room, wz_wait
from erma.bots.priors import mean_win_points, ready_chance, win_chance
from erma.bots.stakes import Stakes, stake_choice
from erma.game.actions import PASS, WIN, Action, Kind
from erma.game.families import wenzhou_wins as wz
from erma.game.state import Phase
from erma.game.win import points_of_counts
from erma.hand import Meld, MeldKind
from erma.scoring import WinContext
from erma.scoring.pipeline import score_counts_declared

KONG_KINDS = (Kind.CONCEALED_KONG, Kind.ADDED_KONG, Kind.EXTEND_KONG)
RON_SHARE = 0.6
"""Of the opponent's discards, the share as likely as a random unseen tile to be one we wait on (it keeps
what it needs)."""
SELF_DRAW_SHARE = 0.7
"""Of the opponent's measured wins a round (greedy self-play, where about half are on discards), the share
left when this discard's chance of dealing in is weighed apart."""
LATER_DEAL_IN = 0.03
"""A declared opponent's wins on our later discards, a round, when we play safe."""
UNDECLARED = 0.3
"""Where 报听 is allowed: the share of the opponent's ready chance left when it has not declared."""
RIICHI_MARGIN = {"cuopai13": 1.0}
"""The 报听 margin (``Settings.riichi_margin``) by fan table where the lock costs more than the default:
cuopai789's small table (measured on seed t5: level5 vs the level4 of then, ``greedy-maidi``, +0.33 with
1.0, +0.23 with 0.25)."""
EXCHANGE_SAMPLES = 48
"""Refills of the hand sampled for each start-exchange choice."""
EXCHANGE_GAIN = 0.03
"""The least mean-shanten gain for which a tile is given back in the start exchange."""
OPPONENT_WAIT_KINDS = 2.0
"""Kinds a ready opponent waits on, on average (for the hazard of its turns)."""
WZ_DEPTH = 2
"""温州: the deepest lookahead (16–17 tiles with 财神 as jokers: two draws ahead is too slow to play)."""
TYPICAL_SLOPE = 0.75
"""A hand two or more from ready, rates only: each level above ready has (1 + this × level) times a ready
hand's wait of two kinds in useful tiles."""
TYPICAL_VALUE = 0.65
"""… and its win is worth this share of the mean win. Both fitted on 2026-12-02 (benchmarks/typical_rates.py)
to the exact lookahead to ready (scored waits) over the hands two and three from ready of level5-vs-greedy
play: the figures of before (1.5 and the whole mean) valued those hands about 5 points too high in classic64
and wushuang128 (0.46 in cuopai789), which made a claim that brings the hand to one from ready (valued
exactly) look worse than passing (valued by rates)."""


def _count(key: int, t: int) -> int:
    return (key >> (4 * t)) & 15


@functools.lru_cache(maxsize=1 << 17)
def _winners(key: int, n: int, kinds: tuple[int, ...]) -> tuple[int, ...]:
    """Standard family: the kinds that complete a 3k+1 hand (a pure function of the shape, cached)."""
    return shapes.draws_below(key, n, kinds, 0)


@functools.lru_cache(maxsize=1 << 17)
def _improvers(key: int, n: int, kinds: tuple[int, ...]) -> tuple[int, ...]:
    """Standard family: the kinds that lower the shanten of a 3k+1 hand (cached)."""
    return shapes.draws_below(key, n, kinds, _shanten(key, n))


@functools.lru_cache(maxsize=1 << 18)
def _shanten(key: int, n: int) -> int:
    return shapes.overall(key, n)


@functools.lru_cache(maxsize=1 << 17)
def _discards(key: int, n: int) -> tuple[tuple[int, int], ...]:
    """Standard family: (kind, shanten after discarding it) for each kind a 3k+2 hand holds (cached)."""
    return shapes.discard_values(key, n)


@functools.lru_cache(maxsize=1 << 16)
def _tiles_of(key: int) -> tuple[int, ...]:
    """The kinds of a concealed key, one entry per copy, in order (cached: the imagined wins of a decision
    share their concealed parts)."""
    return tuple(t for t in range(34) for _ in range((key >> (4 * t)) & 15))


_POINTS: dict[tuple[object, ...], int | None] = {}
"""Scored imagined wins, by everything the score reads (shared by every decision of the process)."""
_MISSING = object()
_CONTEXT_IDS = itertools.count()
_CONTEXTS: dict[tuple[object, ...], int] = {}
"""What an imagined win's score reads of the rules and the seat (the fan table, minimum and cap, winds,
flowers, bonus kinds, dealer), by a small id that keys :data:`_POINTS`."""


def claimed_hand(view: BotView, a: Action, p: int) -> tuple[int, int, Meld] | None:
    """After claiming the discard's kind ``p`` with ``a`` (吃 chow, 碰 pung, 明杠 exposed kong): the concealed
    hand's key and size and the new set; None for another kind of action."""
    if a.kind is Kind.PUNG:
        return view.key - INC[p] * 2, view.size - 2, Meld(MeldKind.PUNG, p, claimed=p)
    if a.kind is Kind.CHOW:
        k, n = view.key, view.size
        for x in (a.tile, a.tile + 1, a.tile + 2):
            if x != p:
                k -= INC[x]
                n -= 1
        return k, n, Meld(MeldKind.CHOW, a.tile, claimed=p)
    if a.kind is Kind.KONG:
        return view.key - INC[p] * 3, view.size - 3, Meld(MeldKind.EXPOSED_KONG, p, claimed=p)
    return None


@dataclass(frozen=True, slots=True)
class Settings:
    """What a level considers and how far it looks (never what it sees)."""

    depth: int = 3
    """Hands fewer than this many from ready look a draw ahead, down to scored waits (exact expectimax); the
    rest use rates. 3 (the default since 2026-12-02, level5): one and two from ready; 2: one from ready (the
    review's estimate, docs/review.md); 1: rates only. 温州 stops at :data:`WZ_DEPTH`."""
    value: bool = True
    """Score the waits of ready hands with the fan table (False: every win worth the mean)."""
    defense: bool = True
    """Weigh each discard's chance of dealing in."""
    samples: int = 0
    """Imagined completions scored per hand two or more from ready (0: every such win worth the mean)."""
    riichi_margin: float = 0.25
    """报听 locks the hand: declared only when its estimate beats playing on by this share (the lock's cost,
    which the race does not see: a hand that plays on may still widen or improve its wait)."""
    base: bool = True
    """Greedy's efficiency as the base (level5): discards by shanten then unseen useful tiles, greedy's
    claims, kongs, offers and 温州 win-or-wait; the estimate decides only the discard of a hand that is
    ready after it (scored waits, dealing in) and every discard once the opponent has declared 报听."""
    riichi: bool = True
    """With ``base``: may declare 报听 (when the estimate with the margin says so)."""
    greedy_riichi: bool = False
    """With ``base``: 报听 as greedy declares it (ready with two or more unseen winning tiles)."""
    ahead: int = 2
    """With ``base``: the estimate also picks among the discards that leave the hand at most this many from
    ready (0: only ready ones). 1 until 2026-12-02; 2 once the typical rates were fitted (classic64, against
    the level5 of 1: +0.66 and +0.43 a hand on the tuning seeds ``u9`` / ``u10``, 3,000 walls each)."""
    wz_claims: bool = False
    """With ``base`` and :attr:`own` holding claims, 温州: the estimate decides claims too (off: greedy's,
    whose claims measured better there, docs/bots.md)."""
    wz_ready: bool = False
    """With ``base``, 温州: the estimate also ranks the discards that leave the hand ready."""
    guard: float = 2.0
    """With ``base``: once the opponent is ready with this chance (:func:`ready_chance`; above 1: never
    before its 报听), the estimate (with dealing in) ranks every lowest-shanten discard."""
    own: frozenset[Phase] = frozenset({Phase.TRIPLET, Phase.CLAIM})
    """With ``base``: the phases besides the turn decided by the estimate: the triplet offer, and since
    2026-12-02 claims (with ``depth = 3``: the claims that leave the hand two from ready are valued by the
    lookahead, not by rates)."""
    typical_slope: float = TYPICAL_SLOPE
    """Rates only: the useful tiles of each level above ready (:data:`TYPICAL_SLOPE`)."""
    typical_value: float = TYPICAL_VALUE
    """Rates only: the share of the mean win (:data:`TYPICAL_VALUE`)."""
    locked_ron: float = 1.0
    """Once the opponent has declared 报听, the share of a random tile's chance that its discard is one we
    wait on, in place of :data:`RON_SHARE`: a locked hand discards what it draws, it keeps nothing."""
    widen: bool = True
    """A discard that leaves the hand one from ready is valued with the draws that widen it without bringing
    it closer (改良, :meth:`Estimator.widenings`), not only those that make it ready (since 2026-12-02:
    classic64, against the level5 without it, +1.51 and +0.48 a hand on the tuning seeds ``u15`` / ``u16``,
    3,000 walls each)."""
    declare_ahead: bool = True
    """Where 报听 is allowed: a hand that gets ready later (one draw ahead, or by a claim) may declare then,
    so its ready hands are worth the better of playing on and declaring (less the 报听 margin), not only the
    first (which undervalued open hands: their waits often reach the minimum fan only with 报听's fans)."""


class Estimator:
    """The value to come of hands from one seat view (memoised for the decision)."""

    def __init__(self, view: BotView, settings: Settings, seed: int | str = 0) -> None:
        self.view = view
        self.s = settings
        rules = view.rules
        self.wz = view.caishen is not None
        self.kinds = view.kinds
        self.unseen = [view.unseen(t) for t in range(34)]
        self.total = max(1, sum(self.unseen[t] for t in self.kinds))
        self.mean = mean_win_points(rules)
        context = (
            rules.fan_table,
            rules.min_fan,
            rules.fan_cap,
            rules.cap_applies_to_bonus,
            rules.mcr_base_points,
            rules.bonus_counts_for_min_fan,
            rules.flowers_count_for_min_fan,
            rules.copies,
            rules.flowers,
            view.seat_winds[view.seat],
            view.prevalent_wind,
            view.flowers[view.seat],
            view.bonus_kinds,
            view.seat == view.dealer,
        )
        cid = _CONTEXTS.get(context)
        if cid is None:
            if len(_CONTEXTS) > 10_000:
                _CONTEXTS.clear()  # ids are never reused: an entry of _POINTS under an old id only misses
            cid = _CONTEXTS[context] = next(_CONTEXT_IDS)
        self.context_id = cid
        """:data:`_CONTEXTS`' id of this seat's scoring context."""
        self.mean_open = mean_win_points(rules, concealed=False)
        self.cost = OPPONENT_WIN_COST if self.wz else (self.mean + self.mean_open) / 2
        me, opp = view.seat, 1 - view.seat
        self.opp_riichi = view.riichi[opp]
        opp_discards = len(view.discards[opp])
        self.draws = view.draws_left
        horizon = self.draws // 2 + 2
        # the hazard of an opponent turn: its self-draws, and its wins on our later discards as far as we
        # do not see them coming (this discard's own chance of dealing in is weighed apart, :meth:`danger`)
        if self.opp_riichi:
            wait_tiles = OPPONENT_WAIT_KINDS * self.total / max(1, len(self.kinds))
            declared = min(0.5, wait_tiles / self.total) + LATER_DEAL_IN
            self.hazard = [declared] * (horizon + 1)
        else:
            self.hazard = [
                SELF_DRAW_SHARE * win_chance(rules, opp_discards + step, False) for step in range(horizon + 1)
            ]
        self.melds = view.melds
        self.me = me
        self._ready: dict[
            tuple[int, int, int, bool, tuple[Meld, ...]], tuple[float, float, float, float]
        ] = {}
        self._danger: list[float] | None = None
        self._completions: dict[tuple[object, ...], float] = {}
        self.seeds = [f"{seed}:{view.version}:{i}" for i in range(settings.samples)]
        self._races: dict[tuple[float | int, ...], tuple[list[float], list[float]]] = {}
        self._hands: dict[tuple[object, ...], tuple[list[float], list[float]]] = {}
        self._later: dict[tuple[object, ...], list[float]] = {}
        self._hazards: dict[int, tuple[list[float], list[float]]] = {}
        self.declare = (
            settings.declare_ahead and rules.declare_ready_enabled and not self.wz and not view.riichi[me]
        )
        """A later ready hand may still declare 报听 (:meth:`later_ready`)."""
        self.depth = min(settings.depth, WZ_DEPTH) if self.wz else settings.depth
        """The lookahead's reach (:attr:`Settings.depth`; 温州 at most :data:`WZ_DEPTH`)."""
        self.ron = settings.locked_ron if self.opp_riichi else RON_SHARE
        """The share of a random tile's chance that the opponent's discard is one we wait on."""
        self.margin = RIICHI_MARGIN.get(rules.fan_table, settings.riichi_margin)

    # ------------------------------------------------------------------------------ shapes

    def shanten(self, key: int, n: int, jokers: int, melded: bool = False) -> int:
        """Shanten as the family reads it."""
        if self.wz:
            return _sh(self.view, key, n, jokers, melded)
        return _shanten(key, n)

    def improving(self, key: int, n: int, jokers: int, s: int) -> list[tuple[int, int, int]]:
        """(unseen copies, key, jokers) after each unseen kind that lowers the shanten of a 3k+1 hand."""
        if not self.wz:
            return [
                (self.unseen[t], key + INC[t], jokers)
                for t in _improvers(key, n, self.kinds)
                if self.unseen[t]
            ]
        out = []
        for t in self.kinds:
            u = self.unseen[t]
            if not u:
                continue
            if self.wz:
                p = self.view.play(t)
                k, j = (key, jokers + 1) if p == wz.JOKER else (key + INC[p], jokers)
            else:
                k, j = key + INC[t], jokers
            if self.shanten(k, n + 1, j) < s:
                out.append((u, k, j))
        return out

    # ------------------------------------------------------------------------------ points

    def points(
        self, key: int, melds: tuple[Meld, ...], tile: int, self_drawn: bool, riichi: bool
    ) -> int | None:
        """Standard family: what winning on ``tile`` with the concealed ``key`` would bring (None: no win)."""
        v = self.view
        fourth = v.visible[tile] + 1 >= v.rules.copies
        memo = (self.context_id, key, melds, tile, self_drawn, fourth, riichi)
        got = _POINTS.get(memo, _MISSING)
        if got is not _MISSING:
            return got  # type: ignore[return-value]
        rules = v.rules
        concealed = _tiles_of(key)
        bonus = 0
        if v.bonus_kinds:
            tiles = [*concealed, tile, *(x for m in melds for x in m.tiles)]
            bonus = sum(tiles.count(k) for k in v.bonus_kinds)
        ctx = WinContext(
            melds=melds,
            concealed=concealed,
            win_tile=tile,
            self_drawn=self_drawn,
            fourth_tile=fourth,
            seat_wind=v.seat_winds[v.seat],
            prevalent_wind=v.prevalent_wind,
            flowers=v.flowers[v.seat],
            flower_count=len(v.flowers[v.seat]),
            bonus_count=bonus,
            is_dealer=v.seat == v.dealer,
            copies=rules.copies,
            flowers_in_play=rules.flowers,
        )
        if len(_POINTS) > 200_000:
            _POINTS.clear()
        # both ways at once: as it stands and after 报听 (the second is made from the first where the fan
        # table lets it, :func:`erma.scoring.pipeline.score_counts_declared`)
        for declared, result in zip((False, True), score_counts_declared(ctx, rules.fan_table), strict=True):
            worth = points_of_counts(rules, *result) if result is not None else None
            _POINTS[(*memo[:-1], declared)] = worth[1] if worth is not None else None
        return _POINTS[memo]

    def wait(self, key: int, n: int, jokers: int, melds: tuple[Meld, ...], riichi: bool) -> tuple[float, ...]:
        """(p_self, m_self, p_ron, m_ron) of a ready 3k+1 hand: chances per draw / per opponent discard and
        the mean worth of such wins."""
        memo = (key, n, jokers, riichi, melds)
        got = self._ready.get(memo)
        if got is not None:
            return got
        if self.wz:
            w = wz_wait(self.view, key, n, jokers)
            if self.s.value:
                got = (w.p_self, w.m_self, self.ron * w.p_discard, w.m_discard)
            else:
                got = (w.p_self, self.mean, self.ron * w.p_discard, self.mean)
        else:
            ws = wr = 0
            vs = vr = 0.0
            for t in _winners(key, n, self.kinds):
                u = self.unseen[t]
                if not u:
                    continue
                if not self.s.value:
                    ws += u
                    wr += u
                    vs += u * self.mean
                    vr += u * self.mean
                    continue
                ps = self.points(key, melds, t, True, riichi)
                pr = self.points(key, melds, t, False, riichi)
                if ps is not None:
                    ws += u
                    vs += u * ps
                if pr is not None:
                    wr += u
                    vr += u * pr
            got = (
                ws / self.total,
                vs / ws if ws else 0.0,
                self.ron * wr / self.total,
                vr / wr if wr else 0.0,
            )
        self._ready[memo] = got
        return got

    # ------------------------------------------------------------------------------ the race

    def hazards(self, turns: int) -> tuple[list[float], list[float]]:
        """For a race of ``turns`` own draws, by t (draws left): −h × cost and 1 − h, h the hazard of the
        opponent turn before our draw t (:attr:`hazard`), made once per horizon."""
        got = self._hazards.get(turns)
        if got is None:
            cost, hz = self.cost, self.hazard
            last = len(hz) - 1
            hs = [hz[min(turns - t, last)] if hz else 0.0 for t in range(turns + 1)]
            got = self._hazards[turns] = ([-h * cost for h in hs], [1 - h for h in hs])
        return got

    def ready_race(self, w: Sequence[float], turns: int) -> tuple[list[float], list[float]]:
        """(A, B) of a ready hand: A[t] with the opponent to move and t own draws left, B[t] about to draw."""
        memo = (*w, turns)
        got = self._races.get(memo)
        if got is not None:
            return got
        p_self, m_self, p_ron, m_ron = w
        a = [0.0] * (turns + 1)
        b = [0.0] * (turns + 1)
        loss, keep = self.hazards(turns)
        win_self, miss_self = p_self * m_self, 1 - p_self
        win_ron, miss_ron = p_ron * m_ron, 1 - p_ron
        prev = 0.0
        for t in range(1, turns + 1):
            bt = b[t] = win_self + miss_self * prev
            prev = a[t] = loss[t] + keep[t] * (win_ron + miss_ron * bt)
        self._races[memo] = (a, b)
        return a, b

    def chain(self, a_next: Sequence[float], q: float, turns: int) -> tuple[list[float], list[float]]:
        """(A, B) of a hand that moves one level closer with chance ``q`` a draw, to a level worth
        ``a_next[t]`` (opponent to move, t draws left)."""
        a = [0.0] * (turns + 1)
        b = [0.0] * (turns + 1)
        loss, keep = self.hazards(turns)
        stay = 1 - q
        for t in range(1, turns + 1):
            bt = b[t] = q * a_next[t - 1] + stay * a[t - 1]
            a[t] = loss[t] + keep[t] * bt
        return a, b

    def later_ready(self, key: int, n: int, jokers: int, melds: tuple[Meld, ...], turns: int) -> list[float]:
        """A of a ready 3k+1 hand reached later, not declared (:meth:`ready_race`; B is not asked of it): the
        better, horizon by horizon, of playing on and (where 报听 is allowed, :attr:`declare`) declaring with
        the margin taken off."""
        plain = self.ready_race(self.wait(key, n, jokers, melds, False), turns)[0]
        if not self.declare:
            return plain
        memo = (key, n, jokers, melds, turns)
        got = self._later.get(memo)
        if got is None:
            decl = self.ready_race(self.wait(key, n, jokers, melds, True), turns)[0]
            m = self.margin
            got = self._later[memo] = [max(x, y - m * abs(y)) for x, y in zip(plain, decl, strict=True)]
        return got

    def race_later(self, key: int, n: int, jokers: int, melds: tuple[Meld, ...], turns: int) -> list[float]:
        """A of :meth:`race` of a hand reached without a discard decision now (after a claim): ready hands may
        declare 报听 on a later discard (:meth:`later_ready`)."""
        if self.declare and self.shanten(key, n, jokers, melded=len(melds) > len(self.melds)) <= 0:
            return self.later_ready(key, n, jokers, melds, turns)
        return self.race(key, n, jokers, melds, turns)[0]

    def race(
        self,
        key: int,
        n: int,
        jokers: int,
        melds: tuple[Meld, ...],
        turns: int,
        riichi: bool = False,
        widen: bool = False,
    ) -> tuple[list[float], list[float]]:
        """(A, B) arrays of a 3k+1 hand (see :meth:`ready_race`); ``widen``: a hand one from ready may also
        be widened by a draw that does not bring it closer (:meth:`widenings`)."""
        widen = widen and not self.wz and _shanten(key, n) == 1  # settled first: one memo entry otherwise
        memo = (key, n, jokers, melds, turns, riichi, widen)
        got = self._hands.get(memo)
        if got is None:
            got = self._hands[memo] = self._race(key, n, jokers, melds, turns, riichi, widen)
        return got

    def widenings(
        self, key: int, n: int, melds: tuple[Meld, ...], turns: int
    ) -> list[tuple[float, list[float]]]:
        """Standard family, a 3k+1 hand one from ready (改良): for each unseen kind that does not make it
        ready, the chance of drawing it and the race (A) of the hand after the discard that keeps it one from
        ready with the most unseen useful tiles, when that is more than the hand has now (the hand after the
        swap is not widened again; widening hands two from ready too was several times slower, past the
        time budget)."""
        un = self.unseen

        def useful(k: int) -> int:
            return sum(un[t] for t in _improvers(k, n, self.kinds))

        improving = set(_improvers(key, n, self.kinds))
        now = useful(key)
        out = []
        for t in self.kinds:
            if not un[t] or t in improving:
                continue
            k = key + INC[t]
            best: tuple[int, int] | None = None
            for d, v in _discards(k, n + 1):
                if d == t or v != 1:
                    continue
                x = useful(k - INC[d])
                if x > now and (best is None or x > best[0]):
                    best = (x, k - INC[d])
            if best is not None:
                a, _ = self.race(best[1], n, 0, melds, turns)
                out.append((un[t] / self.total, a))
        return out

    def _race(
        self,
        key: int,
        n: int,
        jokers: int,
        melds: tuple[Meld, ...],
        turns: int,
        riichi: bool,
        widen: bool = False,
    ) -> tuple[list[float], list[float]]:
        s = self.shanten(key, n, jokers, melded=len(melds) > len(self.melds))
        if s < 0:
            s = 0
        if s == 0:
            return self.ready_race(self.wait(key, n, jokers, melds, riichi), turns)
        ups = self.improving(key, n, jokers, s)
        q = sum(u for u, _, _ in ups) / self.total
        if s < self.depth:  # look a draw ahead: each improving draw, the best discard, that hand's race
            mix = [0.0] * (turns + 1)
            for u, k, j in ups:
                best: list[float] | None = None
                if self.wz:
                    keep = [d for d in self.kinds if _count(k, d) and self.shanten(k - INC[d], n, j) == s - 1]
                else:
                    keep = [d for d, v in _discards(k, n + 1) if v == s - 1]
                for d in keep:
                    if s == 1:
                        a_d = self.later_ready(k - INC[d], n, j, melds, turns)
                    else:
                        a_d, _ = self.race(k - INC[d], n, j, melds, turns)
                    if best is None or a_d[turns - 1] > best[turns - 1]:
                        best = a_d
                if best is None:
                    continue
                w = u / self.total
                for t in range(turns + 1):
                    mix[t] += w * best[t]
            swaps = self.widenings(key, n, melds, turns) if widen else []
            a = [0.0] * (turns + 1)
            b = [0.0] * (turns + 1)
            stay = 1 - q - sum(w for w, _ in swaps)
            loss, keep_h = self.hazards(turns)
            for t in range(1, turns + 1):
                prev = a[t - 1]
                bt = mix[t - 1] + stay * prev
                for w, a_swap in swaps:  # swap, or keep the hand, whichever is worth more then
                    x = a_swap[t - 1]
                    bt += w * (x if x >= prev else prev)
                b[t] = bt
                a[t] = loss[t] + keep_h[t] * bt
            return a, b
        # rates only: this level's unseen useful tiles, then each lower level at a typical rate (a ready
        # hand waits on two kinds, each level above on TYPICAL_SLOPE kinds more), and a share of the mean win
        wait_tiles = 2.0 * max(1.0, self.total / max(1, len(self.kinds)))
        p0 = min(0.5, wait_tiles / self.total)
        if self.s.samples and not self.wz:
            m = self.completions(key, n, melds)
        else:
            m = self.s.typical_value * (self.mean if all(x.is_concealed for x in melds) else self.mean_open)
        a_lvl, b_lvl = self.ready_race((p0, m, self.ron * p0, m), turns)
        for level in range(1, s + 1):
            rate = q if level == s else min(0.6, (1 + self.s.typical_slope * level) * p0)
            a_lvl, b_lvl = self.chain(a_lvl, rate, turns)
        return a_lvl, b_lvl

    def completions(self, key: int, n: int, melds: tuple[Meld, ...]) -> float:
        """Standard family, a hand two or more from ready: the mean points of ``samples`` imagined
        completions — draws among the unseen useful tiles (as likely as their copies), each followed by
        the discard that keeps the lowest shanten, until a winning tile, scored with the fan table (0 when
        the completed hand does not reach the minimum). The draws of each sample are the same for every
        candidate of one decision (common random numbers)."""
        memo = (key, n, melds)
        got = self._completions.get(memo)
        if got is not None:
            return got
        total = 0.0
        for seed in self.seeds:
            rng = random.Random(seed)
            k = key
            value = 0.0
            for _ in range(8):
                s = shapes.overall(k, n)
                if s <= 0:
                    wins = [
                        t for t in self.kinds if self.unseen[t] and shapes.overall(k + INC[t], n + 1) == -1
                    ]
                    if wins:
                        t = rng.choices(wins, [self.unseen[x] for x in wins])[0]
                        pts = self.points(k, melds, t, rng.random() < 0.5, False)
                        value = float(pts) if pts is not None else 0.0
                    break
                ups = [t for t in self.kinds if self.unseen[t] and shapes.overall(k + INC[t], n + 1) < s]
                if not ups:
                    break
                k += INC[rng.choices(ups, [self.unseen[x] for x in ups])[0]]
                best = None
                for d in self.kinds:
                    if _count(k, d):
                        sd = shapes.overall(k - INC[d], n)
                        if best is None or sd < best[0]:
                            best = (sd, d)
                assert best is not None
                k -= INC[best[1]]
            total += value
        got = total / len(self.seeds)
        self._completions[memo] = got
        return got

    # ------------------------------------------------------------------------------ dealing in

    def danger(self) -> list[float]:
        """The chance each kind deals in now (the opponent is ready and waits on it)."""
        if self._danger is not None:
            return self._danger
        v = self.view
        opp = 1 - v.seat
        ready = ready_chance(v.rules, len(v.discards[opp]), self.opp_riichi)
        if not self.opp_riichi and v.rules.declare_ready_enabled:
            ready *= UNDECLARED  # a ready hand that could declare 报听 mostly does
        un = self.unseen
        weight = [0.0] * 34
        for t in self.kinds:
            w = 0.3 * un[t] + 0.2 * un[t] * max(0, un[t] - 1)  # 单吊 and 双碰
            if t < 27:
                r = t % 9
                if r >= 2:
                    w += un[t - 2] * un[t - 1]
                if r <= 6:
                    w += un[t + 1] * un[t + 2]
                if 1 <= r <= 7:
                    w += 0.7 * un[t - 1] * un[t + 1]
            weight[t] = w
        if self.wz and v.caishen is not None:
            weight[v.caishen] = 0.0  # a 财神 is not discarded (and plays as a joker)
        total = sum(weight) or 1.0
        safe = set(v.discards[opp])
        out = [0.0] * 34
        for t in self.kinds:
            p = min(0.95, OPPONENT_WAIT_KINDS * weight[t] / total)
            if t in safe:
                p *= 0.3  # a kind the opponent let go is seldom one it waits on
            elif t < 27 and any(x in safe for x in (t - 3, t + 3) if x // 9 == t // 9 and 0 <= x < 27):
                p *= 0.7  # 筋: a two-sided wait on it would have kept the tile three away
            out[t] = ready * p
        self._danger = out
        return out


class ExpertBot:
    """高手: the estimate of :class:`Estimator` for every kind of choice (``level5`` and ``expert``)."""

    name = "expert"
    uses_view = True

    def __init__(
        self, seed: int | str = 0, *, settings: Settings | None = None, name: str = "expert"
    ) -> None:
        self.rng = random.Random(f"expert:{seed}")
        self.seed = seed
        self.settings = settings or Settings()
        self.name = name
        self.greedy = GreedyBot(seed, riichi=self.settings.greedy_riichi, stakes=Stakes.FULL)
        """The base (``Settings.base``): greedy's choices where the estimate has no edge."""

    # ------------------------------------------------------------------------------ choose

    def choose(self, view: BotView, legal: list[Action]) -> Action:
        """The action of highest estimated value among ``legal``."""
        ph = view.phase
        if ph is Phase.HAIDI:
            return self.rng.choice(legal)
        if ph is Phase.MAIDI or ph is Phase.DINGDI:
            return stake_choice(view, legal)
        own = self.settings.own
        if view.caishen is not None and not self.settings.wz_claims:
            own = own - {Phase.CLAIM}
        if self.settings.base and ph is not Phase.TURN and ph not in own:
            return self.greedy.choose(view, legal)  # offers, 温州 claims and win-or-wait: greedy's
        est = Estimator(view, self.settings, self.seed)
        if self.settings.base and ph is Phase.TURN:
            return self._turn_based(view, est, legal)
        if WIN in legal:
            if view.caishen is None or self._take_win(view, est, legal):
                return WIN
            if ph is not Phase.TURN:
                return PASS
            legal = [a for a in legal if a != WIN]
        if ph is Phase.TURN:
            return self._turn(view, est, legal)
        if ph is Phase.CLAIM:
            return self._claim(view, est, legal)
        if ph is Phase.TRIPLET:
            return self._triplet(view, est, legal)
        if ph is Phase.CUO:
            return self._cuo(view, est, legal)
        if ph is Phase.EXCHANGE:
            return self._exchange(view, est, legal)
        return PASS if PASS in legal else legal[0]

    # ------------------------------------------------------------------------------ turns

    def _turn_based(self, view: BotView, est: Estimator, legal: list[Action]) -> Action:
        """Greedy's turn, with the estimate choosing among the lowest-shanten discards when the hand is
        ready after them (the worth of the waits, 报听 when allowed, the chance of dealing in) or when the
        opponent has declared 报听 (dealing in weighs on every discard)."""
        base = self.greedy.choose(view, legal)
        if base.kind is not Kind.DISCARD or base.riichi:
            return base  # a win (温州: weighed by greedy) or a kong that keeps the shape
        discards = [a for a in legal if a.kind is Kind.DISCARD and (self.settings.riichi or not a.riichi)]
        key, n = view.key, view.size
        shantens: dict[Action, int] = {}
        for a in discards:
            p = view.play(a.tile)
            if p == wz.JOKER:
                continue
            shantens[a] = est.shanten(key - INC[p], n - 1, view.jokers)
        if not shantens:
            return base
        best_s = min(shantens.values())
        opp = 1 - view.seat
        late = ready_chance(view.rules, len(view.discards[opp]), est.opp_riichi) >= self.settings.guard
        if best_s > self.settings.ahead and not est.opp_riichi and not late:
            return base
        if est.wz and best_s == 0 and not self.settings.wz_ready and not est.opp_riichi:
            return base  # 温州, ready: greedy's wait worth (multipliers, win-or-wait) ranks better
        scored = self._discard_values(view, est, [a for a, x in shantens.items() if x == best_s])
        return self._pick(view, scored)

    def _turns_after_discard(self, view: BotView) -> int:
        return max(0, view.draws_left // 2)

    def _discard_values(
        self, view: BotView, est: Estimator, discards: list[Action]
    ) -> list[tuple[float, Action]]:
        """Each discard's estimate: (1 − deal-in) × the hand's value after it − deal-in × the cost."""
        turns = self._turns_after_discard(view)
        danger = est.danger() if self.settings.defense else None
        key, n, jokers = view.key, view.size, view.jokers
        shantens = {}
        for a in discards:
            p = view.play(a.tile)
            if p == wz.JOKER:
                continue
            shantens[a] = est.shanten(key - INC[p], n - 1, jokers)
        if not shantens:
            return [(0.0, discards[0])]
        best_s = min(shantens.values())
        # a hand one step further from ready is weighed only against a ready one, and only when the
        # estimate looks a draw ahead (with rates alone, the levels are not comparable)
        limit = best_s + 1 if best_s == 0 and self.settings.depth >= 2 else best_s
        out = []
        for a in discards:
            s = shantens.get(a)
            if s is None or s > limit:
                continue
            p = view.play(a.tile)
            widen = self.settings.widen and not a.riichi
            arr, _ = est.race(key - INC[p], n - 1, jokers, view.melds, turns, riichi=a.riichi, widen=widen)
            value = arr[turns]
            if a.riichi:
                margin = RIICHI_MARGIN.get(view.rules.fan_table, self.settings.riichi_margin)
                value -= margin * abs(value)
            if danger is not None:
                d = danger[a.tile]
                value = (1 - d) * value - d * est.cost
            out.append((value, a))
        return out

    def _pick(self, view: BotView, scored: list[tuple[float, Action]]) -> Action:
        best = max(v for v, _ in scored)
        tied = [a for v, a in scored if v >= best - 1e-9]
        if len(tied) == 1:
            return tied[0]
        tied.sort(key=lambda a: (-_isolation(view, a.tile) if a.tile >= 0 else 0, a.tile, a.riichi))
        return tied[0]

    def _turn(self, view: BotView, est: Estimator, legal: list[Action]) -> Action:
        discards = [a for a in legal if a.kind is Kind.DISCARD]
        kongs = [a for a in legal if a.kind in KONG_KINDS]
        if not discards:
            return kongs[0] if kongs else legal[0]
        scored = self._discard_values(view, est, discards)
        turns = self._turns_after_discard(view)
        for a in kongs:
            scored.append((self._kong_value(view, est, a, turns), a))
        return self._pick(view, scored)

    def _kong_value(self, view: BotView, est: Estimator, a: Action, turns: int) -> float:
        """A kong: the hand without the kong's tiles, about to draw the replacement."""
        p = view.play(a.tile)
        if p == wz.JOKER:
            return float("-inf")
        if a.kind is Kind.CONCEALED_KONG:
            held = view.counts[p] if p >= 0 else 0
            k, n = view.key - INC[p] * held, view.size - held
            melds = (*view.melds, Meld(MeldKind.CONCEALED_KONG, p, max(4, held)))
        else:
            k, n = view.key - INC[p], view.size - 1
            melds = tuple(
                Meld(MeldKind.ADDED_KONG, m.tile, m.size + 1)
                if m.tile == p and m.kind is not MeldKind.CHOW
                else m
                for m in view.melds
            )
        if (n - 1) % 3 != 0:
            return float("-inf")
        _, b = est.race(k, n, view.jokers, melds, turns + 1)
        return b[turns + 1]

    # ------------------------------------------------------------------------------ claims

    def _claim(self, view: BotView, est: Estimator, legal: list[Action]) -> Action:
        t = view.last_discard
        if t is None:
            return PASS
        p = view.play(t)
        if p == wz.JOKER:
            return PASS
        left = view.draws_left
        mine_next = (left + 1) // 2
        _, b = est.race(view.key, view.size, view.jokers, view.melds, mine_next)
        scored: list[tuple[float, Action]] = [(b[mine_next], PASS)]
        after = left // 2
        danger = est.danger() if self.settings.defense else None
        for a in legal:
            claimed = claimed_hand(view, a, p)
            if claimed is None:
                continue
            k, n, meld = claimed
            if a.kind is Kind.KONG:
                _, bk = est.race(k, n, view.jokers, (*view.melds, meld), after + 1)
                scored.append((bk[after + 1], a))
                continue
            melds = (*view.melds, meld)
            best = float("-inf")
            options = [d for d in est.kinds if _count(k, d) and not (est.wz and d == wz.JOKER)]
            after_s = {d: est.shanten(k - INC[d], n - 1, view.jokers, melded=True) for d in options}
            lowest = min(after_s.values(), default=0)
            for d in options:
                if after_s[d] != lowest:
                    continue  # as on a turn: only the discards that keep the lowest shanten
                arr = est.race_later(k - INC[d], n - 1, view.jokers, melds, after)
                v = arr[after]
                if danger is not None:
                    phys = d
                    if est.wz and view.caishen is not None and d == view.caishen:
                        phys = 31  # 白板 plays as the 财神's kind
                    v = (1 - danger[phys]) * v - danger[phys] * est.cost
                best = max(best, v)
            scored.append((best, a))
        return max(scored, key=lambda x: x[0])[1]

    # ------------------------------------------------------------------------------ 温州 wins

    def _take_win(self, view: BotView, est: Estimator, legal: list[Action]) -> bool:
        """温州: the multiplier now against the estimate of going on (a 双翻 is always taken)."""
        m = view.win_multiplier
        if m >= 4 or m == 0:
            return True
        if view.phase is Phase.TURN:
            discards = [a for a in legal if a.kind is Kind.DISCARD]
            if not discards:
                return True
            scored = self._discard_values(view, est, discards)
            return m >= max(v for v, _ in scored)
        mine_next = (view.draws_left + 1) // 2
        _, b = est.race(view.key, view.size, view.jokers, view.melds, mine_next)
        return m >= b[mine_next]

    # ------------------------------------------------------------------------------ offers

    def _hand_value(self, est: Estimator, key: int, n: int, jokers: int, turns: int) -> float:
        """A hand of any size about to be played on: 3k+1 → about to draw; 3k+2 → the best discard."""
        if n % 3 == 1:
            _, b = est.race(key, n, jokers, est.melds, turns)
            return b[turns]
        best = float("-inf")
        for d in est.kinds:
            if _count(key, d) and not (est.wz and d == wz.JOKER):
                a, _ = est.race(key - INC[d], n - 1, jokers, est.melds, turns)
                best = max(best, a[turns])
        return best

    def _triplet(self, view: BotView, est: Estimator, legal: list[Action]) -> Action:
        kind = view.offer
        if kind is None:
            return PASS
        turns = max(1, (view.draws_left + 1) // 2)
        cheap = Estimator(view, Settings(depth=1, value=False, defense=False, samples=0))
        scored: list[tuple[float, Action]] = [
            (self._hand_value(cheap, view.key, view.size, view.jokers, turns), PASS)
        ]
        order = sorted(
            {t for t in view.kinds if view.counts[t] and t != kind},
            key=lambda t: (_isolation(view, t), t),
            reverse=True,
        )[:6]
        for a in legal:
            if a.kind is not Kind.ACCEPT or not set(a.tiles) <= set(order):
                continue
            k = view.key + INC[kind] * 3 - sum(INC[t] for t in a.tiles)
            scored.append((self._hand_value(cheap, k, view.size, view.jokers, turns), a))
        return max(scored, key=lambda x: x[0])[1]

    def _cuo(self, view: BotView, est: Estimator, legal: list[Action]) -> Action:
        """搓牌: the offered kind worth most, or the wall's next tile when that is worth more on average."""
        turns = max(1, view.draws_left // 2)
        cheap = Estimator(view, Settings(depth=1, value=False, defense=False, samples=0))
        kinds = [a for a in legal if a.kind is Kind.CUO]
        if not kinds:
            return PASS

        def after(t: int) -> float:
            won = self.cuo_win(view, est, t)
            if won is not None:
                return won
            p = view.play(t)
            k, j = (view.key, view.jokers + 1) if p == wz.JOKER else (view.key + INC[p], view.jokers)
            return self._hand_value(cheap, k, view.size + 1, j, turns)

        scored = [(after(a.tile), a) for a in kinds]
        best = max(scored, key=lambda x: x[0])
        if PASS in legal:
            mean = sum(cheap.unseen[t] * after(t) for t in view.kinds if cheap.unseen[t]) / cheap.total
            if mean > best[0]:
                return PASS
        return best[1]

    def cuo_win(self, view: BotView, est: Estimator, t: int) -> float | None:
        """搓牌 (standard family): the points of the self-drawn win that taking kind ``t`` completes (the
        tile is drawn, so the hand wins at once), None if it completes none or the win misses the minimum."""
        if est.wz or not 0 <= t < 34 or _shanten(view.key + INC[t], view.size + 1) != -1:
            return None
        got = est.points(view.key, view.melds, t, True, view.riichi[view.seat])
        return None if got is None else float(got)

    def _exchange(self, view: BotView, est: Estimator, legal: list[Action]) -> Action:
        """Start exchange (开始时换牌): select the tile :func:`exchange_pick` names, then commit."""
        if view.caishen is not None:
            return self.greedy.choose(view, legal)
        t = exchange_pick(view, est.unseen, f"{self.seed}:{view.version}:exchange", view.selected)
        if t is None:
            return Action(Kind.EXCHANGE)
        a = Action(Kind.SELECT, t)
        return a if a in legal else Action(Kind.EXCHANGE)


def exchange_pick(view: BotView, unseen: Sequence[int], seed: str, selected: Sequence[int]) -> int | None:
    """The start exchange's next tile to give back with ``selected`` marked: the one whose giving back lowers
    most the mean shanten of the hand refilled from the unseen tiles (``EXCHANGE_SAMPLES`` refills drawn
    with ``seed``, the same for every candidate), while it lowers it by more than ``EXCHANGE_GAIN``; None:
    commit. Bonus kinds are kept (each copy held is worth a fan), and no more than the rules allow."""
    key, n = view.key, view.size
    for t in selected:
        key -= INC[t]
    m = len(selected)
    if m >= exchange_room(view):
        return None
    pool = [t for t in view.kinds for _ in range(unseen[t])]
    rng = random.Random(seed)
    draws = [rng.sample(pool, min(len(pool), n)) for _ in range(EXCHANGE_SAMPLES)]

    def mean_shanten(k: int, missing: int) -> float:
        total = 0
        for d in draws:
            kk = k
            for t in d[:missing]:
                kk += INC[t]
            total += _shanten(kk, n)
        return total / len(draws)

    now = mean_shanten(key, m)
    bonus = set(view.bonus_kinds)
    best: tuple[float, int] | None = None
    for t in view.kinds:
        if not _count(key, t) or t in bonus:
            continue
        gain = now - mean_shanten(key - INC[t], m + 1)
        if gain > EXCHANGE_GAIN and (best is None or gain > best[0]):
            best = (gain, t)
    return best[1] if best else None
