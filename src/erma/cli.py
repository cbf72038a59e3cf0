"""The ``erma`` command: hands and fans (``hand``, ``fan``), self-play (``sim``), records (``replay``,
``verify``), the server (``serve``, ``loadtest``, ``ledger``) and ``demo``.

Errors in what the user typed are printed as one line naming the input, with exit code 2; never a
traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from erma.errors import ErmaError
from erma.tiles import name_zh, parse, tile_to_mpsz, to_mpsz


def _hand_report(text: str, jokers: int, copies: int, exposed: str) -> dict[str, Any]:
    from erma.analysis import shanten_by_shape, useful_by_shape, waits
    from erma.analysis.api import prepare

    _, n = prepare(text, jokers, copies)
    tiles = parse(text)
    seen = [0] * 34
    for t in tiles + parse(exposed):
        if t < 34:
            seen[t] += 1
    report: dict[str, Any] = {
        "tiles": to_mpsz(tiles),
        "jokers": jokers,
        "copies": copies,
        "shanten": min(shanten_by_shape(tiles, jokers=jokers, copies=copies).values()),
        "shanten_by_shape": shanten_by_shape(tiles, jokers=jokers, copies=copies),
    }
    if n % 3 == 1:
        by = useful_by_shape(tiles, jokers=jokers, copies=copies)
        best = min(v for v, _ in by.values())
        useful = sorted({t for v, kinds in by.values() if v == best for t in kinds})
        report["useful"] = [{"tile": tile_to_mpsz(t), "unseen": max(0, copies - seen[t])} for t in useful]
        report["useful_total"] = sum(u["unseen"] for u in report["useful"])
        report["waits"] = [
            {"tile": tile_to_mpsz(t), "unseen": max(0, copies - seen[t])}
            for t in waits(tiles, jokers=jokers, copies=copies, exposed=exposed)
        ]
    return report


def _print_hand(report: dict[str, Any]) -> None:
    s = report["shanten"]
    state = "complete (和了)" if s == -1 else "ready (听牌)" if s == 0 else f"{s}-shanten ({s}向听)"
    jokers = f" + {report['jokers']} joker(s)" if report["jokers"] else ""
    print(f"hand   {report['tiles']}{jokers}: {state}")
    for name, v in report["shanten_by_shape"].items():
        print(f"  {name:<20} {v:>2}")
    if "useful" in report:
        parts = [f"{u['tile']}×{u['unseen']}" for u in report["useful"]]
        print(f"useful {' '.join(parts) or '-'}  ({len(parts)} kinds, {report['useful_total']} tiles unseen)")
        waits = [f"{w['tile']} {name_zh(parse(w['tile'])[0])}×{w['unseen']}" for w in report["waits"]]
        print(f"waits  {', '.join(waits) or '-'}")


def _cmd_hand(args: argparse.Namespace) -> int:
    report = _hand_report(args.tiles, args.jokers, args.copies, args.exposed)
    if args.json:
        print(json.dumps(report, ensure_ascii=False))
    else:
        _print_hand(report)
    return 0


def _cmd_fan(args: argparse.Namespace) -> int:
    from erma.scoring import cli_fan

    return cli_fan(sys.stdin, sys.stdout, args.table)


def _parse_options(pairs: list[str]) -> dict[str, Any]:
    from erma.errors import RuleSetError

    out: dict[str, Any] = {}
    for pair in pairs:
        if "=" not in pair:
            raise RuleSetError(f"--option {pair!r}: write KEY=VALUE (the value in JSON, e.g. min_fan=0)")
        key, raw = pair.split("=", 1)
        try:
            out[key] = json.loads(raw)
        except json.JSONDecodeError:
            out[key] = raw
    return out


def _cmd_sim(args: argparse.Namespace) -> int:
    from erma.errors import RuleSetError
    from erma.rules import find_ruleset
    from erma.selfplay import run

    rules = find_ruleset(args.rules, _parse_options(args.option))
    bots = [b.strip() for b in args.bots.split(",")]
    if len(bots) != 2:
        raise RuleSetError(f"--bots {args.bots!r}: name two bots, e.g. greedy,random")
    if args.games < 1:
        raise RuleSetError(f"--games {args.games}: at least 1")
    records = Path(args.records) if args.records else None
    if args.export and (records is not None or args.cluster):
        raise RuleSetError("--export: not with --records or --cluster (the shards are written here)")
    with _progress_bar(f"{args.rules} {args.bots}", args.no_progress) as progress:
        if args.export:
            from erma.env.export import export_run

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


@contextlib.contextmanager
def _progress_bar(label: str, off: bool) -> Iterator[Callable[[int, int], None] | None]:
    """A rich progress bar of completed walls on stderr (none when stderr is not a terminal)."""
    if off or not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    task = bar.add_task(label, total=None)

    def update(done: int, total: int) -> None:
        bar.update(task, completed=done, total=total)

    with bar:
        yield update


def _cmd_balance(args: argparse.Namespace) -> int:
    import time

    from erma.balance import parse_vary, run_balance
    from erma.errors import RuleSetError

    bots = [b.strip() for b in args.bots.split(",")]
    if len(bots) != 2:
        raise RuleSetError(f"--bots {args.bots!r}: name two bots, e.g. greedy,greedy")
    if not args.vary:
        raise RuleSetError("--vary KEY=V1,V2: name at least one option to vary (e.g. cuo_prob=0,0.05,0.2)")
    vary = parse_vary(args.vary)
    fixed = _parse_options(args.option)
    if args.out:
        from erma.balance_report import check_report_deps

        check_report_deps()
    t0 = time.perf_counter()
    with _progress_bar(f"balance {args.rules}", args.no_progress) as progress:
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
        from erma.balance_report import write_report

        path = write_report(report, Path(args.out))
        print(f"erma balance: report written to {path}", file=sys.stderr)
    if args.json:
        print(json.dumps(report, ensure_ascii=False))
    else:
        from erma.balance_report import print_table

        print_table(report)
    return 0


def _cmd_arena(args: argparse.Namespace) -> int:
    from erma.arena import ArenaConfig, run_arena
    from erma.bots import make_bot
    from erma.errors import RuleSetError
    from erma.rules import find_ruleset

    rules = find_ruleset(args.rules, _parse_options(args.option))
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
    with _progress_bar(f"{args.rules} {bots[0]} vs {bots[1]} (walls)", args.no_progress) as progress:
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


def _cmd_replay(args: argparse.Namespace) -> int:
    from erma.game.record import describe, load, verify

    record = load(args.file)
    if args.verify:
        problems = verify(record)
        if problems:
            for p in problems:
                print(p, file=sys.stderr)
            return 1
        print(f"{args.file}: replays exactly ({len(record['actions'])} actions)")
        return 0
    print("\n".join(describe(record)))
    return 0


def _cmd_review(args: argparse.Namespace) -> int:
    from erma.coach import review_record
    from erma.coach.text import review_lines
    from erma.game.record import load

    review = review_record(load(args.file), args.seat, seed=args.seed, samples=args.samples)
    if args.json:
        print(json.dumps(review, ensure_ascii=False))
    else:
        print("\n".join(review_lines(review)))
    return 0


def _cmd_serve(args: argparse.Namespace) -> int:
    from erma.errors import RuleSetError
    from erma.server.app import serve
    from erma.server.config import Settings, load_rooms

    extra: dict[str, Any] = {}
    fields = {f.name: f for f in dataclasses.fields(Settings)}
    for item in args.setting:
        key, _, value = item.partition("=")
        if key not in fields or key in ("extra", "host", "port", "db_url", "redis_url"):
            raise RuleSetError(f"--setting {item!r}: unknown setting {key!r}")
        default = getattr(Settings(), key)
        try:
            if isinstance(default, bool):
                if value.lower() not in ("true", "false", "1", "0"):
                    raise ValueError(value)
                extra[key] = value.lower() in ("true", "1")
            elif isinstance(default, int | float) and not isinstance(default, bool):
                extra[key] = type(default)(value)
            elif key == "metrics_port":
                extra[key] = int(value)
            else:
                extra[key] = value
        except ValueError:
            raise RuleSetError(f"--setting {item!r}: not a valid {type(default).__name__}") from None
    if args.lease_ms is not None:
        extra["lease_ms"] = args.lease_ms
    settings = Settings(
        host=args.host,
        port=args.port,
        db_url=args.db,
        data_dir=args.data,
        rooms_file=args.rooms,
        redis_url=args.redis,
        **extra,
    )
    load_rooms(settings.rooms_file)  # a bad rooms file stops here with one clear line
    serve(settings)
    return 0


def _cmd_verify(args: argparse.Namespace) -> int:
    import hashlib

    from erma.game.match import deal_seed
    from erma.game.record import load, verify
    from erma.server.commitment import deal_digest

    record = load(args.file)
    problems = []
    checked = []
    seed, salt, digest = record.get("seed"), record.get("salt"), record.get("digest")
    if not (isinstance(seed, str) and isinstance(salt, str) and isinstance(digest, str)):
        problems.append("the record has no seed, salt and digest (it did not come from a server deal)")
    elif deal_digest(salt, seed) != digest:
        problems.append(f"the seed and salt do not match the digest sent with the deal ({digest})")
    else:
        checked.append("the seed matches the digest sent with the deal")
    server, commitment, contributions = (
        record.get("server_seed"),
        record.get("commitment"),
        record.get("contributions"),
    )
    if not problems and commitment is not None:
        if not (
            isinstance(server, str)
            and isinstance(commitment, str)
            and isinstance(contributions, list)
            and len(contributions) == 2
            and all(isinstance(c, str) for c in contributions)
        ):
            problems.append("the record's server_seed, commitment and contributions are incomplete")
        elif hashlib.sha256(server.encode()).hexdigest() != commitment:
            problems.append(f"the server's part does not match its commitment ({commitment})")
        elif deal_seed(server, contributions) != seed:
            problems.append("the seed is not the server's part combined with both contributions")
        else:
            shown = ", ".join(c or "(none)" for c in contributions)
            checked.append(f"the seed combines the committed server part with both contributions ({shown})")
    if not problems:
        problems += verify(record)
    if problems:
        for p in problems:
            print(p, file=sys.stderr)
        return 1
    for line in checked:
        print(f"{args.file}: {line}")
    print(f"{args.file}: the hand replays exactly from the seed")
    return 0


def _cmd_loadtest(args: argparse.Namespace) -> int:
    import asyncio

    from erma.errors import RuleSetError
    from erma.server.loadtest import run_load

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
        )
    )
    if not args.json:
        lat = summary["latency_ms"]
        print(
            f"tables {summary['tables_started']}/{summary['tables']}, hands {summary['hands_completed']}, "
            f"errors {summary['errors']} (connections failed {summary['connect_failures']}), "
            f"lost {summary['matches_lost']}, "
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
    return 0


def _cmd_ratings(args: argparse.Namespace) -> int:
    from erma.store.cli import ratings_rebuild

    return ratings_rebuild(args.db, write=not args.dry_run)


def _cmd_ledger(args: argparse.Namespace) -> int:
    from erma.store.cli import ledger_check

    return ledger_check(args.db)


def _cmd_demo(args: argparse.Namespace) -> int:
    print("erma (二麻) — two-player mahjong. A few hands read by the analyser:\n")
    for text in ("123m456p789s1155z", "19m19p19s1234567z", "1112345678999m", "147m258p369s1234z"):
        _print_hand(_hand_report(text, 0, 4, ""))
        print()
    print('Try:  erma hand "2345m678p88s1237z" --json')
    print("      erma sim --rules wenzhou2p --games 20        (bots against bots)")
    print("      erma serve, then open http://127.0.0.1:8000  (play in the browser; `make run`)")
    return 0


def _runner_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--workers", type=int, default=1, help="local processes to spread the walls over")
    parser.add_argument(
        "--cluster",
        default=None,
        metavar="ADDRESS",
        help="run the walls as Ray tasks: ray://HOST:PORT, HOST:PORT, auto, or local (erma[ray] extra)",
    )


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``erma`` command."""
    parser = argparse.ArgumentParser(prog="erma", description="erma (二麻): two-player mahjong")
    sub = parser.add_subparsers(dest="command", required=True)

    hand = sub.add_parser("hand", help="shanten by shape, useful tiles and waits of a hand")
    hand.add_argument("tiles", help='concealed tiles, e.g. "123m456p789s1155z" (mpsz, Botzone or Chinese)')
    hand.add_argument("--jokers", type=int, default=0, help="wild tiles (财神) on top of the tiles")
    hand.add_argument(
        "--copies", type=int, default=4, choices=(4, 8), help="copies of each kind (8 for 无双)"
    )
    hand.add_argument("--exposed", default="", help="tiles of your declared sets (for the unseen counts)")
    hand.add_argument("--json", action="store_true", help="one JSON object instead of text")
    hand.set_defaults(func=_cmd_hand)

    fan = sub.add_parser("fan", help="score JSON records read one per line on stdin")
    fan.add_argument(
        "--table", default="mcr", help="fan table (mcr, erqs, classic64t3, mcr_subset, cuopai13)"
    )
    fan.set_defaults(func=_cmd_fan)

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
    _runner_arguments(sim)
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
    _runner_arguments(bal)
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
    _runner_arguments(arena)
    arena.set_defaults(func=_cmd_arena)

    replay = sub.add_parser("replay", help="show a game record as text, or verify it")
    replay.add_argument("file")
    replay.add_argument(
        "--verify", action="store_true", help="exit 0 only if the replay reproduces the record"
    )
    replay.set_defaults(func=_cmd_replay)

    review = sub.add_parser(
        "review", help="复盘: each decision of a hand beside the expert's, the value it cost, the mistakes"
    )
    review.add_argument("file", metavar="RECORD", help="a record file (erma.record JSON)")
    review.add_argument("--seat", type=int, default=None, help="the seat to review, 0 or 1 (default: both)")
    review.add_argument("--json", action="store_true", help="print one JSON object (format erma.review/1)")
    review.add_argument("--seed", default="review", help="seed of the samples of hidden tiles")
    review.add_argument(
        "--samples", type=int, default=None, help="samples of the hidden tiles per decision (default 16)"
    )
    review.set_defaults(func=_cmd_review)

    serve = sub.add_parser("serve", help="run the game server (web client, websocket protocol, REST API)")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--db", default=None, help="SQLAlchemy URL (default: SQLite in the data folder)")
    serve.add_argument("--data", default="data", help="data folder for the default SQLite database")
    serve.add_argument("--rooms", default=None, help="rooms file (TOML); default: the packaged rooms")
    serve.add_argument(
        "--redis",
        default=None,
        help="redis://HOST:PORT/DB: several processes share matchmaking, matches and routing (operations.md)",
    )
    serve.add_argument("--lease-ms", type=int, default=None, help="match ownership lease (default 3000)")
    serve.add_argument(
        "--setting",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="any server setting (erma.server.config.Settings), e.g. time_scale=0.2 (repeatable)",
    )
    serve.set_defaults(func=_cmd_serve)

    verify = sub.add_parser(
        "verify",
        help="check a served hand: the commitment, both players' shares of the seed, the digest, the replay",
    )
    verify.add_argument("file")
    verify.set_defaults(func=_cmd_verify)

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
    load.add_argument("--json", action="store_true")
    load.set_defaults(func=_cmd_loadtest)

    ledger = sub.add_parser("ledger", help="the bean ledger: `erma ledger check --db URL`")
    ledger_sub = ledger.add_subparsers(dest="ledger_command", required=True)
    ledger_check = ledger_sub.add_parser("check", help="verify the ledger's invariants (exit 1 on a breach)")
    ledger_check.add_argument("--db", default=None, help="database URL or SQLite file (default data/erma.db)")
    ledger_check.set_defaults(func=_cmd_ledger)

    ratings = sub.add_parser("ratings", help="ratings and ranks: `erma ratings rebuild --db URL`")
    ratings_sub = ratings.add_subparsers(dest="ratings_command", required=True)
    rebuild = ratings_sub.add_parser(
        "rebuild",
        help="recompute every rating from the stored rated hands (exit 1 if any stored value differed)",
    )
    rebuild.add_argument("--db", default=None, help="database URL or SQLite file (default data/erma.db)")
    rebuild.add_argument("--dry-run", action="store_true", help="compare only; write nothing")
    rebuild.set_defaults(func=_cmd_ratings)

    demo = sub.add_parser("demo", help="a short demonstration: hands read by the analyser, what to try next")
    demo.set_defaults(func=_cmd_demo)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``erma`` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.func(args)
    except ErmaError as exc:
        print(f"erma {args.command}: {exc}", file=sys.stderr)
        return 2
    return code


if __name__ == "__main__":
    raise SystemExit(main())
