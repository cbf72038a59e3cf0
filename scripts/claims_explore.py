"""A randomized test of level5's claims (吃碰杠) in the MCR presets (issue 39): what the other choice is
worth.

    python scripts/claims_explore.py record --rules classic64 --walls 8000 --seed h39o-tune-c1 --out c1.jsonl
    python scripts/claims_explore.py effects c1.jsonl

``record`` plays the arena's own games of level5 against greedy; at each of level5's claim decisions (a
discard it may chow, pung or kong; not a win), with chance ``--explore`` (½) it plays another legal choice
at random (passing, or a random claim when it passed) instead of its own, and writes the estimate's margin
of its best claim over passing (as ``ExpertBot._claim`` scores them), its own and the played choice and,
once the hand is over, its final points. ``effects`` compares the hands that played the other choice with
those that played their own, by direction (claimed → passed, passed → claimed) and by the estimate's margin.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from pathlib import Path
from typing import Any


def record(args: argparse.Namespace) -> None:
    from erma.analysis.tables import INC
    from erma.bots.claimed import claimed_hand
    from erma.bots.expert.cached import copies
    from erma.bots.expert.estimate import Estimator
    from erma.bots.expert.settings import Settings
    from erma.game.actions import PASS, Kind
    from erma.lab.arena import logged_games
    from erma.rules import find_ruleset

    rules = find_ruleset(args.rules)
    st = Settings()
    claim_kinds = (Kind.CHOW, Kind.PUNG, Kind.KONG)

    def margin(view: Any, legal: list[Any]) -> float:
        """The estimate of the best claim less passing (``ExpertBot._claim``'s scores)."""
        est = Estimator(view, st, 0)
        p = view.last_discard
        left = view.draws_left
        mine_next = (left + 1) // 2
        _, b = est.race(view.key, view.size, view.jokers, view.melds, mine_next)
        passing = b[mine_next]
        after = left // 2
        danger = est.danger()
        best = float("-inf")
        for a in legal:
            claimed = claimed_hand(view, a, p)
            if claimed is None:
                continue
            k, n, meld = claimed
            if a.kind is Kind.KONG:
                _, bk = est.race(k, n, view.jokers, (*view.melds, meld), after + 1)
                best = max(best, bk[after + 1])
                continue
            melds = (*view.melds, meld)
            options = [d for d in est.kinds if copies(k, d)]
            after_s = {d: est.shanten(k - INC[d], n - 1, view.jokers, melded=True) for d in options}
            lowest = min(after_s.values(), default=0)
            for d in options:
                if after_s[d] != lowest:
                    continue
                v = est.race_later(k - INC[d], n - 1, view.jokers, melds, after)[after]
                v = (1 - danger[d]) * v - danger[d] * est.cost
                best = max(best, v)
        return best - passing

    class Explorer:
        def __init__(self, inner: Any, log: list[dict[str, Any]], rng: random.Random) -> None:
            self.inner, self.log, self.rng = inner, log, rng
            self.name, self.uses_view = inner.name, True

        def choose(self, view: Any, legal: list[Any]) -> Any:
            action = self.inner.choose(view, legal)
            claims = [a for a in legal if a.kind in claim_kinds]
            if not claims or action.kind not in (*claim_kinds, Kind.PASS) or view.last_discard is None:
                return action
            own_claims = action.kind is not Kind.PASS
            played = action
            if self.rng.random() < args.explore:
                played = PASS if own_claims else self.rng.choice(claims)
            self.log.append(
                {
                    "seat": view.seat,
                    "margin": round(margin(view, legal), 3),
                    "own": action.kind.value,
                    "played": played.kind.value,
                    "turn": len(view.discards[view.seat]),
                }
            )
            return played

    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", encoding="utf-8") as fh:

        def explored(bot: Any, log: list[dict[str, Any]], wall: int, g: int, s: int) -> Any:
            """level5 (bot A, in seat g) explores; greedy plays as it is."""
            return Explorer(bot, log, random.Random(f"claims:{args.seed}:{wall}:{g}")) if s == g else bot

        walls = range(args.start, args.walls)
        for wall, g, res, log in logged_games(rules, args.seed, walls, ("level5", "greedy"), explored):
            for row in log:
                row.update(y=res.deltas[row["seat"]], wall=wall, g=g)
                fh.write(json.dumps(row) + "\n")
            fh.flush()


def effects(args: argparse.Namespace) -> None:
    rows = [json.loads(line) for p in args.data for line in Path(p).read_text(encoding="utf-8").splitlines()]

    def line(name: str, other: list[dict[str, Any]], own: list[dict[str, Any]]) -> None:
        a, b = [r["y"] for r in other], [r["y"] for r in own]
        if len(a) < 20 or len(b) < 20:
            return
        d = statistics.mean(a) - statistics.mean(b)
        h = 1.96 * (statistics.pvariance(a) / len(a) + statistics.pvariance(b) / len(b)) ** 0.5
        ci = f"({d - h:+.2f} … {d + h:+.2f})"
        print(f"{name:34s} other {len(a):6d}  own {len(b):6d}  other − own {d:+.2f} {ci}")

    def split(sel: list[dict[str, Any]], name: str) -> None:
        other = [r for r in sel if r["played"] != r["own"]]
        own = [r for r in sel if r["played"] == r["own"]]
        line(name, other, own)

    split(rows, "all")
    claimed = [r for r in rows if r["own"] != "pass"]
    passed = [r for r in rows if r["own"] == "pass"]
    split(claimed, "level5 claimed → passes")
    split(passed, "level5 passed → claims")
    for lo, hi in ((0, 1), (1, 2), (2, 4), (4, 8), (8, 1e9)):
        split(
            [r for r in claimed if lo <= r["margin"] < hi], f"  claimed, margin {lo}–{hi if hi < 1e9 else ''}"
        )
    for lo, hi in ((-1, 0), (-2, -1), (-4, -2), (-8, -4), (-1e9, -8)):
        split(
            [r for r in passed if lo <= r["margin"] < hi], f"  passed, margin {lo if lo > -1e9 else ''}–{hi}"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("record")
    r.add_argument("--rules", required=True)
    r.add_argument("--walls", type=int, required=True)
    r.add_argument("--start", type=int, default=0)
    r.add_argument("--seed", required=True)
    r.add_argument("--explore", type=float, default=0.5)
    r.add_argument("--out", required=True)
    e = sub.add_parser("effects")
    e.add_argument("data", nargs="+")
    args = ap.parse_args()
    {"record": record, "effects": effects}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
