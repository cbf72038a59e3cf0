"""The rollout bot against level5 in duplicate (lab, issue #39): the arena's walls and bot seeds, one line per
game, then paired statistics.

    python scripts/rollout_arena.py play --rules classic64 --walls 200 --seed h39r2-tune \
        --a rollout --samples 16 --top 3 --z 1 --out runs/roll/tune-r.jsonl
    python scripts/rollout_arena.py play --rules classic64 --walls 200 --seed h39r2-tune --a level5 \
        --out runs/roll/tune-l5.jsonl
    python scripts/rollout_arena.py summary runs/roll/tune-r.jsonl [--base runs/roll/tune-l5.jsonl]
    python scripts/rollout_arena.py cost --rules classic64 --positions 40 --samples 8

``play``: bot A (``rollout`` or ``level5``) against bot B (``--b``, level5 by default) on each wall twice,
A in seat g of game g, every bot seeded as :func:`erma.lab.arena.play_wall` seeds it, so a ``level5`` run of
the same seed is the rollout bot's run with no decision changed (``--b greedy``: the issue's match, paired the
same way). ``summary``: the duplicate difference (A − B) / 2 a hand with its 95 % interval, and with
``--base`` (the ``level5`` run of the same seed and B) the paired difference of A's points per wall (walls
where the rollouts changed nothing differ by 0); A's decision times (process CPU) p50 / p95, over all its
decisions and over those it rolled out. ``cost``: the process CPU of one rollout (greedy both seats from a
determinized state) at positions of real games.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path


def _rank(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q * len(s) + 0.5) - 1))]


def play(args: argparse.Namespace) -> None:
    from erma.bots import make_bot
    from erma.game import Phase, apply_unchecked, legal_actions, new_hand, seat_view
    from erma.lab.arena import arena_bot_seed, duplicate_games
    from erma.lab.rollout import RolloutBot
    from erma.rules import find_ruleset

    rules = find_ruleset(args.rules)
    where = frozenset(args.where.split("+"))
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("a" if args.start else "w", encoding="utf-8") as fh:
        for wall, g, seed, dealer in duplicate_games(args.seed, range(args.start, args.walls)):
            a_seat = g
            bots = []
            for s in (0, 1):
                bseed = arena_bot_seed(args.seed, wall, g, s)
                if s == a_seat and args.a == "rollout":
                    bots.append(
                        RolloutBot(
                            bseed,
                            samples=args.samples,
                            top=args.top,
                            near=args.near,
                            z=args.z,
                            where=where,
                            budget_s=args.budget,
                            check=args.check,
                            self_level5=args.self_level5,
                            history=args.history,
                        )
                    )
                else:
                    bots.append(make_bot(args.a if s == a_seat else args.b, bseed))
            state = new_hand(rules, seed, dealer)
            times: list[float] = []
            while state.phase is not Phase.END:
                seat = state.actor
                legal = legal_actions(state, seat)
                t0 = time.process_time()
                action = bots[seat].choose(seat_view(state, seat, legal), legal)
                if seat == a_seat:
                    times.append(time.process_time() - t0)
                apply_unchecked(state, seat, action)
            res = state.result
            assert res is not None
            row: dict[str, object] = {
                "wall": wall,
                "g": g,
                "a": res.deltas[a_seat],
                "b": res.deltas[1 - a_seat],
                "ms": [round(t * 1000, 2) for t in times],
            }
            bot = bots[a_seat]
            if isinstance(bot, RolloutBot):
                row["rolled"] = [
                    {
                        "phase": d.phase,
                        "base": d.base,
                        "chosen": d.chosen,
                        "means": d.means,
                        "k": d.samples,
                        "ms": round(d.cpu_s * 1000, 1),
                        "check": d.check,
                    }
                    for d in bot.stats.decisions
                ]
                row["rollouts"] = bot.stats.rollouts
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
            fh.flush()


def _rows(path: str) -> list[dict]:  # type: ignore[type-arg]
    return [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines() if line]


def _ci(d: list[float]) -> str:
    m = statistics.mean(d)
    half = 1.96 * statistics.stdev(d) / len(d) ** 0.5 if len(d) > 1 else float("nan")
    return f"{m:+.2f} ({m - half:+.2f} … {m + half:+.2f})"


def summary(args: argparse.Namespace) -> None:
    rows = _rows(args.file)
    per: dict[int, float] = {}
    for r in rows:
        per[r["wall"]] = per.get(r["wall"], 0.0) + (r["a"] - r["b"]) / 2
    walls = sorted(w for w in per if sum(1 for r in rows if r["wall"] == w) == 2)
    d = [per[w] for w in walls]
    sd = statistics.pstdev([r["a"] for r in rows])
    print(f"walls {len(walls)}  duplicate diff (A−B)/2 a hand {_ci(d)}  sd_hand {sd:.1f}")
    if args.base:
        base = _rows(args.base)
        mine: dict[int, float] = {}
        theirs: dict[int, float] = {}
        for r in rows:
            mine[r["wall"]] = mine.get(r["wall"], 0.0) + r["a"] / 2
        for r in base:
            theirs[r["wall"]] = theirs.get(r["wall"], 0.0) + r["a"] / 2
        common = [w for w in walls if w in theirs]
        p = [mine[w] - theirs[w] for w in common]
        print(
            f"paired with the base run: walls {len(p)}  differ {sum(1 for x in p if x)}  "
            f"A − base's A a hand {_ci(p)}"
        )
    ms = [t for r in rows for t in r["ms"]]
    print(
        f"A's decisions {len(ms)}: p50 {_rank(ms, 0.5):.1f} ms  p95 {_rank(ms, 0.95):.1f} ms  "
        f"max {max(ms):.0f} ms"
    )
    rolled = [d for r in rows for d in r.get("rolled", [])]
    if rolled:
        rm = [d["ms"] for d in rolled]
        changed = [d for d in rolled if d["chosen"] != d["base"]]
        n_roll = sum(r.get("rollouts", 0) for r in rows)
        turns = sum(1 for d in rolled if d["phase"] == "turn")
        print(
            f"rolled out {len(rolled)} ({len(rolled) / len(rows):.1f} a game; turn "
            f"{turns}, claim {len(rolled) - turns})"
            f"  changed {len(changed)}  p50 {_rank(rm, 0.5):.0f} ms  p95 {_rank(rm, 0.95):.0f} ms"
            f"  {sum(rm) / max(1, n_roll):.2f} ms a rollout"
        )
        seen = [d["means"][d["chosen"]] - d["means"][d["base"]] for d in changed]
        print(f"gain the choosing samples saw in changed choices: {sum(seen) / len(rows):+.2f} a game")
        checks = [d["check"] for d in changed if d.get("check") is not None]
        if checks:
            print(
                f"the same on fresh samples ({len(checks)} checked): {_ci(checks)} a changed choice, "
                f"{sum(checks) / len(rows):+.2f} a game"
            )


def cost(args: argparse.Namespace) -> None:
    import random

    from erma.bots import make_bot
    from erma.game import Phase, apply_unchecked, legal_actions, new_hand, seat_view
    from erma.lab.rollout import determinize, greedy_policy, level5_self_policy
    from erma.lab.selfplay import play_out
    from erma.rules import find_ruleset

    rules = find_ruleset(args.rules)
    rng = random.Random(1)
    views = []
    h = 0
    while len(views) < args.positions:
        state = new_hand(rules, f"cost:{h}", h % 2)
        bots = [make_bot("level5", f"c{h}:0"), make_bot("level5", f"c{h}:1")]
        while state.phase is not Phase.END:
            seat = state.actor
            legal = legal_actions(state, seat)
            view = seat_view(state, seat, legal)
            if state.phase is Phase.TURN and rng.random() < 0.15:
                views.append(view)
            apply_unchecked(state, seat, bots[seat].choose(view, legal))
        h += 1
    views = views[: args.positions]
    det_t = play_t = 0.0
    n = 0
    for i, view in enumerate(views):
        for k in range(args.samples):
            t0 = time.process_time()
            st = determinize(view, rules, random.Random(f"{i}:{k}"), history=args.history)
            t1 = time.process_time()
            apply_unchecked(st, view.seat, view.legal[-1])
            pol = level5_self_policy(view.seat) if args.self_level5 else greedy_policy
            play_out(st, [pol(s, f"{i}:{k}:{s}") for s in (0, 1)])
            t2 = time.process_time()
            det_t += t1 - t0
            play_t += t2 - t1
            n += 1
    print(
        f"{n} rollouts from {len(views)} positions: determinize {1000 * det_t / n:.2f} ms, "
        f"play out {1000 * play_t / n:.2f} ms a rollout"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("play")
    p.add_argument("--rules", required=True)
    p.add_argument("--walls", type=int, required=True)
    p.add_argument("--start", type=int, default=0)
    p.add_argument("--seed", required=True)
    p.add_argument("--a", default="rollout", help="bot A: rollout or a registry name (level5)")
    p.add_argument("--b", default="level5", help="bot B, a registry name")
    p.add_argument("--samples", type=int, default=16)
    p.add_argument("--top", type=int, default=3)
    p.add_argument("--near", type=int, default=2)
    p.add_argument("--z", type=float, default=1.0)
    p.add_argument("--where", default="turn+claim")
    p.add_argument(
        "--budget", type=float, default=None, help="process CPU seconds a decision (after a sample)"
    )
    p.add_argument("--check", type=int, default=0, help="re-measure a changed choice on N fresh samples")
    p.add_argument("--self-level5", action="store_true", help="rollouts play level5 in the seat's place")
    p.add_argument("--history", action="store_true", help="the opponent's hand shaped by its draws")
    p.add_argument("--out", required=True)
    s = sub.add_parser("summary")
    s.add_argument("file")
    s.add_argument("--base", default="")
    c = sub.add_parser("cost")
    c.add_argument("--rules", default="classic64")
    c.add_argument("--positions", type=int, default=40)
    c.add_argument("--samples", type=int, default=8)
    c.add_argument("--self-level5", action="store_true")
    c.add_argument("--history", action="store_true")
    args = ap.parse_args()
    {"play": play, "summary": summary, "cost": cost}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
