"""Is the rating system right? Bot levels of known order play as rated players; their ratings should find
the order, their 90% intervals should hold the truth about 90% of the time, and a newcomer should land near
its level quickly.

The rated unit is a **match** (docs/ratings.md): a block of ``--hands`` (K, the room's ``rated_hands``)
consecutive hands between the same two seats, won by the seat with more points over the block (equal: a
draw, which moves nothing).

1. **Arena**: every pair of levels plays ``--arena`` hands (each wall twice, seats swapped) with the real
   engine; each hand's points (the first level's delta) are kept, so a simulated match is K whole hands
   drawn from the walls really played, and the points distribution is the real one (``--save-arena`` /
   ``--load-arena`` keep the arena in a JSON file, so other K and seeds need not replay it;
   ``--reuse-arena F --replay NAMES`` takes from an earlier file of the same seed the pairs whose two levels
   are unchanged, at the same places — the same walls and bot seeds, so the same hands).
2. **True anchors**: the maximum-likelihood strengths of the levels under the rating model's own win
   probability (``erma.ratings.win_probability``, anchor σ 1) from the match outcomes of each pair (the
   match win rates estimated from ``--calibration-matches`` simulated matches per pair), ``level4`` (=
   greedy, or ``greedy`` by name) pinned at 25 (the strongest when there is neither): what anchors.toml
   should hold for these bots (``--calibrate`` prints the rows). ``--truth toml`` uses the rows of
   anchors.toml instead (the anchors the server plays with; report on an arena seed other than the one they
   were calibrated on);
   ``--calibration-arena F`` fits them on another arena file (another seed's) for any K.
3. **Simulation** (``--trials`` runs, seeded): one fresh player per level and the levels' anchored bots. Each
   round every player plays one rated match: paired with the nearest rating among the players (matchmaking),
   or, half of the time (nobody came), against the bot of the level nearest its rating. Outcomes are K hands
   drawn from the arena's hands of the two true levels (a level against its own bot: a fair coin); ratings
   move by ``erma.ratings.play`` — exactly the server's step. After ``--matches`` (30) rated matches each:
   Spearman ρ between the ratings (mu) and the true order, and how often a 90% interval holds its level's
   true anchor. Then a newcomer of each level joins and plays ``--newcomer`` (20) rated matches: is its
   rating's nearest level within one of the truth?

Levels: ``level1`` … ``level5`` when the bots registry has them; else a ladder of mixtures of ``greedy`` and
``random`` (``mix:P`` plays greedy's move with probability P, else random's), whose order is known by
construction. ``--levels`` names others (bot names or ``mix:P``), weakest first.

Usage: .venv/bin/python benchmarks/ratings.py [--levels ...] [--arena 300] [--hands 8] [--trials 400]
[--rules cuopai789] [--seed 1] [--save-arena F | --load-arena F] [--truth arena|toml] [--calibrate]
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from pathlib import Path
from typing import Any

from erma.bots import bot_names, make_bot
from erma.lab.selfplay import hand_seed, play_hand
from erma.ratings import FRESH, Rating, Standing, anchored, play
from erma.ratings.model import anchors, win_probability
from erma.rules import find_ruleset

LEVELS = [f"level{i}" for i in range(1, 6)]
FALLBACK = ["mix:0.1", "mix:0.25", "mix:0.4", "mix:0.6", "greedy"]
ANCHOR_SIGMA = 1.0
PIN = (("level4", "greedy"), 25.0)
"""The level pinned on the scale: greedy (``level4``, or by its name) at 25, where a new person starts."""

Arena = dict[tuple[int, int], list[int]]
"""(i, j) → the points of level i in each hand it played against level j (j's are the negatives)."""


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


def arena(
    levels: list[str],
    hands: int,
    rules_name: str,
    seed: int,
    kept: Arena | None = None,
    defer: frozenset[str] = frozenset(),
) -> Arena:
    """Each pair's hands (``hands`` of them, walls played twice with seats swapped): level i's points.
    A pair in ``kept`` is not played again: its hands are taken from there; a pair with a level in ``defer``
    is left out."""
    rules = find_ruleset(rules_name)
    out: Arena = {}
    for i in range(len(levels)):
        for j in range(i + 1, len(levels)):
            if kept is not None and (i, j) in kept:
                out[(i, j)] = kept[(i, j)]
                continue
            if levels[i] in defer or levels[j] in defer:
                continue
            a, b = bot(levels[i], f"{seed}:{i}:{j}:a"), bot(levels[j], f"{seed}:{i}:{j}:b")
            points = []
            for h in range(hands):
                seats = [a, b] if h % 2 == 0 else [b, a]
                result = play_hand(rules, hand_seed(f"{seed}:{i}:{j}", h // 2), seats).result
                assert result is not None
                points.append(result.deltas[0 if seats[0] is a else 1])
            out[(i, j)] = points
    return out


def save_arena(path: Path, levels: list[str], rules: str, seed: int, table: Arena) -> None:
    data = {
        "levels": levels,
        "rules": rules,
        "seed": seed,
        "points": {f"{i},{j}": v for (i, j), v in table.items()},
    }
    path.write_text(json.dumps(data) + "\n", encoding="utf-8")


def load_arena(path: Path) -> tuple[list[str], str, int, Arena]:
    data = json.loads(path.read_text(encoding="utf-8"))
    table = {
        (int(k.split(",")[0]), int(k.split(",")[1])): [int(x) for x in v] for k, v in data["points"].items()
    }
    return list(data["levels"]), str(data["rules"]), int(data["seed"]), table


def kept_pairs(path: Path, levels: list[str], rules: str, seed: int, hands: int, replay: list[str]) -> Arena:
    """The pairs of an earlier arena file that need not be played again: same rules, seed and hands a pair,
    both levels at the same places under the same names, and neither named in ``replay`` (the levels whose
    bot changed since). The pair's walls and its bots' seeds come from the seed and the places, so such a
    pair would play exactly the same hands."""
    old_levels, old_rules, old_seed, old = load_arena(path)
    if (old_rules, old_seed) != (rules, seed):
        raise SystemExit(f"--reuse-arena {path}: {old_rules} seed {old_seed}, not {rules} seed {seed}")
    same = {
        k for k, lv in enumerate(levels) if k < len(old_levels) and old_levels[k] == lv and lv not in replay
    }
    return {(i, j): v for (i, j), v in old.items() if i in same and j in same and len(v) == hands}


def match_outcome(rng: random.Random, table: Arena, a: int, b: int, k: int) -> int | None:
    """A rated match of ``k`` hands between levels a and b, each hand drawn from their arena hands: 0 if a
    wins (more points), 1 if b wins, None if equal. A level against itself: a fair coin."""
    if a == b:
        return rng.randrange(2)
    pool = table[(a, b)] if a < b else table[(b, a)]
    net = sum(rng.choice(pool) for _ in range(k))
    if a > b:
        net = -net
    return 0 if net > 0 else 1 if net < 0 else None


def match_table(table: Arena, n: int, k: int, matches: int, seed: int) -> dict[tuple[int, int], list[int]]:
    """(i, j) → [wins of i, wins of j, draws] in ``matches`` simulated matches of ``k`` hands."""
    rng = random.Random(f"calibrate:{seed}:{k}")
    out = {}
    for i in range(n):
        for j in range(i + 1, n):
            tally = [0, 0, 0]
            for _ in range(matches):
                o = match_outcome(rng, table, i, j, k)
                tally[2 if o is None else o] += 1
            out[(i, j)] = tally
    return out


def calibrate(wins: dict[tuple[int, int], list[int]], n: int, pin: int, at: float = 25.0) -> list[float]:
    """Maximum-likelihood strengths under the model's win probability (smoothed by half a win each way),
    level ``pin`` fixed at ``at``: coordinate ascent on each other level's mu by Newton steps with a numeric
    derivative."""
    mu = [at + 4.0 * (k - pin) for k in range(n)]

    def loglik(k: int, x: float) -> float:
        total = 0.0
        for (i, j), (wi, wj, _) in wins.items():
            if k not in (i, j):
                continue
            a, b = (x, mu[j]) if i == k else (mu[i], x)
            p = win_probability(Rating(a, ANCHOR_SIGMA), Rating(b, ANCHOR_SIGMA))
            total += (wi + 0.5) * math.log(p) + (wj + 0.5) * math.log(1 - p)
        return total

    for _ in range(200):
        for k in range(n):
            if k == pin:
                continue
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


def versus_fixed(
    rng: random.Random, table: Arena, k: int, me: tuple[int, Standing], other: tuple[int, Standing]
) -> Standing:
    """Level ``me[0]``'s standing after a rated match against a fixed opponent (a bot anchor, or a settled
    player seen as one) of level ``other[0]``."""
    winner = match_outcome(rng, table, me[0], other[0], k)
    return play((me[1], other[1]), winner, fixed=(False, True))[0]


def trial(
    rng: random.Random, table: Arena, truth: list[float], k: int, matches: int, newcomer: int
) -> dict[str, Any]:
    n = len(truth)
    bots = [anchored(Rating(m, ANCHOR_SIGMA)) for m in truth]
    players = [FRESH] * n
    for _ in range(matches):
        to_bots = [x for x in range(n) if rng.random() < 0.5]
        queue = sorted((x for x in range(n) if x not in to_bots), key=lambda x: players[x].rating.mu)
        if len(queue) % 2:
            to_bots.append(queue.pop(rng.randrange(len(queue))))
        new = list(players)
        for a, b in zip(queue[0::2], queue[1::2], strict=True):  # nearest ratings: neighbours in order
            winner = match_outcome(rng, table, a, b, k)
            new[a], new[b] = play((players[a], players[b]), winner)
        for x in to_bots:
            level = nearest_level(players[x].rating.mu, truth)
            new[x] = versus_fixed(rng, table, k, (x, players[x]), (level, bots[level]))
        players = new
    mus = [p.rating.mu for p in players]
    covered = [players[x].rating.contains(truth[x]) for x in range(n)]
    landed = []
    for x in range(n):
        me = FRESH
        for _ in range(newcomer):
            if rng.random() < 0.5:  # a person of the nearest rating from the settled pool
                other = min(range(n), key=lambda o: abs(players[o].rating.mu - me.rating.mu))
                me = versus_fixed(rng, table, k, (x, me), (other, players[other]))
            else:
                level = nearest_level(me.rating.mu, truth)
                me = versus_fixed(rng, table, k, (x, me), (level, bots[level]))
        landed.append(abs(nearest_level(me.rating.mu, truth) - x) <= 1)
    return {"rho": spearman(mus, list(range(n))), "covered": covered, "landed": landed, "mu": mus}


def hand_stats(points: list[int]) -> dict[str, Any]:
    """The first level's hands against the second: mean points a hand, sd, won / lost / drawn."""
    return {
        "mean": round(statistics.fmean(points), 3),
        "sd": round(statistics.stdev(points), 2),
        "won_lost_drawn": [
            sum(p > 0 for p in points),
            sum(p < 0 for p in points),
            sum(p == 0 for p in points),
        ],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default=None, help="comma-separated bot levels, weakest first")
    parser.add_argument("--arena", type=int, default=300, help="hands per pair of levels")
    parser.add_argument("--hands", type=int, default=8, help="hands per rated match (the room's rated_hands)")
    parser.add_argument("--trials", type=int, default=400)
    parser.add_argument("--matches", type=int, default=30, help="rated matches each in the simulation")
    parser.add_argument("--newcomer", type=int, default=20, help="rated matches of a newcomer")
    parser.add_argument("--rules", default="cuopai789")
    parser.add_argument("--seed", type=int, default=1, help="the arena's walls and the simulation's draws")
    parser.add_argument("--save-arena", type=Path, help="write the arena's hands to this JSON file")
    parser.add_argument("--load-arena", type=Path, help="read the arena's hands from this JSON file")
    parser.add_argument(
        "--reuse-arena",
        type=Path,
        action="append",
        help="take from this earlier arena file (same rules and seed; may be repeated) the pairs of levels "
        "not in --replay",
    )
    parser.add_argument(
        "--replay",
        default="",
        help="with --reuse-arena: the levels whose bot changed (their pairs are played)",
    )
    parser.add_argument(
        "--defer",
        default="",
        help="leave out the pairs of these levels and stop after --save-arena (a partial arena, completed "
        "later by --reuse-arena with --replay of these levels)",
    )
    parser.add_argument(
        "--truth",
        choices=("arena", "toml"),
        default="arena",
        help="the levels' true anchors: calibrated on this arena, or anchors.toml's rows",
    )
    parser.add_argument(
        "--calibration-arena",
        type=Path,
        help="fit the true anchors on this arena file (another seed's) instead of this arena",
    )
    parser.add_argument("--calibration-matches", type=int, default=20000, help="simulated matches a pair")
    parser.add_argument("--calibrate", action="store_true", help="print anchors.toml rows for the levels")
    args = parser.parse_args()
    if args.hands < 1:
        parser.error(f"--hands {args.hands}: expected at least 1")
    t0 = time.perf_counter()
    if args.load_arena:
        levels, rules, seed, table = load_arena(args.load_arena)
        if args.levels and args.levels.split(",") != levels:
            parser.error(f"--levels {args.levels}: the arena file has {','.join(levels)}")
    else:
        if args.levels:
            levels = args.levels.split(",")
        elif all(name in bot_names() for name in LEVELS):
            levels = LEVELS
        else:
            levels = FALLBACK
        rules, seed = args.rules, args.seed
        kept: Arena | None = None
        for path in args.reuse_arena or []:
            more = kept_pairs(path, levels, rules, seed, args.arena, args.replay.split(","))
            print(f"pairs taken from {path}: {sorted(f'{levels[i]} v {levels[j]}' for i, j in more)}")
            kept = {**more, **(kept or {})}
        defer = frozenset(args.defer.split(",")) - {""}
        table = arena(levels, args.arena, rules, seed, kept, defer)
        if args.save_arena:
            save_arena(args.save_arena, levels, rules, seed, table)
        if defer:
            print(f"a partial arena (no pairs of {', '.join(sorted(defer))}) saved in {args.save_arena}")
            return
    arena_s = time.perf_counter() - t0
    n = len(levels)
    pin = next((levels.index(p) for p in PIN[0] if p in levels), n - 1)
    wins = match_table(table, n, args.hands, args.calibration_matches, seed)
    fitted = calibrate(wins, n, pin, PIN[1])
    if args.calibration_arena:
        other_levels, _, other_seed, other = load_arena(args.calibration_arena)
        if other_levels != levels:
            parser.error(f"--calibration-arena: its levels {other_levels} are not {levels}")
        other_wins = match_table(other, n, args.hands, args.calibration_matches, other_seed)
        truth = calibrate(other_wins, n, pin, PIN[1])
    elif args.truth == "toml":
        rows = anchors()
        missing = [lv for lv in levels if lv not in rows]
        if missing:
            parser.error(f"--truth toml: anchors.toml has no row for {', '.join(missing)}")
        truth = [rows[lv].mu for lv in levels]
    else:
        truth = fitted
    rng = random.Random(f"{seed}:{args.hands}")
    runs = [trial(rng, table, truth, args.hands, args.matches, args.newcomer) for _ in range(args.trials)]
    rhos = [r["rho"] for r in runs]
    covered = [c for r in runs for c in r["covered"]]
    landed = [x for r in runs for x in r["landed"]]
    out = {
        "rules": rules,
        "levels": levels,
        "arena_seed": seed,
        "arena_hands_per_pair": len(next(iter(table.values()))),
        "arena_hands": {f"{levels[i]} v {levels[j]}": hand_stats(v) for (i, j), v in table.items()},
        "hands_per_match": args.hands,
        "match_won_lost_drawn": {f"{levels[i]} v {levels[j]}": v for (i, j), v in wins.items()},
        "fitted_anchors": {lv: round(m, 2) for lv, m in zip(levels, fitted, strict=True)},
        "truth": f"fitted on {args.calibration_arena}" if args.calibration_arena else args.truth,
        "true_anchors": {lv: round(m, 2) for lv, m in zip(levels, truth, strict=True)},
        "trials": args.trials,
        "matches": args.matches,
        "spearman_median": round(statistics.median(rhos), 3),
        "spearman_mean": round(statistics.fmean(rhos), 3),
        "spearman_share_at_least_0.95": round(sum(r >= 0.95 for r in rhos) / len(rhos), 3),
        "interval90_coverage": round(sum(covered) / len(covered), 3),
        "adjacent_in_order": {
            f"{levels[x]} < {levels[x + 1]}": round(
                sum(r["mu"][x] < r["mu"][x + 1] for r in runs) / len(runs), 3
            )
            for x in range(n - 1)
        },
        "newcomer_matches": args.newcomer,
        "newcomer_within_one_level": round(sum(landed) / len(landed), 3),
        "mean_final_mu": [round(statistics.fmean(r["mu"][x] for r in runs), 2) for x in range(n)],
        "arena_seconds": round(arena_s, 1),
    }
    print(json.dumps(out, indent=2, ensure_ascii=False))
    if args.calibrate:
        for lv, m in zip(levels, fitted, strict=True):
            print(f'[[anchor]]\nbot = "{lv}"\nmu = {m:.2f}\nsigma = {ANCHOR_SIGMA}\n')


if __name__ == "__main__":
    main()
