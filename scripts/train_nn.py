"""Train the ``nn`` bot: imitate a strong bot's decisions, optionally improve by policy gradient against it,
write the weights (float16 ``.npz``) the bot runs with numpy, and measure it in duplicate games.

Needs the ``rl`` extra (PyTorch, CPU build). Steps, each optional:

1. data: the expert (``--expert``, default greedy) plays itself in every preset for ``--data-minutes``
   (``--workers`` processes); every decision with more than one allowed action is a sample (the input of
   erma.bots.nn.features.net_input, the mask, the expert's action). ``--shards DIR`` adds the shards of
   ``erma sim --export`` (all their bots' decisions).
2. imitation: a multilayer perceptron, masked cross-entropy, Adam, ``--epochs``; accuracy on the held-out
   tenth of the hands.
3. improvement (``--improve-minutes``): REINFORCE with a running baseline, the network (sampling) against
   the expert in erma.lab.env.SingleAgentEnv, reward = the hand's points.
4. evaluation (``--eval-walls``): duplicate games nn against the expert (each wall twice, seats swapped);
   the nn's mean points per wall with a 95% interval over walls (paired: the two games of a wall sum), its
   win rate, and its decision time.

Usage: .venv/bin/python scripts/train_nn.py [--data-minutes 5] [--epochs 8] [--improve-minutes 0]
       [--eval-walls 1000] [--out src/erma/bots/nn/weights.npz]
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import statistics
import time
from pathlib import Path

import numpy as np

from erma.bots import make_bot
from erma.bots.nn.features import NUM_ACTIONS, NUM_INPUTS, PRESET_NAMES, net_input
from erma.lab.env.export import record_hand
from erma.lab.selfplay import hand_seed, play_hand
from erma.rules import find_ruleset

OUT = Path(__file__).resolve().parents[1] / "src/erma/bots/nn/weights.npz"


def collect(job: tuple[str, str, float, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Expert self-play in one preset for ``seconds``: (inputs, masks, actions, hand numbers)."""
    preset, expert, seconds, seed = job
    rules = find_ruleset(preset)
    bots = [make_bot(expert, f"{seed}:{preset}:0"), make_bot(expert, f"{seed}:{preset}:1")]
    xs, ms, acts, hands = [], [], [], []
    end = time.process_time() + seconds
    i = 0
    while time.process_time() < end:
        rows, _ = record_hand(rules, hand_seed(f"train:{seed}:{preset}", i), bots)
        for planes, scalars, mask, action, _seat in rows:
            if mask.sum() > 1:
                xs.append(net_input(planes, scalars, preset))
                ms.append(mask.astype(bool))
                acts.append(action)
                hands.append(i)
        i += 1
    print(f"  {preset}: {i} hands, {len(acts)} samples", flush=True)
    return np.array(xs, dtype=np.float16), np.array(ms), np.array(acts, dtype=np.int64), np.array(hands)


def from_shards(folder: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Samples from ``erma sim --export`` shards (every bot's decisions with a choice)."""
    xs, ms, acts, hands = [], [], [], []
    for f in sorted(folder.glob("shard-*.npz")):
        with np.load(f) as d:
            rules = str(d["rules"])
            for planes, scalars, mask, action, game in zip(
                d["obs"], d["scalars"], d["mask"], d["action"], d["game"], strict=True
            ):
                if mask.sum() > 1:
                    xs.append(net_input(planes, scalars, rules))
                    ms.append(mask.astype(bool))
                    acts.append(int(action))
                    hands.append(int(game))
    return np.array(xs, dtype=np.float16), np.array(ms), np.array(acts, dtype=np.int64), np.array(hands)


def make_net(hidden: int):  # type: ignore[no-untyped-def]
    import torch

    return torch.nn.Sequential(
        torch.nn.Linear(NUM_INPUTS, hidden),
        torch.nn.ReLU(),
        torch.nn.Linear(hidden, hidden),
        torch.nn.ReLU(),
        torch.nn.Linear(hidden, NUM_ACTIONS),
    )


def imitate(net, x, m, y, hands, epochs: int, seed: int) -> dict[str, float]:  # type: ignore[no-untyped-def]
    import torch

    torch.manual_seed(seed)
    held = (hands % 10) == 0
    xt, mt, yt = torch.from_numpy(x), torch.from_numpy(m), torch.from_numpy(y)
    tr = torch.from_numpy(~held)
    va = torch.from_numpy(held)
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    idx = torch.nonzero(tr).squeeze(1)
    for epoch in range(epochs):
        perm = idx[torch.randperm(len(idx))]
        total = 0.0
        for b in range(0, len(perm), 256):
            j = perm[b : b + 256]
            logits = net(xt[j].float()).masked_fill(~mt[j], -1e9)
            loss = torch.nn.functional.cross_entropy(logits, yt[j])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += float(loss.detach()) * len(j)
        acc = accuracy(net, xt[va], mt[va], yt[va])
        print(f"  epoch {epoch + 1}: train loss {total / max(1, len(perm)):.3f}, held-out accuracy {acc:.3f}")
    return {"train_samples": int(tr.sum()), "heldout_samples": int(va.sum()), "heldout_accuracy": acc}


def accuracy(net, x, m, y) -> float:  # type: ignore[no-untyped-def]
    import torch

    if len(y) == 0:
        return float("nan")
    with torch.no_grad():
        pred = net(x.float()).masked_fill(~m, -1e9).argmax(1)
    return float((pred == y).float().mean())


def improve(net, expert: str, minutes: float, seed: int) -> dict[str, float]:  # type: ignore[no-untyped-def]
    """REINFORCE against the expert, one preset after another, reward = the hand's points."""
    import torch

    from erma.lab.env import SingleAgentEnv

    opt = torch.optim.Adam(net.parameters(), lr=1e-5)
    envs = {p: SingleAgentEnv(p, expert) for p in PRESET_NAMES}
    for i, e in enumerate(envs.values()):
        e.reset(seed=seed + i)
    baseline = dict.fromkeys(PRESET_NAMES, 0.0)
    rng = np.random.default_rng(seed)
    end = time.process_time() + minutes * 60
    hands = 0
    points = 0.0
    while time.process_time() < end:
        preset = PRESET_NAMES[hands % len(PRESET_NAMES)]
        e = envs[preset]
        obs, _ = e.reset()
        logps = []
        done = False
        ret = 0.0
        while not done:
            mask = obs["action_mask"].astype(bool)
            x = torch.from_numpy(net_input(obs["observation"], obs["scalars"], preset))
            logits = net(x).masked_fill(torch.from_numpy(~mask), -1e9)
            logp = torch.log_softmax(logits, 0)
            p = logp.exp().detach().numpy().astype(np.float64)
            a = int(rng.choice(NUM_ACTIONS, p=p / p.sum()))
            if mask.sum() > 1:
                logps.append(logp[a])
            obs, r, done, _, _ = e.step(a)
            ret += r
        adv = ret - baseline[preset]
        baseline[preset] += 0.05 * (ret - baseline[preset])
        if logps:
            loss = -adv * torch.stack(logps).sum() / 10.0
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), 1.0)
            opt.step()
        hands += 1
        points += ret
    print(f"  improvement: {hands} hands, mean points {points / max(1, hands):.3f} (sampling policy)")
    return {"improve_hands": hands, "improve_mean_points": points / max(1, hands)}


def load(path: Path):  # type: ignore[no-untyped-def]
    """A network with the weights of a saved ``.npz`` (to improve it further)."""
    import torch

    with np.load(path) as d:
        hidden = int(d["w0"].shape[1])
        net = make_net(hidden)
        layers = [m for m in net if hasattr(m, "weight")]
        with torch.no_grad():
            for i, layer in enumerate(layers):
                layer.weight.copy_(torch.from_numpy(d[f"w{i}"].astype(np.float32).T))
                layer.bias.copy_(torch.from_numpy(d[f"b{i}"].astype(np.float32)))
        meta = json.loads(str(d["meta"]))
    return net, meta


def save(net, path: Path, meta: dict[str, object]) -> None:  # type: ignore[no-untyped-def]
    layers = [m for m in net if hasattr(m, "weight")]
    arrays: dict[str, np.ndarray] = {"layers": np.array(len(layers))}
    for i, layer in enumerate(layers):
        arrays[f"w{i}"] = layer.weight.detach().numpy().T.astype(np.float16)
        arrays[f"b{i}"] = layer.bias.detach().numpy().astype(np.float16)
    arrays["meta"] = np.array(json.dumps(meta))
    np.savez_compressed(path, **arrays)
    print(f"  wrote {path} ({path.stat().st_size / 1024:.0f} KiB)")


class TimedBot:
    """A bot whose decision time is summed into ``timer`` ([seconds, decisions])."""

    def __init__(self, bot, timer: list) -> None:  # type: ignore[no-untyped-def, type-arg]
        self.bot = bot
        self.timer = timer
        self.name = bot.name
        self.uses_view = bot.uses_view

    def choose(self, view, legal):  # type: ignore[no-untyped-def]
        t0 = time.perf_counter()
        a = self.bot.choose(view, legal)
        self.timer[0] += time.perf_counter() - t0
        self.timer[1] += 1
        return a


def evaluate_preset(job: tuple[str, Path, str, int, int]) -> dict[str, object]:
    """Duplicate games nn vs the expert in one preset: mean nn points per wall (95% interval), wins."""
    from erma.bots.nn.bot import NNBot

    preset, weights, expert, walls, seed = job
    rules = find_ruleset(preset)
    timer = [0.0, 0]
    nn = TimedBot(NNBot(f"{seed}:nn", weights), timer)
    ex_timer = [0.0, 0]
    ex = TimedBot(make_bot(expert, f"{seed}:expert"), ex_timer)
    per_wall = []
    wins = [0, 0]
    draws = 0
    for w in range(walls):
        total = 0
        for nn_seat in (0, 1):
            bots = [nn, ex] if nn_seat == 0 else [ex, nn]
            st = play_hand(rules, hand_seed(f"eval:{seed}", w), bots)  # type: ignore[list-item]
            res = st.result
            assert res is not None
            total += res.deltas[nn_seat]
            if res.winner is None:
                draws += 1
            else:
                wins[0 if res.winner == nn_seat else 1] += 1
        per_wall.append(total)
    mean = statistics.fmean(per_wall)
    half = 1.96 * statistics.stdev(per_wall) / math.sqrt(walls) if walls > 1 else float("nan")
    games = 2 * walls
    out = {
        "walls": walls,
        "nn_points_per_wall": round(mean, 3),
        "ci95": [round(mean - half, 3), round(mean + half, 3)],
        "nn_wins": wins[0],
        "expert_wins": wins[1],
        "draws": draws,
        "nn_win_rate": round(wins[0] / games, 4),
        "expert_win_rate": round(wins[1] / games, 4),
        "nn_ms_per_decision": round(1000 * timer[0] / max(1, timer[1]), 3),
        "expert_ms_per_decision": round(1000 * ex_timer[0] / max(1, ex_timer[1]), 3),
    }
    print(f"  {preset}: {json.dumps(out)}", flush=True)
    return out


def evaluate(weights: Path, expert: str, walls: int, seed: int, workers: int) -> dict[str, object]:
    """:func:`evaluate_preset` for every preset, on ``workers`` processes."""
    jobs = [(p, weights, expert, walls, seed) for p in PRESET_NAMES]
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        return dict(zip(PRESET_NAMES, pool.map(evaluate_preset, jobs), strict=True))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--expert", default="greedy")
    parser.add_argument(
        "--data-minutes", type=float, default=5.0, help="CPU minutes of expert play per worker"
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--shards", type=Path, action="append", default=[], help="erma sim --export folders")
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--hidden", type=int, default=256)
    parser.add_argument("--improve-minutes", type=float, default=0.0)
    parser.add_argument("--eval-walls", type=int, default=0)
    parser.add_argument(
        "--eval-only", action="store_true", help="evaluate the weights at --out, train nothing"
    )
    parser.add_argument("--init", type=Path, default=None, help="improve these weights (no imitation)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()

    if args.init is not None and not args.eval_only:
        import torch

        torch.set_num_threads(1)
        net, meta = load(args.init)
        print("improvement", flush=True)
        t0 = time.perf_counter()
        meta.update(improve(net, args.expert, args.improve_minutes, args.seed))
        meta["improve_seconds"] = round(time.perf_counter() - t0)
        save(net, args.out, meta)
        print(json.dumps(meta))
    elif not args.eval_only:
        import torch

        torch.set_num_threads(max(1, args.workers))
        t0 = time.perf_counter()
        print("data: the expert plays itself", flush=True)
        per = args.data_minutes * 60 * args.workers / len(PRESET_NAMES)
        jobs = [(p, args.expert, per, args.seed) for p in PRESET_NAMES]
        with multiprocessing.get_context("spawn").Pool(args.workers) as pool:
            parts = pool.map(collect, jobs)
        for folder in args.shards:
            parts.append(from_shards(folder))
        offset = 0
        fixed = []
        for x, m, y, h in parts:
            fixed.append((x, m, y, h + offset))
            offset += int(h.max()) + 1 if len(h) else 0
        x = np.concatenate([p[0] for p in fixed])
        m = np.concatenate([p[1] for p in fixed])
        y = np.concatenate([p[2] for p in fixed])
        h = np.concatenate([p[3] for p in fixed])
        print(f"  {len(y)} samples in {time.perf_counter() - t0:.0f} s", flush=True)
        net = make_net(args.hidden)
        print("imitation", flush=True)
        meta: dict[str, object] = {"expert": args.expert, "hidden": args.hidden, "seed": args.seed}
        meta.update(imitate(net, x, m, y, h, args.epochs, args.seed))
        if args.improve_minutes > 0:
            print("improvement", flush=True)
            meta.update(improve(net, args.expert, args.improve_minutes, args.seed))
        meta["train_seconds"] = round(time.perf_counter() - t0)
        save(net, args.out, meta)
        print(json.dumps(meta))
    if args.eval_walls:
        print(f"evaluation: {args.eval_walls} walls per preset, duplicate, nn vs {args.expert}", flush=True)
        print(json.dumps(evaluate(args.out, args.expert, args.eval_walls, args.seed, args.workers)))


if __name__ == "__main__":
    main()
