"""The expert's opponent model against the opponent it meets: how often the opponent's discard wins for a
ready hand, and how often it claims our discard, by tile class.

``erma.bots.expert`` values a ready hand's wins on the opponent's discards as ``RON_SHARE`` (0.6) times the
random-tile chance (the winning kinds' unseen copies over all unseen tiles) for every kind alike, and does not
weigh the opponent's claims on our discards at all. This script plays A against B in duplicate (A in both
seats over the two games of a wall) and, from A's seat view only, counts:

- **ron**: at each discard the opponent chooses while A's hand is ready, for each winning kind with unseen
  copies, the random-tile chance (``predicted``) and whether the discard was that kind (``hit``); the ratio
  hit / predicted by tile class (honours, 1 / 9, 2 / 8, 3–7), split by whether A's own hand is locked by 报听
  (``mine``) or not (``dama``). The discard with which the opponent declares 报听 is its choice and counts
  here; once it is locked the engine discards its draws for it (no choice, not counted);
- **claims**: at each A discard while the opponent is not locked, whether the opponent claimed it (碰 / 吃 /
  明杠), by class and, for honours, by the copies still unseen after the discard;
- **wall share**: at the same moments as *ron*, the winning kinds' share of the live wall (read from the game
  state — the one hidden thing this script reads, to check the random-tile chance itself; no bot sees it).

Measured on 2026-12-02 (``--walls 1000 --seed cal1``, level5 against greedy, classic64): greedy's discards
win for level5's honour waits about 1.9 times as often as the random-tile chance, for 1 / 9 1.1–1.9 times,
for 2 / 8 0.3–0.9 times and for 3–7 0.43 times (the estimate: 0.6 for every kind); the live-wall share of
the winning kinds is 0.88–0.96 of the chance. It claims 14.5 % of the honours we discard while three copies
are unseen (1 % or none with fewer) and 23–34 % of the number tiles. An earlier cut of the same count that
left out the discards with which the opponent declares 报听 (they hit 2 / 8 and 3–7 far more often) gave
honours 2.1–2.8 and 2 / 8, 3–7 0.2–0.4; the estimate with those ratios, and a penalty on claimable discards,
both measured worse in the arena (docs/bots.md, "What would make the expert stronger").

Usage: nice .venv/bin/python benchmarks/opponent_calibration.py [--rules classic64] [--bots level5,greedy]
[--walls 300] [--seed cal] [--workers 2]
"""

from __future__ import annotations

import argparse
import collections
import dataclasses
from collections.abc import Sequence

from erma.bots import make_bot
from erma.bots.expert import RON_SHARE
from erma.bots.expert.cached import shanten, winners
from erma.game import Phase, apply_unchecked, legal_actions, new_hand, seat_view
from erma.game.actions import Kind
from erma.game.seatview import SeatView
from erma.game.state import GameState
from erma.lab.arena import arena_bot_seed
from erma.lab.runner import run_walls
from erma.lab.selfplay import hand_seed
from erma.rules import find_ruleset
from erma.tiles import is_honor, is_terminal, rank_of

CLASSES = ("honours", "1/9", "2/8", "3-7")
CLAIMS = (Kind.PUNG, Kind.CHOW, Kind.KONG)


def tile_class(t: int) -> str:
    """Honours, terminals (1 / 9), 2 / 8 or the middle (3–7)."""
    if is_honor(t):
        return "honours"
    if is_terminal(t):
        return "1/9"
    return "2/8" if rank_of(t) in (2, 8) else "3-7"


@dataclasses.dataclass(frozen=True)
class Config:
    rules: str
    bots: tuple[str, str]
    seed: str


def play(config: Config, walls: Sequence[int]) -> list[dict[tuple[str, ...], float]]:
    """Per wall, the counts of both games, from bot A's seat (standard family only)."""
    rules = find_ruleset(config.rules)
    out = []
    for w in walls:
        tally: dict[tuple[str, ...], float] = collections.defaultdict(float)
        s = hand_seed(config.seed, w)
        for g in (0, 1):
            me = g  # bot A sits in seat g of game g
            names = config.bots if g == 0 else (config.bots[1], config.bots[0])
            bots = [make_bot(names[x], arena_bot_seed(config.seed, w, g, x)) for x in (0, 1)]
            state = new_hand(rules, s, w % 2)
            pending: tuple[str, ...] | None = None
            while state.phase is not Phase.END:
                seat = state.actor
                legal = legal_actions(state, seat)
                view = seat_view(state, seat)
                action = bots[seat].choose(view, legal)
                if seat != me:
                    if pending is not None and state.phase is Phase.CLAIM:
                        tally[(*pending, "claimed")] += action.kind in CLAIMS
                    if action.kind is Kind.DISCARD:
                        _ron(state, seat_view(state, me), action.tile, tally)
                    pending = None
                else:
                    pending = None
                    if action.kind is Kind.DISCARD and not view.riichi[1 - me]:
                        t = action.tile
                        unseen = view.unseen(t)  # the same after the discard (held or in a river, it is seen)
                        cls = tile_class(t)
                        pending = ("claims", cls, f"{min(unseen, 3)} unseen" if is_honor(t) else "")
                        tally[(*pending, "discards")] += 1
                apply_unchecked(state, seat, action)
        out.append(dict(tally))
    return out


def _ron(state: GameState, v: SeatView, tile: int, tally: dict[tuple[str, ...], float]) -> None:
    """The opponent discards ``tile``; ``v`` is A's view (before the discard)."""
    if v.size % 3 != 1 or shanten(v.key, v.size) != 0:
        return
    unseen = [v.unseen(t) for t in range(34)]
    total = sum(unseen[t] for t in v.kinds)
    me = v.seat
    lock = "mine" if v.riichi[me] else "dama"
    live = state.wall[state.head : state.tail]
    for t in winners(v.key, v.size, v.kinds):
        if not unseen[t] or not total:
            continue
        cls = tile_class(t)
        tally[("ron", lock, cls, "predicted")] += unseen[t] / total
        tally[("ron", lock, cls, "hit")] += tile == t
        if live:
            tally[("wall", cls, "predicted")] += unseen[t] / total
            tally[("wall", cls, "share")] += live.count(t) / len(live)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="classic64")
    ap.add_argument("--bots", default="level5,greedy")
    ap.add_argument("--walls", type=int, default=300)
    ap.add_argument("--seed", default="cal")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    a, b = args.bots.split(",")
    if find_ruleset(args.rules).family != "standard":
        raise SystemExit(
            f"--rules {args.rules}: the standard family only (温州's wilds change what a wait is)"
        )
    per_wall = run_walls(play, Config(args.rules, (a, b), args.seed), args.walls, workers=args.workers)
    t: dict[tuple[str, ...], float] = collections.defaultdict(float)
    for d in per_wall:
        for k, x in d.items():
            t[k] += x
    print(
        f"{args.rules}, {a} against {b}, {args.walls} walls, seed {args.seed}; "
        f"the estimate's RON_SHARE {RON_SHARE}"
    )
    print("ron — the opponent's discard wins for a ready hand (hit / random-tile chance):")
    for lock in ("dama", "mine"):
        cells = []
        for cls in CLASSES:
            p, h = t[("ron", lock, cls, "predicted")], t[("ron", lock, cls, "hit")]
            cells.append(f"{cls} {h / p:.2f} ({int(h)} of {p:.1f})" if p else f"{cls} —")
        print(f"  our hand {'locked' if lock == 'mine' else 'not locked':10}  " + "   ".join(cells))
    cells = []
    for cls in CLASSES:
        p, sh = t[("wall", cls, "predicted")], t[("wall", cls, "share")]
        cells.append(f"{cls} {sh / p:.2f}" if p else f"{cls} —")
    print("wall — the winning kinds' live-wall share / random-tile chance:  " + "   ".join(cells))
    print("claims — the opponent claims our discard (unlocked opponent):")
    for k in sorted(k for k in t if k[0] == "claims" and k[-1] == "discards"):
        n, c = t[k], t[(*k[:-1], "claimed")]
        print(f"  {k[1]:8} {k[2]:9} {int(c):5} of {int(n):5}  {c / n:.3f}")


if __name__ == "__main__":
    main()
