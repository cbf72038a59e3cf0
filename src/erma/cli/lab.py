"""The lab's commands: ``erma sim`` (self-play), ``erma balance`` (rule options), ``erma arena`` (duplicate
matches) and ``erma loadtest`` (bot-driven tables through the real protocol)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from erma.cli.common import parse_options, progress_bar, runner_arguments


def _cmd_sim(args: argparse.Namespace) -> int:
    from erma.errors import RuleSetError
    from erma.lab.selfplay import run
    from erma.rules import find_ruleset

    rules = find_ruleset(args.rules, parse_options(args.option))
    bots = [b.strip() for b in args.bots.split(",")]
    if len(bots) != 2:
        raise RuleSetError(f"--bots {args.bots!r}: name two bots, e.g. greedy,random")
    if args.games < 1:
        raise RuleSetError(f"--games {args.games}: at least 1")
    records = Path(args.records) if args.records else None
    if args.export and (records is not None or args.cluster):
        raise RuleSetError("--export: not with --records or --cluster (the shards are written here)")
    with progress_bar(f"{args.rules} {args.bots}", args.no_progress) as progress:
        if args.export:
            from erma.lab.env.export import export_run

            stats = export_run(
                rules,
                bots,
                args.games,
                args.seed,
                Path(args.export),
                duplicate=args.duplicate,
                progress=None if progress is None else (lambda done: progress(done, args.games)),
                workers=args.workers,
            )
        else:
            stats = run(
                rules,
                bots,
                args.games,
                args.seed,
                duplicate=args.duplicate,
                records=records,
                progress=None if progress is None else (lambda done: progress(done, args.games)),
                workers=args.workers,
                cluster=args.cluster,
            )
    summary = stats.summary()
    if not args.json:
        print(
            f"{summary['rules']}: {summary['games']} games, {bots[0]} vs {bots[1]}"
            + (" (duplicate)" * args.duplicate)
        )
        for name, w, ci in zip(bots, summary["wins"], summary["win_rate_ci95"], strict=True):
            print(f"  {name:<8} wins {w:>6}  ({w / summary['games']:.1%}, 95% CI {ci[0]:.1%}–{ci[1]:.1%})")
        print(f"  draws    {summary['draws']:>6}   points {summary['points']}")
        print(f"  average hand length {summary['avg_actions_per_hand']} actions")
        print(f"  random events {summary['random_events']}")
        top = list(summary["fans"].items())[:12]
        print("  fans " + ", ".join(f"{k} {v}" for k, v in top))
        print(f"  {summary['games_per_second']} games/s, {summary['actions_per_second']} actions/s")
    print(json.dumps(summary, ensure_ascii=False) if args.json else "", end="\n" if args.json else "")
    return 0


def _cmd_balance(args: argparse.Namespace) -> int:
    import time

    from erma.errors import RuleSetError
    from erma.lab.balance import parse_vary, run_balance

    bots = [b.strip() for b in args.bots.split(",")]
    if len(bots) != 2:
        raise RuleSetError(f"--bots {args.bots!r}: name two bots, e.g. greedy,greedy")
    if not args.vary:
        raise RuleSetError("--vary KEY=V1,V2: name at least one option to vary (e.g. cuo_prob=0,0.05,0.2)")
    vary = parse_vary(args.vary)
    fixed = parse_options(args.option)
    if args.out:
        from erma.lab.balance_report import check_report_deps

        check_report_deps()
    t0 = time.perf_counter()
    with progress_bar(f"balance {args.rules}", args.no_progress) as progress:
        report = run_balance(
            args.rules,
            vary,
            args.walls,
            (bots[0], bots[1]),
            args.seed,
            fixed=fixed,
            workers=args.workers,
            cluster=args.cluster,
            progress=progress,
        )
    seconds = time.perf_counter() - t0
    hands = report["hands_per_combination"] * len(report["combinations"])
    where = f"cluster {args.cluster}" if args.cluster else f"{args.workers} worker(s)"
    print(
        f"erma balance: {args.walls} walls, {hands} hands in {seconds:.1f} s on {where} "
        f"({args.walls / seconds:.1f} walls/s)",
        file=sys.stderr,
    )
    if args.out:
        from erma.lab.balance_report import write_report

        path = write_report(report, Path(args.out))
        print(f"erma balance: report written to {path}", file=sys.stderr)
    if args.json:
        print(json.dumps(report, ensure_ascii=False))
    else:
        from erma.lab.balance_report import print_table

        print_table(report)
    return 0


def _cmd_arena(args: argparse.Namespace) -> int:
    from erma.bots import make_bot
    from erma.errors import RuleSetError
    from erma.lab.arena import ArenaConfig, run_arena
    from erma.rules import find_ruleset

    rules = find_ruleset(args.rules, parse_options(args.option))
    bots = [b.strip() for b in args.bots.split(",")]
    if len(bots) != 2 or not all(bots):
        raise RuleSetError(f"--bots {args.bots!r}: name two bots, e.g. level5,greedy")
    for name in bots:
        make_bot(name)  # an unknown name fails here, before any worker starts
    if args.walls < 1:
        raise RuleSetError(f"--walls {args.walls}: at least 1")
    if args.workers < 1:
        raise RuleSetError(f"--workers {args.workers}: at least 1")
    config = ArenaConfig(rules, (bots[0], bots[1]), args.seed, args.records)
    with progress_bar(f"{args.rules} {bots[0]} vs {bots[1]} (walls)", args.no_progress) as progress:
        summary = run_arena(config, args.walls, workers=args.workers, cluster=args.cluster, progress=progress)
    if args.json:
        print(json.dumps(summary, ensure_ascii=False))
    else:
        _print_arena(summary)
    return 0


def _print_arena(s: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    lo, hi = s["diff_ci95"]
    table = Table(title=f"{s['rules']}: {s['walls']} walls, {s['hands']} hands (duplicate)")
    for col in ("bot", "points/hand", "wins", "deal-ins", "p50 ms", "p95 ms", "p99 ms", "max ms"):
        table.add_column(col, justify="left" if col == "bot" else "right")
    for i, (name, ms) in enumerate(zip(s["bots"], s["decision_ms"].values(), strict=True)):
        table.add_row(
            name,
            f"{s['points_per_hand'][i]:+.3f}",
            str(s["wins"][i]),
            str(s["deal_ins"][i]),
            *(f"{ms[k]:.2f}" for k in ("p50", "p95", "p99", "max")),
        )
    console = Console()
    console.print(table)
    console.print(
        f"diff {s['diff']:+.3f} points/hand (95% CI {lo:+.3f} … {hi:+.3f}), sd per hand {s['sd_hand']:.3f}, "
        f"draws {s['draws']}"
    )


def _cmd_loadtest(args: argparse.Namespace) -> int:
    import asyncio

    from erma.errors import RuleSetError
    from erma.lab.loadtest import run_load

    if args.tables < 1 or args.seconds <= 0:
        raise RuleSetError("--tables must be ≥ 1 and --seconds > 0")
    # the instrument must not add pauses of its own: what it holds at start is frozen out of the collector,
    # and collections run less often (a full one over hundreds of tables' messages takes 100 ms and more)
    import gc

    gc.freeze()
    gc.set_threshold(50_000, 50, 100)
    summary = asyncio.run(
        run_load(
            args.url or ["ws://127.0.0.1:8000/ws"],
            args.tables,
            args.seconds,
            args.room,
            args.think,
            ramp=args.ramp,
            level=args.bot_level,
            give_up_s=args.give_up,
        )
    )
    if not args.json:
        lat = summary["latency_ms"]
        print(
            f"tables {summary['tables_started']}/{summary['tables']}, hands {summary['hands_completed']}, "
            f"errors {summary['errors']} (connections failed {summary['connect_failures']}), "
            f"lost {summary['matches_lost']}, ended early {summary['ended_early']}, "
            f"stuck {summary['stuck']}, "
            f"latency p50 {lat['p50']} ms p99 {lat['p99']} ms over {summary['actions']} actions"
        )
        for lost in summary["lost"]:
            if "error" in lost:
                print(lost["error"], file=sys.stderr)
    else:
        print(json.dumps(summary))
    if summary["tables_started"] == 0:
        print("loadtest: no table started", file=sys.stderr)
        return 1
    if summary["failures"]:
        codes = ", ".join(f"{k} {v}" for k, v in summary["error_codes"].items())
        print(f"loadtest: {summary['failures']} failures (errors: {codes or 'none'})", file=sys.stderr)
        return 1
    return 0


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add this group's commands to the ``erma`` parser."""
    sim = sub.add_parser("sim", help="self-play: bots against bots")
    from erma.rules import preset_names

    sim.add_argument("--rules", default="classic64", help=f"rule set preset ({', '.join(preset_names())})")
    sim.add_argument("--games", type=int, default=100)
    sim.add_argument("--bots", default="greedy,random", help="two bot names, comma-separated")
    sim.add_argument("--seed", default="0")
    sim.add_argument("--records", default=None, help="write one record file per game into this folder")
    sim.add_argument(
        "--export",
        default=None,
        metavar="DIR",
        help="write every decision (observation, mask, action, final return) as .npz shards into DIR "
        "(needs the env extra; docs/env.md)",
    )
    sim.add_argument("--json", action="store_true", help="end with one JSON line of statistics")
    sim.add_argument("--duplicate", action="store_true", help="play every wall twice with the seats swapped")
    sim.add_argument("--option", action="append", default=[], help="rule option KEY=VALUE (repeatable)")
    sim.add_argument("--no-progress", action="store_true", help="no progress bar")
    runner_arguments(sim)
    sim.set_defaults(func=_cmd_sim)

    bal = sub.add_parser(
        "balance", help="what rule options do to the game: every combination on the same walls"
    )
    bal.add_argument(
        "--rules", default="cuopai789", help="rule set preset (cuopai789, classic64, wushuang128, …)"
    )
    bal.add_argument(
        "--vary",
        action="append",
        default=[],
        metavar="KEY=V1,V2",
        help="a rule option and its values, e.g. cuo_prob=0,0.05,0.2 (repeatable: every combination)",
    )
    bal.add_argument(
        "--option", action="append", default=[], help="a fixed rule option KEY=VALUE (repeatable)"
    )
    bal.add_argument("--walls", type=int, default=200, help="walls per combination (each played twice)")
    bal.add_argument("--bots", default="greedy,greedy", help="two bot names, comma-separated")
    bal.add_argument("--seed", default="0")
    bal.add_argument(
        "--out", default=None, metavar="DIR", help="write report.html (plots inside) and report.json"
    )
    bal.add_argument("--json", action="store_true", help="print the report as one JSON object")
    bal.add_argument("--no-progress", action="store_true", help="no progress bar")
    runner_arguments(bal)
    bal.set_defaults(func=_cmd_balance)

    arena = sub.add_parser("arena", help="duplicate match of two bots with paired statistics")
    arena.add_argument(
        "--rules", default="cuopai789", help="preset: cuopai789, classic64, wushuang128 or wenzhou2p"
    )
    arena.add_argument("--bots", default="level5,greedy", help="two bot names, comma-separated (A,B)")
    arena.add_argument("--walls", type=int, default=100, help="walls; each is played twice, seats swapped")
    arena.add_argument("--seed", default="0")
    arena.add_argument("--records", default=None, help="write one record file per game into this folder")
    arena.add_argument("--json", action="store_true", help="print one JSON line instead of a table")
    arena.add_argument("--option", action="append", default=[], help="rule option KEY=VALUE (repeatable)")
    arena.add_argument("--no-progress", action="store_true", help="no progress bar")
    runner_arguments(arena)
    arena.set_defaults(func=_cmd_arena)

    load = sub.add_parser("loadtest", help="play many bot-driven tables through the real protocol")
    load.add_argument(
        "--url", action="append", default=[], help="websocket URL (repeatable), e.g. ws://HOST:PORT/ws"
    )
    load.add_argument("--tables", type=int, default=10)
    load.add_argument("--seconds", type=float, default=10)
    load.add_argument("--room", default="cuopai-novice")
    load.add_argument("--think", type=float, default=0.0, help="human-like think time in seconds (mean)")
    load.add_argument("--ramp", type=float, default=0.0, help="spread the tables' starts over these seconds")
    load.add_argument(
        "--bot-level",
        type=int,
        choices=range(1, 6),
        default=None,
        help="the bots' level (default: the room's)",
    )
    load.add_argument(
        "--give-up",
        type=float,
        default=30.0,
        help="give up on a client still running this many seconds after --seconds (counted as stuck)",
    )
    load.add_argument("--json", action="store_true")
    load.set_defaults(func=_cmd_loadtest)
