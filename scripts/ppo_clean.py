"""Masked PPO in one file of plain PyTorch (CleanRL style) over erma's native batch (BatchEnv, flat layout).

Nothing hidden: the rollout, GAE, the clipped objective and the masks are all below, as in CleanRL's
``ppo.py`` with invalid actions masked (their logits set to −1e8 before the softmax). Each ``--eval-every``
updates the policy is exported as nn-bot weights and played in duplicate against ``random`` and ``greedy``.

    .venv/bin/python scripts/ppo_clean.py --rules cuopai789 --opponent greedy --steps 1000000 --out runs/clean
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
import torch
from torch import nn

from erma.lab.arena import ArenaConfig, run_arena
from erma.lab.env import BatchEnv
from erma.rules import find_ruleset


class Agent(nn.Module):
    """Separate ReLU networks for the policy and the value (the policy exports as nn-bot weights)."""

    def __init__(self, n_in: int, n_act: int, hidden: int) -> None:
        super().__init__()
        self.pi = nn.Sequential(
            nn.Linear(n_in, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, n_act)
        )
        self.v = nn.Sequential(
            nn.Linear(n_in, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 1)
        )

    def act(
        self, x: torch.Tensor, mask: torch.Tensor, action: torch.Tensor | None = None
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
        logits = self.pi(x).masked_fill(~mask, -1e8)
        dist = torch.distributions.Categorical(logits=logits)
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action), dist.entropy(), self.v(x).squeeze(-1)

    def export(self, path: Path) -> None:
        linears = [m for m in self.pi if isinstance(m, nn.Linear)]
        arrays = {"layers": np.array(len(linears))}
        for i, lin in enumerate(linears):
            arrays[f"w{i}"] = lin.weight.detach().numpy().T.astype(np.float32)
            arrays[f"b{i}"] = lin.bias.detach().numpy().astype(np.float32)
        np.savez(path, **arrays)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rules", default="cuopai789")
    p.add_argument("--opponent", default="greedy")
    p.add_argument("--steps", type=int, default=1_000_000)
    p.add_argument("--envs", type=int, default=32)
    p.add_argument("--n-steps", type=int, default=128)
    p.add_argument("--minibatches", type=int, default=8)
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--gamma", type=float, default=1.0)
    p.add_argument("--lam", type=float, default=0.95)
    p.add_argument("--clip", type=float, default=0.2)
    p.add_argument("--ent", type=float, default=0.01)
    p.add_argument("--vf", type=float, default=0.5)
    p.add_argument("--hidden", type=int, default=256)
    p.add_argument("--reward-scale", type=float, default=0.1)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--eval-every", type=int, default=50, help="updates between evaluations")
    p.add_argument("--eval-walls", type=int, default=300)
    p.add_argument("--out", type=Path, default=Path("runs/clean"))
    args = p.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    args.out.mkdir(parents=True, exist_ok=True)
    env = BatchEnv(args.rules, args.envs, args.opponent, obs="flat")
    obs_np, info = env.reset(seed=args.seed)
    n, n_in = obs_np.shape
    n_act = int(env.single_action_space.n)
    agent = Agent(n_in, n_act, args.hidden)
    opt = torch.optim.Adam(agent.parameters(), lr=args.lr, eps=1e-5)
    T = args.n_steps
    obs = torch.zeros((T, n, n_in))
    masks = torch.zeros((T, n, n_act), dtype=torch.bool)
    actions = torch.zeros((T, n), dtype=torch.long)
    logps = torch.zeros((T, n))
    rewards = torch.zeros((T, n))
    dones = torch.zeros((T, n))
    values = torch.zeros((T, n))
    x = torch.as_tensor(obs_np.copy())
    m = torch.as_tensor(info["action_mask"])
    done = torch.zeros(n)
    updates = args.steps // (T * n)
    t0 = time.time()
    steps = 0
    for update in range(1, updates + 1):
        for t in range(T):
            obs[t], masks[t], dones[t] = x, m, done
            with torch.no_grad():
                a, lp, _, v = agent.act(x, m)
            actions[t], logps[t], values[t] = a, lp, v
            o, r, term, _, info = env.step(a.numpy())
            rewards[t] = torch.as_tensor(r * args.reward_scale, dtype=torch.float32)
            x, m, done = (
                torch.as_tensor(o.copy()),
                torch.as_tensor(info["action_mask"]),
                torch.as_tensor(term, dtype=torch.float32),
            )
            steps += n
        with torch.no_grad():  # GAE (a finished hand's next value is 0: a new hand follows at once)
            next_v = agent.v(x).squeeze(-1)
            adv = torch.zeros((T, n))
            last = torch.zeros(n)
            for t in reversed(range(T)):
                nonterm = 1.0 - (done if t == T - 1 else dones[t + 1])
                nv = next_v if t == T - 1 else values[t + 1]
                delta = rewards[t] + args.gamma * nv * nonterm - values[t]
                last = delta + args.gamma * args.lam * nonterm * last
                adv[t] = last
            ret = adv + values
        b = T * n
        idx = np.arange(b)
        flat = (obs.reshape(b, n_in), masks.reshape(b, n_act), actions.reshape(b), logps.reshape(b),
                adv.reshape(b), ret.reshape(b))  # fmt: skip
        mb = b // args.minibatches
        for _ in range(args.epochs):
            np.random.default_rng(update).shuffle(idx)
            for s in range(0, b, mb):
                j = torch.as_tensor(idx[s : s + mb])
                bo, bm, ba, blp, badv, bret = (f[j] for f in flat)
                _, lp, ent, v = agent.act(bo, bm, ba)
                ratio = (lp - blp).exp()
                badv = (badv - badv.mean()) / (badv.std() + 1e-8)
                pg = torch.max(-badv * ratio, -badv * ratio.clamp(1 - args.clip, 1 + args.clip)).mean()
                loss = pg - args.ent * ent.mean() + args.vf * ((v - bret) ** 2).mean()
                opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
                opt.step()
        if update % args.eval_every == 0 or update == updates:
            path = args.out / f"nn-{steps}.npz"
            agent.export(path)
            row: dict[str, float | int] = {"steps": steps, "minutes": round((time.time() - t0) / 60, 2),
                                           "steps_per_s": round(steps / (time.time() - t0), 1)}  # fmt: skip
            for opp in ("random", "greedy"):
                s = run_arena(
                    ArenaConfig(find_ruleset(args.rules), (f"nn:{path}", opp), "eval-9001"), args.eval_walls
                )
                row[f"{opp}_diff"], (row[f"{opp}_lo"], row[f"{opp}_hi"]) = s["diff"], s["diff_ci95"]
            print(json.dumps(row), flush=True)
            with (args.out / "curve.jsonl").open("a") as f:
                f.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main()
