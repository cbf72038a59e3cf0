"""The arena (竞技场): duplicate matches between two bots with paired statistics.

Each wall is played twice (复式): in game 0 bot A sits in seat 0 and bot B in seat 1, in game 1 they swap
seats, and the dealer seat is fixed per wall (``new_hand``'s ``dealer=``), so the bot that dealt in game 0
does not deal in game 1 and each bot holds, in one of the two games, the tiles the other held. The luck of
the deal cancels in the per-wall difference ``(A's points − B's points) / 2`` (points per hand), whose mean
is ``diff`` and whose spread gives ``diff_ci95``.

Everything a wall does follows from the run's seed and the wall's index: the wall's seed is
:func:`~erma.lab.selfplay.hand_seed` ``(seed, wall)``, the dealer ``wall % 2``, and the bot in seat s of
game g chooses with the seed ``f"{seed}:{wall}:{g}:{s}"``. So :func:`arena_shard` gives the same per-wall
results in any process, and a run gives the same figures for any number of workers; only ``decision_ms`` (each
decision's wall-clock time, measured here, above the pure layers) differs between runs.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from erma.bots import Bot, make_bot
from erma.game import (
    EndReason,
    GameState,
    HandResult,
    Phase,
    WinHow,
    apply_unchecked,
    legal_actions,
    new_hand,
    seat_view,
)
from erma.game.record import to_record
from erma.lab.runner import run_walls
from erma.lab.selfplay import hand_seed, play_hand
from erma.rules import RuleSet


def arena_bot_seed(seed: int | str, wall: int, game: int, seat: int) -> str:
    """The seed of the bot in ``seat`` in game ``game`` (0 or 1) of wall ``wall``."""
    return f"{seed}:{wall}:{game}:{seat}"


def duplicate_games(seed: int | str, walls: Iterable[int]) -> Iterator[tuple[int, int, str, int]]:
    """Every game of a duplicate run on ``walls``, in the arena's order: (wall, game, the wall's hand seed,
    the dealer seat). Bot A sits in seat ``game``; the bot in seat s chooses with :func:`arena_bot_seed`
    ``(seed, wall, game, s)`` — what :func:`play_wall` plays, for scripts that play the arena's games their
    own way (recording decisions, wrapping a bot)."""
    for wall in walls:
        hand = hand_seed(seed, wall)
        for game in (0, 1):
            yield wall, game, hand, wall % 2


@dataclass(frozen=True, slots=True)
class ArenaConfig:
    """What every wall of an arena run shares (sent once to each worker)."""

    rules: RuleSet
    bots: tuple[str, str]
    seed: int | str
    records: str | None = None
    """A folder to write one record per game into (``wall-000012-1.json``), or None."""


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """One game of a wall, from the bots' side (index 0 is bot A, 1 is bot B)."""

    points: tuple[int, int]
    winner: int | None
    """The bot that won (0 = A, 1 = B), None for a draw."""
    dealt_in: int | None
    """The bot whose discard (or robbed kong) the win was on, None for a self-draw or a draw."""


@dataclass(frozen=True, slots=True)
class WallResult:
    """A wall's two games and every decision's time in milliseconds, per bot."""

    wall: int
    games: tuple[GameOutcome, GameOutcome]
    decision_ms: tuple[tuple[float, ...], tuple[float, ...]]

    @property
    def paired_diff(self) -> float:
        """(A's points − B's points) over the two games, per hand."""
        return sum(g.points[0] - g.points[1] for g in self.games) / 2


Log = list[dict[str, Any]]
"""Rows a wrapped bot writes about its decisions in one game (scripts' randomized recorders)."""


def logged_games(
    rules: RuleSet,
    seed: int | str,
    walls: Iterable[int],
    bots: tuple[str, str],
    wrap: Callable[[Bot, Log, int, int, int], Bot],
) -> Iterator[tuple[int, int, HandResult, Log]]:
    """The games of a duplicate run of ``bots`` (A in seat ``game``; the seeds of :func:`duplicate_games`),
    each seat's bot passed through ``wrap(bot, log, wall, game, seat)``, which may return a bot that records
    its decisions into the game's ``log``: yields (wall, game, the hand's result, the log)."""
    for wall, g, hand, dealer in duplicate_games(seed, walls):
        log: Log = []
        names = bots if g == 0 else (bots[1], bots[0])
        seated = [wrap(make_bot(names[s], arena_bot_seed(seed, wall, g, s)), log, wall, g, s) for s in (0, 1)]
        result = play_hand(rules, hand, seated, dealer).result
        assert result is not None, "a finished hand has a result"
        yield wall, g, result, log


class GameHooks:
    """What a caller of :func:`play_wall` may add to the arena's games, which stay the same games (walls,
    dealers, bot seeds, seats): how a bot is made, what it is handed before it chooses, what is noted when a
    game ends. The arena's own add nothing; the lab's oracle study (:mod:`erma.lab.oracle`) hands its bots
    the game state."""

    def make(self, name: str, seed: int | str, seat: int, opponent: str) -> Bot:
        """The bot ``name`` for ``seat``, seeded as the arena seeds it (``opponent``: the other's name)."""
        return make_bot(name, seed)

    def before_choose(self, bot: Bot, state: GameState, seat: int) -> None:
        """Called before ``bot`` chooses for ``seat`` (inside its timed decision)."""

    def game_over(self, bots: list[Bot], state: GameState, bot_in_seat: tuple[int, int]) -> None:
        """Called when a game of the wall has ended (``bots`` by seat; ``bot_in_seat[s]``: A is 0, B is 1)."""


_NO_HOOKS = GameHooks()


@dataclass
class RowHooks(GameHooks):
    """The hooks of a collector of rows (the lab's fitted models of the opponent): the wall and the game being
    played (bot A sits in seat ``game``), as :func:`play_walls` sets them, and the rows written."""

    rows: list[list[float]] = field(default_factory=list)
    wall: int = 0
    game: int = -1

    def make(self, name: str, seed: int | str, seat: int, opponent: str) -> Bot:
        if seat == 0:
            self.game += 1
        return make_bot(name, seed)


def play_walls(config: ArenaConfig, walls: Iterable[int], hooks: RowHooks) -> None:
    """Play ``walls`` of ``config`` in order, through ``hooks``."""
    for w in walls:
        hooks.wall = w
        hooks.game = -1
        play_wall(config, w, hooks)


def play_wall(config: ArenaConfig, wall: int, hooks: GameHooks = _NO_HOOKS) -> WallResult:
    """Play both games of ``wall``; bot A sits in seat ``g`` of game ``g``."""
    times: tuple[list[float], list[float]] = ([], [])
    games = []
    for _, g, seed, dealer in duplicate_games(config.seed, (wall,)):
        seat_of_bot = (0, 1) if g == 0 else (1, 0)
        bot_in_seat = (0, 1) if g == 0 else (1, 0)
        bots = [
            hooks.make(
                config.bots[bot_in_seat[s]],
                arena_bot_seed(config.seed, wall, g, s),
                s,
                config.bots[bot_in_seat[1 - s]],
            )
            for s in (0, 1)
        ]
        state = new_hand(config.rules, seed, dealer)
        while state.phase is not Phase.END:
            seat = state.actor
            legal = legal_actions(state, seat)
            bot = bots[seat]
            t0 = time.perf_counter()
            view = seat_view(state, seat) if bot.uses_view else None
            hooks.before_choose(bot, state, seat)
            action = bot.choose(view, legal)  # type: ignore[arg-type]
            times[bot_in_seat[seat]].append((time.perf_counter() - t0) * 1000)
            apply_unchecked(state, seat, action)
        result = state.result
        assert result is not None, "a finished hand has a result"
        points = (result.deltas[seat_of_bot[0]], result.deltas[seat_of_bot[1]])
        winner = dealt_in = None
        if result.reason is EndReason.WIN and result.winner is not None:
            winner = bot_in_seat[result.winner]
            if result.how in (WinHow.DISCARD, WinHow.ROB):
                dealt_in = bot_in_seat[1 - result.winner]
        games.append(GameOutcome(points, winner, dealt_in))
        hooks.game_over(bots, state, bot_in_seat)
        if config.records is not None:
            rec = to_record(state)
            rec["bots"] = [config.bots[bot_in_seat[0]], config.bots[bot_in_seat[1]]]
            path = Path(config.records) / f"wall-{wall:06d}-{g}.json"
            path.write_text(json.dumps(rec, ensure_ascii=False), encoding="utf-8")
    return WallResult(wall, (games[0], games[1]), (tuple(times[0]), tuple(times[1])))


def arena_shard(config: ArenaConfig, walls: Sequence[int]) -> list[WallResult]:
    """The runner's shard function: one :class:`WallResult` per wall index, in the order given."""
    return [play_wall(config, w) for w in walls]


def percentiles(values: Sequence[float]) -> dict[str, float]:
    """p50, p95, p99 and max of ``values`` (nearest rank), in the unit given, rounded to 0.01."""
    if not values:
        return {"p50": 0.0, "p95": 0.0, "p99": 0.0, "max": 0.0}
    s = sorted(values)

    def rank(q: float) -> float:
        return s[min(len(s) - 1, max(0, math.ceil(q * len(s)) - 1))]

    return {
        "p50": round(rank(0.50), 2),
        "p95": round(rank(0.95), 2),
        "p99": round(rank(0.99), 2),
        "max": round(s[-1], 2),
    }


def summarize(config: ArenaConfig, results: Sequence[WallResult]) -> dict[str, Any]:
    """The arena's figures (the JSON line's keys, in the issue's order)."""
    walls = len(results)
    hands = 2 * walls
    pts = [0, 0]
    wins = [0, 0]
    deal_ins = [0, 0]
    draws = 0
    per_hand: list[int] = []
    for r in results:
        for g in r.games:
            pts[0] += g.points[0]
            pts[1] += g.points[1]
            per_hand.append(g.points[0])
            if g.winner is None:
                draws += 1
            else:
                wins[g.winner] += 1
            if g.dealt_in is not None:
                deal_ins[g.dealt_in] += 1
    diffs = [r.paired_diff for r in results]
    diff = sum(diffs) / walls if walls else 0.0
    half = 0.0
    if walls > 1:
        var = sum((d - diff) ** 2 for d in diffs) / (walls - 1)
        half = 1.96 * math.sqrt(var / walls)
    sd_hand = 0.0
    if hands > 1:
        mean = sum(per_hand) / hands
        sd_hand = math.sqrt(sum((p - mean) ** 2 for p in per_hand) / (hands - 1))
    return {
        "rules": config.rules.name,
        "walls": walls,
        "hands": hands,
        "bots": list(config.bots),
        "points_per_hand": [round(p / hands, 4) if hands else 0.0 for p in pts],
        "diff": round(diff, 4),
        "diff_ci95": [round(diff - half, 4), round(diff + half, 4)],
        "sd_hand": round(sd_hand, 4),
        "wins": wins,
        "draws": draws,
        "deal_ins": deal_ins,
        "decision_ms": {
            name: percentiles([t for r in results for t in r.decision_ms[i]])
            for i, name in enumerate(_labels(config.bots))
        },
    }


def _labels(bots: tuple[str, str]) -> tuple[str, str]:
    """Keys of ``decision_ms``: the bots' names (``A#1``, ``A#2`` when a bot meets itself)."""
    if bots[0] == bots[1]:
        return (f"{bots[0]}#1", f"{bots[1]}#2")
    return bots


def run_arena(
    config: ArenaConfig,
    walls: int,
    *,
    workers: int = 1,
    cluster: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Play ``walls`` walls (on ``workers`` processes or a Ray ``cluster``, :func:`erma.lab.runner.run_walls`)
    and summarise."""
    if config.records is not None:
        Path(config.records).mkdir(parents=True, exist_ok=True)
    results = run_walls(arena_shard, config, walls, workers=workers, cluster=cluster, progress=progress)
    return summarize(config, results)
