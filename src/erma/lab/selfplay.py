"""Self-play (自对弈): bots against bots, one hand per game, with statistics that are deterministic.

Game i is played on wall ``i`` (``i // 2`` with ``duplicate``, where each wall is played twice with the
seats swapped); the wall's seed is ``sha256(f"{seed}:{wall}")`` and the bot in seat s chooses with the seed
``f"{seed}:{wall}:{s}"``. A game depends on nothing else, so games run in any order, on any number of
processes or machines (:mod:`erma.lab.runner`), and two runs with the same arguments give the same games (only
the timing differs).

:func:`outcome` is the one place that reads a finished hand's result.
"""

from __future__ import annotations

import gc
import hashlib
import json
import math
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from erma.bots import Bot, make_bot
from erma.game import Phase, apply_unchecked, legal_actions, new_hand, seat_view
from erma.game.record import to_record
from erma.game.state import GameState
from erma.lab.runner import run_walls
from erma.rules import RuleSet


def hand_seed(seed: int | str, index: int) -> str:
    """The seed of game ``index`` of a run."""
    return hashlib.sha256(f"{seed}:{index}".encode()).hexdigest()


def bot_seed(seed: int | str, wall: int, seat: int) -> str:
    """The seed of the bot in ``seat`` on wall ``wall`` (each wall's choices independent of the others)."""
    return f"{seed}:{wall}:{seat}"


def play_hand(rules: RuleSet, seed: str, bots: Sequence[Bot], dealer: int | None = None) -> GameState:
    """Play one hand; ``bots[s]`` plays seat s."""
    state = new_hand(rules, seed, dealer)
    play_out(state, bots)
    return state


def play_out(state: GameState, bots: Sequence[Bot]) -> None:
    """Play ``state`` on to the end of its hand; ``bots[s]`` plays seat s."""
    while state.phase is not Phase.END:
        seat = state.actor
        legal = legal_actions(state, seat)
        bot = bots[seat]
        action = bot.choose(seat_view(state, seat, legal) if bot.uses_view else None, legal)  # type: ignore[arg-type]
        apply_unchecked(state, seat, action)


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished hand ended (结果), as the statistics read it."""

    reason: str
    """``win``, ``draw`` (流局) or ``escape`` (逃跑)."""
    winner: int | None
    how: str | None
    """``self``, ``discard``, ``rob`` or ``haidi`` for a win."""
    fans: tuple[tuple[str, int], ...]
    """(Chinese name, count) of each fan of a win."""
    fan_total: int
    deltas: tuple[int, int]
    """Points each seat won (negative: paid) in the hand."""
    escaper: int | None = None


def outcome(state: GameState) -> Outcome:
    """The adapter from the engine's :class:`~erma.game.HandResult` to :class:`Outcome` (the one place that
    reads it)."""
    result = state.result
    assert result is not None, "a finished hand has a result"
    return Outcome(
        reason=result.reason.value,
        winner=result.winner,
        how=None if result.how is None else result.how.value,
        fans=tuple((f.name_zh, f.count) for f in result.fans),
        fan_total=result.fan_total,
        deltas=result.deltas,
        escaper=result.escaper,
    )


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson interval of a proportion k/n."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (round(max(0.0, c - h), 4), round(min(1.0, c + h), 4))


@dataclass(frozen=True, slots=True)
class SimConfig:
    """What every game of a self-play run shares (sent once to each worker)."""

    rules: RuleSet
    bots: tuple[str, str]
    seed: int | str
    duplicate: bool = False
    records: bool = False


@dataclass(frozen=True, slots=True)
class GameResult:
    """What one game of self-play contributes to the statistics (mergeable: see :meth:`SimStats.add`)."""

    outcome: Outcome
    seat_of_bot: tuple[int, int]
    actions: int
    counters: tuple[tuple[str, int], ...]
    record: dict[str, Any] | None = None


def play_game(config: SimConfig, game: int) -> GameResult:
    """Play game ``game`` of a run (its wall, seats and bots' seeds follow from the config and the index)."""
    wall = game // 2 if config.duplicate else game
    seat_of_bot = (1, 0) if game % 2 == 1 else (0, 1)
    names = [config.bots[seat_of_bot.index(s)] for s in (0, 1)]
    bots = [make_bot(names[s], bot_seed(config.seed, wall, s)) for s in (0, 1)]
    state = play_hand(config.rules, hand_seed(config.seed, wall), bots)
    record = None
    if config.records:
        record = to_record(state)
        record["bots"] = names
    counters = tuple(sorted((k, v) for k, v in state.counters.items() if v))
    return GameResult(outcome(state), seat_of_bot, len(state.actions), counters, record)


def sim_shard(config: SimConfig, games: Sequence[int]) -> list[GameResult]:
    """The runner's shard function of self-play: one :class:`GameResult` per game index. Inside a run's
    settled heap (:func:`_settled_heap`) what each game leaves alive joins it (``gc.freeze``)."""
    out = []
    for g in games:
        out.append(play_game(config, g))
        if _HEAP.settling:
            gc.freeze()  # O(1): the tables' new entries are not walked by the collector again
    return out


@dataclass
class SimStats:
    """What a run of self-play counted."""

    rules: str
    bots: list[str]
    games: int = 0
    wins: list[int] = field(default_factory=lambda: [0, 0])
    draws: int = 0
    actions: int = 0
    points: list[int] = field(default_factory=lambda: [0, 0])
    fans: Counter[str] = field(default_factory=Counter)
    events: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0

    def add(self, game: GameResult) -> None:
        """Count one finished game (results merge in any order; a run adds them in game order)."""
        self.games += 1
        self.actions += game.actions
        out = game.outcome
        for name, n in game.counters:
            self.events[name] += n
        if out.reason == "win":
            assert out.winner is not None
            self.wins[game.seat_of_bot.index(out.winner)] += 1
            for name, n in out.fans:
                self.fans[name] += n
        else:
            self.draws += 1
        for bot, seat in enumerate(game.seat_of_bot):
            self.points[bot] += out.deltas[seat]

    def summary(self) -> dict[str, Any]:
        """The JSON summary; only ``seconds`` and the per-second figures depend on timing."""
        return {
            "rules": self.rules,
            "games": self.games,
            "bots": self.bots,
            "wins": self.wins,
            "win_rate_ci95": [wilson(w, self.games) for w in self.wins],
            "draws": self.draws,
            "points": self.points,
            "avg_actions_per_hand": round(self.actions / self.games, 2) if self.games else 0,
            "fans": dict(sorted(self.fans.items(), key=lambda kv: (-kv[1], kv[0]))),
            "random_events": {
                "cuo": self.events["cuo"],
                "triplet_offer": self.events["triplet_offer"],
                "triplet_accept": self.events["triplet_accept"],
                "start_exchange": self.events["exchange"],
                "haidi": self.events["haidi"],
                "flower": self.events["flower"],
            },
            "seconds": round(self.seconds, 3),
            "games_per_second": round(self.games / self.seconds, 2) if self.seconds else 0,
            "actions_per_second": round(self.actions / self.seconds, 1) if self.seconds else 0,
        }


_RUN_GC_THRESHOLD = 100_000
"""The collector's first-generation threshold during a run (CPython's default is 700)."""


class _Heap:
    """Whether this process is inside :func:`_settled_heap` (one run at a time sets it)."""

    settling = False


_HEAP = _Heap()


@contextmanager
def _settled_heap() -> Iterator[None]:
    """The objects alive before a run (the analysis and scoring tables, the modules) are left out of the
    garbage collector's passes during it (``gc.freeze``; put back after): every full collection would
    otherwise walk them again. The collector also passes less often during the run (a first-generation
    threshold of ``_RUN_GC_THRESHOLD`` allocations; put back after): a game makes no cycles (none found
    after hundreds of random games), so its passes find nothing and only walk the objects the lazy tables
    and the hand in play keep. After each game what it left alive (mostly the lazy tables' new entries) is
    frozen too, so a pass walks only what the games since the last freeze made: the first generation is
    emptied at every game and a short run makes no pass at all. A game's cyclic garbage, if one ever made
    some, would wait for the end of the run. The results do not depend on it."""
    thresholds = gc.get_threshold()
    gc.set_threshold(max(thresholds[0], _RUN_GC_THRESHOLD), *thresholds[1:])
    frozen = not gc.get_freeze_count()  # someone froze the heap already: leave it as it is
    if frozen:
        gc.freeze()
        _HEAP.settling = True
    try:
        yield
    finally:
        if frozen:
            _HEAP.settling = False
            gc.unfreeze()
        gc.set_threshold(*thresholds)


def run(
    rules: RuleSet,
    bot_names: Sequence[str],
    games: int,
    seed: int | str = 0,
    *,
    duplicate: bool = False,
    records: Path | None = None,
    progress: Callable[[int], None] | None = None,
    workers: int = 1,
    cluster: str | None = None,
) -> SimStats:
    """Play ``games`` hands between two named bots, seats alternating (each wall twice with ``duplicate``).

    ``workers`` / ``cluster`` spread the games as :func:`erma.lab.runner.run_walls` does; the statistics are
    the same for any of them.
    """
    a, b = bot_names
    for name in bot_names:
        make_bot(name)  # an unknown name fails here, before any worker starts
    config = SimConfig(rules, (a, b), seed, duplicate, records is not None)
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    with _settled_heap():
        results = run_walls(
            sim_shard,
            config,
            games,
            workers=workers,
            cluster=cluster,
            progress=None if progress is None else (lambda done, _total: progress(done)),
        )
    stats = SimStats(rules.name, list(bot_names))
    for i, game in enumerate(results):
        stats.add(game)
        if records is not None and game.record is not None:
            text = json.dumps(game.record, ensure_ascii=False)
            (records / f"game-{i:06d}.json").write_text(text, encoding="utf-8")
    stats.seconds = time.perf_counter() - t0
    return stats
