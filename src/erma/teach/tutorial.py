"""The guided first hand (新手教程): a fixed wall against the greedy bot, played as the server plays it.

A tutorial table deals its one hand from a fixed secret with no person's entropy in the seed, and seeds its
bot's decisions with :func:`bot_seed`, so the hand goes exactly as :func:`play` plays it here when the person
makes the moves of :func:`script` (the moves the greedy bot would make in their seat). The secrets were found
by :func:`search`: a wall on which the person meets the preset's phases, a claim, and wins.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from erma.bots import make_bot
from erma.game import Kind, Phase, apply_unchecked, legal_actions, seat_view
from erma.game.match import Match
from erma.game.state import GameState
from erma.rules import RuleSet, find_ruleset

PERSON = 0
"""The person's seat at a tutorial table (the bot sits in seat 1)."""
BOT = "greedy"

SECRETS: dict[str, str] = {
    "cuopai789": "tutorial:cuopai789:6",
    "wenzhou2p": "tutorial:wenzhou2p:1",
}
"""The fixed secret of each preset's tutorial (found by ``scripts/gen_teach_data.py --tutorial``)."""


def tutorial_rules(preset: str) -> RuleSet:
    """The preset for one unhurried hand."""
    return find_ruleset(preset, match_hands=1, turn_timeout_s=600.0, claim_timeout_s=600.0)


def bot_seed(preset: str, hand_no: int, seat: int, actions: int) -> str:
    """The seed of a tutorial bot's decision (the server's table uses it for its thinker)."""
    return f"tutorial:{preset}:{hand_no}:{seat}:{actions}"


def new_tutorial_hand(preset: str, secret: str) -> GameState:
    """The tutorial's hand as the server deals it (no entropy from either seat)."""
    return Match(tutorial_rules(preset), secret).next_hand(["", ""])


@dataclass(frozen=True)
class Played:
    """A tutorial hand played out: the person's moves and what happened."""

    state: GameState
    moves: list[str]
    phases: list[str]
    """The phase of each of the person's decisions."""
    claims: int
    """Claim decisions the person met (a chow, pung or kong offered)."""


def play(preset: str, secret: str) -> Played:
    """Play the tutorial's hand with the greedy bot in both seats (the person's seat: the moves to show)."""
    state = new_tutorial_hand(preset, secret)
    moves: list[str] = []
    phases: list[str] = []
    claims = 0
    while state.phase is not Phase.END:
        seat = state.actor
        legal = legal_actions(state, seat)
        seed = (
            bot_seed(preset, 1, seat, len(state.actions)) if seat != PERSON else f"you:{len(state.actions)}"
        )
        bot = make_bot(BOT, seed)
        action = bot.choose(seat_view(state, seat) if bot.uses_view else None, legal)  # type: ignore[arg-type]
        if seat == PERSON:
            phases.append(state.phase.value)
            if state.phase is Phase.CLAIM and any(a.kind in (Kind.CHOW, Kind.PUNG, Kind.KONG) for a in legal):
                claims += 1
        apply_unchecked(state, seat, action)
    moves = [str(a) for who, a in state.actions if who == PERSON]
    return Played(state, moves, phases, claims)


def good(preset: str, p: Played) -> bool:
    """A wall worth teaching on: the person wins after meeting a claim and the preset's phases."""
    r = p.state.result
    if r is None or r.winner != PERSON or p.claims < 1:
        return False
    if "win" not in p.moves or len(p.moves) > 40:  # the person presses 和 themselves
        return False
    return "cuo" in p.phases if preset == "cuopai789" else True


@cache
def script(preset: str) -> dict[str, Any]:
    """What the client needs to guide the hand: the person's moves in order (``moves[d]`` answers the view
    whose ``decision`` is d) and how the hand ends."""
    p = play(preset, SECRETS[preset])
    r = p.state.result
    assert r is not None
    return {
        "preset": preset,
        "moves": p.moves,
        "phases": p.phases,
        "winner": r.winner,
        "how": None if r.how is None else r.how.value,
        "points": r.points,
    }


def search(preset: str, tries: int = 300) -> str | None:
    """The first secret ``tutorial:{preset}:i`` whose hand is :func:`good`."""
    for i in range(tries):
        secret = f"tutorial:{preset}:{i}"
        if good(preset, play(preset, secret)):
            return secret
    return None
