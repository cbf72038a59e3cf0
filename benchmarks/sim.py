"""Self-play speed: erma's presets with random and greedy bots, RLCard's mahjong engine with random choices.

Engine against engine, counted alike: erma's self-play with random bots (which read no view) counts every
action applied to the state; RLCard's ``MahjongGame`` (4-player mahjong, the engine under its environment)
is driven by a random choice among ``get_legal_actions`` and counts every ``game.step``. Neither builds an
observation (benchmarks/env.py compares the environments, observations included). erma plays its
two-player presets with full rules and scoring (every possible win is scored with the preset's fan table).
Both are timed in the same run, on one core, in process CPU time (robust to other load on a shared
machine); the script prints actions/s, games/s and the ratio of actions/s (erma random bots / RLCard
engine): each timed pass of a preset follows a timed pass of RLCard's engine, and the ratio is the median of
the passes' ratios (the machine's speed drifts within a run). Medians of several repeats. erma runs as this
process runs it (compiled after ``make install``) and again in pure Python (``ERMA_PURE=1``, a child process,
same seeds: benchmarks/builds.py).

Usage: .venv/bin/python benchmarks/sim.py [--games 300] [--rlcard-games 100] [--repeats 3] [--warm 20]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from erma.lab.selfplay import run
from erma.rules import find_ruleset

sys.path.insert(0, str(Path(__file__).resolve().parent))
from builds import PURE_SIDE, emit, pure_side, this_build

PRESETS = ["cuopai789", "classic64", "wushuang128", "wenzhou2p"]


def erma_speed(
    preset: str,
    bots: list[str],
    games: int,
    repeats: int,
    seed: int,
    warm: int = 20,
    anchor: Callable[[], float] | None = None,
) -> dict[str, Any]:
    """Actions and games a CPU second, medians of ``repeats`` passes. With ``anchor`` (one timed RLCard pass,
    its actions a CPU second), each pass of ours follows one of the anchor's, and ``ratios`` pairs them: the
    machine's speed drifts over a run, so a ratio of passes run side by side is steadier than a ratio of
    medians taken minutes apart."""
    rules = find_ruleset(preset)
    run(rules, bots, warm, seed=f"warm:{seed}")  # build the lazy analysis and scoring tables first
    aps, gps, anchors, ratios = [], [], [], []
    for r in range(repeats):
        if anchor is not None:
            anchors.append(anchor())
        t0 = time.process_time()
        stats = run(rules, bots, games, seed=f"{seed}:{r}")
        cpu = time.process_time() - t0
        aps.append(stats.actions / cpu)
        gps.append(stats.games / cpu)
        if anchor is not None:
            ratios.append(aps[-1] / anchors[-1])
    out: dict[str, Any] = {
        "actions_per_second": statistics.median(aps),
        "games_per_second": statistics.median(gps),
    }
    if anchor is not None:
        out["anchor_actions_per_second"] = statistics.median(anchors)
        out["ratio"] = statistics.median(ratios)
    return out


def rlcard_pass(games: int, seed: int) -> Callable[[], float]:
    """One timed pass of RLCard's engine (``games`` games of random legal choices): its actions a CPU second.
    The game and the generator go on from pass to pass (one warm-up game first)."""
    import random

    import numpy as np
    from rlcard.games.mahjong.game import MahjongGame

    game = MahjongGame()
    game.np_random = np.random.RandomState(seed)
    rng = random.Random(seed)

    def play() -> int:
        state, _ = game.init_game()
        n = 0
        while not game.is_over():
            state, _ = game.step(rng.choice(game.get_legal_actions(state)))
            n += 1  # one decision submitted, as erma counts an action applied
        return n

    def timed() -> float:
        actions = 0
        t0 = time.process_time()
        for _ in range(games):
            actions += play()
        return actions / (time.process_time() - t0)

    play()
    return timed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--greedy-games", type=int, default=100)
    parser.add_argument("--rlcard-games", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--warm",
        type=int,
        default=20,
        help="warm-up games a preset before timing (the lazy tables fill for a few hundred games)",
    )
    parser.add_argument(PURE_SIDE, action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.pure_side:
        side: dict[str, object] = {"build": this_build()}
        for preset in PRESETS:
            rnd = erma_speed(preset, ["random", "random"], args.games, args.repeats, args.seed, args.warm)
            greedy = erma_speed(
                preset, ["greedy", "greedy"], args.greedy_games, args.repeats, args.seed, args.warm
            )
            side[preset] = {"random": rnd["actions_per_second"], "greedy": greedy["actions_per_second"]}
        emit(side)
        return
    counts = ["--games", str(args.games), "--greedy-games", str(args.greedy_games)]
    more = ["--repeats", str(args.repeats), "--seed", str(args.seed), "--warm", str(args.warm)]
    pure = pure_side(__file__, [*counts, *more])
    assert pure["build"] == "pure", pure
    build = this_build()
    anchor = rlcard_pass(args.rlcard_games, args.seed)
    rl = {"actions_per_second": statistics.median(anchor() for _ in range(args.repeats))}
    out: dict[str, object] = {"rlcard_mahjong_game_random": rl}
    print(
        f"RLCard MahjongGame, random choices: {rl['actions_per_second']:.0f} actions/s (before the presets)"
    )
    for preset in PRESETS:
        rnd = erma_speed(preset, ["random", "random"], args.games, args.repeats, args.seed, args.warm, anchor)
        greedy = erma_speed(
            preset, ["greedy", "greedy"], args.greedy_games, args.repeats, args.seed, args.warm
        )
        ratio, beside = rnd["ratio"], rnd["anchor_actions_per_second"]
        p_rnd, p_greedy = pure[preset]["random"], pure[preset]["greedy"]
        out[preset] = {
            "build": build,
            "random": rnd,
            "greedy": greedy,
            "ratio_random_actions_vs_rlcard_game": round(ratio, 2),
            "pure_random_actions_per_second": p_rnd,
            "pure_greedy_actions_per_second": p_greedy,
            "pure_ratio_random_actions_vs_rlcard_game": round(p_rnd / rl["actions_per_second"], 2),
        }
        print(
            f"{preset:<12} {build} random: {rnd['actions_per_second']:>7.0f} actions/s "
            f"{rnd['games_per_second']:>6.1f} games/s  (×{ratio:.2f} RLCard MahjongGame: passes side by"
            f" side, RLCard {beside:.0f} actions/s)   greedy: {greedy['actions_per_second']:>6.0f} actions/s"
            f" {greedy['games_per_second']:>5.1f} games/s"
        )
        print(
            f"{'':<12} pure random: {p_rnd:>7.0f} actions/s (×{p_rnd / rl['actions_per_second']:.2f} RLCard)"
            f"   greedy: {p_greedy:>6.0f} actions/s; compiled/pure ×{rnd['actions_per_second'] / p_rnd:.2f}"
            f" random, ×{greedy['actions_per_second'] / p_greedy:.2f} greedy"
        )
    print(json.dumps(out))


if __name__ == "__main__":
    main()
