"""Is the rating system right? Bot levels of known order play as rated players; their ratings should find
the order, their 90% intervals should hold the truth about 90% of the time, and a newcomer should land near
its level quickly.

1. **Arena**: every pair of levels plays ``--arena`` hands (each wall twice, seats swapped) with the real
   engine; the decisive hands give each pair's win rate (draws move no rating: docs/ratings.md).
2. **True anchors**: the maximum-likelihood strengths of the levels under the rating model's own win
   probability (``erma.ratings.win_probability``, anchor σ 1), the strongest level pinned at 25: what
   anchors.toml should hold for these bots (``--calibrate`` prints the rows).
3. **Simulation** (``--trials`` runs, seeded): one fresh player per level and the levels' anchored bots. Each
   round every player plays one rated hand: paired with the nearest rating among the players (matchmaking),
   or, half of the time (nobody came), against the bot of the level nearest its rating. Outcomes are drawn
   from the arena's win rates of the two true levels; ratings move by ``erma.ratings.play`` — exactly the
   server's step. After ``--matches`` (30) rated hands each: Spearman ρ between the ratings (mu) and the
   true order, and how often a 90% interval holds its level's true anchor. Then a newcomer of each level
   joins and plays ``--newcomer`` (20) rated hands: is its rating's nearest level within one of the truth?

Levels: ``level1`` … ``level5`` when the bots registry has them (the arena's levels); until then a ladder of
mixtures of ``greedy`` and ``random`` (``mix:P`` plays greedy's move with probability P, else random's), whose
order is known by construction. ``--levels`` names others (bot names or ``mix:P``), weakest first.

Usage: .venv/bin/python benchmarks/ratings.py [--levels ...] [--arena 300] [--trials 400] [--rules cuopai789]
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from typing import Any

from erma.bots import bot_names, make_bot
from erma.game.result import EndReason
from erma.ratings import FRESH, Rating, Standing, anchored, play
from erma.ratings.model import anchors, win_probability
from erma.rules import find_ruleset
from erma.selfplay import hand_seed, play_hand

LEVELS = [f"level{i}" for i in range(1, 6)]
FALLBACK = ["mix:0.1", "mix:0.25", "mix:0.4", "mix:0.6", "greedy"]
ANCHOR_SIGMA = 1.0


class Mix:
    """Plays greedy's move with probability p, else random's (seeded)."""

    uses_view = True

    def __init__(self, p: float, seed: str) -> None:
        self.name = f"mix:{p}"
        self.p = p
        self.greedy = make_bot("greedy", seed)
        self.random = make_bot("random", seed)
        self.rng = random.Random(f"mix:{seed}")

    def choose(self, view: Any, legal: list[Any]) -> Any:
        if len(legal) == 1:
            return legal[0]
        bot = self.greedy if self.rng.random() < self.p else self.random
        return bot.choose(view, legal)


def bot(name: str, seed: str) -> Any:
    if name.startswith("mix:"):
        return Mix(float(name[4:]), seed)
    return make_bot(name, seed)


def arena(levels: list[str], hands: int, rules_name: str, seed: int) -> dict[tuple[int, int], list[int]]:
    """(i, j) → [wins of i, wins of j, draws] over ``hands`` hands, walls played twice with seats swapped."""
    rules = find_ruleset(rules_name)
    out: dict[tuple[int, int], list[int]] = {}
    for i in range(len(levels)):
        for j in range(i + 1, len(levels)):
            a, b = bot(levels[i], f"{seed}:{i}:{j}:a"), bot(levels[j], f"{seed}:{i}:{j}:b")
            tally = [0, 0, 0]
            for h in range(hands):
                seats = [a, b] if h % 2 == 0 else [b, a]
                result = play_hand(rules, hand_seed(f"{seed}:{i}:{j}", h // 2), seats).result
                if result is not None and result.reason is EndReason.WIN:
                    assert result.winner is not None
                    tally[0 if seats[result.winner] is a else 1] += 1
                else:
                    tally[2] += 1
            out[(i, j)] = tally
    return out


def win_rate(table: dict[tuple[int, int], list[int]], i: int, j: int) -> float:
    """P(level i beats level j | a decisive hand), smoothed by half a win each way."""
    if i < j:
        won, lost, _ = table[(i, j)]
    else:
        lost, won, _ = table[(j, i)]
    return (won + 0.5) / (won + lost + 1)


def calibrate(table: dict[tuple[int, int], list[int]], n: int, top: float = 25.0) -> list[float]:
    """Maximum-likelihood strengths under the model's win probability (smoothed by half a win each way),
    the strongest pinned at ``top``: coordinate ascent on each level's mu by Newton steps with a numeric
    derivative."""
    mu = [top - 4.0 * (n - 1 - k) for k in range(n)]

    def loglik(k: int, x: float) -> float:
        total = 0.0
        for (i, j), (wi, wj, _) in table.items():
            if k not in (i, j):
                continue
            a, b = (x, mu[j]) if i == k else (mu[i], x)
            p = win_probability(Rating(a, ANCHOR_SIGMA), Rating(b, ANCHOR_SIGMA))
            total += (wi + 0.5) * math.log(p) + (wj + 0.5) * math.log(1 - p)
        return total

    for _ in range(200):
        for k in range(n - 1):
            h = 1e-3
            f0, fp, fm = loglik(k, mu[k]), loglik(k, mu[k] + h), loglik(k, mu[k] - h)
            d1, d2 = (fp - fm) / (2 * h), (fp - 2 * f0 + fm) / h**2
            if d2 < 0:
                mu[k] -= max(-5.0, min(5.0, d1 / d2))
    return mu


def spearman(xs: list[float], ys: list[float]) -> float:
    def ranks(v: list[float]) -> list[float]:
        order = sorted(range(len(v)), key=lambda k: v[k])
        r = [0.0] * len(v)
        k = 0
        while k < len(order):
            e = k
            while e + 1 < len(order) and v[order[e + 1]] == v[order[k]]:
                e += 1
            for t in range(k, e + 1):
                r[order[t]] = (k + e) / 2
            k = e + 1
        return r

    rx, ry = ranks(xs), ranks(ys)
    mx, my = statistics.fmean(rx), statistics.fmean(ry)
    num = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    den = math.sqrt(sum((a - mx) ** 2 for a in rx) * sum((b - my) ** 2 for b in ry))
    return num / den if den else 0.0


def nearest_level(mu: float, truth: list[float]) -> int:
    return min(range(len(truth)), key=lambda k: abs(truth[k] - mu))


def rated_hand(rng: random.Random, p_win: float, me: Standing, other: Standing, fixed: bool) -> Standing:
    won = rng.random() < p_win
    after = play((me, other), 0 if won else 1, fixed=(False, fixed))
    return after[0]


def trial(
    rng: random.Random,
    table: dict[tuple[int, int], list[int]],
    truth: list[float],
    matches: int,
    newcomer: int,
) -> dict[str, Any]:
    n = len(truth)
    bots = [anchored(Rating(m, ANCHOR_SIGMA)) for m in truth]
    players = [FRESH] * n
    for _ in range(matches):
        to_bots = [k for k in range(n) if rng.random() < 0.5]
        queue = sorted((k for k in range(n) if k not in to_bots), key=lambda k: players[k].rating.mu)
        if len(queue) % 2:
            to_bots.append(queue.pop(rng.randrange(len(queue))))
        new = list(players)
        for a, b in zip(queue[0::2], queue[1::2], strict=True):  # nearest ratings: neighbours in order
            won = rng.random() < win_rate(table, a, b)
            new[a], new[b] = play((players[a], players[b]), 0 if won else 1)
        for k in to_bots:
            level = nearest_level(players[k].rating.mu, truth)
            p = 0.5 if level == k else win_rate(table, k, level)
            new[k] = rated_hand(rng, p, players[k], bots[level], True)
        players = new
    mus = [p.rating.mu for p in players]
    covered = [players[k].rating.contains(truth[k]) for k in range(n)]
    landed = []
    for k in range(n):
        me = FRESH
        for _ in range(newcomer):
            if rng.random() < 0.5:  # a person of the nearest rating from the settled pool
                other = min(range(n), key=lambda o: abs(players[o].rating.mu - me.rating.mu))
                p = 0.5 if other == k else win_rate(table, k, other)
                me = rated_hand(rng, p, me, players[other], True)
            else:
                level = nearest_level(me.rating.mu, truth)
                p = 0.5 if level == k else win_rate(table, k, level)
                me = rated_hand(rng, p, me, bots[level], True)
        landed.append(abs(nearest_level(me.rating.mu, truth) - k) <= 1)
    return {"rho": spearman(mus, list(range(n))), "covered": covered, "landed": landed, "mu": mus}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default=None, help="comma-separated bot levels, weakest first")
    parser.add_argument("--arena", type=int, default=300, help="hands per pair of levels")
    parser.add_argument("--trials", type=int, default=400)
    parser.add_argument("--matches", type=int, default=30)
    parser.add_argument("--newcomer", type=int, default=20)
    parser.add_argument("--rules", default="cuopai789")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--calibrate", action="store_true", help="print anchors.toml rows for the levels")
    args = parser.parse_args()
    if args.levels:
        levels = args.levels.split(",")
    elif all(name in bot_names() for name in LEVELS):
        levels = LEVELS
    else:
        levels = FALLBACK
    t0 = time.perf_counter()
    table = arena(levels, args.arena, args.rules, args.seed)
    truth = calibrate(table, len(levels))
    arena_s = time.perf_counter() - t0
    rng = random.Random(args.seed)
    runs = [trial(rng, table, truth, args.matches, args.newcomer) for _ in range(args.trials)]
    rhos = [r["rho"] for r in runs]
    covered = [c for r in runs for c in r["covered"]]
    landed = [x for r in runs for x in r["landed"]]
    out = {
        "rules": args.rules,
        "levels": levels,
        "arena_hands_per_pair": args.arena,
        "arena": {f"{levels[i]} v {levels[j]}": v for (i, j), v in table.items()},
        "true_anchors": {lv: round(m, 2) for lv, m in zip(levels, truth, strict=True)},
        "anchors_toml": {k: v.mu for k, v in anchors().items()},
        "trials": args.trials,
        "matches": args.matches,
        "spearman_median": round(statistics.median(rhos), 3),
        "spearman_mean": round(statistics.fmean(rhos), 3),
        "spearman_share_at_least_0.95": round(sum(r >= 0.95 for r in rhos) / len(rhos), 3),
        "interval90_coverage": round(sum(covered) / len(covered), 3),
        "newcomer_matches": args.newcomer,
        "newcomer_within_one_level": round(sum(landed) / len(landed), 3),
        "mean_final_mu": [round(statistics.fmean(r["mu"][k] for r in runs), 2) for k in range(len(levels))],
        "arena_seconds": round(arena_s, 1),
    }
    print(json.dumps(out, indent=2, ensure_ascii=False))
    if args.calibrate:
        for lv, m in zip(levels, truth, strict=True):
            print(f'[[anchor]]\nbot = "{lv}"\nmu = {m:.2f}\nsigma = {ANCHOR_SIGMA}\n')


if __name__ == "__main__":
    main()
