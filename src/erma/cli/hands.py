"""Commands on single hands: ``erma hand`` (shanten, useful tiles, waits), ``erma fan`` (scoring records) and
``erma demo``."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

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


def _cmd_demo(args: argparse.Namespace) -> int:
    print("erma (二麻) — two-player mahjong. A few hands read by the analyser:\n")
    for text in ("123m456p789s1155z", "19m19p19s1234567z", "1112345678999m", "147m258p369s1234z"):
        _print_hand(_hand_report(text, 0, 4, ""))
        print()
    print('Try:  erma hand "2345m678p88s1237z" --json')
    print("      erma sim --rules wenzhou2p --games 20        (bots against bots)")
    print("      erma serve, then open http://127.0.0.1:8000  (play in the browser; `make run`)")
    return 0


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add this group's commands to the ``erma`` parser."""
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

    demo = sub.add_parser("demo", help="a short demonstration: hands read by the analyser, what to try next")
    demo.set_defaults(func=_cmd_demo)
