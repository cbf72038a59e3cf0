"""Environment speed: erma's environments with random masked actions, observations included, against
RLCard's mahjong environment with its observations; and the raw engines (erma's and RLCard's
``MahjongGame``) beside them. Every decision submitted counts as one step on every side.

- ``erma env``: ``erma.lab.env.raw_env`` (PettingZoo AEC), each step = observe the agent to act (planes,
  scalars, mask), pick a random allowed index, step.
- ``erma gym``: ``erma.lab.env.SingleAgentEnv`` (Gymnasium, one seat against an erma bot: ``random`` and
  ``greedy``); each step = a random allowed index of the observation's mask, ``env.step`` (which plays the
  opponent's decisions up to the agent's next one and returns the agent's next observation). Counted two
  ways: agent steps (what a Gymnasium loop sees) and decisions (the agent's and the opponent's).
- ``erma batch``: ``erma.lab.env.BatchEnv`` of 64 hands against the ``random`` bot; counted: every decision,
  the agent's (observation written for each) and the opponent's (the random bot reads no view).
- ``RLCard env``: ``rlcard.make("mahjong")``; each step = a random legal id from the state it returned
  (its observation is built by every ``step``), then ``env.step``.
- ``erma engine``: ``new_hand``, ``legal_actions``, a random legal action, ``apply_unchecked`` (no view).
- ``RLCard game``: ``MahjongGame``: ``get_legal_actions`` of the state, a random one, ``game.step``.

Every side picks its random action with Python's ``random.Random`` (erma's among the mask's allowed indices,
taken with the array's own ``nonzero()``; RLCard's from its list of legal ids). Until 2026-12-07 erma's sides
drew with numpy's ``Generator.integers``, about 1 µs a step more (numpy's call) that RLCard's side did not
pay; until that evening they took the indices with ``np.flatnonzero``, whose Python wrappers (``ravel``,
``nonzero`` through ``_wrapfunc``) cost about another 1 µs a step.

All on one core, in process CPU time (robust to other load), medians of ``--repeats``. erma runs as this
process runs it (compiled after ``make install``) and again in pure Python (``ERMA_PURE=1``, a child process,
same seeds: benchmarks/builds.py).
Usage: .venv/bin/python benchmarks/env.py [--seconds 3] [--repeats 3]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from builds import PURE_SIDE, emit, pure_side, this_build

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
    rng = random.Random(seed)

    def body(seconds: float) -> int:
        steps = 0
        end = time.process_time() + seconds
        while time.process_time() < end:
            for _ in range(200):
                a = e.agent_selection
                if e.terminations[a]:
                    e.reset()
                    continue
                allowed = e.observe(a)["action_mask"].nonzero()[0]
                e.step(int(allowed[rng.randrange(len(allowed))]))
                steps += 1
        return steps

    return body


def erma_gym(preset: str, opponent: str, seed: int) -> tuple[Callable[[float], int], list[int]]:
    """Agent steps of the single-agent env; the list gets the decisions of both seats of each pass."""
    from erma.lab.env import SingleAgentEnv

    e = SingleAgentEnv(preset, opponent=opponent)
    obs, _ = e.reset(seed=seed)
    rng = random.Random(seed)
    decisions: list[int] = []

    def body(seconds: float) -> int:
        nonlocal obs
        steps = both = 0
        end = time.process_time() + seconds
        while time.process_time() < end:
            for _ in range(200):
                allowed = obs["action_mask"].nonzero()[0]
                state = e._table.state
                before = len(state.actions)
                obs, _, over, _, _ = e.step(int(allowed[rng.randrange(len(allowed))]))
                steps += 1
                both += len(state.actions) - before
                if over:
                    obs, _ = e.reset()
                    both += len(e._table.state.actions)  # the opponent's decisions before the agent's first
        decisions.append(both)
        return steps

    return body, decisions


def erma_batch(preset: str, seed: int) -> Callable[[float], int]:
    from erma.lab.env import BatchEnv

    b = BatchEnv(preset, 64, opponent="random")
    obs, _ = b.reset(seed=seed)
    rng = random.Random(seed)

    def body(seconds: float) -> int:
        decisions = 0
        end = time.process_time() + seconds
        while time.process_time() < end:
            mask = obs["action_mask"]
            choice = []
            for m in mask:
                allowed = m.nonzero()[0]
                choice.append(int(allowed[rng.randrange(len(allowed))]))
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


def gym_rates(preset: str, opponent: str, seconds: float, repeats: int, seed: int) -> dict[str, float]:
    """Agent steps/s and decisions/s (both seats) of the single-agent env, medians of ``repeats``."""
    body, decisions = erma_gym(preset, opponent, seed)
    steps, both = [], []
    for _ in range(repeats):
        t0 = time.process_time()
        n = body(seconds)
        dt = time.process_time() - t0
        steps.append(n / dt)
        both.append(decisions[-1] / dt)
    return {"steps": round(statistics.median(steps)), "decisions": round(statistics.median(both))}


def erma_side(presets: list[str], seconds: float, repeats: int, seed: int) -> dict[str, object]:
    """Every erma figure of one build."""
    out: dict[str, object] = {"build": this_build()}
    for preset in presets:
        out[preset] = {
            "gym_random": gym_rates(preset, "random", seconds, repeats, seed),
            "gym_greedy": gym_rates(preset, "greedy", seconds, repeats, seed),
            "env_steps_per_second": round(timed(erma_env(preset, seed), seconds, repeats)),
            "batch_decisions_per_second": round(timed(erma_batch(preset, seed), seconds, repeats)),
            "engine_steps_per_second": round(timed(erma_engine(preset, seed), seconds, repeats)),
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--presets", default=",".join(PRESETS))
    parser.add_argument(PURE_SIDE, action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    s, r = args.seconds, args.repeats
    presets = args.presets.split(",")
    if args.pure_side:
        emit(erma_side(presets, s, r, args.seed))
        return
    flags = ["--seconds", str(s), "--repeats", str(r), "--seed", str(args.seed), "--presets", args.presets]
    pure = pure_side(__file__, flags)
    assert pure["build"] == "pure", pure
    out: dict[str, object] = {}
    rl_env = timed(rlcard_env(args.seed), s, r)
    rl_game = timed(rlcard_game(args.seed), s, r)
    out["rlcard"] = {"env_steps_per_second": round(rl_env), "game_steps_per_second": round(rl_game)}
    print(f"RLCard mahjong env (observations): {rl_env:>8.0f} steps/s   MahjongGame: {rl_game:>8.0f} steps/s")
    mine = erma_side(presets, s, r, args.seed)
    out["erma"] = mine
    out["pure"] = pure
    for preset in presets:
        for side in (mine, pure):
            f = side[preset]
            assert isinstance(f, dict)
            gr, gg = f["gym_random"], f["gym_greedy"]
            print(
                f"{preset:<12} {side['build']:<8} gym vs random {gr['steps']:>6} agent steps/s"
                f" ({gr['decisions']:>6} decisions/s)   gym vs greedy {gg['steps']:>6} agent steps/s"
                f" ({gg['decisions']:>6} decisions/s)"
            )
            print(
                f"{'':<21} AEC env {f['env_steps_per_second']:>6} steps/s (×"
                f"{f['env_steps_per_second'] / rl_env:.2f} RLCard env)   batch(64) "
                f"{f['batch_decisions_per_second']:>6} decisions/s   engine {f['engine_steps_per_second']:>6}"
                f" steps/s (×{f['engine_steps_per_second'] / rl_game:.2f} RLCard MahjongGame)"
            )
    print(json.dumps(out))


if __name__ == "__main__":
    main()
