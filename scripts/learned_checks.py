"""Checks of a learned-value candidate (issue 39) that the level5 tests and benchmarks make of the default.

    python scripts/learned_checks.py textbook --weights-dir runs/h39o [--learned-from 3]
    python scripts/learned_checks.py speed --weights-dir runs/h39o --which candidate   # or level5

``textbook`` counts the clear-cut early discards of tests/bots/test_textbook.py that level5 with the weights
``w-<preset>-a.json`` of ``--weights-dir`` (``Settings.far_weights``) plays as the textbook does. ``speed``
times one bot's decisions in process CPU on the seeds of benchmarks/bots.py (8 hands a preset against
greedy); run each bot in its own process, as the caches warm for whichever runs second.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

PRESETS = ("classic64", "wushuang128")


def weights(folder: str, preset: str) -> tuple[float, ...]:
    path = Path(folder) / f"w-{preset}-a.json"
    return tuple(json.loads(path.read_text(encoding="utf-8"))) if path.exists() else ()


def textbook(args: argparse.Namespace) -> None:
    from scripts.textbook import OUT

    from erma.bots.expert import ExpertBot, Settings
    from erma.game.legal import legal_actions
    from erma.game.record import replay
    from erma.game.seatview import seat_view

    cases = json.loads(Path(OUT).read_text(encoding="utf-8"))["cases"]
    ok = 0
    for i, case in enumerate(cases):
        state = replay(case["record"])
        seat = case["seat"]
        view, legal = seat_view(state, seat), legal_actions(state, seat)
        st = Settings(far_weights=weights(args.weights_dir, case["rules"]), learned_from=args.learned_from)
        move = ExpertBot(f"textbook:{i}", settings=st, name="level5").choose(view, legal)
        ok += move.to_str() in (f"discard {case['best']}", f"discard {case['best']} riichi")
    print(
        f"level5 with the weights (learned_from={args.learned_from}): "
        f"the textbook discard in {ok} of {len(cases)}"
    )


def speed(args: argparse.Namespace) -> None:
    from erma.bots import make_bot
    from erma.bots.expert import ExpertBot, Settings
    from erma.game import Phase, apply_unchecked, legal_actions, new_hand, seat_view
    from erma.lab.selfplay import bot_seed, hand_seed
    from erma.rules import find_ruleset

    for preset in PRESETS:
        w = weights(args.weights_dir, preset) if args.which == "candidate" else ()
        st = Settings(far_weights=w, learned_from=args.learned_from)
        rules = find_ruleset(preset)
        times: list[float] = []
        for i in range(args.hands):
            mine = 0 if i % 2 == 0 else 1
            bots = [
                ExpertBot(bot_seed(1, i, s), settings=st, name="level5")
                if s == mine
                else make_bot("greedy", bot_seed(1, i, s))
                for s in (0, 1)
            ]
            state = new_hand(rules, hand_seed(1, i))
            while state.phase is not Phase.END:
                seat = state.actor
                legal = legal_actions(state, seat)
                t0 = time.process_time()
                action = bots[seat].choose(seat_view(state, seat, legal), legal)
                if seat == mine:
                    times.append((time.process_time() - t0) * 1000)
                apply_unchecked(state, seat, action)
        s = sorted(times)

        def pct(q: float, s: list[float] = s) -> float:
            return s[min(len(s) - 1, max(0, round(q / 100 * len(s)) - 1))]

        print(
            f"{preset} {args.which}: decisions {len(s)}  p50 {pct(50):.2f}  p95 {pct(95):.2f}  "
            f"p99 {pct(99):.2f}  max {s[-1]:.2f} ms"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("textbook", "speed"):
        p = sub.add_parser(name)
        p.add_argument("--weights-dir", required=True)
        p.add_argument("--learned-from", type=int, default=3)
        if name == "speed":
            p.add_argument("--which", choices=("level5", "candidate"), default="candidate")
            p.add_argument("--hands", type=int, default=8)
    args = ap.parse_args()
    {"textbook": textbook, "speed": speed}[args.cmd](args)


if __name__ == "__main__":
    main()
