"""One match's step and the replay: the replay of a sequence equals applying it step by step."""

from __future__ import annotations

import random

from erma.ratings import FRESH, Played, Rating, anchored, play, replay


def test_replay_equals_stepwise_play_bit_for_bit() -> None:
    rng = random.Random(5)
    bot = Rating(10.0, 1.0)
    now = {}
    hands = []
    for _ in range(300):
        a = rng.randrange(5)
        b = rng.choice([x for x in range(6) if x != a])  # 5 is a bot anchor, always seated second
        fam = rng.choice(("standard", "wenzhou"))
        anchor_b = bot if b == 5 else None
        winner = rng.choice((0, 1, None))
        escaper = 1 if winner is None and rng.random() < 0.2 else None
        n = rng.randint(1, 8)
        hands.append(Played(fam, (a, b), winner if escaper is None else None, escaper, (None, anchor_b), n))
        before = (
            now.get((a, fam), FRESH),
            anchored(bot) if anchor_b else now.get((b, fam), FRESH),
        )
        after = play(before, hands[-1].winner, escaper=escaper, fixed=(False, anchor_b is not None), hands=n)
        now[(a, fam)] = after[0]
        if anchor_b is None:
            now[(b, fam)] = after[1]
    assert replay(hands) == now
    assert all(k[0] != 5 for k in now)  # the anchor has no standing of its own


def test_a_draw_counts_a_match_and_its_hands_and_moves_nothing_else() -> None:
    a, b = play((FRESH, FRESH), None, hands=8)
    assert (a.rating, a.rank, a.matches, a.hands) == (FRESH.rating, FRESH.rank, 1, 8)
    assert (b.matches, b.hands) == (1, 8)


def test_an_escape_loses_double() -> None:
    start = play((FRESH, FRESH), 0)  # promote both out of 初心's floor is not needed: compare ratings
    loss, _ = play(start, 1)
    escape, _ = play(start, None, escaper=0)
    assert escape.rating == loss.rating  # the rating reads an escape as a loss
    assert escape.rank.points <= loss.rank.points
