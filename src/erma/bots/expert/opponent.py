"""The opponent as the expert sees it (对手): how likely each of its turns ends the hand against us, and how
likely each of our discards deals in (点炮) — the chance it is ready times the chance the tile is among its
waits (the unseen shapes that wait on it; nothing after its 报听 passed it by)."""

from __future__ import annotations

from collections.abc import Sequence

from erma.bots.base import BotView
from erma.bots.priors import ready_chance, win_chance
from erma.rules import RuleSet

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
OPPONENT_WAIT_KINDS = 2.0
"""Kinds a ready opponent waits on, on average (for the hazard of its turns)."""


def turn_hazards(
    rules: RuleSet, declared: bool, discards: int, unseen: int, kinds: int, horizon: int
) -> list[float]:
    """The hazard of an opponent turn ``step`` turns from now, for steps 0 … ``horizon``: its self-draws, and
    its wins on our later discards as far as we do not see them coming (this discard's own chance of dealing
    in is weighed apart, :func:`deal_in`). ``declared``: it has declared 报听; ``discards``: its discards so
    far; ``unseen``, ``kinds``: the unseen tiles and the kinds in play."""
    if declared:
        wait_tiles = OPPONENT_WAIT_KINDS * unseen / max(1, kinds)
        chance = min(0.5, wait_tiles / unseen) + LATER_DEAL_IN
        return [chance] * (horizon + 1)
    return [SELF_DRAW_SHARE * win_chance(rules, discards + step, False) for step in range(horizon + 1)]


def shape_weights(unseen: Sequence[int], kinds: Sequence[int]) -> list[float]:
    """The unseen shapes that wait on each kind (a weight by kind: 单吊, 双碰, the runs around it)."""
    un = unseen
    weight = [0.0] * 34
    for t in kinds:
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
    return weight


def deal_in(
    view: BotView, unseen: Sequence[int], kinds: Sequence[int], declared: bool, wz: bool
) -> list[float]:
    """The chance each kind deals in now (the opponent is ready and waits on it), by ``unseen`` copies;
    ``declared``: the opponent has declared 报听; ``wz``: the 温州 family (a 财神 is never discarded)."""
    v = view
    opp = 1 - v.seat
    ready = ready_chance(v.rules, len(v.discards[opp]), declared)
    if not declared and v.rules.declare_ready_enabled:
        ready *= UNDECLARED  # a ready hand that could declare 报听 mostly does
    weight = shape_weights(unseen, kinds)
    if wz and v.caishen is not None:
        weight[v.caishen] = 0.0  # a 财神 is not discarded (and plays as a joker)
    total = sum(weight) or 1.0
    safe = set(v.discards[opp])
    out = [0.0] * 34
    for t in kinds:
        p = min(0.95, OPPONENT_WAIT_KINDS * weight[t] / total)
        if t in safe:
            p *= 0.3  # a kind the opponent let go is seldom one it waits on
        elif t < 27 and any(x in safe for x in (t - 3, t + 3) if x // 9 == t // 9 and 0 <= x < 27):
            p *= 0.7  # 筋: a two-sided wait on it would have kept the tile three away
        out[t] = ready * p
    return out
