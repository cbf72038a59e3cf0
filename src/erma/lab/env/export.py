"""Decision data (决策数据) for imitation learning: the games of ``erma sim`` written as ``.npz`` shards.

``erma sim --export DIR`` plays the games ``erma sim`` plays with the same arguments (same walls, seats and
bot seeds: :func:`erma.lab.selfplay.play_game`'s) on :func:`erma.lab.runner.run_walls` (``--workers`` local
processes), and each runner shard writes ``DIR/shard-GGGGGG.npz`` (GGGGGG: its first game), one row per
decision of either seat:

- ``obs`` (N, planes, 34) uint8, ``scalars`` (N, scalars) uint8, ``mask`` (N, actions) int8: the deciding
  seat's observation (erma.bots.nn.features, as the environments give it);
- ``action`` (N,) int16: the index of the action the bot took (every 接受 is ``accept``, every pick
  ``pick``, whatever tiles or position the bot chose);
- ``seat`` (N,) int8, ``bot`` (N,) int8 (index in ``bots``), ``game`` (N,) int32 (the game's number in the
  run), ``returns`` (N,) float32: the deciding seat's points at the end of the hand (``HandResult.deltas``);
- ``rules``, ``bots``, ``planes``, ``scalar_names``: what the rows mean.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from erma.bots import Bot, make_bot
from erma.bots.nn.features import (
    NUM_ACTIONS,
    NUM_PLANES,
    NUM_SCALARS,
    PLANES,
    SCALARS,
    action_index,
    action_table,
    encode,
)
from erma.game import GameState, Phase, apply_unchecked, legal_actions, new_hand, seat_view
from erma.lab.runner import run_walls
from erma.lab.selfplay import GameResult, SimConfig, SimStats, bot_seed, hand_seed, outcome
from erma.rules import RuleSet

Row = tuple[np.ndarray, np.ndarray, np.ndarray, int, int]
"""One decision: planes, scalars, mask, action index, seat."""


def record_hand(rules: RuleSet, seed: str, bots: Sequence[Bot]) -> tuple[list[Row], GameState]:
    """Play one hand (``bots[s]`` at seat s) recording every decision; (rows, finished state)."""
    state = new_hand(rules, seed)
    rows: list[Row] = []
    while state.phase is not Phase.END:
        seat = state.actor
        view = seat_view(state, seat)
        legal = legal_actions(state, seat)
        planes = np.empty((NUM_PLANES, 34), dtype=np.uint8)
        scalars = np.empty(NUM_SCALARS, dtype=np.uint8)
        encode(view, planes, scalars)
        mask, _ = action_table(view, legal)
        action = bots[seat].choose(view, legal)
        rows.append((planes, scalars, mask, action_index(action), seat))
        apply_unchecked(state, seat, action)
    return rows, state


@dataclass(frozen=True, slots=True)
class ExportConfig:
    """A self-play run and the folder its shards go to."""

    sim: SimConfig
    folder: Path


def export_shard(config: ExportConfig, games: Sequence[int]) -> list[GameResult]:
    """The runner's shard function: play ``games`` as :func:`erma.lab.selfplay.play_game` does, write their
    decisions as one shard, return their results."""
    sim = config.sim
    cols: dict[str, list[object]] = {k: [] for k in ("obs", "scalars", "mask", "action", "seat", "bot")}
    game_of: list[int] = []
    returns: list[float] = []
    results = []
    for game in games:
        wall = game // 2 if sim.duplicate else game
        seat_of_bot = (1, 0) if game % 2 == 1 else (0, 1)
        names = [sim.bots[seat_of_bot.index(s)] for s in (0, 1)]
        bots = [make_bot(names[s], bot_seed(sim.seed, wall, s)) for s in (0, 1)]
        rows, state = record_hand(sim.rules, hand_seed(sim.seed, wall), bots)
        out = outcome(state)
        for planes, scalars, mask, action, seat in rows:
            cols["obs"].append(planes)
            cols["scalars"].append(scalars)
            cols["mask"].append(mask)
            cols["action"].append(action)
            cols["seat"].append(seat)
            cols["bot"].append(seat_of_bot.index(seat))
            game_of.append(game)
            returns.append(float(out.deltas[seat]))
        counters = tuple(sorted((k, v) for k, v in state.counters.items() if v))
        results.append(GameResult(out, seat_of_bot, len(state.actions), counters))
    n = len(game_of)
    np.savez_compressed(
        config.folder / f"shard-{games[0]:06d}.npz",
        obs=np.array(cols["obs"], dtype=np.uint8).reshape(n, NUM_PLANES, 34),
        scalars=np.array(cols["scalars"], dtype=np.uint8).reshape(n, NUM_SCALARS),
        mask=np.array(cols["mask"], dtype=np.int8).reshape(n, NUM_ACTIONS),
        action=np.array(cols["action"], dtype=np.int16),
        seat=np.array(cols["seat"], dtype=np.int8),
        bot=np.array(cols["bot"], dtype=np.int8),
        game=np.array(game_of, dtype=np.int32),
        returns=np.array(returns, dtype=np.float32),
        rules=np.array(sim.rules.name),
        bots=np.array(list(sim.bots)),
        planes=np.array(PLANES),
        scalar_names=np.array(SCALARS),
    )
    return results


def export_run(
    rules: RuleSet,
    bot_names: Sequence[str],
    games: int,
    seed: int | str,
    folder: Path,
    *,
    duplicate: bool = False,
    progress: Callable[[int], None] | None = None,
    workers: int = 1,
) -> SimStats:
    """The games of :func:`erma.lab.selfplay.run` (same walls, seats, bot seeds), every decision written to
    shards in ``folder``; the same statistics."""
    import time

    a, b = bot_names
    for name in bot_names:
        make_bot(name)  # an unknown name fails here, before any worker starts
    folder.mkdir(parents=True, exist_ok=True)
    config = ExportConfig(SimConfig(rules, (a, b), seed, duplicate), folder)
    t0 = time.perf_counter()
    results = run_walls(
        export_shard,
        config,
        games,
        workers=workers,
        progress=None if progress is None else (lambda done, _total: progress(done)),
    )
    stats = SimStats(rules.name, list(bot_names))
    for game in results:
        stats.add(game)
    stats.seconds = time.perf_counter() - t0
    return stats
