"""Self-play (自对弈): bots against bots, one hand per game, with statistics that are deterministic.

Game i uses the hand seed ``sha256(f"{seed}:{i}")``; bots are seeded from the seed and their index, so two
runs with the same arguments give the same games (only the timing differs).
"""

from __future__ import annotations

import hashlib
import json
import math
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from erma.bots import Bot, make_bot
from erma.game import EndReason, Phase, apply_unchecked, legal_actions, new_hand, seat_view
from erma.game.record import to_record
from erma.game.state import GameState
from erma.rules import RuleSet


def hand_seed(seed: int | str, index: int) -> str:
    """The seed of game ``index`` of a run."""
    return hashlib.sha256(f"{seed}:{index}".encode()).hexdigest()


def play_hand(rules: RuleSet, seed: str, bots: Sequence[Bot], dealer: int | None = None) -> GameState:
    """Play one hand; ``bots[s]`` plays seat s."""
    state = new_hand(rules, seed, dealer)
    while state.phase is not Phase.END:
        seat = state.actor
        legal = legal_actions(state, seat)
        bot = bots[seat]
        action = bot.choose(seat_view(state, seat) if bot.uses_view else None, legal)  # type: ignore[arg-type]
        apply_unchecked(state, seat, action)
    return state


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson interval of a proportion k/n."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (round(max(0.0, c - h), 4), round(min(1.0, c + h), 4))


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

    def add(self, state: GameState, seat_of_bot: Sequence[int]) -> None:
        """Count one finished hand; ``seat_of_bot[i]`` is the seat bot i played."""
        self.games += 1
        self.actions += len(state.actions)
        result = state.result
        assert result is not None, "a finished hand has a result"
        for name, n in state.counters.items():
            self.events[name] += n
        if result.reason is EndReason.WIN:
            assert result.winner is not None
            self.wins[seat_of_bot.index(result.winner)] += 1
            for f in result.fans:
                self.fans[f.name_zh] += f.count
        else:
            self.draws += 1
        for bot, seat in enumerate(seat_of_bot):
            self.points[bot] += result.deltas[seat]

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


def run(
    rules: RuleSet,
    bot_names: Sequence[str],
    games: int,
    seed: int | str = 0,
    *,
    duplicate: bool = False,
    records: Path | None = None,
    progress: Callable[[int], None] | None = None,
) -> SimStats:
    """Play ``games`` hands between two named bots, seats alternating (each wall twice with ``duplicate``)."""
    bots = [make_bot(name, f"{seed}:{i}") for i, name in enumerate(bot_names)]
    stats = SimStats(rules.name, list(bot_names))
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    for i in range(games):
        wall = i // 2 if duplicate else i
        swap = i % 2 == 1
        seat_of_bot = [1, 0] if swap else [0, 1]
        seated = [bots[seat_of_bot.index(0)], bots[seat_of_bot.index(1)]]
        hs = hand_seed(seed, wall)
        state = play_hand(rules, hs, seated)
        stats.add(state, seat_of_bot)
        if records is not None:
            rec = to_record(state)
            rec["bots"] = [bot_names[seat_of_bot.index(0)], bot_names[seat_of_bot.index(1)]]
            (records / f"game-{i:06d}.json").write_text(json.dumps(rec, ensure_ascii=False), encoding="utf-8")
        if progress is not None:
            progress(i + 1)
    stats.seconds = time.perf_counter() - t0
    return stats
