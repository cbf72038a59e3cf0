"""The expert's estimate of one candidate action (候选), as the review reads it.

Every figure comes from :class:`erma.bots.expert.Estimator` — its race over the draws left, the scored
waits, the one-draw expectimax and the danger model — on the seat's view at that decision, through the
same formulas the expert decides by (:class:`~erma.bots.expert.ExpertBot`'s discard, kong and hand values;
its claim, triplet and 搓牌 formulas written out here per candidate). :class:`ReviewEstimator` adds the
two things the review needs: the tiles left to draw of one sample of the hidden tiles (the opponent's
concealed hand drawn from the unseen tiles), and the same race with every win worth 1 and a loss 0, whose
values are chances of winning.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Sequence

from erma.analysis.tables import INC
from erma.bots.base import BotView
from erma.bots.claimed import claimed_hand, claimed_key
from erma.bots.expert import RON_SHARE, Estimator, ExpertBot, Settings
from erma.bots.expert.policy import discard_turns, offer_turns
from erma.bots.greedy import exchange_step, wz_shanten
from erma.bots.stakes import DEALER_WINS, DINGDI_LIKELY, OTHER_WINS
from erma.game.actions import Action, Kind
from erma.game.state import Phase
from erma.hand import Meld


@functools.lru_cache(maxsize=1 << 18)
def _wz_shanten(key: int, n: int, jokers: int, concealed: bool, four_as_two: bool) -> int:
    """温州 shanten (:func:`erma.bots.greedy.wz_shanten`), cached: a pure function of the shape."""
    return wz_shanten(key, n, jokers, concealed, four_as_two)


FULL = Settings(base=False, depth=2, locked_ron=RON_SHARE, widen=False)
"""The estimate with everything it weighs (scored waits, the one-draw lookahead, dealing in), as the review
was validated and calibrated with (docs/review.md): one draw ahead and the ron share of before, not level5's
two-draw lookahead (2026-12-02), which would cost the review several times its time."""


LEVEL5 = Settings(base=False)
"""level5's estimate (two draws ahead, the draws that widen, the whole chance on a declared opponent's
discards): what the review values the candidates by, so that a mistake loses value by the estimate the bot
decides by (the ``win`` chances keep :data:`FULL`, as they were calibrated)."""


class ReviewEstimator(Estimator):
    """The expert's estimator, optionally with the unseen counts of one sample (the tiles left to draw
    once the sampled opponent hand is taken out), the view's danger (the opponent's waits are read from
    the view, as the expert reads them), and ``chance``: every win worth 1 and a loss 0."""

    def __init__(
        self,
        view: BotView,
        *,
        unseen: Sequence[int] | None = None,
        danger: list[float] | None = None,
        chance: bool = False,
        seed: int | str = 0,
        waits: dict[tuple[object, ...], tuple[float, float, float, float]] | None = None,
        depth: int = FULL.depth,
        settings: Settings = FULL,
    ) -> None:
        settings = dataclasses.replace(settings, depth=depth)
        if chance:  # a win counts 1 however far the hand is from ready
            settings = dataclasses.replace(settings, typical_value=1.0)
        if chance and view.caishen is not None:
            settings = dataclasses.replace(settings, value=False)
        super().__init__(view, settings, seed)
        self.chance = chance
        if unseen is not None:
            self.unseen = list(unseen)
            self.total = max(1, sum(self.unseen[t] for t in self.kinds))
        self._given_danger = danger
        self.waits = waits if self.wz else None
        """温州: ready waits shared by the estimators of one decision (they read the view, not a sample)."""
        self.cuo: list[float] | None = None
        """搓牌: the value after each kind (:func:`cuo_table`), shared by the samples of a decision."""
        if chance:
            self.mean = self.mean_open = 1.0
            self.cost = 0.0

    def shanten(self, key: int, n: int, jokers: int, melded: bool = False) -> int:
        """Shanten as the family reads it (温州's cached here: the expert's reads the shapes afresh)."""
        if not self.wz:
            return super().shanten(key, n, jokers, melded)
        return _wz_shanten(key, n, jokers, not self.view.melds and not melded, self.view.four_as_two)

    def wait(
        self, key: int, n: int, jokers: int, melds: tuple[Meld, ...], riichi: bool, one_shot: bool = False
    ) -> tuple[float, ...]:
        """The expert's ready wait (温州: shared between the samples of a decision)."""
        if self.waits is None:
            return super().wait(key, n, jokers, melds, riichi, one_shot)
        memo = (key, n, jokers, riichi, melds, one_shot)
        got = self.waits.get(memo)
        if got is None:
            w = super().wait(key, n, jokers, melds, riichi, one_shot)
            got = self.waits[memo] = (w[0], w[1], w[2], w[3])
        return got

    def danger(self) -> list[float]:
        """The chance each kind deals in now (the view's, when given)."""
        if self._given_danger is not None:
            return self._given_danger
        return super().danger()

    def points(
        self,
        key: int,
        melds: tuple[Meld, ...],
        tile: int,
        self_drawn: bool,
        riichi: bool,
        one_shot: bool = False,
    ) -> int | None:
        """The points of an imagined win (1 for any win when ``chance``)."""
        got = super().points(key, melds, tile, self_drawn, riichi, one_shot)
        if got is None or not self.chance:
            return got
        return 1


EXPERT = ExpertBot(0, settings=FULL)
"""The expert's decision formulas (it holds no state between calls but its tie-break generator)."""
EXPERT5 = ExpertBot(0, settings=LEVEL5)
"""The same with level5's estimate (:data:`LEVEL5`)."""


def _expert(est: Estimator) -> ExpertBot:
    """The decision formulas of the estimator's settings (level5's draws that widen, or not)."""
    return EXPERT5 if est.s.widen else EXPERT


def hand_value(est: ReviewEstimator, key: int, n: int, jokers: int, turns: int) -> float:
    """A hand of any size about to be played on (the expert's ``_hand_value``, with the discards its turn
    weighs: those that keep the lowest shanten, and one step worse when that is ready): 3k+1 — about to
    draw; 3k+2 — the best such discard."""
    if n % 3 == 1:
        _, b = est.race(key, n, jokers, est.melds, turns)
        return b[turns]
    shantens = {d: est.shanten(key - INC[d], n - 1, jokers) for d in est.kinds if (key >> (4 * d)) & 15}
    if not shantens:
        return float("-inf")
    low = min(shantens.values())
    limit = low + 1 if low == 0 else low
    best = float("-inf")
    for d, s in shantens.items():
        if s <= limit:
            a, _ = est.race(key - INC[d], n - 1, jokers, est.melds, turns)
            best = max(best, a[turns])
    return best


def _win_now(view: BotView, est: ReviewEstimator) -> float:
    """A win taken now: its points (温州: its multiplier, in bases); 1 as a chance."""
    if est.chance:
        return 1.0
    if view.caishen is not None:
        return float(view.win_multiplier) if view.win_multiplier else est.mean
    if view.phase is Phase.TURN and view.drawn is not None:
        tile, key, drawn = view.drawn, view.key - INC[view.drawn], True
    elif view.phase is Phase.CLAIM and view.last_discard is not None:
        tile, key, drawn = view.last_discard, view.key, False
    else:
        return est.mean  # robbing a kong: the tile is not in the view's fields
    got = est.points(key, view.melds, tile, drawn, view.riichi[view.seat])
    return float(got) if got is not None else est.mean


def _best_discard(
    est: ReviewEstimator, key: int, n: int, jokers: int, melds: tuple[Meld, ...], turns: int
) -> tuple[float, int | None]:
    """A 3k+2 hand after a claim: the best discard's value, weighed by its chance of dealing in (among the
    discards the expert's turn weighs: the lowest shanten, and one step worse when that is ready)."""
    danger = est.danger()
    view = est.view
    shantens = {d: est.shanten(key - INC[d], n - 1, jokers, True) for d in est.kinds if (key >> (4 * d)) & 15}
    if not shantens:
        return float("-inf"), None
    low = min(shantens.values())
    limit = low + 1 if low == 0 else low
    best: tuple[float, int | None] = (float("-inf"), None)
    for d, s in shantens.items():
        if s > limit:
            continue
        phys = 31 if view.caishen is not None and d == view.caishen else d  # 白板 plays as the 财神's kind
        arr, _ = est.race(key - INC[d], n - 1, jokers, melds, turns)
        v = (1 - danger[phys]) * arr[turns] - danger[phys] * est.cost
        if v > best[0]:
            best = (v, phys)
    return best


def _claim(view: BotView, est: ReviewEstimator, a: Action) -> tuple[float, int | None]:
    """A claim (the expert's ``_claim`` formula for one candidate): the hand with the new set, about to
    discard (pung, chow) or to draw the replacement (exposed kong)."""
    t = view.last_discard
    if t is None:
        return float("-inf"), None
    p = view.play(t)
    after = view.draws_left // 2
    claimed = claimed_hand(view, a, p)
    if claimed is None:
        return float("-inf"), None
    k, n, meld = claimed
    if a.kind is Kind.KONG:
        _, b = est.race(k, n, view.jokers, (*view.melds, meld), after + 1)
        return b[after + 1], None
    return _best_discard(est, k, n, view.jokers, (*view.melds, meld), after)


def _about_to_draw(view: BotView, est: ReviewEstimator) -> float:
    """Passing: the hand as it is, about to draw."""
    turns = (view.draws_left + 1) // 2
    if view.size % 3 != 1:
        return hand_value(est, view.key, view.size, view.jokers, offer_turns(view))
    _, b = est.race(view.key, view.size, view.jokers, view.melds, turns)
    return b[turns]


def _after_cuo(view: BotView, est: ReviewEstimator, t: int) -> float:
    """搓牌: the hand with a tile of kind ``t``, about to discard — or, when the tile completes it, the
    self-drawn win it is (:meth:`~erma.bots.expert.ExpertBot.cuo_win`)."""
    table = est.cuo
    if table is not None:
        return table[t]
    won = _expert(est).cuo_win(view, est, t)
    if won is not None:
        return won
    p = view.play(t)
    k, j = (view.key, view.jokers + 1) if p < 0 else (view.key + INC[p], view.jokers)
    return hand_value(est, k, view.size + 1, j, max(1, view.draws_left // 2))


def cuo_table(view: BotView, est: ReviewEstimator) -> list[float]:
    """搓牌: the value of the hand after each kind (the estimator's, or the one it was given: samples then
    differ only in the chances of the wall's next tile, which keeps a 搓牌 review affordable)."""
    if est.cuo is None:
        est.cuo = [_after_cuo(view, est, t) if t in view.kinds else 0.0 for t in range(34)]
    return est.cuo


def _stake(view: BotView, est: ReviewEstimator, a: Action) -> float:
    """买底 / 顶底: the shares of a win a raise adds at even chances (``erma.bots.stakes``), in bases (as
    a chance: the seat's even chance of winning)."""
    dealer = view.seat == view.dealer
    if est.chance:
        return DEALER_WINS if dealer else OTHER_WINS
    if a.kind is Kind.MAIDI:
        return (DEALER_WINS - DINGDI_LIKELY * OTHER_WINS) * est.mean
    if a.kind is Kind.DINGDI:
        stakes = view.extras.get("stakes") or {}
        b = int(stakes.get("maidi", 0) or 0)
        return (OTHER_WINS * (1 + b) - DEALER_WINS) * est.mean
    return 0.0


def exchange_plan(view: BotView, given: Sequence[int]) -> tuple[int, ...]:
    """The tiles the expert (level5, whose start exchange is greedy's: :func:`erma.bots.greedy.exchange_step`)
    would go on to give back after ``given``."""
    chosen = list(given)
    plan: list[int] = []
    while (t := exchange_step(view, chosen)) is not None:
        chosen.append(t)
        plan.append(t)
    return tuple(plan)


def exchanged_value(
    view: BotView, est: ReviewEstimator, given: Sequence[int], refill: Sequence[int]
) -> float:
    """The hand after giving back ``given`` and drawing as many of ``refill`` (the sample's tiles left to
    draw), about to be played on."""
    key, jokers = view.key, view.jokers
    for t in given:
        p = view.play(t)
        if p < 0:
            jokers -= 1
        else:
            key -= INC[p]
    for t in refill[: len(given)]:
        p = view.play(t)
        if p < 0:
            jokers += 1
        else:
            key += INC[p]
    return hand_value(est, key, view.size, jokers, offer_turns(view))


def exchange_given(view: BotView, a: Action, extra: Sequence[int] = ()) -> list[int]:
    """The tiles a start-exchange step gives back in the end: committing (交换) — the marked ones; a selection
    — those, this one, the rest of level5's exchange (:func:`exchange_plan`) and the ``extra`` tiles the
    estimate adds to it (:func:`exchange_extra`). A selection is worth the whole exchange it leads to, so
    committing early is charged what the rest would bring, once, and following the plan is not charged."""
    given = [*view.selected]
    if a.kind is not Kind.SELECT:
        return given
    given.append(a.tile)
    given.extend(exchange_plan(view, given))
    for t in extra:
        if given.count(t) < view.hand[t]:
            given.append(t)
    return given


def exchange_extra(
    view: BotView,
    ests: Sequence[ReviewEstimator],
    refills: Sequence[Sequence[int]],
    limit: int,
    min_gain: float = 0.0,
) -> tuple[int, ...]:
    """The tiles the estimate would give back beyond level5's exchange (forward selection on the given
    samples: the tile that raises the mean value most, while one raises it by more than ``min_gain``), at
    most ``limit``."""
    given = [*view.selected]
    given.extend(exchange_plan(view, given))

    def mean(g: Sequence[int]) -> float:
        return sum(exchanged_value(view, e, g, r) for e, r in zip(ests, refills, strict=True)) / len(ests)

    extra: list[int] = []
    now = mean(given)
    while len(extra) < limit and len(given) < view.size:
        best: tuple[float, int] | None = None
        for t in view.kinds:
            if given.count(t) >= view.hand[t] or t in view.bonus_kinds:
                continue
            v = mean([*given, t])
            if best is None or v > best[0]:
                best = (v, t)
        if best is None or best[0] <= now + min_gain:
            break
        now = best[0]
        given.append(best[1])
        extra.append(best[1])
    return tuple(extra)


def value(
    view: BotView, est: ReviewEstimator, a: Action, refill: Sequence[int] = (), extra: Sequence[int] = ()
) -> tuple[float, int | None]:
    """(the estimate of the hand from here after ``a``, the tile it discards now if any). With a chance
    estimator the first figure is the chance of winning. ``refill`` and ``extra``: the start exchange's
    sample of tiles to draw and the tiles the estimate adds to level5's exchange (:func:`exchange_given`)."""
    ph = view.phase
    k = a.kind
    if k is Kind.WIN:
        return _win_now(view, est), None
    if k is Kind.DISCARD:
        if est.chance:
            p = view.play(a.tile)
            if p < 0:
                return 0.0, a.tile
            turns = discard_turns(view)
            arr, _ = est.race(view.key - INC[p], view.size - 1, view.jokers, view.melds, turns, a.riichi)
            d = est.danger()[a.tile]
            return (1 - d) * arr[turns], a.tile
        return _expert(est)._discard_values(view, est, [a])[0][0], a.tile
    if k in (Kind.CONCEALED_KONG, Kind.ADDED_KONG, Kind.EXTEND_KONG):
        return _expert(est)._kong_value(view, est, a, discard_turns(view)), None
    if k in (Kind.PUNG, Kind.CHOW, Kind.KONG):
        return _claim(view, est, a)
    if k in (Kind.MAIDI, Kind.DINGDI) or ph in (Phase.MAIDI, Phase.DINGDI):
        return _stake(view, est, a), None
    if k in (Kind.SELECT, Kind.EXCHANGE):
        return exchanged_value(view, est, exchange_given(view, a, extra), refill), None
    if k is Kind.ACCEPT and view.offer is not None:
        key = view.key + INC[view.play(view.offer)] * 3 - sum(INC[view.play(t)] for t in a.tiles)
        return hand_value(est, key, view.size, view.jokers, offer_turns(view)), None
    if k is Kind.CUO:
        return _after_cuo(view, est, a.tile), None
    if k is Kind.PICK:
        if view.size % 3 != 1:
            return 0.0, None
        _, b = est.race(view.key, view.size, view.jokers, view.melds, 1)
        return b[1], None  # blind: every pick is worth the same
    if ph is Phase.CUO:  # pass: the wall's next tile, on average over the tiles left to draw
        after = cuo_table(view, est)
        kinds = [t for t in view.kinds if est.unseen[t]]
        total = sum(est.unseen[t] for t in kinds) or 1
        return sum(est.unseen[t] * after[t] for t in kinds) / total, None
    return _about_to_draw(view, est), None


def useful(view: BotView, est: ReviewEstimator, key: int, n: int, jokers: int) -> int:
    """Unseen useful tiles of a hand: 3k+1 — the unseen copies of the kinds that bring it closer to ready
    (or complete it); 3k+2 — the most after a discard that keeps the lowest shanten."""
    if n % 3 == 1:
        s = max(0, est.shanten(key, n, jokers))
        return est.useful(key, n, jokers, s)
    if n % 3 != 2:
        return 0
    outs = []
    for d in est.kinds:
        if (key >> (4 * d)) & 15:
            outs.append(
                (est.shanten(key - INC[d], n - 1, jokers), -useful(view, est, key - INC[d], n - 1, jokers))
            )
    return -min(outs)[1] if outs else 0


def useful_after(view: BotView, est: ReviewEstimator, a: Action) -> int:
    """Unseen useful tiles of the hand the action leaves (the hand as it stands for a win, a pass, a
    stake, a pick or an exchange step)."""
    key, n, j = view.key, view.size, view.jokers
    k = a.kind
    if k is Kind.DISCARD:
        p = view.play(a.tile)
        key, n, j = (key, n - 1, j - 1) if p < 0 else (key - INC[p], n - 1, j)
    elif k in (Kind.PUNG, Kind.CHOW, Kind.KONG) and view.last_discard is not None:
        claimed = claimed_key(view, a, view.play(view.last_discard))
        assert claimed is not None
        key, n = claimed
    elif k is Kind.CONCEALED_KONG:
        p = view.play(a.tile)
        held = view.counts[p] if p >= 0 else 0
        key, n = key - INC[p] * held, n - held
    elif k in (Kind.ADDED_KONG, Kind.EXTEND_KONG):
        key, n = key - INC[view.play(a.tile)], n - 1
    elif k is Kind.ACCEPT and view.offer is not None:
        key = key + INC[view.play(view.offer)] * 3 - sum(INC[view.play(t)] for t in a.tiles)
    elif k is Kind.CUO:
        p = view.play(a.tile)
        key, n, j = (key, n + 1, j + 1) if p < 0 else (key + INC[p], n + 1, j)
    if n < 1 or j < 0:
        return 0
    return useful(view, est, key, n, j)
