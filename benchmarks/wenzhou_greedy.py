"""温州 greedy bot: the value sense (软 / 硬 / 双翻) against the plain greedy bot, measured two ways.

1. **Duplicate deals.** Every wall is played twice with the seats swapped, ``greedy`` (value sense) against
   ``greedy-plain`` (every legal win taken, waits by count); a wall's two games are one paired sample of the
   points difference. Prints each bot's points with a 95 % interval of the per-wall difference, the wins by
   grade (soft ×1, hard ×2, double ×4) and how they came, the wins declined, and each bot's thinking time per
   decision (process CPU).
2. **Branches.** Plain greedy plays both seats; wherever the value sense would decide otherwise (both bots
   asked afresh with the same seed, so ties break alike), the hand is played out twice from there on the
   same wall — once with each decision, the plain bot continuing for both seats — and the deciding seat's
   points are compared. This isolates what each changed decision is worth, with far less noise than whole
   games; reported for declined wins and for discards, in points (base 10 at streak 0).

Deterministic for a seed (only the times vary). Figures of one run (``--walls 3000 --branch-walls 3000
--seed 7``, default): see docs/engine.md ("The greedy bot's value sense").

Usage: .venv/bin/python benchmarks/wenzhou_greedy.py [--walls 3000] [--branch-walls 3000] [--seed 7]
"""

from __future__ import annotations

import argparse
import copy
import json
import statistics
import time
from collections import Counter
from typing import Any

from erma.bots import make_bot
from erma.bots.greedy import GreedyBot
from erma.game import Phase, apply_unchecked, legal_actions, new_hand, seat_view
from erma.game.actions import WIN, Action
from erma.game.state import GameState
from erma.lab.selfplay import hand_seed
from erma.rules import RuleSet, find_ruleset

BOTS = ("greedy", "greedy-plain")


def ci95(xs: list[float]) -> tuple[float, float, float]:
    """Mean and its 95 % interval."""
    if not xs:
        return 0.0, 0.0, 0.0
    mean = statistics.mean(xs)
    half = 1.96 * statistics.stdev(xs) / len(xs) ** 0.5 if len(xs) > 1 else 0.0
    return mean, mean - half, mean + half


def duplicate(rules: RuleSet, walls: int, seed: str) -> dict[str, Any]:
    bots = [make_bot(name, f"{seed}:{i}") for i, name in enumerate(BOTS)]
    points = [0, 0]
    wins = [Counter[str](), Counter[str]()]
    declined = [0, 0]
    cpu = [0.0, 0.0]
    decisions = [0, 0]
    draws = 0
    diffs: list[float] = []
    for w in range(walls):
        hs = hand_seed(seed, w)
        diff = 0
        for swap in (False, True):
            seat_of = [1, 0] if swap else [0, 1]  # seat_of[bot]
            state = new_hand(rules, hs)
            while state.phase is not Phase.END:
                seat = state.actor
                b = seat_of.index(seat)
                legal = legal_actions(state, seat)
                t0 = time.process_time()
                action = bots[b].choose(seat_view(state, seat), legal)
                cpu[b] += time.process_time() - t0
                decisions[b] += 1
                declined[b] += WIN in legal and action != WIN
                apply_unchecked(state, seat, action)
            res = state.result
            assert res is not None
            for b in (0, 1):
                points[b] += res.deltas[seat_of[b]]
            diff += res.deltas[seat_of[0]]
            if res.winner is not None and res.grade is not None and res.how is not None:
                wins[seat_of.index(res.winner)][f"{res.grade.value}/{res.how.value}"] += 1
            else:
                draws += 1
        diffs.append(diff)
    mean, lo, hi = ci95(diffs)
    out: dict[str, Any] = {"walls": walls, "games": 2 * walls, "draws": draws, "bots": {}}
    for b, name in enumerate(BOTS):
        grades = Counter[str]()
        for k, n in wins[b].items():
            grades[k.split("/")[0]] += n
        out["bots"][name] = {
            "points": points[b],
            "wins": sum(grades.values()),
            "grades": dict(sorted(grades.items())),
            "wins_by_grade_and_how": dict(sorted(wins[b].items())),
            "declined_wins": declined[b],
            "us_per_decision": round(1e6 * cpu[b] / max(1, decisions[b]), 1),
        }
    out["difference_per_wall"] = round(mean, 2)
    out["difference_per_wall_ci95"] = [round(lo, 2), round(hi, 2)]
    return out


def _play_out(state: GameState, seat: int, action: Action, seed: str) -> int:
    """Apply ``action`` for ``seat``, finish the hand with plain greedy bots; ``seat``'s points."""
    apply_unchecked(state, seat, action)
    bots = [GreedyBot(f"{seed}:0", value_sense=False), GreedyBot(f"{seed}:1", value_sense=False)]
    while state.phase is not Phase.END:
        s = state.actor
        apply_unchecked(state, s, bots[s].choose(seat_view(state, s), legal_actions(state, s)))
    assert state.result is not None
    return state.result.deltas[seat]


def branches(rules: RuleSet, walls: int, seed: str) -> dict[str, Any]:
    gains: dict[str, list[float]] = {"declined_win": [], "discard": []}
    decisions = 0
    for w in range(walls):
        state = new_hand(rules, hand_seed(f"branch:{seed}", w))
        i = 0
        while state.phase is not Phase.END:
            seat = state.actor
            legal = legal_actions(state, seat)
            view = seat_view(state, seat)
            key = f"{seed}:{w}:{i}"
            new = GreedyBot(key).choose(view, legal)
            old = GreedyBot(key, value_sense=False).choose(view, legal)
            decisions += 1
            if new != old:
                kind = "declined_win" if old == WIN else "discard"
                a = _play_out(copy.deepcopy(state), seat, new, key)
                b = _play_out(copy.deepcopy(state), seat, old, key)
                gains[kind].append(a - b)
            apply_unchecked(state, seat, old)
            i += 1
    out: dict[str, Any] = {"walls": walls, "decisions": decisions}
    everything = [g for gs in gains.values() for g in gs]
    for kind, gs in (*gains.items(), ("all", everything)):
        mean, lo, hi = ci95(gs)
        out[kind] = {
            "changed": len(gs),
            "points_per_change": round(mean, 2),
            "ci95": [round(lo, 2), round(hi, 2)],
            "points_per_hand": round(sum(gs) / walls, 3),
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--walls", type=int, default=3000, help="duplicate walls, each played twice")
    parser.add_argument("--branch-walls", type=int, default=3000, help="hands for the branch measurement")
    parser.add_argument("--seed", default="7")
    args = parser.parse_args()

    rules = find_ruleset("wenzhou2p")
    dup = duplicate(rules, args.walls, args.seed)
    print(
        f"wenzhou2p duplicate deals: {args.walls} walls × 2 seats = {dup['games']} games, "
        f"seed {args.seed!r}; {dup['draws']} 流局"
    )
    for name in BOTS:
        r = dup["bots"][name]
        g = r["grades"]
        mix = ", ".join(
            f"{k} {g.get(k, 0)} ({g.get(k, 0) / max(1, r['wins']):.0%})" for k in ("soft", "hard", "double")
        )
        print(
            f"  {name:<13} points {r['points']:>+7}  wins {r['wins']:>5}: {mix}; "
            f"declined {r['declined_wins']}; {r['us_per_decision']:.0f} µs/decision"
        )
        print(f"  {'':<13} {', '.join(f'{k} {n}' for k, n in r['wins_by_grade_and_how'].items())}")
    lo, hi = dup["difference_per_wall_ci95"]
    print(
        f"  greedy − greedy-plain per wall (2 games): {dup['difference_per_wall']:+.2f} points, "
        f"95% CI {lo:+.2f} … {hi:+.2f}"
    )
    br = branches(rules, args.branch_walls, args.seed)
    print(f"branches: {args.branch_walls} hands of plain greedy, {br['decisions']} decisions")
    for kind in ("declined_win", "discard", "all"):
        r = br[kind]
        lo, hi = r["ci95"]
        print(
            f"  {kind:<13} changed {r['changed']:>5}: {r['points_per_change']:+.2f} points each "
            f"(95% CI {lo:+.2f} … {hi:+.2f}), {r['points_per_hand']:+.3f} per hand"
        )
    print(json.dumps({"seed": args.seed, "duplicate": dup, "branches": br}, ensure_ascii=False))


if __name__ == "__main__":
    main()
