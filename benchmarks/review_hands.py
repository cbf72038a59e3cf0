"""Self-play hands as records, for the review's benchmarks (benchmarks/review*.py).

Hand ``i`` of a run is dealt from ``hand_seed(seed, i)`` with dealer ``i % 2``; the two bots swap seats
every hand (bot ``bots[(s + i) % 2]`` sits in seat ``s``), each choosing with its own seed. The record
carries ``bots`` (the name per seat).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from erma.bots import make_bot
from erma.game.record import to_record
from erma.lab.selfplay import hand_seed, play_hand
from erma.rules import find_ruleset

PRESETS = ["cuopai789", "classic64", "wushuang128", "wenzhou2p"]


def play(rules_name: str, seed: str, index: int, bots: Sequence[str]) -> dict[str, Any]:
    """The record of hand ``index`` of the run ``seed``."""
    rules = find_ruleset(rules_name, {})
    names = [bots[(s + index) % 2] for s in (0, 1)]
    players = [make_bot(names[s], f"{seed}:{index}:{s}") for s in (0, 1)]
    record = to_record(play_hand(rules, hand_seed(seed, index), players, index % 2))
    record["bots"] = names
    return record


def records(rules_name: str, seed: str, hands: int, bots: Sequence[str]) -> Iterator[dict[str, Any]]:
    """Hands ``0 … hands − 1`` of the run ``seed``."""
    for i in range(hands):
        yield play(rules_name, seed, i, bots)
