"""Randomized tests of three levers of level5 in the MCR presets (issue 39): 报听 (declare ready), value over
speed, and defence (弃和) — what the other choice is worth, in the arena's own games.

    python scripts/levers_explore.py record --rules classic64 --walls 8000 --seed h39x2-c64 --out x.jsonl
    python scripts/levers_explore.py effects x.jsonl

``record`` plays the arena's own games of level5 against greedy (its walls, bot seeds and seats). At each of
level5's turns one lever at most applies, in this order:

- ``riichi``: a discard may declare 报听. With chance ``--explore`` level5 plays the other choice: the same
  tile without declaring where it declared, declaring on its own tile (or on the best-scored declarable one)
  where it did not. The row keeps the estimate's margin for declaring (the best declared discard's value less
  the best undeclared one's, as ``ExpertBot._discard_values`` scores them), the unseen winning tiles and the
  turn.
- ``defence``: the opponent may be ready (its 报听, ``--late`` or more discards, or two or more open sets) and
  level5's discard is not the safest one (the lowest chance of dealing in by its own opponent model,
  :func:`~erma.bots.expert.opponent.deal_in`; ties: the lower shanten, then more useful tiles). With chance
  ``--explore`` the safest is played instead (``--fold hand``: one coin for all of a hand's such turns, from
  its first: folding as a policy). The row keeps both chances, both shantens.
- ``value``: the hand is one to three from ready after the best discard, and some discard gives up useful
  tiles or a shanten step (at most one) against level5's but has a higher win value — the mean points of
  imagined completions (:meth:`~erma.bots.expert.estimate.Estimator.completions`, 24 samples). The highest
  of those at level5's shanten and the highest a step back are the alternatives (one of them at random when
  both are there); with chance ``--explore`` it is played instead. The row keeps the value gained, the
  tiles and the steps lost.

Each game also writes a ``hand`` row (level5's final points). ``effects`` compares, per lever and band, the
final points of the decisions that played the other choice with those that played level5's own (difference of
means; 95 % interval clustered by hand), and what a rule "take the other choice in this band" would move a
hand (the effect times the band's decisions a level5 hand).
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
from collections import defaultdict
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

Row = dict[str, Any]


def record(args: argparse.Namespace) -> None:
    from erma.analysis.tables import INC
    from erma.bots.expert.cached import improvers, winners
    from erma.bots.expert.estimate import Estimator
    from erma.bots.priors import ready_chance
    from erma.game.actions import Action, Kind
    from erma.game.state import Phase
    from erma.lab.arena import logged_games
    from erma.rules import find_ruleset

    rules = find_ruleset(args.rules)
    levers = set(args.levers.split(","))

    def after(view: Any, est: Any, tile: int) -> tuple[int, int, int]:
        """(kind, key, shanten) of the concealed hand after discarding ``tile``."""
        p = view.play(tile)
        k = view.key - INC[p]
        return p, k, est.shanten(k, view.size - 1, view.jokers)

    def useful(view: Any, est: Any, k: int, s: int) -> int:
        """Unseen copies of the kinds that bring a 3k+1 hand closer (its winning tiles when ready)."""
        n = view.size - 1
        kinds = winners(k, n, view.kinds, view.shapes) if s == 0 else improvers(k, n, view.kinds, view.shapes)
        return sum(est.unseen[t] for t in kinds)

    class Explorer:
        def __init__(self, inner: Any, log: list[Row], rng: random.Random) -> None:
            self.inner, self.log, self.rng = inner, log, rng
            self.name, self.uses_view = inner.name, True
            self.fold: bool | None = None  # --fold hand: the hand's one coin for every defence decision
            self.defended = False

        def choose(self, view: Any, legal: list[Any]) -> Any:
            action = self.inner.choose(view, legal)
            if (
                view.phase is not Phase.TURN
                or action.kind is not Kind.DISCARD
                or view.riichi[view.seat]
                or view.caishen is not None
            ):
                return action
            if any(a.riichi for a in legal):
                return self.riichi(view, legal, action) if "riichi" in levers else action
            opp = 1 - view.seat
            ready = ready_chance(view.rules, len(view.discards[opp]), view.riichi[opp])
            if view.riichi[opp] or len(view.discards[opp]) >= args.late or len(view.opponent_melds) >= 2:
                return self.defence(view, legal, action, ready) if "defence" in levers else action
            if "value" in levers:
                return self.value(view, legal, action)
            return action

        def flip(self) -> bool:
            return self.rng.random() < args.explore

        def riichi(self, view: Any, legal: list[Any], own: Any) -> Any:
            bot = self.inner
            est = Estimator(view, bot.settings, bot.seed)
            discards = [a for a in legal if a.kind is Kind.DISCARD]
            sh = {a: after(view, est, a.tile)[2] for a in discards}
            best_s = min(sh.values())
            scored = bot._discard_values(view, est, [a for a in discards if sh[a] == best_s])
            yes = [(v, a) for v, a in scored if a.riichi]
            no = [(v, a) for v, a in scored if not a.riichi]
            if not yes or not no:
                return own
            best_yes = max(yes, key=lambda x: x[0])
            margin = best_yes[0] - max(v for v, _ in no)
            if own.riichi:
                other = Action(Kind.DISCARD, own.tile)
            else:
                same = Action(Kind.DISCARD, own.tile, riichi=True)
                other = same if same in legal else best_yes[1]
            if other not in legal:
                return own
            played = other if self.flip() else own
            _, k, s = after(view, est, best_yes[1].tile)
            opp = 1 - view.seat
            self.log.append(
                {
                    "lever": "riichi",
                    "seat": view.seat,
                    "own": bool(own.riichi),
                    "other": played != own,
                    "margin": round(margin, 3),
                    "value": round(max(v for v, _ in scored), 3),
                    "waits": useful(view, est, k, s) if s == 0 else 0,
                    "turn": len(view.discards[view.seat]),
                    "opp_riichi": view.riichi[opp],
                    "open": len(view.melds),
                }
            )
            return played

        def defence(self, view: Any, legal: list[Any], own: Any, ready: float) -> Any:
            bot = self.inner
            est = Estimator(view, bot.settings, bot.seed)
            danger = est.danger()
            rank: dict[Any, tuple[float, int, int]] = {}
            info: dict[Any, tuple[int, int]] = {}
            for a in legal:
                if a.kind is not Kind.DISCARD or a.riichi:
                    continue
                p, k, s = after(view, est, a.tile)
                u = useful(view, est, k, s)
                rank[a] = (danger[p], s, -u)
                info[a] = (s, u)
            if own not in rank:
                return own
            safe = min(rank, key=lambda a: rank[a])
            opp = 1 - view.seat
            row = {
                "lever": "defence",
                "seat": view.seat,
                "d_own": round(rank[own][0], 4),
                "d_safe": round(rank[safe][0], 4),
                "s_own": info[own][0],
                "s_safe": info[safe][0],
                "u_own": info[own][1],
                "u_safe": info[safe][1],
                "opp_riichi": view.riichi[opp],
                "opp_open": len(view.opponent_melds),
                "ready": round(ready, 3),
                "turn": len(view.discards[view.seat]),
            }
            if view.play(safe.tile) == view.play(own.tile):
                return own  # level5's discard is the safest: nothing to flip
            row["first"] = not self.defended
            self.defended = True
            if args.fold == "hand":
                if self.fold is None:
                    self.fold = self.flip()
                folding = self.fold
            else:
                folding = self.flip()
            played = safe if folding else own
            row["other"] = played != own
            self.log.append(row)
            return played

        def value(self, view: Any, legal: list[Any], own: Any) -> Any:
            bot = self.inner
            est = Estimator(view, replace(bot.settings, samples=args.samples), bot.seed)
            seen: dict[int, tuple[Any, int, int, int]] = {}
            for a in legal:
                if a.kind is not Kind.DISCARD or a.riichi:
                    continue
                p, k, s = after(view, est, a.tile)
                if p not in seen:
                    seen[p] = (a, k, s, useful(view, est, k, s))
            best_s = min(s for _, _, s, _ in seen.values())
            po = view.play(own.tile)
            if not 1 <= best_s <= 3 or po not in seen:
                return own
            _, ko, so, uo = seen[po]
            n = view.size - 1
            vo = est.completions(ko, n, view.melds)
            cands = []
            for _p, (a, k, s, u) in seen.items():
                if s > so + 1 or (s == so and u >= uo) or s < so:
                    continue
                v = est.completions(k, n, view.melds)
                if v > vo + 1e-9:
                    cands.append((v, -(s - so), u, a))
            if not cands:
                return own
            # the best of each kind (same shanten with fewer tiles; a step back), one of them at random
            kinds = [
                max((c for c in cands if c[1] == -step), key=lambda x: x[:3])
                for step in (0, 1)
                if any(c[1] == -step for c in cands)
            ]
            v, neg_step, u, alt = self.rng.choice(kinds)
            played = alt if self.flip() else own
            self.log.append(
                {
                    "lever": "value",
                    "seat": view.seat,
                    "other": played != own,
                    "s_own": so,
                    "v_own": round(vo, 3),
                    "gain": round(v - vo, 3),
                    "step": -neg_step,
                    "lost": uo - u,
                    "u_own": uo,
                    "turn": len(view.discards[view.seat]),
                }
            )
            return played

    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", encoding="utf-8") as fh:

        def explored(bot: Any, log: list[Row], wall: int, g: int, s: int) -> Any:
            """level5 (bot A, in seat g) explores; greedy plays as it is."""
            return Explorer(bot, log, random.Random(f"levers:{args.seed}:{wall}:{g}")) if s == g else bot

        walls = range(args.start, args.walls)
        for wall, g, res, log in logged_games(rules, args.seed, walls, ("level5", "greedy"), explored):
            log.append({"lever": "hand", "seat": g})  # level5 sits in seat g
            for row in log:
                row.update(y=res.deltas[row["seat"]], wall=wall, g=g)
                fh.write(json.dumps(row) + "\n")
            fh.flush()


def diff(rows: list[Row]) -> tuple[float, float, int, int] | None:
    """Mean y of the rows that played the other choice less those that played level5's own, and the
    half-width of its 95 % interval clustered by hand (the sandwich of the two-group regression)."""
    a = [r for r in rows if r["other"]]
    b = [r for r in rows if not r["other"]]
    if len(a) < 10 or len(b) < 10:
        return None
    ma = sum(r["y"] for r in a) / len(a)
    mb = sum(r["y"] for r in b) / len(b)
    cl: dict[tuple[int, int], float] = defaultdict(float)
    for r in a:
        cl[r["wall"], r["g"]] += (r["y"] - ma) / len(a)
    for r in b:
        cl[r["wall"], r["g"]] -= (r["y"] - mb) / len(b)
    se = sum(x * x for x in cl.values()) ** 0.5
    return ma - mb, 1.96 * se, len(a), len(b)


def band_line(name: str, rows: list[Row], hands: int) -> None:
    got = diff(rows)
    if got is None:
        print(f"  {name:40s} rows {len(rows):6d}  (too few)")
        return
    d, h, na, nb = got
    per_hand = d * (na + nb) / hands
    print(
        f"  {name:40s} other {na:6d} own {nb:6d}  other − own {d:+6.2f} ({d - h:+6.2f} … {d + h:+6.2f})"
        f"  a hand {per_hand:+.3f}"
    )


def bands(rows: list[Row], hands: int, key: Callable[[Row], float], edges: list[float], label: str) -> None:
    cuts = [float("-inf"), *edges, float("inf")]
    for lo, hi in itertools.pairwise(cuts):
        sel = [r for r in rows if lo <= key(r) < hi]
        if sel:
            band_line(f"{label} {lo:g}…{hi:g}", sel, hands)


def effects(args: argparse.Namespace) -> None:
    rows = [json.loads(x) for p in args.data for x in Path(p).read_text(encoding="utf-8").splitlines() if x]
    by: dict[str, list[Row]] = defaultdict(list)
    for r in rows:
        by[r["lever"]].append(r)
    hands = max(1, len(by["hand"]))
    mean_y = sum(r["y"] for r in by["hand"]) / hands
    print(f"level5 hands {hands}, mean points {mean_y:+.2f}; 'a hand': effect × band decisions / hands")
    rc = by["riichi"]
    if rc:
        print(f"\n报听 (riichi): {len(rc)} decisions, {sum(r['own'] for r in rc)} declared by level5")
        for own, name in ((True, "declared → not"), (False, "not → declared")):
            sel = [r for r in rc if r["own"] is own]
            band_line(name, sel, hands)
            bands(sel, hands, lambda r: r["margin"], [-8, -4, -2, -1, 0, 1, 2, 4, 8], "  margin")
            bands(sel, hands, lambda r: r["waits"], [1, 3, 5, 8, 12], "  waits")
            bands(sel, hands, lambda r: r["turn"], [3, 6, 9, 12], "  turn")
            band_line("  opponent declared", [r for r in sel if r["opp_riichi"]], hands)
            band_line("  hand open", [r for r in sel if r["open"]], hands)
            band_line("  hand closed", [r for r in sel if not r["open"]], hands)
    dc = by["defence"]
    if dc:
        print(f"\ndefence: {len(dc)} decisions where level5's discard is not the safest")
        band_line("all → safest", dc, hands)
        for name, sel in (
            ("opponent declared 报听", [r for r in dc if r["opp_riichi"]]),
            ("not declared, 2+ open sets", [r for r in dc if not r["opp_riichi"] and r["opp_open"] >= 2]),
            ("not declared, late only", [r for r in dc if not r["opp_riichi"] and r["opp_open"] < 2]),
        ):
            band_line(name, sel, hands)
            bands(sel, hands, lambda r: r["d_own"] - r["d_safe"], [0.02, 0.05, 0.1, 0.2], "  Δdeal-in")
            bands(sel, hands, lambda r: r["s_own"], [1, 2, 3], "  own shanten")
            bands(sel, hands, lambda r: r["s_safe"] - r["s_own"], [1, 2], "  shanten lost")
        first = [r for r in dc if r.get("first")]
        band_line("first of its hand (policy with --fold hand)", first, hands)
        bands(first, hands, lambda r: r["s_own"], [1, 2, 3], "  own shanten")
        band_line("  opponent declared", [r for r in first if r["opp_riichi"]], hands)
    vc = by["value"]
    if vc:
        print(f"\nvalue over speed: {len(vc)} decisions with a higher-value discard that is slower")
        band_line("all → higher value", vc, hands)
        for step, name in ((0, "same shanten, fewer tiles"), (1, "a shanten step")):
            sel = [r for r in vc if r["step"] == step]
            band_line(name, sel, hands)
            bands(sel, hands, lambda r: r["gain"], [2, 4, 8, 16], "  value gained")
            if step == 0:
                bands(sel, hands, lambda r: r["lost"], [2, 4, 8, 16], "  tiles lost")
            bands(sel, hands, lambda r: r["s_own"], [2, 3], "  own shanten")
        cross = [r for r in vc if r["step"] == 0 and r["lost"] <= 4 and r["gain"] >= 4]
        band_line("same shanten, lost ≤ 4, gained ≥ 4", cross, hands)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("record")
    r.add_argument("--rules", required=True)
    r.add_argument("--walls", type=int, required=True)
    r.add_argument("--start", type=int, default=0)
    r.add_argument("--seed", required=True)
    r.add_argument("--explore", type=float, default=0.5)
    r.add_argument("--levers", default="riichi,defence,value")
    r.add_argument("--late", type=int, default=9, help="opponent discards from which it may be ready")
    r.add_argument("--samples", type=int, default=24, help="imagined completions a value")
    r.add_argument(
        "--fold",
        choices=("decision", "hand"),
        default="decision",
        help="defence: a coin a decision or a hand",
    )
    r.add_argument("--out", required=True)
    e = sub.add_parser("effects")
    e.add_argument("data", nargs="+")
    args = ap.parse_args()
    {"record": record, "effects": effects}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
