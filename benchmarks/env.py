"""Environment speed: erma's environments with random masked actions, observations included, against
RLCard's mahjong environment with its observations; and the raw engines (erma's and RLCard's
``MahjongGame``) beside them. Every decision submitted counts as one step on every side.

- ``erma env``: ``erma.lab.env.raw_env`` (PettingZoo AEC), each step = observe the agent to act (planes,
  scalars, mask), pick a random allowed index, step.
- ``erma batch``: ``erma.lab.env.BatchEnv`` of 64 hands against the ``random`` bot; counted: every decision,
  the agent's (observation written for each) and the opponent's (the random bot reads no view).
- ``RLCard env``: ``rlcard.make("mahjong")``; each step = a random legal id from the state it returned
  (its observation is built by every ``step``), then ``env.step``.
- ``erma engine``: ``new_hand``, ``legal_actions``, a random legal action, ``apply_unchecked`` (no view).
- ``RLCard game``: ``MahjongGame``: ``get_legal_actions`` of the state, a random one, ``game.step``.

All on one core, in process CPU time (robust to other load), medians of ``--repeats``.
Usage: .venv/bin/python benchmarks/env.py [--seconds 3] [--repeats 3]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable

import numpy as np

PRESETS = ["cuopai789", "classic64", "wushuang128", "wenzhou2p"]


def timed(body: Callable[[float], int], seconds: float, repeats: int) -> float:
    """Median steps per CPU second of ``body(seconds)`` (it returns the steps it made)."""
    rates = []
    for _ in range(repeats):
        t0 = time.process_time()
        n = body(seconds)
        rates.append(n / (time.process_time() - t0))
    return statistics.median(rates)


def erma_env(preset: str, seed: int) -> Callable[[float], int]:
    from erma.lab.env import raw_env

    e = raw_env(preset)
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)

    def body(seconds: float) -> int:
        steps = 0
        end = time.process_time() + seconds
        while time.process_time() < end:
            for _ in range(200):
                a = e.agent_selection
                if e.terminations[a]:
                    e.reset()
                    continue
                allowed = np.flatnonzero(e.observe(a)["action_mask"])
                e.step(int(allowed[rng.integers(len(allowed))]))
                steps += 1
        return steps

    return body


def erma_batch(preset: str, seed: int) -> Callable[[float], int]:
    from erma.lab.env import BatchEnv

    b = BatchEnv(preset, 64, opponent="random")
    obs, _ = b.reset(seed=seed)
    rng = np.random.default_rng(seed)

    def body(seconds: float) -> int:
        decisions = 0
        end = time.process_time() + seconds
        while time.process_time() < end:
            mask = obs["action_mask"]
            choice = [int(np.flatnonzero(m)[rng.integers(int(m.sum()))]) for m in mask]
            before = [(t.state, len(t.state.actions)) for t in b.tables]
            b.step(np.array(choice))
            for t, (old, n) in zip(b.tables, before, strict=True):
                decisions += len(old.actions) - n  # the hand stepped (to its end, if it ended)
                if t.state is not old:
                    decisions += len(t.state.actions)  # the new hand's decisions before the agent's
        return decisions

    return body


def erma_engine(preset: str, seed: int) -> Callable[[float], int]:
    from erma.game import Phase, apply_unchecked, legal_actions, new_hand
    from erma.rules import find_ruleset

    rules = find_ruleset(preset)
    rng = random.Random(seed)
    count = [0]

    def body(seconds: float) -> int:
        steps = 0
        end = time.process_time() + seconds
        while time.process_time() < end:
            count[0] += 1
            st = new_hand(rules, f"{seed}:{count[0]}")
            while st.phase is not Phase.END:
                seat = st.actor
                apply_unchecked(st, seat, rng.choice(legal_actions(st, seat)))
                steps += 1
        return steps

    return body


def rlcard_env(seed: int) -> Callable[[float], int]:
    import rlcard

    env = rlcard.make("mahjong", config={"seed": seed})
    rng = random.Random(seed)

    def body(seconds: float) -> int:
        steps = 0
        end = time.process_time() + seconds
        while time.process_time() < end:
            state, _ = env.reset()
            while not env.is_over():
                state, _ = env.step(rng.choice(list(state["legal_actions"])))
                steps += 1
        return steps

    return body


def rlcard_game(seed: int) -> Callable[[float], int]:
    from rlcard.games.mahjong.game import MahjongGame

    game = MahjongGame()
    game.np_random = np.random.RandomState(seed)
    rng = random.Random(seed)

    def body(seconds: float) -> int:
        steps = 0
        end = time.process_time() + seconds
        while time.process_time() < end:
            state, _ = game.init_game()
            while not game.is_over():
                state, _ = game.step(rng.choice(game.get_legal_actions(state)))
                steps += 1
        return steps

    return body


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    s, r = args.seconds, args.repeats
    out: dict[str, object] = {}
    rl_env = timed(rlcard_env(args.seed), s, r)
    rl_game = timed(rlcard_game(args.seed), s, r)
    out["rlcard"] = {"env_steps_per_second": round(rl_env), "game_steps_per_second": round(rl_game)}
    print(f"RLCard mahjong env (observations): {rl_env:>8.0f} steps/s   MahjongGame: {rl_game:>8.0f} steps/s")
    for preset in PRESETS:
        env_rate = timed(erma_env(preset, args.seed), s, r)
        batch_rate = timed(erma_batch(preset, args.seed), s, r)
        eng = timed(erma_engine(preset, args.seed), s, r)
        out[preset] = {
            "env_steps_per_second": round(env_rate),
            "batch_decisions_per_second": round(batch_rate),
            "engine_steps_per_second": round(eng),
            "env_vs_rlcard_env": round(env_rate / rl_env, 2),
            "engine_vs_rlcard_game": round(eng / rl_game, 2),
        }
        print(
            f"{preset:<12} env {env_rate:>7.0f} steps/s (×{env_rate / rl_env:.2f} RLCard env, "
            f"{'meets' if env_rate >= 15000 else 'below'} 15,000)"
            f"   batch(64) {batch_rate:>7.0f} decisions/s"
            f"   engine {eng:>7.0f} steps/s (×{eng / rl_game:.2f} RLCard MahjongGame)"
        )
    print(json.dumps(out))


if __name__ == "__main__":
    main()
