"""Train the ``nn`` bot by imitation of an expert (``level5``): fit a multilayer perceptron on the labelled
decisions of scripts/nn_data.py, write the weights (float16 ``.npz``) the bot runs with numpy.

Needs the ``rl`` extra (PyTorch, CPU build). The recipe (docs/bots.md, "The learned bot"):

1. data, the slow part (the expert takes ~10–60 ms a decision), one process, niced, resumable::

       nice -n 10 .venv/bin/python scripts/nn_data.py --preset cuopai789 --minutes 45 --out runs/nn/data
       (then wenzhou2p, classic64, wushuang128; DAgger: --policy WEIGHTS --mix 0.5 --tag d1)

2. features: each shard is replayed once and its inputs (erma.bots.nn.features.net_input, encoding 2),
   masks and labels cached beside it (``cache-<inputs>/``), so reruns and resumed runs skip that work;
3. fit: masked cross-entropy, Adam, ``--epochs``; every epoch a checkpoint (``RUN/ckpt.pt``: network,
   optimiser, epoch; ``--resume`` continues from it), the held-out accuracy (hands whose number in their
   shard is ≡ 0 mod 10) per preset in ``RUN/curve.csv``, and the weights at ``--out``.

Measure with the arena on seeds training never used: ``erma arena --bots nn:OUT,greedy --rules R``.

Usage: .venv/bin/python scripts/train_nn.py --data runs/nn/data --run runs/nn/fit [--epochs 12]
       [--hidden 256] [--presets cuopai789,wenzhou2p] [--resume] [--init runs/nn/other/ckpt.pt or WEIGHTS.npz]
       [--out src/erma/bots/nn/weights.npz]
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import time
from pathlib import Path

import numpy as np

from erma.bots.nn.features import (
    NUM_ACTIONS,
    NUM_INPUTS,
    NUM_PLANES,
    NUM_SCALARS,
    PRESET_NAMES,
    action_table,
    encode,
    net_input,
)

sys.path.insert(0, str(Path(__file__).resolve().parent))
from nn_data import replay

OUT = Path(__file__).resolve().parents[1] / "src/erma/bots/nn/weights.npz"


def features(shard: Path) -> Path:
    """The cached inputs of one shard (built on first use): x (float16), mask (bool), y, hand, preset."""
    cache = shard.parent / f"cache-{NUM_INPUTS}" / shard.name
    if cache.exists() and cache.stat().st_mtime >= shard.stat().st_mtime:
        return cache
    cache.parent.mkdir(exist_ok=True)
    planes = np.zeros((NUM_PLANES, 34), dtype=np.uint8)
    scalars = np.zeros(NUM_SCALARS, dtype=np.uint8)
    xs, ms, ys, hs = [], [], [], []
    preset = ""
    for preset, hand, view, legal, label in replay(shard):
        mask, table = action_table(view, legal)
        if len(table) < 2 or not mask[label]:
            continue
        encode(view, planes, scalars)
        xs.append(net_input(planes, scalars, preset).astype(np.float16))
        ms.append(mask.astype(bool))
        ys.append(label)
        hs.append(hand)
    tmp = cache.with_suffix(".tmp.npz")
    np.savez(
        tmp,
        x=np.array(xs, dtype=np.float16).reshape(-1, NUM_INPUTS),
        mask=np.array(ms, dtype=bool).reshape(-1, NUM_ACTIONS),
        y=np.array(ys, dtype=np.int64),
        hand=np.array(hs, dtype=np.int32),
        preset=np.array(PRESET_NAMES.index(preset) if preset in PRESET_NAMES else -1),
    )
    tmp.replace(cache)
    return cache


def load_data(folders: list[Path], presets: set[str], most: int = 0) -> dict[str, np.ndarray]:
    """Every shard's cached inputs (the first ``most`` of each preset if ``most``), concatenated (``held``:
    the held-out tenth)."""
    parts: dict[str, list[np.ndarray]] = {k: [] for k in ("x", "mask", "y", "held", "preset")}
    t0 = time.time()
    shards = [s for f in folders for s in sorted(f.glob("*.npz")) if ".tmp" not in s.name]
    shards = [s for s in shards if s.name.split("-")[0] in presets]
    if most:
        shards = [
            s for p in sorted(presets) for s in [t for t in shards if t.name.startswith(p + "-")][:most]
        ]
    for i, shard in enumerate(shards):
        with np.load(features(shard)) as d:
            n = len(d["y"])
            parts["x"].append(d["x"])
            parts["mask"].append(d["mask"])
            parts["y"].append(d["y"])
            parts["held"].append(d["hand"] % 10 == 0)
            parts["preset"].append(np.full(n, int(d["preset"]), dtype=np.int8))
        if (i + 1) % 25 == 0:
            print(f"  features: {i + 1}/{len(shards)} shards, {time.time() - t0:.0f} s", flush=True)
    out = {k: np.concatenate(v) for k, v in parts.items()}
    print(f"  {len(shards)} shards, {len(out['y'])} decisions, {time.time() - t0:.0f} s", flush=True)
    return out


def make_net(hidden: int, kind: bool = True):  # type: ignore[no-untyped-def]
    """The trunk (two ReLU layers), the action head, and the per-kind head (erma.lab.env.policy)."""
    from erma.lab.env.policy import KindHeadNet

    return KindHeadNet(hidden, kind)


def accuracy(net, x, m, y) -> float:  # type: ignore[no-untyped-def]
    import torch

    if len(y) == 0:
        return float("nan")
    with torch.no_grad():
        right = 0
        for b in range(0, len(y), 4096):
            pred = net(x[b : b + 4096].float()).masked_fill(~m[b : b + 4096], -1e9).argmax(1)
            right += int((pred == y[b : b + 4096]).sum())
    return right / len(y)


def save(net, path: Path, meta: dict[str, object]) -> None:  # type: ignore[no-untyped-def]
    """The weights as the bot reads them (float16, layers ``w{i}`` input × output)."""
    from erma.lab.env.policy import network_arrays

    arrays = network_arrays(net, np.float16)
    arrays["meta"] = np.array(json.dumps(meta))
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, **arrays)
    print(f"  wrote {path} ({path.stat().st_size / 1024:.0f} KiB)", flush=True)


def fit(args: argparse.Namespace) -> None:
    import torch

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    data = load_data(args.data, set(args.presets.split(",")), args.most_shards)
    x = torch.from_numpy(data["x"])
    m = torch.from_numpy(data["mask"])
    y = torch.from_numpy(data["y"])
    held = data["held"]
    preset = data["preset"]
    net = make_net(args.hidden, not args.no_kind_head)
    opt = torch.optim.Adam(net.parameters(), lr=args.lr, weight_decay=args.weight_decay)
    args.run.mkdir(parents=True, exist_ok=True)
    ckpt = args.run / "ckpt.pt"
    start = 0
    if args.init is not None and not (args.resume and ckpt.exists()):
        if args.init.suffix == ".npz":  # a weights file (float16): the network it was written from
            from erma.lab.env.policy import load_network

            load_network(net, args.init)
        else:
            net.load_state_dict(torch.load(args.init)["net"])
        print(f"  started from {args.init}", flush=True)
    if args.resume and ckpt.exists():
        state = torch.load(ckpt)
        net.load_state_dict(state["net"])
        opt.load_state_dict(state["opt"])
        start = int(state["epoch"])
        print(f"  resumed at epoch {start}", flush=True)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=args.epochs, last_epoch=start - 1)
    train_idx = torch.from_numpy(np.nonzero(~held)[0])
    evals = {
        name: torch.from_numpy(np.nonzero(held & (preset == i))[0])
        for i, name in enumerate(PRESET_NAMES)
        if (held & (preset == i)).any()
    }
    curve = args.run / "curve.csv"
    if start == 0:
        with curve.open("w", newline="") as f:
            csv.writer(f).writerow(["epoch", "train_loss", "seconds", *(f"acc_{p}" for p in evals)])
    t0 = time.time()
    acc: dict[str, float] = {}
    if start == 0 and args.init is not None:
        net.eval()
        acc = {p: accuracy(net, x[i], m[i], y[i]) for p, i in evals.items()}
        print(
            "  epoch 0 (the --init network): held-out accuracy "
            + ", ".join(f"{p} {a:.4f}" for p, a in acc.items()),
            flush=True,
        )
        with curve.open("a", newline="") as f:
            csv.writer(f).writerow([0, "", 0, *(round(a, 5) for a in acc.values())])
    for epoch in range(start, args.epochs):
        net.train()
        perm = train_idx[torch.randperm(len(train_idx))]
        total = 0.0
        for b in range(0, len(perm), args.batch):
            j = perm[b : b + args.batch]
            logits = net(x[j].float()).masked_fill(~m[j], -1e9)
            loss = torch.nn.functional.cross_entropy(logits, y[j])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += float(loss.detach()) * len(j)
        sched.step()
        net.eval()
        acc = {p: accuracy(net, x[i], m[i], y[i]) for p, i in evals.items()}
        loss_mean = total / max(1, len(perm))
        print(
            f"  epoch {epoch + 1}: train loss {loss_mean:.4f}, held-out accuracy "
            + ", ".join(f"{p} {a:.4f}" for p, a in acc.items()),
            flush=True,
        )
        with curve.open("a", newline="") as f:
            csv.writer(f).writerow(
                [
                    epoch + 1,
                    round(loss_mean, 5),
                    round(time.time() - t0),
                    *(round(a, 5) for a in acc.values()),
                ]
            )
        torch.save({"net": net.state_dict(), "opt": opt.state_dict(), "epoch": epoch + 1}, ckpt)
    meta: dict[str, object] = {
        "expert": args.expert,
        "encoding": 2,
        "hidden": args.hidden,
        "kind_head": not args.no_kind_head,
        "seed": args.seed,
        "epochs": args.epochs,
        "train_samples": len(train_idx),
        "heldout_accuracy": acc,
        "presets": args.presets,
    }
    save(net, args.out, meta)
    print(json.dumps(meta), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--data", type=Path, action="append", required=True, help="scripts/nn_data.py folders"
    )
    parser.add_argument("--run", type=Path, default=Path("runs/nn/fit"), help="checkpoint and curve")
    parser.add_argument("--presets", default=",".join(PRESET_NAMES))
    parser.add_argument("--most-shards", type=int, default=0, help="use at most this many shards a preset")
    parser.add_argument("--expert", default="level5", help="only recorded in the weights' metadata")
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--hidden", type=int, default=256)
    parser.add_argument("--no-kind-head", action="store_true", help="a plain MLP (as the first nn)")
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--weight-decay", type=float, default=1e-5)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--resume", action="store_true")
    parser.add_argument(
        "--init", type=Path, default=None, help="start from this checkpoint (ckpt.pt) or weights file (.npz)"
    )
    parser.add_argument("--out", type=Path, default=OUT)
    fit(parser.parse_args())


if __name__ == "__main__":
    main()
