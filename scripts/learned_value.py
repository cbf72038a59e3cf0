"""A value of the hand far from ready learned from outcomes (issue 39): record, fit, inspect.

    python scripts/learned_value.py record --rules classic64 --walls 400 --seed h39o-tune-d1 --out d1.jsonl
    python scripts/learned_value.py fit d1.jsonl d2.jsonl [--ridge 10] [--seats all|level5] [--out w.json]

``record`` plays the arena's own games of ``--bots`` (default ``level5,greedy``: the walls and bot seeds of
``erma arena``) and, at every turn of either seat where the discard leaves the hand ``--from`` (2) or more
from ready (3 and more: the far decisions where level5 plays greedy's discard; 2: those its lookahead
decides) and neither seat has declared 报听, writes one line: the features
(:func:`erma.bots.expert.learned.far_features`, the seat's view only) of the hand after each lowest-shanten
discard, their unseen useful tiles, the index of the discard played, which bot played it and, once the hand
is over, the seat's final points. ``fit`` fits a ridge regression of the final points on the played
discard's features (one row per decision), prints the weights with standard errors clustered by hand, and
how often the fitted value would choose another discard within ``--keep`` useful tiles of the most (greedy's
always allowed); ``--out`` writes the weights as JSON (the tuple for ``Settings.far_weights`` /
``learned.FAR_WEIGHTS``).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any


def record(args: argparse.Namespace) -> None:
    from erma.analysis.tables import INC
    from erma.bots.expert.estimate import Estimator
    from erma.bots.expert.learned import far_features, value_honours
    from erma.bots.expert.settings import Settings
    from erma.game.actions import Kind
    from erma.lab.arena import logged_games
    from erma.rules import find_ruleset

    rules = find_ruleset(args.rules)
    names = tuple(args.bots.split(","))
    st = Settings()

    class Recorder:
        def __init__(self, inner: Any, log: list[dict[str, Any]], seat_tag: str, rng: random.Random) -> None:
            self.inner = inner
            self.rng = rng
            self.name = inner.name
            self.uses_view = True
            self.log = log
            self.tag = seat_tag

        def choose(self, view: Any, legal: list[Any]) -> Any:
            action = self.inner.choose(view, legal)
            if (
                action.kind is not Kind.DISCARD
                or action.riichi
                or view.riichi[1 - view.seat]
                or view.riichi[view.seat]
            ):
                return action
            est = Estimator(view, st, 0)
            n = view.size - 1
            sh: dict[int, int] = {}
            for a in legal:
                if a.kind is Kind.DISCARD and not a.riichi and a.tile not in sh:
                    sh[a.tile] = est.shanten(view.key - INC[a.tile], n, 0)
            best = min(sh.values())
            if best < args.from_s or sh.get(action.tile) != best:
                return action
            valued = value_honours(view)
            feats, useful, tiles = [], [], []
            for t, s in sorted(sh.items()):
                if s != best:
                    continue
                k = view.key - INC[t]
                u = est.useful(k, n, 0, s)
                c = list(view.counts)
                c[t] -= 1
                feats.append([round(f, 4) for f in far_features(view, c, k, n, s, u, valued)])
                useful.append(u)
                tiles.append(t)
            base = tiles.index(action.tile)
            chosen = base
            if args.explore and self.tag in args.explore_bots.split(","):
                most = max(useful)
                others = [i for i in range(len(tiles)) if i != base and useful[i] >= most - args.keep]
                if others and self.rng.random() < args.explore:
                    chosen = self.rng.choice(others)
                    action = next(
                        a
                        for a in legal
                        if a.kind is Kind.DISCARD and not a.riichi and a.tile == tiles[chosen]
                    )
            self.log.append(
                {
                    "bot": self.tag,
                    "seat": view.seat,
                    "tiles": tiles,
                    "useful": useful,
                    "x": feats,
                    "chosen": chosen,
                    "base": base,
                    "turn": len(view.discards[view.seat]),
                    "s": best,
                }
            )
            return action

    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", encoding="utf-8") as fh:

        def recorded(bot: Any, log: list[dict[str, Any]], wall: int, g: int, s: int) -> Any:
            """Both seats record (bot A sits in seat g)."""
            name = names[0] if s == g else names[1]
            return Recorder(bot, log, name, random.Random(f"explore:{args.seed}:{wall}:{g}:{s}"))

        walls = range(args.start, args.walls)
        for wall, g, res, log in logged_games(rules, args.seed, walls, (names[0], names[1]), recorded):
            for row in log:
                row["y"] = res.deltas[row["seat"]]
                row["wall"] = wall
                row["g"] = g
                fh.write(json.dumps(row) + "\n")
            fh.flush()


def load(paths: list[str], seats: str, min_s: int = 0) -> list[dict[str, Any]]:
    rows = []
    for p in paths:
        with open(p, encoding="utf-8") as fh:
            for line in fh:
                r = json.loads(line)
                if (seats != "all" and r["bot"] != seats) or r.get("s", 3) < min_s:
                    continue
                r["hand"] = f"{p}:{r['wall']}:{r['g']}:{r['seat']}"
                rows.append(r)
    return rows


def ridge_clustered(x: Any, y: Any, rows: list[dict[str, Any]], ridge: float) -> tuple[Any, Any, Any, int]:
    """Ridge regression of ``y`` on ``x`` (no penalty on the first column, the bias): (weights, residuals,
    standard errors clustered by hand — a hand's decisions share one outcome —, the number of hands)."""
    import numpy as np

    lam = np.full(x.shape[1], ridge)
    lam[0] = 0.0
    a = x.T @ x + np.diag(lam)
    w = np.linalg.solve(a, x.T @ y)
    resid = y - x @ w
    groups: dict[str, list[int]] = {}
    for i, r in enumerate(rows):
        groups.setdefault(r["hand"], []).append(i)
    ainv = np.linalg.inv(a)
    meat = np.zeros_like(a)
    for idx in groups.values():
        sc = x[idx].T @ resid[idx]
        meat += np.outer(sc, sc)
    return w, resid, np.sqrt(np.diag(ainv @ meat @ ainv)), len(groups)


def fit(args: argparse.Namespace) -> None:
    import numpy as np

    from erma.bots.expert.learned import FEATURES

    rows = load(args.data, args.seats, args.min_s)
    x = np.array([r["x"][r["chosen"]] for r in rows], dtype=float)
    y = np.array([r["y"] for r in rows], dtype=float)
    drop = [FEATURES.index(f) for f in args.drop.split(",") if f]
    mask = np.ones(x.shape[1], dtype=bool)
    mask[drop] = False
    xs = x[:, mask]
    w, resid, se, hands = ridge_clustered(xs, y, rows, args.ridge)
    names = [f for i, f in enumerate(FEATURES) if mask[i]]
    print(
        f"rows {len(rows)}  hands {hands}  mean y {y.mean():+.2f}  sd {y.std():.2f}  "
        f"R2 {1 - resid.var() / y.var():.4f}"
    )
    for nme, wi, si in zip(names, w, se, strict=True):
        print(f"  {nme:14s} {wi:+8.3f}  ± {si:6.3f}   t {wi / si if si else 0:+6.2f}")
    full = np.zeros(x.shape[1])
    full[mask] = w
    # how often the value would change the choice
    for keep in (0, 1, 2, 3, 5, 8, 99):
        differ = gain = 0.0
        for r in rows:
            u = r["useful"]
            most = max(u)
            vals = [float(np.dot(full, f)) for f in r["x"]]
            c = r["chosen"]
            best = max((v, i) for i, v in enumerate(vals) if u[i] >= most - keep or i == c)
            if best[1] != c and best[0] > vals[c] + args.margin:
                differ += 1
                gain += best[0] - vals[c]
        print(
            f"  keep {keep:2d}: differs in {differ / len(rows):6.2%} of decisions, "
            f"predicted gain {gain / max(1, hands):+.3f} a hand-seat"
        )
    if args.out:
        Path(args.out).write_text(json.dumps([round(float(v), 4) for v in full]) + "\n", encoding="utf-8")


VARYING = (
    "useful",
    "honours",
    "no_honours",
    "few_honours",
    "lone_honours",
    "honour_pairs",
    "value_pairs",
    "honour_sets",
    "value_sets",
    "suit_pairs",
    "seven_pairs",
    "ranks",
    "pungish",
    "honours_turn",
    "useful_turn",
)
"""The features that can differ between the discards of one decision (the rest are the position's)."""


def explored(args: argparse.Namespace) -> None:
    """Fit on randomized decisions (``record --explore``): the final points on the position's features
    (the base discard's) and on the chosen discard's feature differences from the base; the second part is
    the value of a discard over another, identified by the randomization. Held out: the walls of one parity
    (``--holdout``) are not fitted, and on them the decisions where the fitted value picks another discard
    than the base compare the hands that played the pick with those that played the base."""
    import numpy as np

    from erma.bots.expert.learned import FEATURES

    rows = [r for r in load(args.data, args.seats, args.min_s) if "base" in r]
    vary = [FEATURES.index(f) for f in VARYING if f not in args.drop.split(",")]
    hold = args.holdout

    def design(r: dict[str, Any]) -> list[float]:
        xb = r["x"][r["base"]]
        xc = r["x"][r["chosen"]]
        return [*xb, *(xc[i] - xb[i] for i in vary)]

    if args.weights:  # no fit: check given weights on every row
        given = json.loads(Path(args.weights).read_text(encoding="utf-8"))
        check(rows, given, args.keep, args.margin, "given")
        return
    train = [r for r in rows if hold < 0 or r["wall"] % 2 != hold]
    test = [r for r in rows if hold >= 0 and r["wall"] % 2 == hold]
    x = np.array([design(r) for r in train])
    y = np.array([r["y"] for r in train], dtype=float)
    nb = len(FEATURES)
    w, _, se, _ = ridge_clustered(x, y, train, args.ridge)
    moved = sum(1 for r in train if r["chosen"] != r["base"])
    print(f"train rows {len(train)} (explored {moved})  test rows {len(test)}")
    for j, i in enumerate(vary):
        print(
            f"  d {FEATURES[i]:14s} {w[nb + j]:+8.3f}  ± {se[nb + j]:6.3f}   t {w[nb + j] / se[nb + j]:+6.2f}"
        )
    full = np.zeros(nb)
    for j, i in enumerate(vary):
        full[i] = w[nb + j]

    for name, part in (("train", train), ("test", test)):
        check(part, [float(v) for v in full], args.keep, args.margin, name)
    if args.out:
        Path(args.out).write_text(json.dumps([round(float(v), 4) for v in full]) + "\n", encoding="utf-8")


def check(part: list[dict[str, Any]], weights: list[float], keep: int, margin: float, name: str) -> None:
    """On randomized rows: where the value of ``weights`` picks another discard than the base, the mean
    final points of the hands that played the pick less those that played the base."""
    import numpy as np

    full = np.array(weights)

    def pick(r: dict[str, Any]) -> int:
        u = r["useful"]
        most = max(u)
        vals = [float(np.dot(full, f)) for f in r["x"]]
        b = r["base"]
        best = max((v, i) for i, v in enumerate(vals) if u[i] >= most - keep or i == b)
        return best[1] if best[0] > vals[b] + margin else b

    if part:
        at_pick, at_base = [], []
        changed = 0
        for r in part:
            p = pick(r)
            if p == r["base"]:
                continue
            changed += 1
            if r["chosen"] == p:
                at_pick.append(r["y"])
            elif r["chosen"] == r["base"]:
                at_base.append(r["y"])
        if at_pick and at_base:
            d = float(np.mean(at_pick) - np.mean(at_base))
            half = 1.96 * float(np.sqrt(np.var(at_pick) / len(at_pick) + np.var(at_base) / len(at_base)))
            print(
                f"  {name}: the value picks another discard in {changed / len(part):.1%} of decisions; "
                f"played the pick {len(at_pick)}, the base {len(at_base)}: pick − base {d:+.2f} "
                f"({d - half:+.2f} … {d + half:+.2f}) points a decision"
            )


def effects(args: argparse.Namespace) -> None:
    """On randomized rows where another discard within ``--keep`` was possible: the mean final points of the
    hands that played another (random) efficient discard less those that played their own, in all and by bot,
    shanten and useful tiles (rows counted as independent)."""
    import statistics

    rows = [r for r in load(args.data, "all") if "base" in r]

    def possible(r: dict[str, Any]) -> bool:
        u, b = r["useful"], r["base"]
        return any(i != b and u[i] >= max(u) - args.keep for i in range(len(u)))

    def line(name: str, sel: list[dict[str, Any]]) -> None:
        a = [r["y"] for r in sel if r["chosen"] != r["base"]]
        b = [r["y"] for r in sel if r["chosen"] == r["base"]]
        if len(a) < 2 or len(b) < 2:
            return
        d = statistics.mean(a) - statistics.mean(b)
        h = 1.96 * (statistics.pvariance(a) / len(a) + statistics.pvariance(b) / len(b)) ** 0.5
        ci = f"({d - h:+.2f} … {d + h:+.2f})"
        print(f"{name:28s} another {len(a):6d}  own {len(b):6d}  another − own {d:+.2f} {ci}")

    rows = [r for r in rows if possible(r)]
    line("all", rows)
    for bot in sorted({r["bot"] for r in rows}):
        line(bot, [r for r in rows if r["bot"] == bot])
    for sh in sorted({r["s"] for r in rows}):
        line(f"shanten {sh}", [r for r in rows if r["s"] == sh])
    own = [r for r in rows if r["chosen"] == r["base"]]
    same = [
        r for r in rows if r["chosen"] != r["base"] and r["useful"][r["chosen"]] == r["useful"][r["base"]]
    ]
    fewer = [
        r for r in rows if r["chosen"] != r["base"] and r["useful"][r["chosen"]] < r["useful"][r["base"]]
    ]
    line("as many useful", own + same)
    line("fewer useful", own + fewer)
    # by what the other discard does to the hand (its features against the own discard's); each "own" group is
    # the decisions where such another discard was possible
    from erma.bots.expert.learned import FEATURES

    col = {f: i for i, f in enumerate(FEATURES)}

    def delta(r: dict[str, Any], i: int, f: str) -> float:
        return float(r["x"][i][col[f]] - r["x"][r["base"]][col[f]])

    strata = (
        ("throws an honour, own a 万", lambda r, i: delta(r, i, "honours") < 0),
        ("keeps an honour, throws a 万", lambda r, i: delta(r, i, "honours") > 0),
        ("no honours left", lambda r, i: delta(r, i, "no_honours") > 0),
        ("breaks an honour pair", lambda r, i: delta(r, i, "honour_pairs") + delta(r, i, "value_pairs") < 0),
        ("breaks a valued pair", lambda r, i: delta(r, i, "value_pairs") < 0),
        ("七对 closer", lambda r, i: delta(r, i, "seven_pairs") < 0),
        ("七对 further", lambda r, i: delta(r, i, "seven_pairs") > 0),
        ("more 万 ranks", lambda r, i: delta(r, i, "ranks") > 0),
        ("fewer 万 ranks", lambda r, i: delta(r, i, "ranks") < 0),
    )
    for name, prop in strata:

        def could(r: dict[str, Any], prop: Any = prop) -> bool:
            u, b = r["useful"], r["base"]
            return any(i != b and u[i] >= max(u) - args.keep and prop(r, i) for i in range(len(u)))

        took = [r for r in rows if r["chosen"] != r["base"] and prop(r, r["chosen"])]
        if len(took) >= 30:
            line(name, took + [r for r in own if could(r)])


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("record")
    r.add_argument("--rules", required=True)
    r.add_argument("--bots", default="level5,greedy")
    r.add_argument("--walls", type=int, required=True)
    r.add_argument("--start", type=int, default=0)
    r.add_argument("--seed", required=True)
    r.add_argument("--out", required=True)
    r.add_argument("--explore", type=float, default=0.0, help="the chance to play another efficient discard")
    r.add_argument("--explore-bots", default="level5", help="the bots that explore")
    r.add_argument("--keep", type=int, default=3, help="explore within this many useful tiles of the most")
    r.add_argument("--from", dest="from_s", type=int, default=2, help="the least shanten after the discard")
    f = sub.add_parser("fit")
    f.add_argument("data", nargs="+")
    f.add_argument("--ridge", type=float, default=10.0)
    f.add_argument("--seats", default="all")
    f.add_argument("--drop", default="")
    f.add_argument("--margin", type=float, default=0.0)
    f.add_argument("--min-s", type=int, default=0, help="only decisions leaving the hand this far or more")
    f.add_argument("--out", default="")
    e = sub.add_parser("explored")
    e.add_argument("data", nargs="+")
    e.add_argument("--ridge", type=float, default=10.0)
    e.add_argument("--seats", default="all")
    e.add_argument("--drop", default="")
    e.add_argument("--margin", type=float, default=0.0)
    e.add_argument("--keep", type=int, default=3)
    e.add_argument("--min-s", type=int, default=0)
    e.add_argument("--holdout", type=int, default=-1, help="hold out the walls of this parity (0, 1)")
    e.add_argument("--out", default="")
    e.add_argument("--weights", default="", help="no fit: check these weights (JSON) on every row")
    x = sub.add_parser("effects")
    x.add_argument("data", nargs="+")
    x.add_argument("--keep", type=int, default=3)
    args = p.parse_args(argv)
    {"record": record, "fit": fit, "explored": explored, "effects": effects}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
