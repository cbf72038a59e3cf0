"""The expert's typical rates (``erma.bots.expert.TYPICAL_SLOPE`` and ``TYPICAL_VALUE``) against the exact
lookahead they stand in for.

A hand two or more from ready is valued by rates: its own level's unseen useful tiles exactly, each level
below at a typical rate, and a ready hand worth a share of the mean win. One from ready the estimate looks a
draw ahead to scored waits. So a claim that brings a hand from two to one from ready compares a rates value
(passing) with an exact one (claiming): if the rates are too optimistic, claims look worse than they are.
This script plays ``level5`` against ``greedy``, takes half of the 3k+1 hands two or three from ready left by
a discard, and values each both ways — with the exact lookahead carried down to ready (every improving draw,
the best discard, …, the scored waits) and with the rates of each ``(slope, value)`` on a grid — and prints
each setting's bias (rates − exact, points) and RMSE, the best first, and the current constants'.

Usage: nice .venv/bin/python benchmarks/typical_rates.py [--hands 300] [--seed cr] [--presets …]
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import statistics
from collections.abc import Sequence

from erma.analysis.tables import INC
from erma.bots import expert as ex
from erma.bots import make_bot
from erma.bots.base import BotView
from erma.bots.expert import Estimator, Settings
from erma.game import Phase, apply_unchecked, legal_actions, new_hand, seat_view
from erma.game.actions import Kind
from erma.lab.runner import run_walls
from erma.lab.selfplay import hand_seed
from erma.rules import find_ruleset

GRID = [(sl, v) for sl in (0.25, 0.5, 0.75, 1.0, 1.5) for v in (0.5, 0.6, 0.65, 0.7, 0.8, 0.9, 1.0)]


def rates_value(view: BotView, key: int, n: int, turns: int, slope: float, share: float) -> float:
    est = Estimator(view, Settings(base=False, depth=2, typical_slope=slope, typical_value=share))
    a, _ = est.race(key, n, view.jokers, view.melds, turns)
    return a[turns]


@dataclasses.dataclass(frozen=True)
class Config:
    preset: str
    seed: str


Row = tuple[int, bool, float, list[float]]


def shard(config: Config, hands: Sequence[int]) -> list[list[Row]]:
    """Per hand: (shanten, concealed, exact value, rates value per grid setting) of its sampled hands."""
    rules = find_ruleset(config.preset)
    out: list[list[Row]] = []
    for i in hands:
        rows: list[Row] = []
        out.append(rows)
        s = hand_seed(config.seed, i)
        bots = [make_bot("level5", f"{s}:0"), make_bot("greedy", f"{s}:1")]
        state = new_hand(rules, s, i % 2)
        rng = random.Random(s)
        while state.phase is not Phase.END:
            seat = state.actor
            legal = legal_actions(state, seat)
            view = seat_view(state, seat)
            action = bots[seat].choose(view, legal)
            if view.phase is Phase.TURN and action.kind is Kind.DISCARD and not view.riichi[seat]:
                p = view.play(action.tile)
                key, n = view.key - INC[p], view.size - 1
                sh = Estimator(view, Settings()).shanten(key, n, view.jokers)
                if sh in (2, 3) and p >= 0 and rng.random() < 0.5:
                    turns = max(1, view.draws_left // 2)
                    exact = Estimator(view, Settings(base=False, depth=sh + 1))  # a draw ahead to ready
                    a, _ = exact.race(key, n, view.jokers, view.melds, turns)
                    concealed = all(m.is_concealed for m in view.melds)
                    grid = [rates_value(view, key, n, turns, sl, v) for sl, v in GRID]
                    rows.append((sh, concealed, a[turns], grid))
            apply_unchecked(state, seat, action)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=300)
    ap.add_argument("--seed", default="cr")
    ap.add_argument("--presets", default="cuopai789,classic64,wushuang128,wenzhou2p")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    now = (ex.TYPICAL_SLOPE, ex.TYPICAL_VALUE)
    for preset in args.presets.split(","):
        hands = run_walls(shard, Config(preset, args.seed), args.hands, workers=args.workers)
        rows = [r for hand in hands for r in hand]
        for sh in (2, 3):
            for concealed in (True, False):
                got = [r for r in rows if r[0] == sh and r[1] == concealed]
                if len(got) < 5:
                    continue
                exact = statistics.mean(r[2] for r in got)
                print(
                    f"{preset} {sh} from ready, {'concealed' if concealed else 'open'}: {len(got)} hands, "
                    f"exact value {exact:+.2f}"
                )
                scored = []
                for gi, g in enumerate(GRID):
                    bias = statistics.mean(r[3][gi] - r[2] for r in got)
                    rmse = statistics.mean((r[3][gi] - r[2]) ** 2 for r in got) ** 0.5
                    scored.append((rmse, bias, g))
                for rmse, bias, g in sorted(scored)[:3]:
                    print(f"   slope {g[0]}, value {g[1]}: bias {bias:+.2f}, RMSE {rmse:.2f}")
                for rmse, bias, g in scored:
                    if g == now:
                        print(f"   now (slope {g[0]}, value {g[1]}): bias {bias:+.2f}, RMSE {rmse:.2f}")
                    if g == (1.5, 1.0):
                        print(f"   before (slope 1.5, value 1.0): bias {bias:+.2f}, RMSE {rmse:.2f}")


if __name__ == "__main__":
    main()
