"""Labelled decisions (专家标注) for the ``nn`` bot: hands played by a policy, every decision labelled by an
expert (``level5`` by default), stored as replays so any input encoding can be rebuilt without the expert.

A shard ``DIR/<preset>-<tag>-NNNNN.npz`` holds ``--hands-per-shard`` hands. Per hand: its seed and dealer;
per decision (every decision of either seat, forced ones included): the position of the action played in
``legal_actions`` (``played``), the fixed-space index of the expert's choice (``label``, -1 where the seat
had one allowed action) and the seat. :func:`replay` walks a shard's hands again and yields each labelled
decision's view, legal actions and label, so the features are computed at training time.

Who plays: the expert itself (``--mix 1``, the default: self-play), or, DAgger-style, the nn with weights
``--policy PATH`` with probability ``1 - mix`` per hand and seat (the expert still labels every state the nn
reaches). The data is resumable: a rerun with the same arguments skips the shards already written, and the
hand seeds are ``hand_seed("nn-data:<tag>:<preset>", i)``, never those of ``erma arena``.

Usage (nice it: the expert is slow, ~10–60 ms a decision):

    nice -n 10 .venv/bin/python scripts/nn_data.py --preset cuopai789 --tag a --minutes 60 --out runs/nn/data
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from erma.bots import Bot, make_bot
from erma.bots.nn.features import action_index
from erma.game import Phase, apply_unchecked, legal_actions, new_hand, seat_view
from erma.game.actions import Action
from erma.game.seatview import SeatView
from erma.lab.selfplay import hand_seed
from erma.rules import find_ruleset


def play_labelled(
    preset: str, seed: str, players: list[Bot], expert: list[Bot]
) -> tuple[int, list[int], list[int], list[int]]:
    """One hand: ``players[s]`` acts at seat s, ``expert[s]`` labels it (the same bot object when the
    expert plays). Returns (dealer, played positions, labels, seats)."""
    rules = find_ruleset(preset)
    state = new_hand(rules, seed)
    dealer = state.dealer
    played: list[int] = []
    labels: list[int] = []
    seats: list[int] = []
    while state.phase is not Phase.END:
        seat = state.actor
        legal = legal_actions(state, seat)
        view = seat_view(state, seat, legal)
        want = expert[seat].choose(view, legal)
        label = action_index(want) if len(legal) > 1 else -1
        act = want if players[seat] is expert[seat] else players[seat].choose(view, legal)
        played.append(legal.index(act) if act in legal else _closest(act, legal))
        labels.append(label)
        seats.append(seat)
        apply_unchecked(state, seat, legal[played[-1]])
    return dealer, played, labels, seats


def _closest(act: Action, legal: list[Action]) -> int:
    """The position of ``act`` in ``legal`` (a pick's position is drawn: the first pick of that index)."""
    for i, a in enumerate(legal):
        if a.kind is act.kind and a.index == act.index:
            return i
    raise ValueError(f"{act} is not legal")


def write_shard(
    path: Path, preset: str, hands: list[tuple[str, int, list[int], list[int], list[int]]]
) -> None:
    """Write ``hands`` (seed, dealer, played, labels, seats) as one shard."""
    lengths = [len(h[2]) for h in hands]
    tmp = path.with_suffix(".tmp.npz")
    np.savez_compressed(
        tmp,
        preset=np.array(preset),
        seeds=np.array([h[0] for h in hands]),
        dealers=np.array([h[1] for h in hands], dtype=np.int8),
        lengths=np.array(lengths, dtype=np.int32),
        played=np.array([p for h in hands for p in h[2]], dtype=np.int16),
        labels=np.array([p for h in hands for p in h[3]], dtype=np.int16),
        seats=np.array([p for h in hands for p in h[4]], dtype=np.int8),
    )
    tmp.replace(path)


def replay(path: Path) -> Iterator[tuple[str, int, SeatView, list[Action], int]]:
    """Each labelled decision of a shard: (preset, hand number in the shard, view, legal, label index)."""
    with np.load(path) as d:
        preset = str(d["preset"])
        seeds, lengths = d["seeds"], d["lengths"]
        played, labels = d["played"], d["labels"]
    rules = find_ruleset(preset)
    at = 0
    for h, (seed, n) in enumerate(zip(seeds, lengths, strict=True)):
        state = new_hand(rules, str(seed))
        for j in range(at, at + int(n)):
            seat = state.actor
            legal = legal_actions(state, seat)
            if labels[j] >= 0:
                yield preset, h, seat_view(state, seat, legal), legal, int(labels[j])
            apply_unchecked(state, seat, legal[int(played[j])])
        assert state.phase is Phase.END, f"{path}: hand {h} did not replay to its end"
        at += int(n)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", required=True)
    parser.add_argument("--expert", default="level5")
    parser.add_argument("--tag", default="a", help="names the run's seeds and shards")
    parser.add_argument("--minutes", type=float, default=60.0, help="wall-clock minutes, then stop")
    parser.add_argument("--hands-per-shard", type=int, default=20)
    parser.add_argument("--policy", type=Path, default=None, help="nn weights that play (DAgger)")
    parser.add_argument("--mix", type=float, default=1.0, help="chance the expert plays a seat's hand")
    parser.add_argument("--out", type=Path, default=Path("runs/nn/data"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    end = time.time() + args.minutes * 60
    base = f"nn-data:{args.tag}:{args.preset}"
    shard = 0
    while time.time() < end:
        path = args.out / f"{args.preset}-{args.tag}-{shard:05d}.npz"
        if path.exists():
            shard += 1
            continue
        hands: list[Any] = []
        t0 = time.time()
        decisions = 0
        for k in range(args.hands_per_shard):
            i = shard * args.hands_per_shard + k
            seed = hand_seed(base, i)
            expert = [make_bot(args.expert, f"{base}:{i}:{s}") for s in (0, 1)]
            players: list[Bot] = list(expert)
            if args.policy is not None:
                pick = random.Random(f"{base}:{i}:mix")
                for s in (0, 1):
                    if pick.random() >= args.mix:
                        players[s] = make_bot(f"nn:{args.policy}", f"{base}:{i}:nn{s}")
            dealer, played, labels, seats = play_labelled(args.preset, seed, players, expert)
            hands.append((seed, dealer, played, labels, seats))
            decisions += sum(1 for x in labels if x >= 0)
        write_shard(path, args.preset, hands)
        print(
            f"{path.name}: {len(hands)} hands, {decisions} labelled decisions, {time.time() - t0:.0f} s",
            flush=True,
        )
        shard += 1


if __name__ == "__main__":
    main()
