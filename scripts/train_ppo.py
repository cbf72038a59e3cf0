"""The masked-PPO baseline (掩码 PPO 基线): a policy trained from scratch with sb3-contrib's MaskablePPO over
the native batch (erma.lab.env.sb3.BatchVecEnv, the flat observation), evaluated in duplicate as it learns.

Every ``--eval-every`` steps: a checkpoint (``model.zip``, for ``--resume``), the policy exported as the nn
bot's weights (``nn-<steps>.npz``: the same ReLU network the nn bot runs with numpy, so ``erma arena --bots
nn:PATH,greedy`` plays it), and a duplicate arena run against ``random`` and ``greedy`` on evaluation walls
that training never sees (another seed). ``curve.csv`` and ``curve.png`` hold the learning curve.

Needs the ``rl`` extra (docs/training.md). The recipe of docs/training.md:

    .venv/bin/python scripts/train_ppo.py --rules cuopai789 --opponent greedy --steps 3000000 \\
        --reward shaped --shaping 1.0 --eval-every 250000 --eval-walls 300 --out runs/ppo-cuopai789 --seed 1
"""

from __future__ import annotations

import argparse
import csv
import json
import time
from pathlib import Path
from typing import Any

import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import VecMonitor

from erma.lab.arena import ArenaConfig, run_arena
from erma.lab.env.policy import KindHeadPolicy, load_network
from erma.lab.env.sb3 import BatchVecEnv, export_nn_weights
from erma.rules import find_ruleset

#: The hyperparameters of the recipe (docs/env.md); each can be changed on the command line.
DEFAULTS: dict[str, Any] = {
    "envs": 32,
    "n_steps": 128,  # per hand slot: 4,096 decisions a rollout
    "batch_size": 512,
    "n_epochs": 4,
    "learning_rate": 3e-4,
    "gamma": 1.0,  # one hand an episode, paid at its end
    "gae_lambda": 0.95,
    "ent_coef": 0.01,
    "clip_range": 0.2,
    "hidden": 256,
    "reward_scale": 0.1,
}


class ScaledRewards(VecMonitor):  # type: ignore[misc]
    """VecMonitor (the episodes' raw points in the logs) with the rewards scaled for the learner."""

    def __init__(self, venv: BatchVecEnv, scale: float) -> None:
        super().__init__(venv)
        self.scale = scale

    def step_wait(self) -> Any:
        obs, rewards, dones, infos = super().step_wait()
        return obs, rewards * self.scale, dones, infos


class Evaluate(BaseCallback):  # type: ignore[misc]
    """Checkpoint, export and evaluate in duplicate every ``every`` steps."""

    def __init__(self, args: argparse.Namespace, out: Path) -> None:
        super().__init__()
        self.args = args
        self.out = out
        self.next_at = 0
        self.t0 = time.time()

    def _on_training_start(self) -> None:
        self.next_at = (self.num_timesteps // self.args.eval_every + 1) * self.args.eval_every
        if self.num_timesteps == 0:
            self.evaluate()

    def _on_step(self) -> bool:
        if self.num_timesteps >= self.next_at:
            self.next_at += self.args.eval_every
            self.evaluate()
        return True

    def evaluate(self) -> None:
        steps = self.num_timesteps
        self.model.save(self.out / "model.zip")
        weights = self.out / f"nn-{steps}.npz"
        export_nn_weights(self.model, weights)
        row: dict[str, Any] = {"steps": steps, "minutes": round((time.time() - self.t0) / 60, 2)}
        rules = find_ruleset(self.args.rules)
        for opp in self.args.eval_against.split(","):
            config = ArenaConfig(rules, (f"nn:{weights}", opp), f"eval-{self.args.eval_seed}")
            s = run_arena(config, self.args.eval_walls)
            row[f"{opp}_diff"] = s["diff"]
            row[f"{opp}_lo"], row[f"{opp}_hi"] = s["diff_ci95"]
            row[f"{opp}_sd"] = s["sd_hand"]
        path = self.out / "curve.csv"
        new = not path.exists()
        with path.open("a", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(row))
            if new:
                w.writeheader()
            w.writerow(row)
        print(json.dumps(row), flush=True)
        plot(path, self.out / "curve.png", self.args)


def plot(csv_path: Path, png: Path, args: argparse.Namespace) -> None:
    """The learning curve: paired points a hand against each evaluation opponent, with 95% intervals."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with csv_path.open() as f:
        rows = list(csv.DictReader(f))
    fig, ax = plt.subplots(figsize=(7, 4))
    xs = [int(r["steps"]) for r in rows]
    for opp in args.eval_against.split(","):
        ys = [float(r[f"{opp}_diff"]) for r in rows]
        lo = [float(r[f"{opp}_lo"]) for r in rows]
        hi = [float(r[f"{opp}_hi"]) for r in rows]
        ax.plot(xs, ys, marker="o", label=f"vs {opp}")
        ax.fill_between(xs, lo, hi, alpha=0.2)
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xlabel("agent steps (decisions)")
    ax.set_ylabel("paired points a hand (duplicate, 95% CI)")
    ax.set_title(f"masked PPO from scratch, {args.rules}, against {args.opponent} (seed {args.seed})")
    ax.legend()
    fig.tight_layout()
    fig.savefig(png, dpi=110)
    plt.close(fig)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rules", default="cuopai789")
    p.add_argument("--opponent", default="greedy", help="the training opponent (a bot name)")
    p.add_argument("--steps", type=int, default=3_000_000, help="agent decisions to train for")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--reward", default="shaped", choices=["points", "shaped"])
    p.add_argument(
        "--shaping",
        type=float,
        default=1.0,
        help="with --reward shaped: points a hand per shanten gained (before --reward-scale)",
    )
    p.add_argument("--out", type=Path, default=Path("runs/ppo"))
    p.add_argument("--resume", action="store_true", help="go on from OUT/model.zip")
    p.add_argument("--eval-every", type=int, default=250_000)
    p.add_argument("--eval-walls", type=int, default=300)
    p.add_argument("--eval-seed", type=int, default=9001, help="evaluation walls (never trained on)")
    p.add_argument("--eval-against", default="random,greedy")
    p.add_argument("--threads", type=int, default=1, help="torch threads")
    p.add_argument(
        "--init",
        type=Path,
        default=None,
        help="start the policy from an nn weights file (e.g. the imitation-trained bot's) instead of scratch",
    )
    p.add_argument(
        "--policy",
        default="kind",
        choices=["kind", "mlp"],
        help="kind: the nn bot's network with per-kind heads (erma.lab.env.policy); mlp: SB3's MlpPolicy",
    )
    for key, value in DEFAULTS.items():
        p.add_argument(f"--{key.replace('_', '-')}", type=type(value), default=value)
    args = p.parse_args()
    torch.set_num_threads(args.threads)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "args.json").write_text(json.dumps({k: str(v) for k, v in vars(args).items()}, indent=1))
    venv = ScaledRewards(
        BatchVecEnv(
            args.rules, args.envs, args.opponent, seed=args.seed, reward=args.reward, shaping=args.shaping
        ),
        args.reward_scale,
    )
    if args.resume:
        model = MaskablePPO.load(args.out / "model.zip", env=venv, device="cpu")
    else:
        if args.policy == "kind":  # the nn bot's network: per-kind heads over the derived inputs
            policy: Any = KindHeadPolicy
            policy_kwargs: dict[str, Any] = {"hidden": args.hidden, "net_arch": []}
        else:
            policy = "MlpPolicy"
            policy_kwargs = {
                "net_arch": {"pi": [args.hidden, args.hidden], "vf": [args.hidden, args.hidden]},
                "activation_fn": torch.nn.ReLU,
            }
        model = MaskablePPO(
            policy,
            venv,
            n_steps=args.n_steps,
            batch_size=args.batch_size,
            n_epochs=args.n_epochs,
            learning_rate=args.learning_rate,
            gamma=args.gamma,
            gae_lambda=args.gae_lambda,
            ent_coef=args.ent_coef,
            clip_range=args.clip_range,
            policy_kwargs=policy_kwargs,
            seed=args.seed,
            device="cpu",
            verbose=0,
        )
    if args.init is not None and not args.resume:  # imitation first, then PPO (docs/bots.md)
        if args.policy != "kind":
            raise SystemExit("--init needs --policy kind (the nn bot's network)")
        load_network(model.policy.network, args.init)
    evaluate = Evaluate(args, args.out)
    model.learn(args.steps - model.num_timesteps, callback=evaluate, reset_num_timesteps=not args.resume)
    if evaluate.next_at - args.eval_every < model.num_timesteps:  # the last steps not yet evaluated
        evaluate.evaluate()


if __name__ == "__main__":
    main()
