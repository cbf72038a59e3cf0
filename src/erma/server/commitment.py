"""The deal's commit-reveal (承诺): each hand's seed combines the server's part, committed to before the
players send their contributions, with both contributions; the hand_end reveals the server's part."""

from __future__ import annotations

import hashlib
from typing import Any

from erma.game.match import hand_seed


def server_part(secret: str, hand_no: int) -> str:
    """The server's part of hand ``hand_no``'s seed (revealed with its hand_end), from the match's secret."""
    return hand_seed(secret, hand_no)


def commitment(secret: str, hand_no: int) -> str:
    """The commitment to the server's part of hand ``hand_no``'s seed: sha256 of it, sent before the
    players' contributions (in ``match`` for the first hand, in the previous ``hand_end`` after)."""
    return hashlib.sha256(server_part(secret, hand_no).encode()).hexdigest()


def bot_contribution(match_id: str, hand_no: int) -> str:
    """A bot's share of hand ``hand_no``'s seed (from its seed, the match id)."""
    return hashlib.sha256(f"bot:{match_id}:{hand_no}".encode()).hexdigest()[:32]


def deal_digest(salt: str, seed: str) -> str:
    """The commitment to a hand's seed sent with the deal: sha256 of ``salt:seed``."""
    return hashlib.sha256(f"{salt}:{seed}".encode()).hexdigest()


def deal_proof(secret: str, hand_no: int, contributions: list[str] | None) -> dict[str, Any]:
    """What shows that hand ``hand_no``'s seed combined the server's committed part with both contributions
    (nothing for a hand dealt without contributions)."""
    if contributions is None:
        return {}
    return {
        "server_seed": server_part(secret, hand_no),
        "commitment": commitment(secret, hand_no),
        "contributions": list(contributions),
    }
