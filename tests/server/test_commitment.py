"""The deal's commit-reveal: the commitment is sha256 of the server's part, the server's part with both
contributions gives the hand's seed, the digest binds the salt to the seed, and a bot's share is its own."""

from __future__ import annotations

import hashlib

from erma.game.match import deal_seed, hand_seed
from erma.server.commitment import bot_contribution, commitment, deal_digest, deal_proof, server_part


def test_the_commitment_is_the_hash_of_the_revealed_server_part() -> None:
    part = server_part("secret", 3)
    assert part == hand_seed("secret", 3)
    assert commitment("secret", 3) == hashlib.sha256(part.encode()).hexdigest()
    assert commitment("secret", 3) != commitment("secret", 4) != commitment("other", 4)


def test_the_proof_reveals_what_the_seed_combined() -> None:
    contributions = ["ab" * 16, ""]
    proof = deal_proof("secret", 2, contributions)
    assert list(proof) == ["server_seed", "commitment", "contributions"]
    assert proof["commitment"] == hashlib.sha256(proof["server_seed"].encode()).hexdigest()
    assert deal_seed(proof["server_seed"], proof["contributions"]) == hand_seed("secret", 2, contributions)
    assert proof["contributions"] is not contributions
    assert deal_proof("secret", 2, None) == {}


def test_digest_and_bot_share() -> None:
    assert deal_digest("salt", "seed") == hashlib.sha256(b"salt:seed").hexdigest()
    share = bot_contribution("m1", 1)
    assert len(share) == 32 and share != bot_contribution("m1", 2) != bot_contribution("m2", 2)
