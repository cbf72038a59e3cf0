"""Self-play speed: erma's presets with random and greedy bots, and RLCard's mahjong with random agents.

RLCard (the common Python research environment) plays 4-player mahjong with random agents; erma plays its
two-player presets with full rules and scoring (every possible win is scored with the preset's fan table).
Both are timed in the same run, on one core, in process CPU time (robust to other load on a shared
machine); the script prints actions/s, games/s and the ratio of actions/s (erma random bots / RLCard random
agents). Medians of several repeats.

Usage: .venv/bin/python benchmarks/sim.py [--games 300] [--rlcard-games 100] [--repeats 3]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from erma.rules import find_ruleset
from erma.selfplay import run

PRESETS = ["cuopai789", "classic64", "wushuang128", "wenzhou2p"]


def erma_speed(preset: str, bots: list[str], games: int, repeats: int, seed: int) -> dict[str, float]:
    rules = find_ruleset(preset)
    run(rules, bots, 20, seed=f"warm:{seed}")  # build the lazy analysis and scoring tables first
    aps, gps = [], []
    for r in range(repeats):
        t0 = time.process_time()
        stats = run(rules, bots, games, seed=f"{seed}:{r}")
        cpu = time.process_time() - t0
        aps.append(stats.actions / cpu)
        gps.append(stats.games / cpu)
    return {"actions_per_second": statistics.median(aps), "games_per_second": statistics.median(gps)}


def rlcard_speed(games: int, repeats: int, seed: int) -> dict[str, float]:
    import rlcard
    from rlcard.agents import RandomAgent

    env = rlcard.make("mahjong", config={"seed": seed})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
    env.run(is_training=False)
    aps, gps = [], []
    for _ in range(repeats):
        actions = 0
        t0 = time.process_time()
        for _ in range(games):
            trajectories, _ = env.run(is_training=False)
            actions += sum(len(t) // 2 for t in trajectories)  # a trajectory alternates states and actions
        dt = time.process_time() - t0
        aps.append(actions / dt)
        gps.append(games / dt)
    return {"actions_per_second": statistics.median(aps), "games_per_second": statistics.median(gps)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--greedy-games", type=int, default=100)
    parser.add_argument("--rlcard-games", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    rl = rlcard_speed(args.rlcard_games, args.repeats, args.seed)
    out: dict[str, object] = {"rlcard_mahjong_random": rl}
    print(
        f"RLCard mahjong, random agents: {rl['actions_per_second']:.0f} actions/s, "
        f"{rl['games_per_second']:.1f} games/s"
    )
    for preset in PRESETS:
        rnd = erma_speed(preset, ["random", "random"], args.games, args.repeats, args.seed)
        greedy = erma_speed(preset, ["greedy", "greedy"], args.greedy_games, args.repeats, args.seed)
        ratio = rnd["actions_per_second"] / rl["actions_per_second"]
        out[preset] = {"random": rnd, "greedy": greedy, "ratio_random_actions_vs_rlcard": round(ratio, 2)}
        print(
            f"{preset:<12} random: {rnd['actions_per_second']:>7.0f} actions/s "
            f"{rnd['games_per_second']:>6.1f} games/s"
            f"  (×{ratio:.1f} RLCard)   greedy: {greedy['actions_per_second']:>6.0f} actions/s"
            f" {greedy['games_per_second']:>5.1f} games/s"
        )
    print(json.dumps(out))


if __name__ == "__main__":
    main()
