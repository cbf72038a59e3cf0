"""The expert bot (高手) choosing its actions: each kind of choice by the estimate of every outcome
(:class:`~erma.bots.expert.estimate.Estimator`).

A discard is weighed by its chance of dealing in (点炮) as well as the hand's value after it. Claims, kongs,
报听, the triplet offer, 搓牌 and the start exchange compare the estimate of each outcome; 买底 / 顶底 weigh
what each raise adds against what it costs at even chances; 温州 takes a win now when it is worth more than
the estimate of going on. The 海底 pick is blind (random).

With ``Settings.base`` (level5, the default) the bot plays greedy's choice without 报听 (``greedy-maidi``'s,
the level4 before 2026-12-01 evening, with both stakes) and the estimate overrides it only where that
measured better in the arena: the discards that leave the hand ready, one or two from ready
(``Settings.ahead``; 温州: one or two from ready), every discard after the opponent's 报听, 报听 itself,
the triplet offer and (outside 温州) claims.
"""

from __future__ import annotations

import random
from dataclasses import replace

from erma.analysis.tables import INC
from erma.bots.base import BotView
from erma.bots.claimed import claimed_hand
from erma.bots.expert.cached import copies, shanten
from erma.bots.expert.estimate import Estimator
from erma.bots.expert.exchange import exchange_pick
from erma.bots.expert.learned import FAR_WEIGHTS, far_features, far_value, value_honours
from erma.bots.expert.settings import RIICHI_MARGIN, Settings
from erma.bots.greedy import GreedyBot, _isolation, _minus
from erma.bots.priors import ready_chance
from erma.bots.stakes import Stakes, stake_choice
from erma.game.actions import PASS, WIN, Action, Kind
from erma.game.families import wenzhou_wins as wz
from erma.game.state import Phase
from erma.hand import Meld, MeldKind

KONG_KINDS = (Kind.CONCEALED_KONG, Kind.ADDED_KONG, Kind.EXTEND_KONG)


def discard_turns(view: BotView) -> int:
    """Own draws left after a discard now."""
    return max(0, view.draws_left // 2)


def offer_turns(view: BotView) -> int:
    """Own draws left for a hand about to be played on (the triplet offer)."""
    return max(1, (view.draws_left + 1) // 2)


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
            chosen = self._turn_based(view, est, legal)
            if self.settings.value_jump > 0:
                chosen = self._value_jump(view, est, legal, chosen)
            return self._tianting(view, legal, chosen)
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
        st = self.settings
        weights = st.far_weights or (FAR_WEIGHTS if st.learned else ())
        if (
            weights
            and best_s >= st.learned_from
            and not est.opp_riichi
            and not late
            and not est.wz
            and view.rules.min_fan >= st.far_min_fan
            and base in shantens
            and shantens[base] == best_s
        ):
            lowest = [a for a, x in shantens.items() if x == best_s]
            return self._learned(view, est, base, lowest, best_s, weights)
        if best_s > self.settings.ahead and not est.opp_riichi and not late:
            return self._far(view, est, base, [a for a, x in shantens.items() if x == best_s], best_s)
        if est.wz and best_s == 0 and not self.settings.wz_ready and not est.opp_riichi:
            return base  # 温州, ready: greedy's wait worth (multipliers, win-or-wait) ranks better
        fold = self._fold(est, best_s)
        lowest = [a for a, x in shantens.items() if x <= best_s + fold]
        if self.settings.keep is not None and best_s >= 1 and not est.opp_riichi and not late:
            lowest = self._efficient(view, est, lowest, best_s, self.settings.keep)
        scored = self._discard_values(view, est, lowest)
        return self._pick(view, scored)

    def _value_jump(self, view: BotView, est: Estimator, legal: list[Action], chosen: Action) -> Action:
        """Value over speed (:attr:`Settings.value_jump`): the discard at ``chosen``'s shanten with fewer
        unseen useful tiles and the most valuable imagined completions, when they beat ``chosen``'s by the
        jump; otherwise ``chosen``."""
        st = self.settings
        opp = 1 - view.seat
        if (
            chosen.kind is not Kind.DISCARD
            or chosen.riichi
            or est.wz
            or view.rules.min_fan < st.far_min_fan
            or view.riichi[view.seat]
            or est.opp_riichi
            or len(view.discards[opp]) >= 9
            or len(view.opponent_melds) >= 2
        ):
            return chosen
        n = view.size - 1
        after: dict[int, tuple[Action, int, int]] = {}
        for a in legal:
            if a.kind is not Kind.DISCARD or a.riichi:
                continue
            p = view.play(a.tile)
            if p not in after:
                k = view.key - INC[p]
                after[p] = (a, k, est.shanten(k, n, view.jokers))
        own = after.get(view.play(chosen.tile))
        if own is None or not 1 <= min(s for _, _, s in after.values()) <= 3:
            return chosen
        _, k0, s0 = own
        u0 = est.useful(k0, n, view.jokers, s0)
        far = Estimator(view, replace(st, samples=st.far_samples), self.seed)
        v0 = far.completions(k0, n, view.melds)
        best_v, best_u, best_a = v0 + st.value_jump, -1, chosen
        for a, k, s in after.values():
            if s != s0:
                continue
            u = est.useful(k, n, view.jokers, s)
            if u >= u0:
                continue
            v = far.completions(k, n, view.melds)
            if v > best_v or (v == best_v and best_a is not chosen and u > best_u):
                best_v, best_u, best_a = v, u, a
        return best_a

    def _tianting(self, view: BotView, legal: list[Action], chosen: Action) -> Action:
        """天听 (:attr:`Settings.tianting`): at the first discard, before any set on either side, greedy's
        declared discard when greedy would declare; otherwise ``chosen``."""
        st = self.settings
        if (
            not st.tianting
            or not st.riichi
            or chosen.kind is not Kind.DISCARD
            or chosen.riichi
            or view.caishen is not None
            or view.rules.min_fan < st.far_min_fan
            or view.discards[view.seat]
            or view.melds
            or view.opponent_melds
            or not any(a.riichi for a in legal)
        ):
            return chosen
        declared = GreedyBot(self.seed).choose(view, legal)  # its own generator, fresh: greedy's tie-break
        return declared if declared.riichi else chosen

    def _far(self, view: BotView, est: Estimator, base: Action, lowest: list[Action], s: int) -> Action:
        """A hand more than :attr:`Settings.ahead` from ready after the discard, where a win must reach a
        minimum of :attr:`Settings.far_min_fan` or more fans: greedy's discard, unless another efficient one
        (:attr:`Settings.keep`) is worth :attr:`Settings.far_margin` points more by the imagined completions'
        scores (:meth:`Estimator.completions`, through a separate estimator that uses them)."""
        st = self.settings
        if (
            s > st.far
            or est.wz
            or not st.far_samples
            or view.rules.min_fan < st.far_min_fan
            or base not in lowest
        ):
            return base
        keep = st.keep if st.far_keep is None else st.far_keep
        if keep is not None:
            lowest = self._efficient(view, est, lowest, s, keep)
        if len(lowest) < 2:
            return base
        far = Estimator(view, replace(st, samples=st.far_samples), self.seed)
        scored = self._discard_values(view, far, lowest)
        mine = next((v for v, a in scored if a == base), None)
        if mine is None:
            return base
        best_v, best_a = max(scored, key=lambda x: x[0])
        return best_a if best_v > mine + st.far_margin else base

    def _learned(
        self,
        view: BotView,
        est: Estimator,
        base: Action,
        lowest: list[Action],
        s: int,
        weights: tuple[float, ...],
    ) -> Action:
        """A far discard by the learned value (:mod:`erma.bots.expert.learned`): of the lowest-shanten
        discards whose unseen useful tiles are within :attr:`Settings.learned_keep` of the most, the one of
        highest predicted final points, when it beats greedy's by :attr:`Settings.learned_margin`."""
        st = self.settings
        valued = value_honours(view)
        n = view.size - 1
        counts: dict[Action, int] = {}
        for a in lowest:
            k, j = _minus(view, view.key, a.tile)
            counts[a] = est.useful(k, n, j, s)
        most = max(counts.values())
        mine = 0.0
        best_v = float("-inf")
        best_a = base
        for a in lowest:
            if counts[a] < most - st.learned_keep and a != base:
                continue
            k, _ = _minus(view, view.key, a.tile)
            c = list(view.counts)
            c[view.play(a.tile)] -= 1
            v = far_value(weights, far_features(view, c, k, n, s, counts[a], valued))
            if a == base:
                mine = v
            if v > best_v:
                best_v, best_a = v, a
        return best_a if best_v > mine + st.learned_margin else base

    def _efficient(
        self, view: BotView, est: Estimator, discards: list[Action], s: int, keep: int
    ) -> list[Action]:
        """The discards (all leaving the hand ``s`` from ready) whose unseen useful tiles are within ``keep``
        of the most (:attr:`Settings.keep`)."""
        counts: dict[Action, int] = {}
        for a in discards:
            k, j = _minus(view, view.key, a.tile)
            counts[a] = est.useful(k, view.size - 1, j, s)
        most = max(counts.values())
        return [a for a in discards if counts[a] >= most - keep]

    def _discard_values(
        self, view: BotView, est: Estimator, discards: list[Action]
    ) -> list[tuple[float, Action]]:
        """Each discard's estimate: (1 − deal-in) × the hand's value after it − deal-in × the cost."""
        turns = discard_turns(view)
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
        limit = best_s + 1 if best_s == 0 and self.settings.depth >= 2 else best_s + self._fold(est, best_s)
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

    def _fold(self, est: Estimator, best_s: int) -> int:
        """1 where a discard one step further from ready is weighed too (:attr:`Settings.declared_fold`: the
        opponent declared and read, the lookahead reaching that step), else 0."""
        st = self.settings
        if st.declared_fold and est.opp_riichi and est.reading is not None and best_s + 1 < st.depth:
            return 1
        return 0

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
        turns = discard_turns(view)
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
        margin = self.settings.claim_margin if view.rules.min_fan >= self.settings.far_min_fan else 0.0
        for a in legal:
            claimed = claimed_hand(view, a, p)
            if claimed is None:
                continue
            k, n, meld = claimed
            if a.kind is Kind.KONG:
                _, bk = est.race(k, n, view.jokers, (*view.melds, meld), after + 1)
                scored.append((bk[after + 1] - margin, a))
                continue
            melds = (*view.melds, meld)
            best = float("-inf")
            options = [d for d in est.kinds if copies(k, d) and not (est.wz and d == wz.JOKER)]
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
            scored.append((best - margin, a))
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
            if copies(key, d) and not (est.wz and d == wz.JOKER):
                a, _ = est.race(key - INC[d], n - 1, jokers, est.melds, turns)
                best = max(best, a[turns])
        return best

    def _triplet(self, view: BotView, est: Estimator, legal: list[Action]) -> Action:
        kind = view.offer
        if kind is None:
            return PASS
        turns = offer_turns(view)
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
        if est.wz or not 0 <= t < 34 or shanten(view.key + INC[t], view.size + 1, est.shapes) != -1:
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
