"""The estimate (估值) of a hand's value to come, from one seat view: a race between two seats over the draws
that are left.

Each of our draws moves the hand one step closer (a shanten level) with the chance the unseen copies give, a
ready hand wins on a draw or on the opponent's discard, and every opponent turn ends the hand against us with
a hazard that grows with the chance the opponent is ready (:mod:`erma.bots.expert.opponent`). A win is worth
its points — each winning tile of a ready hand scored with the room's own fan table (standard family:
:func:`erma.scoring.score` on the imagined completion, with the minimum and the cap; 温州: the multiplier
软 ×1 / 硬 ×2 / 双翻 ×4 of :func:`erma.bots.greedy.wz_wait`) — and the opponent's win costs its mean. Hands
near ready look one or two draws ahead (exact expectimax down to scored waits, :attr:`Settings.depth`), a
hand one from ready also counts the draws that widen it (改良); further from ready, rates
(:data:`~erma.bots.expert.settings.TYPICAL_SLOPE`, :data:`~erma.bots.expert.settings.TYPICAL_VALUE`).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

from erma.analysis.tables import INC
from erma.bots.base import BotView
from erma.bots.expert.cached import copies, discards, improvers, shanten, tiles_of, winners
from erma.bots.expert.declared import COEFFICIENTS, Reading, read, wait_chances
from erma.bots.expert.opponent import RON_SHARE, deal_in, turn_hazards
from erma.bots.expert.settings import RIICHI_MARGIN, WZ_DEPTH, Settings
from erma.bots.greedy import OPPONENT_WIN_COST, _sh, wz_wait
from erma.bots.priors import mean_win_points
from erma.game.families import wenzhou_wins as wz
from erma.game.win import points_of_counts
from erma.hand import Meld
from erma.scoring import WinContext
from erma.scoring.pipeline import plan_for, score_counts_declared

try:
    from mypy_extensions import mypyc_attr  # read by the compiler; a no-op at run time
except ImportError:  # pure Python without mypy installed
    from erma.game.compile_options import mypyc_attr


_POINTS: dict[tuple[object, ...], int | None] = {}
"""Scored imagined wins, by everything the score reads (shared by every decision of the process)."""
_MISSING = object()
ONE_SHOT_ID = "ready_one_shot"
"""报听一发: a declared hand's win on its next own draw or on the opponent's next two discards, nothing
claimed between (:meth:`Estimator.declared_race`)."""
_CONTEXT_IDS = itertools.count()
_CONTEXTS: dict[tuple[object, ...], int] = {}
"""What an imagined win's score reads of the rules and the seat (the fan table, minimum and cap, winds,
flowers, bonus kinds, dealer), by a small id that keys :data:`_POINTS`."""


@mypyc_attr(allow_interpreted_subclasses=True)  # the coach's ReviewEstimator (not compiled) extends it
class Estimator:
    """The value to come of hands from one seat view (memoised for the decision)."""

    def __init__(self, view: BotView, settings: Settings, seed: int | str = 0) -> None:
        self.view = view
        self.reading: Reading | None = (
            read(view) if settings.declared_model and view.rules.name in COEFFICIENTS else None
        )
        """The declared opponent as :func:`~erma.bots.expert.declared.read` reads it (with
        :attr:`Settings.declared_model`, where the rule set has coefficients), or None."""
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
        base_cost = OPPONENT_WIN_COST if self.wz else (self.mean + self.mean_open) / 2
        self.cost = settings.cost_scale * base_cost
        me, opp = view.seat, 1 - view.seat
        self.opp_riichi = view.riichi[opp]
        opp_discards = len(view.discards[opp])
        self.draws = view.draws_left
        horizon = self.draws // 2 + 2
        hz = turn_hazards(rules, self.opp_riichi, opp_discards, self.total, len(self.kinds), horizon)
        if settings.hazard_scale != 1.0:
            hz = [min(0.95, settings.hazard_scale * h) for h in hz]
        self.hazard = hz
        """An opponent turn's hazard, by turns from now (:func:`~erma.bots.expert.opponent.turn_hazards`)."""
        self.melds = view.melds
        self.me = me
        self.shapes = view.shapes
        """The shapes the rule set can win (:attr:`SeatView.shapes`): every shanten here counts only them."""
        self._ready: dict[
            tuple[int, int, int, bool, tuple[Meld, ...], bool], tuple[float, float, float, float]
        ] = {}
        self._danger: list[float] | None = None
        self._completions: dict[tuple[object, ...], float] = {}
        self.seeds = [f"{seed}:{view.version}:{i}" for i in range(settings.samples)]
        self._races: dict[tuple[float | int, ...], tuple[list[float], list[float]]] = {}
        self._hands: dict[tuple[object, ...], tuple[list[float], list[float]]] = {}
        self._later: dict[tuple[object, ...], list[float]] = {}
        self._declared: dict[tuple[object, ...], list[float]] = {}
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
        return shanten(key, n, self.shapes)

    def useful(self, key: int, n: int, jokers: int, s: int) -> int:
        """Unseen useful tiles (有效牌) of a 3k+1 hand ``s`` from ready: the copies of :meth:`improving`."""
        return sum(u for u, _, _ in self.improving(key, n, jokers, s))

    def improving(self, key: int, n: int, jokers: int, s: int) -> list[tuple[int, int, int]]:
        """(unseen copies, key, jokers) after each unseen kind that lowers the shanten of a 3k+1 hand."""
        if not self.wz:
            return [
                (self.unseen[t], key + INC[t], jokers)
                for t in improvers(key, n, self.kinds, self.shapes)
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
        self,
        key: int,
        melds: tuple[Meld, ...],
        tile: int,
        self_drawn: bool,
        riichi: bool,
        one_shot: bool = False,
    ) -> int | None:
        """Standard family: what winning on ``tile`` with the concealed ``key`` would bring (None: no win);
        ``one_shot``: declared, within 报听一发's window (its fans added where the table has them)."""
        v = self.view
        fourth = v.visible[tile] + 1 >= v.rules.copies
        memo = (self.context_id, key, melds, tile, self_drawn, fourth, 2 if one_shot else int(riichi))
        got = _POINTS.get(memo, _MISSING)
        if got is not _MISSING:
            return got  # type: ignore[return-value]
        rules = v.rules
        concealed = tiles_of(key)
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
        results = score_counts_declared(ctx, rules.fan_table)
        for declared, result in enumerate(results):
            worth = points_of_counts(rules, *result) if result is not None else None
            _POINTS[(*memo[:-1], declared)] = worth[1] if worth is not None else None
        row = plan_for(rules.fan_table).rows.get(ONE_SHOT_ID)
        shot = row.value if row is not None else None
        shot_worth = _POINTS[(*memo[:-1], 1)]
        if shot is not None:
            shot_worth = None
            if results[1] is not None:
                fans, total = results[1]
                worth = points_of_counts(rules, (*fans, (ONE_SHOT_ID, shot, 1)), total + shot)
                shot_worth = worth[1] if worth is not None else None
        _POINTS[(*memo[:-1], 2)] = shot_worth
        return _POINTS[memo]

    def wait(
        self, key: int, n: int, jokers: int, melds: tuple[Meld, ...], riichi: bool, one_shot: bool = False
    ) -> tuple[float, ...]:
        """(p_self, m_self, p_ron, m_ron) of a ready 3k+1 hand: chances per draw / per opponent discard and
        the mean worth of such wins (``one_shot``: declared, won within 报听一发's window)."""
        memo = (key, n, jokers, riichi, melds, one_shot)
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
            for t in winners(key, n, self.kinds, self.shapes):
                u = self.unseen[t]
                if not u:
                    continue
                if not self.s.value:
                    ws += u
                    wr += u
                    vs += u * self.mean
                    vr += u * self.mean
                    continue
                ps = self.points(key, melds, t, True, riichi, one_shot)
                pr = self.points(key, melds, t, False, riichi, one_shot)
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
            decl = self.declared_race(key, n, jokers, melds, turns)
            m = self.margin
            got = self._later[memo] = [max(x, y - m * abs(y)) for x, y in zip(plain, decl, strict=True)]
        return got

    def declared_race(
        self, key: int, n: int, jokers: int, melds: tuple[Meld, ...], turns: int
    ) -> list[float]:
        """A of a ready 3k+1 hand declaring 报听 with t own draws left, for each t: :meth:`ready_race`'s, with
        报听一发's window from t (the opponent's next two discards and our next draw) scored with its fans
        (:attr:`Settings.one_shot`; only where the fan table has them)."""
        a, b = self.ready_race(self.wait(key, n, jokers, melds, True), turns)
        if not self.s.one_shot or self.wz:
            return a
        memo = (key, n, jokers, melds, turns)
        got = self._declared.get(memo)
        if got is not None:
            return got
        ps, ms, pr, mr = self.wait(key, n, jokers, melds, True, True)
        loss, keep = self.hazards(turns)
        win_r, miss_r = pr * mr, 1 - pr
        got = [0.0] * (turns + 1)
        for t in range(1, turns + 1):
            a_next = loss[t - 1] + keep[t - 1] * (win_r + miss_r * b[t - 1]) if t > 1 else 0.0
            bt = ps * ms + (1 - ps) * a_next
            got[t] = loss[t] + keep[t] * (win_r + miss_r * bt)
        self._declared[memo] = got
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
        widen = (
            widen and not self.wz and shanten(key, n, self.shapes) == 1
        )  # settled first: one memo entry otherwise
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
            return sum(un[t] for t in improvers(k, n, self.kinds, self.shapes))

        improving = set(improvers(key, n, self.kinds, self.shapes))
        now = useful(key)
        out = []
        for t in self.kinds:
            if not un[t] or t in improving:
                continue
            k = key + INC[t]
            best: tuple[int, int] | None = None
            for d, v in discards(k, n + 1, self.shapes):
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
            a, b = self.ready_race(self.wait(key, n, jokers, melds, riichi), turns)
            return (self.declared_race(key, n, jokers, melds, turns), b) if riichi else (a, b)
        ups = self.improving(key, n, jokers, s)
        q = sum(u for u, _, _ in ups) / self.total
        if s < self.depth:  # look a draw ahead: each improving draw, the best discard, that hand's race
            mix = [0.0] * (turns + 1)
            for u, k, j in ups:
                best: list[float] | None = None
                if self.wz:
                    keep = [d for d in self.kinds if copies(k, d) and self.shanten(k - INC[d], n, j) == s - 1]
                else:
                    keep = [d for d, v in discards(k, n + 1, self.shapes) if v == s - 1]
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
        if self.s.samples and not self.wz and self.view.rules.min_fan >= self.s.far_min_fan:
            m = self.s.completion_share * self.completions(key, n, melds)
        else:
            m = self.s.typical_value * (self.mean if all(x.is_concealed for x in melds) else self.mean_open)
        a_lvl, b_lvl = self.ready_race((p0, m, self.ron * p0, m), turns)
        for level in range(1, s + 1):
            rate = q if level == s else min(0.6, (1 + self.s.typical_slope * level) * p0)
            a_lvl, b_lvl = self.chain(a_lvl, rate, turns)
        return a_lvl, b_lvl

    def completions(self, key: int, n: int, melds: tuple[Meld, ...]) -> float:
        """Standard family, a hand two or more from ready: the mean points of ``samples`` imagined
        completions (想象的和牌) — draws among the unseen tiles that bring the hand closer (as likely as their
        copies), each followed by a discard that keeps it that close (the first in the sample's own random
        order), until the hand is ready; then every winning tile, as likely as its unseen copies, scored with
        the fan table, half as a self-draw and half on a discard (0 where the win misses the minimum). The
        draws of each sample come from the same seeds for every candidate of one decision (common random
        numbers); the shape functions are the cached ones."""
        memo = (key, n, melds)
        got = self._completions.get(memo)
        if got is not None:
            return got
        un, kinds, allowed = self.unseen, self.kinds, self.shapes
        total = 0.0
        for seed in self.seeds:
            rng = random.Random(seed)
            k = key
            s = shanten(k, n, allowed)
            while s > 0:
                ups = [t for t in improvers(k, n, kinds, allowed) if un[t]]
                if not ups:
                    break
                k += INC[rng.choices(ups, [un[t] for t in ups])[0]]
                order = [d for d in kinds if copies(k, d)]
                rng.shuffle(order)
                kept = next((d for d in order if shanten(k - INC[d], n, allowed) < s), None)
                if kept is None:
                    break  # (never: a drawn tile that brings the hand closer leaves such a discard)
                k -= INC[kept]
                s -= 1
            if s > 0:
                continue
            weight = value = 0.0
            for t in winners(k, n, kinds, allowed):
                u = un[t]
                if not u:
                    continue
                weight += u
                for drawn in (True, False):
                    pts = self.points(k, melds, t, drawn, False)
                    if pts is not None:
                        value += 0.5 * u * pts
            if weight:
                total += value / weight
        got = total / max(1, len(self.seeds))
        self._completions[memo] = got
        return got

    # ------------------------------------------------------------------------------ dealing in

    def danger(self) -> list[float]:
        """The chance each kind deals in now (the opponent is ready and waits on it,
        :func:`~erma.bots.expert.opponent.deal_in`; a declared opponent read by the fitted model,
        :func:`~erma.bots.expert.declared.wait_chances`, where :attr:`reading` is set and the rule set has
        coefficients)."""
        if self._danger is None:
            coefficients = COEFFICIENTS.get(self.view.rules.name)
            if self.reading is not None and self.opp_riichi and coefficients is not None:
                self._danger = wait_chances(self.view, self.reading, self.unseen, self.kinds, coefficients)
            else:
                self._danger = deal_in(self.view, self.unseen, self.kinds, self.opp_riichi, self.wz)
        return self._danger
