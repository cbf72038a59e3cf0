"""The coach and level5 are one judgement: the review's best move is the move level5 plays, and a move of
level5's is never a mistake."""

from __future__ import annotations

from erma.bots import make_bot
from erma.coach.review import level5_choice, review_decision
from erma.game import apply, legal_actions, new_hand
from erma.game.actions import Action
from erma.game.seatview import seat_view
from erma.game.state import Phase
from erma.rules import find_ruleset
from tests.game.helpers import build_deck

SAMPLES = 4


def test_the_issue_hand_best_is_level5s_move() -> None:
    """classic64 234558899m11347z (dealer's first turn): the review's best is level5's move, and the
    value lost of a discard is the estimate's (level5's) of that move less the played one's."""
    rules = find_ruleset("classic64")
    state = new_hand(rules, "issue39", 0, 0, build_deck(rules, "234558899m11347z", "1166m225666z777m"))
    view = seat_view(state, 0)
    legal = legal_actions(state, 0)
    choice = level5_choice(view, legal, "r:0")
    assert choice == make_bot("level5", "r:0").choose(view, legal)
    assert choice.to_str() != "discard 9m"  # here 9m leaves the hand 3 from ready, an honour 2
    for text in ("discard 9m", choice.to_str()):
        r = review_decision(view, legal, Action.parse(text), seed="r", samples=SAMPLES, step=0)
        assert r["best"] == choice.to_str()
        if text == choice.to_str():
            assert not r["mistake"] and r["value_lost"] == 0
        best = next(c for c in r["candidates"] if c["best"])
        played = next(c for c in r["candidates"] if c["played"])
        assert abs(r["value_lost"] - max(0.0, best["value"] - played["value"])) < 2e-4


def test_level5_moves_are_never_mistakes() -> None:
    """Every decision level5 makes in a few hands of each standard preset, reviewed: best = played, nothing
    lost, no mistake."""
    reviewed = 0
    for preset in ("cuopai789", "classic64", "wushuang128"):
        rules = find_ruleset(preset)
        for hand in range(2):
            seed = f"coach5:{preset}:{hand}"
            state = new_hand(rules, seed, hand % 2, 0)
            bots = [make_bot("level5", f"{seed}:0"), make_bot("greedy", f"{seed}:1")]
            step = 0
            while state.phase is not Phase.END and step < 30:
                seat = state.actor
                legal = legal_actions(state, seat)
                view = seat_view(state, seat)
                move = (
                    bots[seat].choose(view, legal) if seat == 1 else level5_choice(view, legal, f"s:{step}")
                )
                if seat == 0 and len(legal) > 1:
                    r = review_decision(view, legal, move, seed="s", samples=SAMPLES, step=step)
                    assert r["best"] == r["played"] == move.to_str(), (preset, hand, step, r["best"])
                    assert r["value_lost"] == 0 and not r["mistake"]
                    reviewed += 1
                apply(state, seat, move.to_str())
                step += 1
    assert reviewed >= 20
