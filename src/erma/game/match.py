"""A match (一场): hands between the same two players, dealer rotation, scores, escape (RULES §5.1).

Each hand's seed is ``sha256(f"{match_secret}:{hand_no}")`` so a hand's seed can be revealed after it without
disclosing any other hand's. With the players' contributions (a server deals with them, docs/protocol.md) that
is the server's part, and the seed is ``sha256("server_part:c0:c1")``: no one of them chooses the deal.
The first hand's dealer is drawn with the first hand's generator.

The rule family says who deals next and with what streak (温州: the dealer's streak sets the base, RULES
§3.8); a dealer of None is drawn again by the next hand's generator.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from erma.errors import IllegalActionError
from erma.game.record import to_record
from erma.game.result import EndReason
from erma.game.start import new_hand
from erma.game.state import GameState, Phase
from erma.rules import RuleSet


def hand_seed(match_secret: str, hand_no: int, contributions: Sequence[str] | None = None) -> str:
    """The seed of hand ``hand_no`` (1-based) of a match; with the seats' ``contributions``, the seed that
    combines them with this (the server's part, :func:`deal_seed`)."""
    server_part = hashlib.sha256(f"{match_secret}:{hand_no}".encode()).hexdigest()
    return server_part if contributions is None else deal_seed(server_part, contributions)


def deal_seed(server_part: str, contributions: Sequence[str]) -> str:
    """A hand's seed from the server's part and each seat's contribution (entropy, 熵)."""
    return hashlib.sha256(":".join([server_part, *contributions]).encode()).hexdigest()


@dataclass
class Match:
    """The hands of one match and what they add up to."""

    rules: RuleSet
    secret: str
    """The match secret (at least 128 bits in play; never shown while the match runs)."""
    hand_no: int = 0
    dealer: int | None = None
    """The next hand's dealer (None before the first hand: drawn by its generator)."""
    prevalent_wind: int = 0
    deal_passes: int = 0
    streak: int = 0
    """The next hand's dealer streak (0 for a new dealer)."""
    scores: list[int] = field(default_factory=lambda: [0, 0])
    records: list[dict[str, Any]] = field(default_factory=list)
    over: bool = False
    current: GameState | None = None

    def __post_init__(self) -> None:
        self.prevalent_wind = self.rules.prevalent_wind

    def next_hand(self, contributions: Sequence[str] | None = None) -> GameState:
        """Deal the next hand (``contributions``: each seat's share of its seed, see :func:`hand_seed`)."""
        if self.over:
            raise IllegalActionError("the match is over")
        if self.current is not None and self.current.phase is not Phase.END:
            raise IllegalActionError(f"hand {self.hand_no} is still being played")
        self.hand_no += 1
        self.current = new_hand(
            self.rules,
            hand_seed(self.secret, self.hand_no, contributions),
            self.dealer,
            self.prevalent_wind,
            streak=self.streak,
        )
        return self.current

    def finish_hand(self) -> dict[str, Any]:
        """Settle the finished hand (scores, dealer rotation, end of the match); returns its record."""
        state = self.current
        if state is None or state.result is None:
            raise IllegalActionError("no finished hand to settle")
        result = state.result
        for s in (0, 1):
            self.scores[s] += result.deltas[s]
        record = to_record(state, hand_no=self.hand_no)
        self.records.append(record)
        old = state.dealer
        if result.reason is EndReason.ESCAPE:
            self.over = True
        else:
            self.dealer, self.streak = state.family.next_dealer(self.rules, old, self.streak, result)
        if self.dealer != old and self.dealer is not None:
            self.deal_passes += 1
            if self.rules.rotate_prevalent_wind and self.deal_passes % 2 == 0:
                self.prevalent_wind = (self.prevalent_wind + 1) % 4
        if self.rules.match_hands and self.hand_no >= self.rules.match_hands:
            self.over = True
        return record
