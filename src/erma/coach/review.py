"""The review of one hand (复盘): every decision of a seat beside the expert's choice, and the value it cost.

A record is replayed action by action (:func:`erma.game.record.steps`); at each action of a reviewed seat
that had a choice, the seat's view (:func:`~erma.game.seatview.seat_view`, nothing hidden) is estimated
by the expert's race (:mod:`erma.coach.estimate`). The value of each candidate is the mean over ``samples``
samples of the hidden tiles — the opponent's concealed hand drawn from the unseen tiles, the rest left to
draw — the same samples for every candidate, so the per-sample differences are paired and give the 95 %
interval of the value lost. docs/review.md says how and what was measured.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from erma.analysis.tables import INC
from erma.bots.base import BotView
from erma.bots.expert import ExpertBot
from erma.bots.greedy import _isolation
from erma.bots.priors import mean_win_points
from erma.coach.calibration import calibrated, features
from erma.coach.estimate import (
    LEVEL5,
    ReviewEstimator,
    cuo_table,
    exchange_extra,
    useful_after,
    value,
)
from erma.coach.kinds import DecisionKind, Tag, decision_kind
from erma.errors import ErmaError, InvalidRecordError, ReviewError
from erma.game.actions import Action, Kind
from erma.game.legal import legal_actions, timeout_action
from erma.game.record import steps
from erma.game.seatview import seat_view
from erma.game.state import Phase

FORMAT = "erma.review/1"
SAMPLES = 16
"""Samples of the hidden tiles per decision (``samples`` of :func:`review_record`)."""
TOP = 3
"""Candidates shown besides the played one."""
PRESELECT = 2
"""Start exchange: the samples the candidates are first ranked on (the top ones then get the rest)."""
EXCHANGE_SAMPLES = 8
"""Start exchange: at most this many samples (each refills the hand afresh: the costliest estimate)."""
EXCHANGE_DEPTH = 1
"""Start exchange: the estimate's depth (rates only: each sample refills the hand afresh, and a hand at
the start is seldom one from ready, where the one-draw lookahead would weigh)."""
EXCHANGE_CHANCE_SAMPLES = 2
"""Start exchange: the samples the chances of winning are the mean over."""
EXCHANGE_EXTRA = 3
"""Start exchange: at most this many tiles the estimate adds to level5's exchange (:func:`exchange_extra`)."""
MISTAKE_SHARE = 0.05
"""A mistake costs more than this share of the room's mean win (``erma.bots.priors.mean_win_points``)."""
TIE_SHARE = 0.005
"""Candidates within this share of the room's mean win of the best are as good as it (no loss, agreement)."""
DEFENCE_GAP = 0.02
"""A mistake is a defence mistake when the played discard deals in this much more often than the best."""
TRIPLET_KINDS = 6
"""Triplet offer: the accepts considered give three of the most isolated kinds (as the expert's)."""
T95 = (
    12.706,
    4.303,
    3.182,
    2.776,
    2.571,
    2.447,
    2.365,
    2.306,
    2.262,
    2.228,
    2.201,
    2.179,
    2.16,
    2.145,
    2.131,
)
"""Student's t, two-sided 95 %, for 1 … 15 degrees of freedom (the mean of a few samples: wider than 1.96)."""


def t95(df: int) -> float:
    """The 95 % quantile for the mean of ``df + 1`` samples (past the table 1.96 + 2.4 / df, within 0.003)."""
    if df < 1:
        return 0.0
    if df <= len(T95):
        return T95[df - 1]
    return 1.96 + 2.4 / df


def hidden_samples(view: BotView, k: int, seed: str) -> list[tuple[list[int], list[int]]]:
    """``k`` samples of the hidden tiles consistent with the view: (the unseen copies left to draw once an
    opponent hand of ``opponent_hand_count`` tiles is taken out, those tiles in order). Systematic
    sampling: the unseen tiles are shuffled once (by ``seed``) into a ring, and sample ``i`` gives the
    opponent the ``opponent_hand_count`` tiles from position ``i × len / k`` on — each sample is a uniform
    random hand, and every unseen tile is in it in the same share of the samples (the share it has in
    expectation), which keeps the mean over few samples steady."""
    pool = [t for t in view.kinds for _ in range(view.unseen(t))]
    random.Random(seed).shuffle(pool)
    size = len(pool)
    held = min(view.opponent_hand_count, size)
    out = []
    for i in range(k):
        start = (i * size) // k
        ring = pool[start:] + pool[:start]
        left = ring[held:]
        counts = [0] * 34
        for t in left:
            counts[t] += 1
        out.append((counts, left))
    return out


def candidates(view: BotView, legal: Sequence[Action], played: Action) -> list[Action]:
    """The actions weighed: every legal one, but for a triplet offer only the accepts that give three of
    the most isolated kinds (and the played one)."""
    if view.phase is not Phase.TRIPLET:
        return list(legal)
    order = sorted(
        {t for t in view.kinds if view.counts[view.play(t)] and t != view.offer},
        key=lambda t: (_isolation(view, t), t),
        reverse=True,
    )[:TRIPLET_KINDS]
    keep = set(order)
    return [a for a in legal if a.kind is not Kind.ACCEPT or set(a.tiles) <= keep or a == played]


def _finite(x: float, floor: float) -> float:
    return x if math.isfinite(x) else floor


@dataclass(frozen=True, slots=True)
class Scored:
    """One candidate's figures."""

    action: Action
    value: float
    """Points the hand is worth to the seat from here (温州: bases), the mean over the samples."""
    win: float
    deal_in: float
    useful: int
    shanten: int
    """After a discard, the hand's shanten (0 for other actions)."""

    def to_json(self, played: bool, best: bool) -> dict[str, Any]:
        """The ``candidates`` item."""
        return {
            "action": self.action.to_str(),
            "value": round(self.value, 4),
            "win": round(min(1.0, max(0.0, self.win)), 4),
            "deal_in": round(self.deal_in, 4),
            "useful": self.useful,
            "played": played,
            "best": best,
        }


def _tag(kind: DecisionKind, played: Scored, best: Scored) -> Tag:
    """What a mistake cost: between two discards, 报听 / dealing in / speed / worth; otherwise by kind."""
    pa, ba = played.action, best.action
    if pa.kind is Kind.DISCARD and ba.kind is Kind.DISCARD:
        if pa.riichi != ba.riichi:
            return Tag.READY
        if played.deal_in - best.deal_in >= DEFENCE_GAP:
            return Tag.DEFENCE
        if played.shanten > best.shanten or played.useful < best.useful:
            return Tag.EFFICIENCY
        return Tag.VALUE
    if kind is DecisionKind.EXCHANGE:
        return Tag.EXCHANGE
    if kind is DecisionKind.RIICHI:
        return Tag.READY
    if kind in (DecisionKind.CLAIM, DecisionKind.KONG, DecisionKind.TRIPLET, DecisionKind.CUO):
        return Tag.CALL
    return Tag.VALUE


def _chances(
    view: BotView,
    kind: DecisionKind,
    actions: Sequence[Action],
    danger: list[float],
    drawn: Sequence[tuple[list[int], list[int]]],
) -> list[float]:
    """The chance of winning the hand after each action (the expert's race with wins worth 1; the start
    exchange: the mean over the first samples' refills), calibrated (:mod:`erma.coach.calibration`)."""
    if kind is DecisionKind.EXCHANGE:
        chances = [0.0] * len(actions)
        few = drawn[:EXCHANGE_CHANCE_SAMPLES]
        for counts, left in few:
            ch = ReviewEstimator(view, unseen=counts, danger=danger, chance=True, depth=EXCHANGE_DEPTH)
            for i, c in enumerate(actions):
                chances[i] += _finite(value(view, ch, c, left)[0], 0.0) / len(few)
    else:
        ch = ReviewEstimator(view, danger=danger, chance=True)
        chances = [_finite(value(view, ch, c)[0], 0.0) for c in actions]
    seen = features(view, view.legal)
    return [calibrated(view.rules.name, min(1.0, max(0.0, x)), seen) for x in chances]


def win_chance(view: BotView, legal: Sequence[Action], action: Action, *, seed: str, step: int) -> float:
    """The review's chance of winning the hand after ``action`` (the ``win`` of its candidate)."""
    kind = decision_kind(view.phase, legal)
    drawn = (
        hidden_samples(view, EXCHANGE_CHANCE_SAMPLES, f"{seed}:{step}")
        if kind is DecisionKind.EXCHANGE
        else []
    )
    return _chances(view, kind, [action], ReviewEstimator(view).danger(), drawn)[0]


def level5_choice(view: BotView, legal: Sequence[Action], seed: str) -> Action:
    """The move ``level5`` plays here (its ties broken by a generator seeded with ``seed``): the review's
    best move, so that the coach and the strongest bot are one judgement."""
    return ExpertBot(seed, name="level5").choose(view, list(legal))


def review_decision(
    view: BotView, legal: Sequence[Action], played: Action, *, seed: str, samples: int, step: int
) -> dict[str, Any]:
    """The review of one decision (the ``decisions`` item of :func:`review_record`): ``best`` is the move
    level5 plays (:func:`level5_choice`); the value lost is the estimate's (level5's, :data:`LEVEL5`) of
    that move less the played one's, over the samples."""
    kind = decision_kind(view.phase, legal)
    choice = level5_choice(view, legal, f"{seed}:{step}")
    cands = candidates(view, legal, played)
    if choice not in cands:
        cands.append(choice)
    waits: dict[tuple[object, ...], tuple[float, float, float, float]] = {}
    base = ReviewEstimator(view, waits=waits)  # the first ranking, the tiles, useful tiles: FULL is enough
    danger = base.danger()
    floor = -base.cost
    if kind is DecisionKind.EXCHANGE:
        samples = min(samples, EXCHANGE_SAMPLES)
    drawn = hidden_samples(view, samples, f"{seed}:{step}")
    ests = []
    for counts, _ in drawn:
        depth = EXCHANGE_DEPTH if kind is DecisionKind.EXCHANGE else LEVEL5.depth
        est = ReviewEstimator(
            view, unseen=counts, danger=danger, seed=seed, waits=waits, depth=depth, settings=LEVEL5
        )
        if kind is DecisionKind.CUO:
            est.cuo = cuo_table(view, base)
        ests.append(est)
    extra: tuple[int, ...] = ()
    if kind is DecisionKind.EXCHANGE:
        # many selections are worth nearly the same, each refill a fresh shape: the extra tiles and the
        # ranking are made on samples of their own, drawn from the view alone — the same whatever the
        # review's seed — and a mistake needs them to pick the best the review's samples pick (the best of
        # many noisy means is biased up: mistakes that a second seed did not find)
        own = hidden_samples(view, PRESELECT, f"exchange-extra:{view.version}")
        picking = [
            ReviewEstimator(view, unseen=c, danger=danger, waits=waits, depth=EXCHANGE_DEPTH) for c, _ in own
        ]
        gain = TIE_SHARE * mean_win_points(view.rules)
        refills = [left for _, left in own]
        extra = exchange_extra(view, picking, refills, EXCHANGE_EXTRA, gain)
        first = {
            c: sum(
                _finite(value(view, e, c, left, extra)[0], floor)
                for e, left in zip(picking, refills, strict=True)
            )
            for c in cands
        }
    else:
        first = {c: _finite(value(view, base, c)[0], floor) for c in cands}
    ranked = sorted(cands, key=lambda c: -first[c])[:TOP]
    chosen = [*ranked, *(c for c in dict.fromkeys((played, choice)) if c not in ranked)]
    rows = [
        [_finite(value(view, e, c, left, extra)[0], floor) for c in chosen]
        for e, (_, left) in zip(ests, drawn, strict=True)
    ]
    chances = _chances(view, kind, chosen, danger, drawn)  # (a selection: level5's exchange from it)
    means = [sum(r[i] for r in rows) / len(rows) for i in range(len(chosen))]
    p = chosen.index(played)
    b = chosen.index(choice)
    diffs = [r[b] - r[p] for r in rows]
    mean_diff = sum(diffs) / len(diffs)
    lost = max(0.0, mean_diff)  # the played move valued above level5's: nothing lost
    sd = math.sqrt(sum((d - mean_diff) ** 2 for d in diffs) / (len(diffs) - 1)) if len(diffs) > 1 else 0.0
    half = t95(len(diffs) - 1) * sd / math.sqrt(len(diffs))
    ci = (mean_diff - half, mean_diff + half)
    scored = []
    for i, c in enumerate(chosen):
        _, tile = value(view, base, c)
        shanten = 0
        if c.kind is Kind.DISCARD and view.play(c.tile) >= 0:
            shanten = base.shanten(view.key - INC[view.play(c.tile)], view.size - 1, view.jokers)
        deal_in = danger[tile] if tile is not None else 0.0
        scored.append(Scored(c, means[i], chances[i], deal_in, useful_after(view, base, c), shanten))
    threshold = MISTAKE_SHARE * mean_win_points(view.rules)
    mistake = lost > max(threshold, TIE_SHARE * mean_win_points(view.rules)) and ci[0] > 0
    if kind is DecisionKind.EXCHANGE:  # and the samples of its own (above) pick the same best
        mistake = mistake and chosen[b] == ranked[0]
    tag = _tag(kind, scored[p], scored[b]).value if mistake else None
    order = sorted(range(len(scored)), key=lambda i: (i != b, -means[i], i != p))
    shown = [i for i in order if i != p][:TOP]
    shown = sorted([*shown, p], key=order.index)
    return {
        "seat": view.seat,
        "step": step,
        "kind": kind.value,
        "played": played.to_str(),
        "best": chosen[b].to_str(),
        "candidates": [scored[i].to_json(i == p, i == b) for i in shown],
        "value_lost": round(lost, 4),
        "value_lost_ci95": [round(ci[0], 4), round(ci[1], 4)],
        "mistake": mistake,
        "tag": tag,
    }


def _seats(seat: object) -> list[int]:
    if seat is None:
        return [0, 1]
    if isinstance(seat, bool) or seat not in (0, 1):
        raise ReviewError(f"review: seat {seat!r} is not 0 or 1")
    return [int(seat)]


def review_record(
    record: dict[str, Any], seat: int | None = None, *, seed: str = "review", samples: int | None = None
) -> dict[str, Any]:
    """The review of one hand's record for ``seat`` (None: both seats), as ``erma review --json`` prints it.
    Deterministic for a given ``seed``; raises InvalidRecordError (a record that does not replay) or
    ReviewError (a bad seat or sample count)."""
    seats = _seats(seat)
    k = SAMPLES if samples is None else samples
    if isinstance(k, bool) or not isinstance(k, int) or k < 2:
        raise ReviewError(f"review: samples {samples!r} is not a count ≥ 2")
    if not isinstance(record, dict):
        raise InvalidRecordError(f"a record is a JSON object, not {type(record).__name__}")
    decisions: list[dict[str, Any]] = []
    rules_name = record.get("rules")
    for step, (state, who, text) in enumerate(steps(record)):
        rules_name = state.rules.name
        if who not in seats or state.phase is Phase.END or state.actor != who:
            continue
        try:
            action = Action.parse(text)
        except ErmaError as exc:
            raise InvalidRecordError(f"record: action {step} {[who, text]!r}: {exc}") from None
        if action.kind is Kind.ESCAPE:
            continue
        if action.kind is Kind.TIMEOUT:
            if state.phase is Phase.HAIDI:
                continue  # a random pick the replay draws itself
            action = timeout_action(state, who)
        legal = legal_actions(state, who)
        if len(legal) < 2 or action not in legal:
            continue
        view = seat_view(state, who)
        decisions.append(review_decision(view, legal, action, seed=seed, samples=k, step=step))
    summary = []
    for s in seats:
        mine = [d for d in decisions if d["seat"] == s]
        summary.append(
            {
                "seat": s,
                "decisions": len(mine),
                "agreement": round(sum(d["played"] == d["best"] for d in mine) / len(mine), 4)
                if mine
                else None,
                "mistakes": sum(d["mistake"] for d in mine),
                "value_lost": round(sum(d["value_lost"] for d in mine), 4),
            }
        )
    return {
        "format": FORMAT,
        "rules": rules_name,
        "seat": seats,
        "seed": seed,
        "samples": k,
        "decisions": decisions,
        "summary": summary,
    }
