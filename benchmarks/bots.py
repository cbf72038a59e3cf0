"""Bot decision time: ``level5`` (the expert) against ``greedy`` on fixed seeds, compiled and pure in one run.

Each preset plays ``--hands`` hands (the two bots swap seats every hand; hand i's wall and the bots' seeds
follow from ``--seed`` and i, as in self-play). A decision is what a table asks of a bot: build the seat
view, then ``choose`` among the legal actions (the legal actions themselves are listed before the clock
starts, as the table has them already); its time is process CPU time (robust to other load on a shared
machine). Every decision of the bot in question is timed, forced ones included. Prints per preset the
decisions, p50 / p95 / p99 / max in milliseconds, for the build this process runs (compiled after
``make install``) and for pure Python (``ERMA_PURE=1``, a child process on the same seeds:
benchmarks/builds.py), and a digest of every action chosen: the two builds must play the same games.

Usage: .venv/bin/python benchmarks/bots.py [--hands 20] [--bot level5] [--opponent greedy] [--seed 1]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

from erma.bots import make_bot
from erma.game import Phase, apply_unchecked, legal_actions, new_hand, seat_view
from erma.lab.selfplay import bot_seed, hand_seed
from erma.rules import find_ruleset

sys.path.insert(0, str(Path(__file__).resolve().parent))
from builds import PURE_SIDE, emit, pure_side, this_build

PRESETS = ["cuopai789", "classic64", "wushuang128", "wenzhou2p"]


def pct(xs: list[float], q: float) -> float:
    """Nearest-rank percentile."""
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, round(q / 100 * len(s)) - 1))]


def decision_times(preset: str, bot: str, opponent: str, hands: int, seed: int) -> tuple[list[float], str]:
    """The CPU milliseconds of each of ``bot``'s decisions over ``hands`` hands, and the digest of every
    action chosen (both bots')."""
    rules = find_ruleset(preset)
    times: list[float] = []
    digest = hashlib.sha256()
    for i in range(hands):
        names = [bot, opponent] if i % 2 == 0 else [opponent, bot]
        bots = [make_bot(names[s], bot_seed(seed, i, s)) for s in (0, 1)]
        state = new_hand(rules, hand_seed(seed, i))
        while state.phase is not Phase.END:
            seat = state.actor
            legal = legal_actions(state, seat)
            t0 = time.process_time()
            action = bots[seat].choose(seat_view(state, seat, legal), legal)
            if names[seat] == bot:
                times.append((time.process_time() - t0) * 1000)
            digest.update(action.to_str().encode())
            apply_unchecked(state, seat, action)
    return times, digest.hexdigest()[:16]


def summary(times: list[float]) -> dict[str, float]:
    return {
        "decisions": len(times),
        **{k: round(pct(times, q), 2) for k, q in (("p50", 50), ("p95", 95), ("p99", 99), ("max", 100))},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--bot", default="level5")
    parser.add_argument("--opponent", default="greedy")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--presets", default=",".join(PRESETS))
    parser.add_argument(PURE_SIDE, action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    presets = args.presets.split(",")

    def measure() -> dict[str, object]:
        out: dict[str, object] = {"build": this_build()}
        for preset in presets:
            times, digest = decision_times(preset, args.bot, args.opponent, args.hands, args.seed)
            out[preset] = {**summary(times), "digest": digest}
        return out

    if args.pure_side:
        emit(measure())
        return
    flags = ["--hands", str(args.hands), "--bot", args.bot, "--opponent", args.opponent]
    pure = pure_side(__file__, [*flags, "--seed", str(args.seed), "--presets", args.presets])
    assert pure["build"] == "pure", pure
    mine = measure()
    print(f"{args.bot} decisions against {args.opponent}, {args.hands} hands a preset, CPU ms a decision")
    print(f"{'preset':<12} {'build':<9} {'n':>5} {'p50':>7} {'p95':>7} {'p99':>7} {'max':>7}  digest")
    for preset in presets:
        for side in (mine, pure):
            r = side[preset]
            assert isinstance(r, dict)
            print(
                f"{preset:<12} {side['build']:<9} {r['decisions']:>5} {r['p50']:>7} {r['p95']:>7} "
                f"{r['p99']:>7} {r['max']:>7}  {r['digest']}"
            )
        m, p = mine[preset], pure[preset]
        assert isinstance(m, dict) and isinstance(p, dict)
        same = "same games" if m["digest"] == p["digest"] else "DIFFERENT GAMES"
        print(f"{'':<12} p95 compiled/pure ×{p['p95'] / max(m['p95'], 1e-9):.2f} faster; {same}")
    print(json.dumps({"compiled" if mine["build"] == "compiled" else "this": mine, "pure": pure}))


if __name__ == "__main__":
    main()
