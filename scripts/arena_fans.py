"""Where an arena's points come from (番数分解): play an arena's walls and split the paired difference by the
winner's fan total, the way it won and who dealt in.

    python scripts/arena_fans.py play --rules classic64 --bots level5,greedy --walls 1000 --seed t39c1 \
        --out runs/fans/c1.jsonl
    python scripts/arena_fans.py split runs/fans/c1.jsonl
    python scripts/arena_fans.py play … --bots level5-prev,greedy --a-settings tianting=False …
    python scripts/arena_fans.py pair runs/fans/variant-c1.jsonl runs/fans/c1.jsonl
    python scripts/arena_fans.py records DIR --out c1.jsonl     # from `erma arena --records DIR`

``play`` plays the same games as ``erma arena`` (its :func:`~erma.lab.arena.play_wall` seeds) and writes one
line per game: the wall, the game, bot A's points, the winner (0 = A, 1 = B), how, the fan total and the
fans' ids. ``split`` prints, per fan bucket, each bot's wins and deal-ins and the bucket's share of the paired
difference (``diff`` = mean over walls of Σ games A's points, as the arena's) and of Σ points² (the spread).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

BUCKETS = ((8, 15), (16, 23), (24, 31), (32, 47), (48, 87), (88, 10_000))
"""Fan totals (in classic64 and wushuang128 the points): 8–15 (混一色 + 报听 …), 16–23, 24–31, 32–47,
48–87, 88+."""


def bucket(fans: int) -> str:
    for lo, hi in BUCKETS:
        if lo <= fans <= hi:
            return f"{lo}-{hi}" if hi < 10_000 else f"{lo}+"
    return f"<{BUCKETS[0][0]}"


def play(args: argparse.Namespace) -> None:
    from erma.bots import Bot, make_bot
    from erma.game import EndReason, WinHow
    from erma.lab.arena import arena_bot_seed, duplicate_games
    from erma.lab.selfplay import play_hand
    from erma.rules import find_ruleset

    rules = find_ruleset(args.rules)
    names = tuple(args.bots.split(","))

    def make(i: int, seed: str) -> Bot:
        name = names[i]
        spec = args.a_settings if i == 0 else args.b_settings
        if not spec:
            return make_bot(name, seed)
        from dataclasses import replace

        from erma.bots.expert import ExpertBot, Settings
        from erma.game.state import Phase

        def value(k: str, v: str) -> object:
            if k == "own":
                return frozenset(Phase[p.upper()] for p in v.split("+") if p)
            if v.startswith("@"):  # a JSON file: far_weights=@w.json (a list, as a tuple)
                got = json.loads(Path(v[1:]).read_text(encoding="utf-8"))
                return tuple(got) if isinstance(got, list) else got
            return json.loads(v.lower())

        pairs = (x.split("=", 1) for x in spec.split(","))
        # true, false, numbers; own=triplet+claim (phases joined by +); @file.json
        kw: dict[str, object] = {k: value(k, v) for k, v in pairs}
        return ExpertBot(seed, settings=replace(Settings(), **kw), name=name)

    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", encoding="utf-8") as fh:
        for wall, g, seed, dealer in duplicate_games(args.seed, range(args.start, args.walls)):
            bot_in_seat = (0, 1) if g == 0 else (1, 0)
            bots = [make(bot_in_seat[s], arena_bot_seed(args.seed, wall, g, s)) for s in (0, 1)]
            res = play_hand(rules, seed, bots, dealer).result
            assert res is not None
            a_seat = g  # bot A sits in seat g
            row = {"wall": wall, "g": g, "a": res.deltas[a_seat], "winner": None, "how": None, "fans": 0}
            if res.reason is EndReason.WIN and res.winner is not None:
                row["winner"] = bot_in_seat[res.winner]
                row["how"] = "self" if res.how is WinHow.SELF else "discard"
                row["fans"] = res.fan_total
                row["ids"] = [f.id for f in res.fans]
                row["hand"] = res.hand
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
            fh.flush()


def records(args: argparse.Namespace) -> None:
    """The same lines from an ``erma arena --records DIR`` run (bot A sits in seat g of game g)."""
    with Path(args.out).open("w", encoding="utf-8") as fh:
        for path in sorted(Path(args.dir).glob("wall-*.json")):
            wall, g = int(path.stem.split("-")[1]), int(path.stem.split("-")[2])
            res = json.loads(path.read_text(encoding="utf-8"))["result"]
            row = {"wall": wall, "g": g, "a": res["deltas"][g], "winner": None, "how": None, "fans": 0}
            if res["reason"] == "win":
                row["winner"] = 0 if res["winner"] == g else 1
                row["how"] = "self" if res["how"] == "self" else "discard"
                row["fans"] = res["fan_total"]
                row["ids"] = [f["id"] for f in res["fans"]]
                row["hand"] = res["hand"]
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")


def split(args: argparse.Namespace) -> None:
    rows = [json.loads(line) for p in args.files for line in Path(p).read_text().splitlines() if line]
    walls = len({(r.get("file", 0), r["wall"]) for r in rows})
    total = sum(r["a"] for r in rows)
    sq = sum(r["a"] ** 2 for r in rows)
    per: dict[str, list[float]] = defaultdict(lambda: [0, 0, 0, 0, 0.0, 0.0])
    for r in rows:
        key = "draw" if r["winner"] is None else bucket(r["fans"])
        e = per[key]
        if r["winner"] == 0:
            e[0] += 1
            e[2] += r["how"] == "discard"  # B dealt in
        elif r["winner"] == 1:
            e[1] += 1
            e[3] += r["how"] == "discard"  # A dealt in
        e[4] += r["a"]
        e[5] += r["a"] ** 2
    sd = (sq / len(rows) - (total / len(rows)) ** 2) ** 0.5
    print(f"walls {walls}  diff {total / walls:+.2f}  sd_hand {sd:.2f}")
    print(f"{'fans':>8} {'A wins':>7} {'B wins':>7} {'B in':>5} {'A in':>5} {'diff':>7} {'pts² %':>7}")
    for key in sorted(
        per, key=lambda k: (k == "draw", int(k.split("-")[0].rstrip("+")) if k[0].isdigit() else 0)
    ):
        e = per[key]
        print(
            f"{key:>8} {e[0]:>7} {e[1]:>7} {e[2]:>5} {e[3]:>5} {e[4] / walls:>+7.2f} {100 * e[5] / sq:>6.1f}%"
        )
    if args.fans:
        count: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for r in rows:
            if r["winner"] is not None:
                for i in set(r["ids"]):
                    count[i][r["winner"]] += 1
        for i, (a, b) in sorted(count.items(), key=lambda kv: -sum(kv[1]))[: args.fans]:
            print(f"{i:>24} A {a:>5}  B {b:>5}")


def pair(args: argparse.Namespace) -> None:
    """Two runs of the same seed and opponent (``X,C`` and ``Y,C``): the per-wall difference of X's and Y's
    points. Every bot's seed is the same in both, so a wall differs only where X and Y chose differently:
    the tie-break noise of an ``X,Y`` arena (its null covers about ±0.9 a hand at 1,000 walls) is gone."""
    import statistics

    def walls(path: str) -> dict[int, int]:
        out: dict[int, int] = defaultdict(int)
        for line in Path(path).read_text().splitlines():
            r = json.loads(line)
            out[r["wall"]] += r["a"]
        return out

    x, y = walls(args.x), walls(args.y)
    common = sorted(set(x) & set(y))
    d = [x[w] - y[w] for w in common]
    m = statistics.mean(d)
    half = 1.96 * statistics.stdev(d) / len(d) ** 0.5
    print(
        f"walls {len(d)}  differ {sum(1 for v in d if v)}  diff {m:+.2f}  ({m - half:+.2f} … {m + half:+.2f})"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("play")
    p.add_argument("--rules", required=True)
    p.add_argument("--bots", required=True)
    p.add_argument("--walls", type=int, required=True)
    p.add_argument("--start", type=int, default=0)
    p.add_argument("--seed", required=True)
    p.add_argument("--out", required=True)
    p.add_argument(
        "--a-settings", default="", help="bot A is the expert with these Settings (tianting=False,…)"
    )
    p.add_argument("--b-settings", default="", help="bot B likewise")
    s = sub.add_parser("split")
    s.add_argument("files", nargs="+")
    s.add_argument("--fans", type=int, default=0, help="also list the N most frequent fans per bot")
    r = sub.add_parser("records")
    r.add_argument("dir")
    r.add_argument("--out", required=True)
    q = sub.add_parser("pair")
    q.add_argument("x")
    q.add_argument("y")
    args = ap.parse_args()
    {"play": play, "records": records, "split": split, "pair": pair}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
