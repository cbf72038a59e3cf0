"""Determinized rollouts (确定化模拟), a research spike for issue #39 (lab code, not a product bot).

- :func:`determinize` builds a full engine state from one seat's :class:`~erma.game.seatview.SeatView` alone:
  the seat's own tiles, both rivers, the sets, the counters, phase and actor as the view shows them; the
  opponent's concealed tiles (and the kinds of its concealed kongs) and the wall's order drawn at random from
  the unseen tiles (the rule set's tiles less everything the view shows). The standard family without a
  reserve, flowers or assists only (``classic64``, ``wushuang128``); anything else raises
  NotImplementedError.
- :func:`rollout_values` plays each candidate action on the same K determinizations to the end of the hand
  with a fast policy for both seats (common random numbers: the same samples and the same policy seeds for
  every candidate) and returns the seat's final points per candidate and sample.
- :class:`RolloutBot` plays level5, and at the decisions it is told to (discards once the hand is at most
  two from ready, claims, 报听) chooses among level5's best few candidates by the rollouts.

What the view does not show is guessed, and the guesses are named here: the opponent's concealed tiles and
the wall (uniformly among the unseen tiles, or with ``history`` as a player who drew and discarded
efficiently as often as the opponent did: no inference from which tiles it threw), whether a 报听 was 天听
(never) or still 一发 (never), whether the seat's draw was a kong's replacement (never). These change the
value of a rollout only through those fans.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from erma.bots.base import Bot, BotView
from erma.game import Action, GameState, Kind, Phase, apply_unchecked
from erma.game.engine import family_for
from erma.game.result import DrawSource
from erma.game.start import COUNTERS
from erma.game.state import Declaration, Event, Seat
from erma.hand import Meld, MeldKind
from erma.lab.selfplay import play_out
from erma.rules import RuleSet

_PAD = Event("lab-pad", None, {})
"""One stand-in event, repeated so that the built state's event count (the view's ``version``) matches."""


def _supported(rules: RuleSet) -> None:
    if (
        rules.family != "standard"
        or rules.inplay_tiles is not None
        or rules.bonus_reveal_count
        or rules.start_exchange_enabled
        or rules.cuo_prob
        or rules.triplet_offer_prob
        or any(t >= 34 for t in rules.tile_list())
    ):
        raise NotImplementedError(f"determinize: rule set {rules.name} (reserve, flowers or assists)")


def unseen_counts(view: BotView) -> list[int]:
    """Copies of each kind the seat has not seen: the rule set's tiles less what the view shows (the
    opponent's concealed tiles, its concealed kongs and the wall)."""
    out = [0] * 34
    for t in view.rules.tile_list():
        out[t] += 1
    for t in range(34):
        out[t] -= view.visible[t]
        if out[t] < 0:
            raise ValueError(f"view shows more copies of kind {t} than the set holds")
    return out


def _draw(pool: list[int], rng: random.Random, n: int) -> list[int]:
    """``n`` tiles drawn without replacement from the multiset ``pool`` (changed in place)."""
    flat = [t for t, c in enumerate(pool) for _ in range(c)]
    if n > len(flat):
        raise ValueError(f"cannot draw {n} of {len(flat)} unseen tiles")
    got = rng.sample(flat, n)
    for t in got:
        pool[t] -= 1
    return got


def _seat_from_view(
    counts: Sequence[int],
    melds: Sequence[Meld],
    river: Sequence[int],
    riichi: bool,
    declaration: Declaration | None,
) -> Seat:
    s = Seat()
    for t, c in enumerate(counts):
        for _ in range(c):
            s.add(t)
    s.melds = list(melds)
    s.discards = list(river)
    s.riichi = riichi
    s.declaration = declaration
    if riichi:
        s.riichi_draws = 2  # guessed: no longer 一发
    return s


def _shape_history(
    hand: list[int], pool: list[int], rng: random.Random, steps: int, ready: bool, allowed: int
) -> None:
    """The opponent's hand as a player who drew and discarded ``steps`` times would hold it (in place): each
    step draws an unseen tile and throws one that leaves the fewest steps from ready (a random one of them),
    the thrown tile going back among the unseen; a declared hand (``ready``) goes on until it is ready."""
    from erma.analysis import shapes
    from erma.analysis.tables import INC

    key = sum(INC[t] * c for t, c in enumerate(hand))
    n = sum(hand)
    for step in range(steps + (60 if ready else 0)):
        if step >= steps and shapes.overall(key, n, 0, allowed) <= 0:
            break
        flat = [t for t, c in enumerate(pool) for _ in range(c)]
        if not flat:
            break
        t = rng.choice(flat)
        pool[t] -= 1
        hand[t] += 1
        key += INC[t]
        after = shapes.discard_values(key, n + 1, 0, allowed)
        low = min(v for _, v in after)
        out = rng.choice([x for x, v in after if v == low])
        hand[out] -= 1
        key -= INC[out]
        pool[out] += 1


def determinize(view: BotView, rules: RuleSet, rng: random.Random, *, history: bool = False) -> GameState:
    """A full state consistent with ``view`` (its seat's decision), the hidden tiles drawn from ``rng``.

    ``history``: the opponent's concealed tiles not uniform among the unseen ones but as a player who made
    as many draws and efficient discards as the opponent has discarded would hold them
    (:func:`_shape_history`; ready after its 报听)."""
    _supported(rules)
    me, opp = view.seat, 1 - view.seat
    if view.phase is Phase.END or view.actor != me or view.phase not in (Phase.TURN, Phase.CLAIM):
        raise NotImplementedError(f"determinize: phase {view.phase.value}, actor {view.actor}")
    pool = unseen_counts(view)
    # the opponent's sets in the table's order, its concealed kongs of kinds with enough unseen copies
    open_melds = iter(view.opponent_melds)
    opp_melds: list[Meld] = []
    for text in view.meld_texts[opp]:
        if text.startswith("[") and text.endswith("?]"):
            size = int(text[1:-2])
            kinds = [t for t in rules.kinds if pool[t] >= size]
            if not kinds:
                raise ValueError("no unseen kind can make the opponent's concealed kong")
            k = rng.choice(kinds)
            pool[k] -= size
            opp_melds.append(Meld(MeldKind.CONCEALED_KONG, k, size))
        else:
            opp_melds.append(next(open_melds))
    opp_hand = [0] * 34
    for t in _draw(pool, rng, view.opponent_hand_count):
        opp_hand[t] += 1
    if history:
        claimed = sum(1 for m in view.melds if m.claimed is not None)
        steps = max(0, len(view.discards[opp]) + claimed - 1)
        _shape_history(opp_hand, pool, rng, steps, view.riichi[opp], view.shapes)
    wall = _draw(pool, rng, sum(pool))
    if len(wall) != view.wall_left or view.reserve_count:
        raise ValueError(f"unseen tiles left {len(wall)}, the view's wall {view.wall_left}")
    seats = [Seat(), Seat()]
    seats[me] = _seat_from_view(
        view.hand, view.melds, view.discards[me], view.riichi[me], view.declarations[me]
    )
    seats[opp] = _seat_from_view(
        opp_hand, opp_melds, view.discards[opp], view.riichi[opp], view.declarations[opp]
    )
    # discards made: the river and the discards the other seat claimed (a claimed tile leaves the river)
    for s in (0, 1):
        taken = sum(1 for m in seats[1 - s].melds if m.claimed is not None)
        seats[s].discards_made = len(seats[s].discards) + taken
    state = GameState(
        rules=rules,
        family=family_for(rules),
        seed=f"determinized:{rng.random()}",
        rng=random.Random(rng.random()),
        dealer=view.dealer,
        prevalent_wind=view.prevalent_wind,
        seats=seats,
        wall=wall,
        wall_public=[False] * len(wall),
        head=0,
        tail=len(wall),
        reserve=[],
        bonus_kinds=list(view.bonus_kinds),
        revealed=list(view.revealed),
        dealer_dice=view.dealer_dice,
    )
    state.counters = dict.fromkeys(COUNTERS, 0)
    state.phase = view.phase
    state.actor = me
    state.opened = any(seats[0].melds) or any(seats[1].melds)
    state.riichi_order = [s for s in (0, 1) if view.riichi[s]]
    state.last_discard = view.last_discard
    if view.phase is Phase.CLAIM:
        state.discarder = opp
        state.drawn = None
    else:
        state.drawn = view.drawn
        first = not any(x.discards_made for x in seats) and not state.opened
        if view.drawn is None:
            state.claimed = True  # a turn without a drawn tile began with a chow or pung
            state.discarder = opp
            state.draw_kind = DrawSource.CLAIM
        else:
            state.draw_kind = DrawSource.DEAL if first and me == view.dealer else DrawSource.NORMAL
    state.events = [_PAD] * view.version
    return state


# ------------------------------------------------------------------------------------------ rollouts

Policy = Callable[[int, str], Bot]
"""Makes the rollout's bot for a seat from a seed."""


def greedy_policy(seat: int, seed: str) -> Bot:
    """greedy (level4) as the rollouts' policy for both seats."""
    from erma.bots.greedy import GreedyBot

    return GreedyBot(seed)


def level5_self_policy(me: int) -> Policy:
    """level5 in the seat ``me``, greedy (the issue's opponent) in the other: the rollouts' policy."""
    from erma.bots.expert import ExpertBot
    from erma.bots.greedy import GreedyBot

    def make(seat: int, seed: str) -> Bot:
        return ExpertBot(seed, name="level5") if seat == me else GreedyBot(seed)

    return make


def rollout_values(
    view: BotView,
    candidates: Sequence[Action],
    samples: int,
    seed: str,
    policy: Policy = greedy_policy,
    budget_s: float | None = None,
    history: bool = False,
) -> list[list[int]]:
    """The seat's final points for each candidate (outer list) on each determinization (inner list):
    sample k is the same hidden deal and the same policy seeds for every candidate. With ``budget_s``, stops
    after the sample that passes that much process CPU time (at least one sample)."""
    out: list[list[int]] = [[] for _ in candidates]
    start = time.process_time()
    for k in range(samples):
        for i, a in enumerate(candidates):
            state = determinize(view, view.rules, random.Random(f"{seed}:{k}"), history=history)
            apply_unchecked(state, view.seat, a)
            play_out(state, [policy(s, f"{seed}:{k}:{s}") for s in (0, 1)])
            assert state.result is not None
            out[i].append(state.result.deltas[view.seat])
        if budget_s is not None and time.process_time() - start > budget_s:
            break
    return out


@dataclass
class Decision:
    """One decision the rollouts judged (for the lab's log)."""

    phase: str
    base: str
    chosen: str
    means: dict[str, float]
    samples: int
    cpu_s: float
    check: float | None = None
    """With ``check``: the chosen action's mean less level5's on fresh, independent samples (not used to
    choose; an unbiased look at the gain the rollouts' model sees in a changed choice)."""


@dataclass
class RolloutStats:
    """What a :class:`RolloutBot` did."""

    decisions: list[Decision] = field(default_factory=list)
    rollouts: int = 0
    cpu_s: float = 0.0


def _shanten_after(view: BotView, a: Action) -> int:
    from erma.analysis import shapes
    from erma.analysis.tables import INC

    return shapes.overall(view.key - INC[a.tile], view.size - 1, 0, view.shapes)


class RolloutBot:
    """level5, choosing by rollouts among its best ``top`` candidates at the decisions ``where`` names
    (``turn``: discards and 报听 once the hand is at most ``near`` from ready after the discard; ``claim``:
    吃碰杠 or pass). It leaves level5's choice only for a candidate whose mean beats level5's by ``z``
    standard errors of the paired (per-sample) difference. level5's own generator sees the same calls as
    level5 alone, so where the rollouts keep its choice the game goes on as level5's would."""

    uses_view = True

    def __init__(
        self,
        seed: int | str = 0,
        *,
        samples: int = 16,
        top: int = 3,
        near: int = 2,
        z: float = 1.0,
        where: frozenset[str] = frozenset({"turn", "claim"}),
        budget_s: float | None = None,
        policy: Policy | None = None,
        check: int = 0,
        self_level5: bool = False,
        history: bool = False,
        name: str = "rollout",
    ) -> None:
        from erma.bots.expert import ExpertBot

        self.seed = seed
        self.name = name
        self.base = ExpertBot(seed, name="level5")
        self.samples, self.top, self.near, self.z = samples, top, near, z
        self.where, self.budget_s, self.fixed_policy = where, budget_s, policy
        self.check = check
        self.self_level5 = self_level5
        self.history = history
        self.stats = RolloutStats()

    def candidates(self, view: BotView, legal: list[Action], base: Action) -> list[Action]:
        """The actions to roll out, level5's first; fewer than two: none."""
        if any(a.kind is Kind.WIN for a in legal):
            return []
        if view.phase is Phase.CLAIM and "claim" in self.where:
            return [base, *(a for a in legal if a != base)]
        if view.phase is not Phase.TURN or "turn" not in self.where or base.kind is not Kind.DISCARD:
            return []
        discards = [a for a in legal if a.kind is Kind.DISCARD]
        if len({a.tile for a in discards}) < 2 and not any(a.riichi for a in discards):
            return []
        after = {a: _shanten_after(view, a) for a in discards}
        best = min(after.values())
        if best > self.near:
            return []
        from erma.bots.expert import Estimator

        lv = self.base
        est = Estimator(view, lv.settings, lv.seed)
        scored = lv._discard_values(view, est, [a for a in discards if after[a] <= best + 1])
        scored.sort(key=lambda x: -x[0])
        out = [base]
        for _, a in scored:
            if len(out) >= self.top:
                break
            if a not in out:
                out.append(a)
        return out if len(out) > 1 else []

    def choose(self, view: BotView, legal: list[Action]) -> Action:
        """level5's action, or a candidate the rollouts rate clearly higher."""
        base = self.base.choose(view, legal)
        t0 = time.process_time()
        cands = self.candidates(view, legal, base)
        if not cands:
            return base
        policy = self.fixed_policy or greedy_policy
        if self.fixed_policy is None and self.self_level5:
            policy = level5_self_policy(view.seat)
        vals = rollout_values(
            view, cands, self.samples, f"{self.seed}:{view.version}", policy, self.budget_s, self.history
        )
        k = len(vals[0])
        means = [sum(v) / k for v in vals]
        chosen = base
        best_gain = 0.0
        for i in range(1, len(cands)):
            d = [x - y for x, y in zip(vals[i], vals[0], strict=True)]
            m = sum(d) / k
            var = sum((x - m) ** 2 for x in d) / (k - 1) if k > 1 else 0.0
            se = (var / k) ** 0.5
            if m > self.z * se and m > best_gain:
                chosen, best_gain = cands[i], m
        cpu = time.process_time() - t0
        check = None
        if self.check and chosen != base:
            again = rollout_values(
                view,
                [base, chosen],
                self.check,
                f"check:{self.seed}:{view.version}",
                policy,
                None,
                self.history,
            )
            check = sum(again[1]) / len(again[1]) - sum(again[0]) / len(again[0])
        self.stats.rollouts += k * len(cands)
        self.stats.cpu_s += cpu
        self.stats.decisions.append(
            Decision(
                view.phase.value,
                base.to_str(),
                chosen.to_str(),
                {a.to_str(): round(m, 2) for a, m in zip(cands, means, strict=True)},
                k,
                cpu,
                check,
            )
        )
        return chosen
