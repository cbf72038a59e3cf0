"""Oracle bots that cheat (先知), a headroom study for issue #39 (lab code only, never a product bot).

The bots here see what no fair bot may see — the opponent's concealed tiles and the wall — to bound how much
a fair bot could gain over level5 at the table. They are played by :func:`play_wall`, the arena's own game
loop (:func:`erma.lab.arena.play_wall`: the same walls, dealers, bot seeds and seat swap, so a run is
duplicate and paired with ``erma arena`` on the same seed), which also hands each bot that asks for it
(``sees_state``) the full engine state before it chooses.

- ``perfect-defence``: level5, except that a discard (or a 报听 discard, or an added kong the opponent could
  rob) the opponent could win on right now is never chosen while a safe one exists. "Could win" is the
  engine's own verdict: the action is tried on a copy of the state and the opponent's legal actions in the
  claim window (or the robbing window) are asked for WIN — its concealed tiles + the tile, the fan minimum,
  furiten, everything. When level5's choice deals in, level5 chooses again with the unsafe actions taken out
  of its legal list (its best safe choice); when every discard deals in, level5's own choice stands.
- ``perfect-defence-nofear``: the same with level5's danger model off (``Settings(defense=False)``): it does
  not fold on estimated danger, since the oracle never deals in anyway (a bound on what exact reads of the
  opponent's waits could give; the race's hazard of the opponent's own wins stays).
- ``live-waits``: level5 reading a view whose unseen counts are the tiles still in the wall (the opponent's
  concealed tiles taken out), so tile efficiency, the waits' worth and the win chances count only live tiles;
  ``perfect-defence+live-waits``: both.

Nothing here is imported by the bots or the server.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from erma.bots import Bot, make_bot
from erma.bots.base import BotView
from erma.bots.expert import ExpertBot, Settings
from erma.game import (
    Action,
    EndReason,
    GameState,
    Kind,
    Phase,
    SeatView,
    WinHow,
    apply_unchecked,
    legal_actions,
    seat_view,
)
from erma.game.actions import PASS, WIN
from erma.lab.arena import (
    ArenaConfig,
    GameHooks,
    WallResult,
    summarize,
)
from erma.lab.arena import play_wall as arena_play_wall
from erma.lab.runner import run_walls

ROBBABLE = (Kind.ADDED_KONG, Kind.EXTEND_KONG)


@dataclass
class OracleStats:
    """What an oracle did in one game."""

    decisions: int = 0
    checked: int = 0
    """Decisions where the first choice was a discard or an added kong and was tried on a copy."""
    changed: int = 0
    """Decisions where level5's choice would have dealt in and a safe one was played instead."""
    changed_declared: int = 0
    """Of those, decisions where the opponent had declared 报听 (its readiness public, its waits not)."""
    forced: int = 0
    """Decisions where every discard dealt in (level5's own choice played)."""
    trials: int = 0
    """Actions tried on a copy of the state."""
    declines: int = 0
    """报听 declarations foreseen to deal in and not made (``declare``)."""
    dealt_in: int = 0
    """Games it dealt in (on a discard or a robbed kong)."""
    dealt_in_declared: int = 0
    """Of those, games where it had declared 报听 (on the declaring discard itself, or locked: the engine
    then discards each drawn tile by itself, ``riichi_auto``, with no decision of the oracle's between)."""
    dealt_in_declaring: int = 0
    """Of those, games it dealt in with the declaring discard itself."""
    dealt_in_opp_declared: int = 0
    """Games it dealt in to an opponent that had declared 报听."""

    def add(self, other: OracleStats) -> None:
        for f in dataclasses.fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))


def clone(state: GameState) -> GameState:
    """A copy of ``state`` that one action can be applied to without touching the original (the seats, the
    lists and the generator copied; the rules, the family and the events themselves shared)."""
    seats = [
        dataclasses.replace(
            s,
            counts=list(s.counts),
            melds=list(s.melds),
            discards=list(s.discards),
            flowers=list(s.flowers),
            selected=list(s.selected),
        )
        for s in state.seats
    ]
    rng = random.Random()
    rng.setstate(state.rng.getstate())
    return dataclasses.replace(
        state,
        rng=rng,
        seats=seats,
        wall=list(state.wall),
        wall_public=list(state.wall_public),
        reserve=list(state.reserve),
        bonus_kinds=list(state.bonus_kinds),
        revealed=list(state.revealed),
        riichi_order=list(state.riichi_order),
        haidi_queue=list(state.haidi_queue),
        exchange_order=list(state.exchange_order),
        events=list(state.events),
        actions=list(state.actions),
        counters=dict(state.counters),
        stakes=list(state.stakes),
        kong_money=list(state.kong_money),
        legal_memo=None,
    )


def deals_in(state: GameState, seat: int, action: Action) -> bool:
    """Whether ``action`` by ``seat`` lets the opponent win at once (on the discard, or by robbing the kong),
    by the engine itself on a copy of the state."""
    trial = clone(state)
    apply_unchecked(trial, seat, action)
    opp = 1 - seat
    if trial.phase not in (Phase.CLAIM, Phase.ROB) or trial.actor != opp:
        return False
    return WIN in legal_actions(trial, opp)


def locked_deals_in(state: GameState, seat: int, action: Action, opponent: Bot) -> bool:
    """Whether declaring 报听 with ``action`` ends with ``seat`` dealing in, foreseen by playing the rest of
    the hand on a copy of the state: the wall as it is, ``seat`` locked (the engine discards each drawn tile
    by itself; a kong offered is declined, a win taken) and the opponent played by ``opponent`` (the
    opponent's own bot, seeded apart)."""
    trial = clone(state)
    apply_unchecked(trial, seat, action)
    while trial.phase is not Phase.END:
        actor = trial.actor
        legal = legal_actions(trial, actor)
        if actor == seat:
            if WIN in legal:
                a = WIN
            else:
                a = next((x for x in legal if x.kind is Kind.DISCARD), PASS if PASS in legal else legal[0])
        else:
            a = opponent.choose(seat_view(trial, actor), legal)
        apply_unchecked(trial, actor, a)
    res = trial.result
    return (
        res is not None
        and res.reason is EndReason.WIN
        and res.winner == 1 - seat
        and res.how in (WinHow.DISCARD, WinHow.ROB)
    )


def live_view(view: SeatView, state: GameState) -> SeatView:
    """``view`` with ``visible`` changed so that ``view.unseen(t)`` is the copies of ``t`` still in the wall
    (undrawn; the opponent's concealed tiles and the reserve counted as seen)."""
    wall = [0] * len(view.visible)
    for i in range(state.head, state.tail):
        t = state.wall[i]
        if t < len(wall):
            wall[t] += 1
    copies = view.rules.copies
    visible = tuple(max(0, copies - wall[t]) if t < 34 else view.visible[t] for t in range(len(wall)))
    return dataclasses.replace(view, visible=visible)


class OracleBot:
    """level5 (or a level5 with other settings) that sees the full state: ``state`` and ``seat`` are set by
    :func:`play_wall` before each :meth:`choose`."""

    uses_view = True
    sees_state = True

    def __init__(
        self,
        seed: int | str,
        name: str,
        *,
        defence: bool,
        live: bool,
        declare: bool = False,
        declaring: bool = True,
        settings: Settings | None = None,
    ) -> None:
        self.name = name
        self.seed = seed
        self.inner = ExpertBot(seed, settings=settings, name="level5")
        self.defence = defence
        self.live = live
        self.declare = declare
        self.declaring = declaring
        """Check the declaring (报听) discard too (False: only the discards that do not declare)."""
        self.opponent = ""
        """The opponent's bot name (set by :func:`play_wall`; the 报听 foresight plays it)."""
        self.state: GameState | None = None
        self.seat = -1
        self.stats = OracleStats()

    def choose(self, view: BotView, legal: list[Action]) -> Action:
        state = self.state
        assert state is not None, "the oracle harness sets the state"
        self.stats.decisions += 1
        if self.live:
            view = live_view(view, state)
        first = self.inner.choose(view, legal)
        if not self.defence or state.phase is not Phase.TURN:
            return first
        if first.kind is not Kind.DISCARD and first.kind not in ROBBABLE:
            return first
        if first.riichi and not self.declaring:
            return first
        self.stats.checked += 1
        self.stats.trials += 1
        chosen = first
        allowed = legal
        if deals_in(state, self.seat, first):
            verdict: dict[Action, bool] = {first: True}
            for a in legal:
                if (a.kind is Kind.DISCARD or a.kind in ROBBABLE) and a not in verdict:
                    self.stats.trials += 1
                    verdict[a] = deals_in(state, self.seat, a)
            if not any(a.kind is Kind.DISCARD and not verdict[a] for a in legal):
                self.stats.forced += 1
                return first
            allowed = [a for a in legal if not verdict.get(a, False)]
            chosen = self.inner.choose(view, allowed)
            self.stats.changed += 1
            self.stats.changed_declared += state.seats[1 - self.seat].riichi
        if self.declare and chosen.kind is Kind.DISCARD and chosen.riichi:
            proxy = "level5" if self.opponent in ORACLES or self.opponent in FAIR else self.opponent
            foresee = make_bot(proxy, f"{self.seed}:foresight")
            if locked_deals_in(state, self.seat, chosen, foresee):
                plain = [a for a in allowed if not a.riichi]
                if any(a.kind is Kind.DISCARD for a in plain):
                    self.stats.declines += 1
                    chosen = self.inner.choose(view, plain)
        return chosen


ORACLES: dict[str, Callable[[int | str], OracleBot]] = {
    "perfect-defence": lambda seed: OracleBot(seed, "perfect-defence", defence=True, live=False),
    "perfect-defence-nofear": lambda seed: OracleBot(
        seed, "perfect-defence-nofear", defence=True, live=False, settings=Settings(defense=False)
    ),
    "perfect-defence-undeclared": lambda seed: OracleBot(
        seed, "perfect-defence-undeclared", defence=True, live=False, declaring=False
    ),
    "perfect-defence+declare": lambda seed: OracleBot(
        seed, "perfect-defence+declare", defence=True, live=False, declare=True
    ),
    "perfect-defence+declare+live-waits": lambda seed: OracleBot(
        seed, "perfect-defence+declare+live-waits", defence=True, live=True, declare=True
    ),
    "perfect-defence+declare-nofear": lambda seed: OracleBot(
        seed,
        "perfect-defence+declare-nofear",
        defence=True,
        live=False,
        declare=True,
        settings=Settings(defense=False),
    ),
    "live-waits": lambda seed: OracleBot(seed, "live-waits", defence=False, live=True),
    "perfect-defence+live-waits": lambda seed: OracleBot(
        seed, "perfect-defence+live-waits", defence=True, live=True
    ),
    "level5-harness": lambda seed: OracleBot(seed, "level5-harness", defence=False, live=False),
}
"""The oracle bots by name (``level5-harness``: level5 through the oracle's wrapper, changing nothing — the
harness's own null check)."""


class WaitAgainstDeclared:
    """A fair lab bot (no cheating, for comparison): level5, except that it never declares 报听 while the
    opponent has declared (public): level5's choice among the actions that do not declare."""

    uses_view = True

    def __init__(self, seed: int | str) -> None:
        self.name = "level5-wait-vs-declared"
        self.inner = ExpertBot(seed, name="level5")

    def choose(self, view: BotView, legal: list[Action]) -> Action:
        chosen = self.inner.choose(view, legal)
        if chosen.kind is Kind.DISCARD and chosen.riichi and view.riichi[1 - view.seat]:
            plain = [a for a in legal if not a.riichi]
            if any(a.kind is Kind.DISCARD for a in plain):
                return self.inner.choose(view, plain)
        return chosen


FAIR: dict[str, Callable[[int | str], Bot]] = {"level5-wait-vs-declared": WaitAgainstDeclared}
"""Fair lab bots (they read the seat view only), measured beside the oracles."""


def make_lab_bot(name: str, seed: int | str) -> Bot | OracleBot:
    """An oracle or a fair lab bot by name, or any bot :func:`erma.bots.make_bot` knows."""
    make = ORACLES.get(name)
    if make is not None:
        return make(seed)
    fair = FAIR.get(name)
    return fair(seed) if fair is not None else make_bot(name, seed)


@dataclass(frozen=True, slots=True)
class OracleWall:
    """A wall's result as the arena has it, and each bot's oracle stats (zeros for a fair bot)."""

    result: WallResult
    stats: tuple[dict[str, int], dict[str, int]]


class _OracleHooks(GameHooks):
    """The arena's games with oracle bots: made by :func:`make_lab_bot`, told their seat and opponent, handed
    the state before each choice; their deal-ins counted at each game's end."""

    def __init__(self) -> None:
        self.stats = (OracleStats(), OracleStats())

    def make(self, name: str, seed: int | str, seat: int, opponent: str) -> Bot:
        bot = make_lab_bot(name, seed)
        if isinstance(bot, OracleBot):
            bot.seat = seat
            bot.opponent = opponent
        return bot

    def before_choose(self, bot: Bot, state: GameState, seat: int) -> None:
        if isinstance(bot, OracleBot):
            bot.state = state

    def game_over(self, bots: list[Bot], state: GameState, bot_in_seat: tuple[int, int]) -> None:
        result = state.result
        assert result is not None
        winner = result.winner
        on_discard = result.how in (WinHow.DISCARD, WinHow.ROB)
        if result.reason is EndReason.WIN and winner is not None and on_discard:
            loser = bots[1 - winner]
            if isinstance(loser, OracleBot):
                loser.stats.dealt_in += 1
                loser.stats.dealt_in_declared += state.seats[1 - winner].riichi
                loser.stats.dealt_in_declaring += state.discard_riichi and result.how is WinHow.DISCARD
                loser.stats.dealt_in_opp_declared += state.seats[winner].riichi
        for s, b in enumerate(bots):
            if isinstance(b, OracleBot):
                self.stats[bot_in_seat[s]].add(b.stats)


def play_wall(config: ArenaConfig, wall: int) -> OracleWall:
    """:func:`erma.lab.arena.play_wall` with oracle bots allowed (its own game loop, with hooks): the same
    walls, dealers, seeds and seats."""
    hooks = _OracleHooks()
    res = arena_play_wall(config, wall, hooks)
    return OracleWall(res, (dataclasses.asdict(hooks.stats[0]), dataclasses.asdict(hooks.stats[1])))


def oracle_shard(job: tuple[ArenaConfig, int], walls: Sequence[int]) -> list[OracleWall]:
    """The runner's shard function: ``job`` is the config and the first wall's index (walls ``first + i``)."""
    config, first = job
    return [play_wall(config, first + w) for w in walls]


def run_oracle_arena(config: ArenaConfig, walls: int, *, workers: int = 1, first: int = 0) -> dict[str, Any]:
    """Play walls ``first`` … ``first + walls − 1`` and summarise as ``erma arena --json`` does, with the
    oracles' stats added (``first`` > 0: more walls of a seed, to add to a run of walls 0 … first − 1)."""
    results = run_walls(oracle_shard, (config, first), walls, workers=workers)
    summary = summarize(config, [r.result for r in results])
    oracle: dict[str, dict[str, int]] = {}
    for i, name in enumerate(config.bots):
        if name in ORACLES:
            tot = OracleStats()
            for r in results:
                tot.add(OracleStats(**r.stats[i]))
            oracle[f"{name}#{i + 1}" if config.bots[0] == config.bots[1] else name] = dataclasses.asdict(tot)
    summary["oracle"] = oracle
    summary["first"] = first
    summary["per_wall"] = [r.result.paired_diff for r in results]
    """Each wall's (A − B) / 2 a hand, to pair two runs of one seed wall by wall (the same walls and bot B's
    seeds: bot A's change is the only difference)."""
    return summary


def main(argv: list[str] | None = None) -> int:
    from erma.rules import find_ruleset

    p = argparse.ArgumentParser(
        prog="python -m erma.lab.oracle",
        description="Duplicate arena with oracle (cheating) bots, lab only: "
        f"{', '.join(ORACLES)} or any bot name.",
    )
    p.add_argument("--rules", default="classic64")
    p.add_argument("--bots", required=True, help="two names, e.g. perfect-defence,greedy")
    p.add_argument("--walls", type=int, default=100)
    p.add_argument("--seed", default="0")
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--first", type=int, default=0, help="the first wall's index (more walls of one seed)")
    p.add_argument("--json", action="store_true", help="(always JSON; accepted for the arena's commands)")
    args = p.parse_args(argv)
    bots = [b.strip() for b in args.bots.split(",")]
    if len(bots) != 2:
        p.error("--bots: name two bots")
    for b in bots:
        make_lab_bot(b, 0)
    config = ArenaConfig(find_ruleset(args.rules), (bots[0], bots[1]), args.seed)  # a string, as erma arena
    t0 = time.time()
    summary = run_oracle_arena(config, args.walls, workers=args.workers, first=args.first)
    summary["elapsed_s"] = round(time.time() - t0, 1)
    print(json.dumps(summary, ensure_ascii=False))
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
