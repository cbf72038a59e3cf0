"""Agent steps a second where researchers train (强化学习吞吐): the environments alone and inside
sb3-contrib's MaskablePPO, against ``random`` and ``greedy``.

A step is one decision of the agent: the opponent's decisions run inside ``step`` and are not counted (they
cost time: against ``greedy`` most of it). Every figure is in process CPU time on one core (torch on one
thread), a median of ``--repeats``; the machine's load does not enter it, but a shared core's caches do.

- ``env``: SingleAgentEnv (``obs="flat"``), a random allowed action from ``action_masks()``.
- ``batch``: BatchEnv of 32 hands (``obs="flat"``), random allowed actions from ``action_masks()``.
- ``MaskablePPO single``: ``learn`` on one SingleAgentEnv (rollouts and updates: n_steps 512, batch 128,
  4 epochs, ReLU 256×256).
- ``MaskablePPO batch``: ``learn`` on BatchVecEnv of 32 hands (n_steps 64, the same update settings).
- ``MaskablePPO batch, per-kind``: the same with ``KindHeadPolicy`` (erma.lab.env.policy: the nn bot's
  network with its per-kind heads, 256×256, and a separate 256×256 value network), the baseline's policy.

Usage: .venv/bin/python benchmarks/env_rl.py [--seconds 5] [--repeats 3] [--rules cuopai789]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable

import numpy as np


def rate(body: Callable[[], int], repeats: int) -> float:
    out = []
    for _ in range(repeats):
        t0 = time.process_time()
        n = body()
        out.append(n / (time.process_time() - t0))
    return statistics.median(out)


def env_alone(rules: str, opponent: str, seconds: float) -> Callable[[], int]:
    from erma.lab.env import SingleAgentEnv

    e = SingleAgentEnv(rules, opponent, obs="flat")
    rng = np.random.default_rng(1)
    e.reset(seed=1)

    def body() -> int:
        n = 0
        t0 = time.process_time()
        while time.process_time() - t0 < seconds:
            _, _, done, _, _ = e.step(int(rng.choice(np.flatnonzero(e.action_masks()))))
            n += 1
            if done:
                e.reset()
        return n

    return body


def batch_alone(rules: str, opponent: str, seconds: float) -> Callable[[], int]:
    from erma.lab.env import BatchEnv

    b = BatchEnv(rules, 32, opponent, obs="flat")
    b.reset(seed=1)
    rng = np.random.default_rng(1)

    def body() -> int:
        n = 0
        t0 = time.process_time()
        while time.process_time() - t0 < seconds:
            masks = b.action_masks()
            b.step(np.array([int(rng.choice(np.flatnonzero(m))) for m in masks]))
            n += 32
        return n

    return body


def ppo(rules: str, opponent: str, batch: bool, seconds: float, kind: bool = False) -> Callable[[], int]:
    import torch
    from sb3_contrib import MaskablePPO

    from erma.lab.env import SingleAgentEnv
    from erma.lab.env.sb3 import BatchVecEnv

    torch.set_num_threads(1)
    from erma.lab.env.policy import KindHeadPolicy

    kw: dict[str, object] = {"net_arch": [256, 256], "activation_fn": torch.nn.ReLU}
    policy: object = "MlpPolicy"
    if kind:
        policy, kw = KindHeadPolicy, {"hidden": 256}
    if batch:
        env = BatchVecEnv(rules, 32, opponent, seed=1)
        model = MaskablePPO(policy, env, n_steps=64, batch_size=128, n_epochs=4, seed=1, device="cpu",
                            policy_kwargs=kw)  # fmt: skip
        chunk = 32 * 64
    else:
        model = MaskablePPO("MlpPolicy", SingleAgentEnv(rules, opponent, obs="flat"), n_steps=512,
                            batch_size=128, n_epochs=4, seed=1, device="cpu", policy_kwargs=kw)  # fmt: skip
        chunk = 512

    def body() -> int:
        n = 0
        t0 = time.process_time()
        while time.process_time() - t0 < seconds:
            model.learn(chunk, reset_num_timesteps=False)
            n += chunk
        return n

    return body


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seconds", type=float, default=5.0)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--rules", default="cuopai789")
    p.add_argument("--no-ppo", action="store_true", help="the environments only (no torch)")
    args = p.parse_args()
    from erma.build import build_info

    print(f"build: {build_info().describe()}; rules {args.rules}; agent steps per CPU second")
    rows: dict[str, dict[str, float]] = {}
    for opp in ("random", "greedy"):
        r = rows.setdefault(opp, {})
        r["env"] = rate(env_alone(args.rules, opp, args.seconds), args.repeats)
        r["batch"] = rate(batch_alone(args.rules, opp, args.seconds), args.repeats)
        if not args.no_ppo:
            r["MaskablePPO single"] = rate(ppo(args.rules, opp, False, args.seconds), args.repeats)
            r["MaskablePPO batch"] = rate(ppo(args.rules, opp, True, args.seconds), args.repeats)
            r["MaskablePPO batch, per-kind"] = rate(
                ppo(args.rules, opp, True, args.seconds, True), args.repeats
            )
    cols = list(rows["random"])
    print(f"{'opponent':<10}" + "".join(f"{c:>30}" for c in cols))
    for opp, r in rows.items():
        print(f"{opp:<10}" + "".join(f"{r[c]:>30,.0f}" for c in cols))
    print(json.dumps({o: {k: round(v, 1) for k, v in r.items()} for o, r in rows.items()}))


if __name__ == "__main__":
    main()
