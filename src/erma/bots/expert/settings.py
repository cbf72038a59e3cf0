"""The expert's settings (高手的设定): what a level considers and how far it looks, and the constants they
default to."""

from __future__ import annotations

from dataclasses import dataclass

from erma.game.state import Phase

RIICHI_MARGIN = {"cuopai13": 1.0}
"""The 报听 margin (``Settings.riichi_margin``) by fan table where the lock costs more than the default:
cuopai789's small table (measured on seed t5: level5 vs the level4 of then, ``greedy-maidi``, +0.33 with
1.0, +0.23 with 0.25)."""
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
    """Imagined completions scored per hand valued by rates (:attr:`depth` or more from ready) where a win
    needs :attr:`far_min_fan` fans or more (:meth:`~erma.bots.expert.estimate.Estimator.completions`; 0: such
    a win is worth a typical share of the mean win)."""
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
    keep: int | None = 3
    """With ``base``: of the lowest-shanten discards that leave the hand one or more from ready, the estimate
    picks only among those whose unseen useful tiles are within this many of the most (None: among all of
    them); where one discard beats the others by more, level5 plays it, as tile efficiency (牌效) says. Off
    once the opponent is likely ready (:attr:`guard`) or has declared 报听. Since 2026-12-06: level5 plays the
    textbook discard in 195 of 195 clear-cut early discards (tests/bots/test_textbook.py), 84.6 % before
    (docs/lab/2026-12-06-level5-shapes-coach.md)."""
    wz_claims: bool = False
    """With ``base`` and :attr:`own` holding claims, 温州: the estimate decides claims too (off: greedy's,
    whose claims measured better there, docs/bots.md)."""
    wz_ready: bool = False
    """With ``base``, 温州: the estimate also ranks the discards that leave the hand ready."""
    guard: float = 2.0
    """With ``base``: once the opponent is ready with this chance (:func:`~erma.bots.priors.ready_chance`;
    above 1: never before its 报听), the estimate (with dealing in) ranks every lowest-shanten discard."""
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
    wait on, in place of :data:`~erma.bots.expert.opponent.RON_SHARE`: a locked hand discards what it draws,
    it keeps nothing."""
    widen: bool = True
    """A discard that leaves the hand one from ready is valued with the draws that widen it without bringing
    it closer (改良, :meth:`~erma.bots.expert.estimate.Estimator.widenings`), not only those that make it
    ready (since 2026-12-02: classic64, against the level5 without it, +1.51 and +0.48 a hand on the tuning
    seeds ``u15`` / ``u16``, 3,000 walls each)."""
    far_samples: int = 24
    """Where a win must reach a minimum of :attr:`far_min_fan` fans or more (classic64, wushuang128: 8): a
    hand :attr:`depth` or more from ready is worth the mean points of this many imagined completions scored by
    the fan table (:meth:`~erma.bots.expert.estimate.Estimator.completions`, 0 where the completed hand misses
    the minimum), not a typical share of the mean win (0: the typical share). Since 2026-12-06 (issue 39)."""
    completion_share: float = 1.0
    """With :attr:`samples`: the share of the imagined completions' mean points a hand's win is worth (the
    completions finish every hand; :data:`TYPICAL_VALUE` is the share of the mean win the exact lookahead
    gives such hands)."""
    far_min_fan: int = 8
    """The rule set's minimum fan from which :attr:`far_samples` applies (a hand's value spans 8 to 88+ fans
    there; cuopai789's minimum is 1, 温州 has none)."""
    far: int = 0
    """With ``base``: where :attr:`far_samples` applies, the estimate also picks among the efficient discards
    (:attr:`keep`) of hands up to this many from ready (0: greedy's discard there); it overrides greedy's
    discard only when it is worth :attr:`far_margin` points more."""
    far_keep: int | None = None
    """With :attr:`far`: the :attr:`keep` of far decisions (None: :attr:`keep`)."""
    far_margin: float = 0.0
    """With :attr:`far`: the points a far discard must gain over greedy's to replace it."""
    tianting: bool = True
    """With ``base``, where a win needs :attr:`far_min_fan` fans or more: at the first discard, before any
    set on either side, declare 报听 as greedy does (ready with two or more unseen winning tiles): 天听, 32
    fans in the ``erqs`` table, which the estimate's scored waits do not count (they count 报听's own 4).
    Since 2026-12-06 (issue 39): classic64, 4 of 1,000 walls of ``t39c1`` changed, +0.14 a hand."""
    declare_ahead: bool = True
    """Where 报听 is allowed: a hand that gets ready later (one draw ahead, or by a claim) may declare then,
    so its ready hands are worth the better of playing on and declaring (less the 报听 margin), not only the
    first (which undervalued open hands: their waits often reach the minimum fan only with 报听's fans)."""
    one_shot: bool = True
    """Where the fan table has 报听一发 (``erqs``: 4 fans): a declared hand's wins on its next own draw and on
    the opponent's next two discards count them (:meth:`~erma.bots.expert.estimate.Estimator.declared_race`),
    in the value of declaring now and later. Since 2026-12-06 (issue 39)."""
    cost_scale: float = 1.0
    """The opponent's win costs this many times its mean (:attr:`Estimator.cost`): above 1 the race counts
    each turn the hand is not won, and each risky discard, as dearer, so faster hands rank higher (issue 39
    tuning; 1.0: the mean)."""
    claim_margin: float = 0.0
    """With :attr:`own` holding claims, where a win needs :attr:`far_min_fan` fans or more (classic64,
    wushuang128): a claim (吃碰杠 of a discard) is made only when its estimate beats passing by this many
    points (0: the better estimate; negative: claims more readily). 2 measured +1.1 a hand in classic64 on the
    tuning seeds and −0.13 on the fresh seed ``h19-report``, so it stays 0
    (docs/lab/2026-12-07-level5-claims.md)."""
    hazard_scale: float = 1.0
    """An opponent turn's hazard (:func:`~erma.bots.expert.opponent.turn_hazards`) times this, capped below 1
    (issue 39 tuning; 1.0: the measured rates)."""
    learned: bool = False
    """With ``base``, where a win needs :attr:`far_min_fan` fans or more: a discard that leaves the hand more
    than :attr:`ahead` from ready is chosen by the value learned from outcomes
    (:data:`~erma.bots.expert.learned.FAR_WEIGHTS`) among the efficient ones (:attr:`learned_keep`);
    issue 39, docs/lab/2026-12-07-level5-learned-value.md."""
    far_weights: tuple[float, ...] = ()
    """The learned value's weights in place of :data:`~erma.bots.expert.learned.FAR_WEIGHTS` (non-empty: on,
    whatever :attr:`learned` says; for tuning)."""
    learned_keep: int = 3
    """The learned value picks among the lowest-shanten discards whose unseen useful tiles are within this
    many of the most (greedy's discard always among them)."""
    learned_from: int = 3
    """The learned value decides the discards that leave the hand this many or more from ready (3: only
    where level5 plays greedy's discard; 2: also the hands two from ready, which the estimate's lookahead
    decides otherwise)."""
    learned_margin: float = 0.0
    """The predicted points a far discard must gain over greedy's to replace it."""
    value_jump: float = 0.0
    """With ``base``, where a win needs :attr:`far_min_fan` fans or more, neither seat declared, the opponent
    before its 9th discard with fewer than two open sets: a hand one to three from ready after level5's
    discard plays instead the discard at the same shanten with fewer unseen useful tiles whose imagined
    completions (:meth:`~erma.bots.expert.estimate.Estimator.completions`, :attr:`far_samples`) are worth
    the most, when that is this many points more than level5's (0: off). Issue 39, value over speed
    (docs/lab/2026-12-07-level5-levers.md: in the randomized test such discards worth 16 or more gained)."""
    declared_model: bool = True
    """Once the opponent has declared 报听: each kind's chance of dealing in is the fitted model's
    (:func:`~erma.bots.expert.declared.wait_chances`, where the rule set has coefficients: classic64 and
    wushuang128), the kinds it let go by since its declaration at 0. Issue 39,
    docs/lab/2026-12-07-level5-declared-waits-model.md; on since 2026-12-07 (with :attr:`declared_fold`:
    +0.48 / +0.50 a hand paired against greedy, 5–6 % fewer deal-ins, seed ``s26-dwf-report``)."""
    declared_fold: bool = True
    """With :attr:`declared_model`: once the opponent has declared, the estimate also weighs the discards
    that leave the hand one step further from ready than the best (where the lookahead reaches them), so a
    safe discard may be chosen over a dangerous one that keeps the shape (issue 39)."""
