"""Write the frozen golden records under tests/data/records/ (one or more per preset, each for a mechanic).

Each record is a hand played by the greedy bot (with a fixed policy for the choices greedy never makes, such
as 买底 / 顶底) from a seed found by a deterministic search, or from a fixed deck where the mechanic is too
rare to meet by chance. ``index.json`` names, for each file, the event types and result it must show;
tests/game/test_golden_records.py replays every file and compares every event and the result byte for byte.

    python scripts/gen_golden_records.py          # rewrite the files (only after a deliberate change)
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

from erma.bots import make_bot
from erma.game import GameState, Phase, apply, legal_actions, new_hand, seat_view
from erma.game.actions import Action, Kind
from erma.game.record import to_record
from erma.lab.selfplay import hand_seed
from erma.rules import find_ruleset

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "records"
sys.path.insert(0, str(ROOT))

from tests.game.helpers import build_deck  # noqa: E402

Policy = Callable[[GameState, int, list[Action]], Action | None]


def _stakes_yes(state: GameState, seat: int, legal: list[Action]) -> Action | None:
    """Take 买底 and 顶底 (greedy declines them)."""
    yes = [a for a in legal if a.kind in (Kind.MAIDI, Kind.DINGDI)]
    return yes[0] if yes else None


def play_out(state: GameState, seed: str, policy: Policy | None = None, escape_at: int | None = None) -> None:
    """Greedy for both seats (seeded per seat) until the hand ends; ``escape_at``: seat 1 escapes then."""
    bots = [make_bot("greedy", f"{seed}:{s}") for s in (0, 1)]
    while state.phase is not Phase.END:
        if escape_at is not None and len(state.actions) >= escape_at:
            apply(state, 1, Action(Kind.ESCAPE))
            return
        seat = state.actor
        legal = legal_actions(state, seat)
        action = policy(state, seat, legal) if policy is not None else None
        if action is None:
            action = bots[seat].choose(seat_view(state, seat), legal)
        apply(state, seat, action)


def search(preset: str, want: Callable[[GameState], bool], policy: Policy | None = None) -> GameState:
    """The first self-play hand (seeds golden:0, golden:1, …) that shows what ``want`` asks for."""
    rules = find_ruleset(preset)
    for i in range(5000):
        seed = hand_seed("golden", i)
        state = new_hand(rules, seed)
        play_out(state, seed, policy)
        if want(state):
            return state
    raise SystemExit(f"{preset}: no hand found")


def has_event(kind: str) -> Callable[[GameState], bool]:
    return lambda state: any(e.type == kind for e in state.events)


def rob_scenario() -> GameState:
    """RULES §1.12 C4: the dealer adds a kong of 7s and the non-dealer robs it."""
    rules = find_ruleset("cuopai789", triplet_offer_prob=0.0, cuo_prob=0.0, start_exchange_enabled=False)
    deck = build_deck(rules, "77s19p19s134567z28p", "123m456m789p56s22z", draws="7s9m7s", revealed="1m")
    state = new_hand(rules, "rob", dealer=0, deck=deck)
    steps = ["0 discard 1z", "1 discard 7s", "0 pung", "0 discard 3z", "1 discard 9m", "0 akong 7s", "1 win"]
    for step in steps:
        seat, text = step.split(" ", 1)
        apply(state, int(seat), text)
    return state


def eight_kong_scenario() -> GameState:
    """无双: a concealed kong of 5m extended to eight tiles, then played out."""
    rules = find_ruleset("wushuang128")
    deck = build_deck(rules, "55555555m1234z9m7z", "11223344m11z22z3z", tail="1z2z3z4z5z")
    state = new_hand(rules, "ws", dealer=0, deck=deck)
    apply(state, 0, "ckong 5m")
    for _ in range(4):
        apply(state, 0, "xkong 5m")
    play_out(state, "ws")
    return state


def escape_hand() -> GameState:
    rules = find_ruleset("classic64")
    seed = hand_seed("golden-escape", 0)
    state = new_hand(rules, seed)
    play_out(state, seed, escape_at=12)
    return state


CASES: dict[str, tuple[Callable[[], GameState], list[str], str]] = {
    "cuopai789-cuo.json": (lambda: search("cuopai789", has_event("cuo")), ["exchange", "cuo"], ""),
    "cuopai789-triplet.json": (
        lambda: search("cuopai789", has_event("triplet_accept")),
        ["triplet_offer", "triplet_accept"],
        "",
    ),
    "cuopai789-haidi.json": (
        lambda: search("cuopai789", has_event("haidi_pick")),
        ["haidi", "haidi_pick"],
        "",
    ),
    "cuopai789-rob.json": (rob_scenario, ["akong", "win"], "win"),
    "classic64-draw.json": (
        lambda: search("classic64", lambda s: s.result is not None and s.result.reason.value == "draw"),
        ["exhausted"],
        "draw",
    ),
    "classic64-win.json": (lambda: search("classic64", has_event("win")), ["win"], "win"),
    "classic64-escape.json": (escape_hand, ["escape"], "escape"),
    "wushuang128-eight-kong.json": (eight_kong_scenario, ["ckong", "xkong"], ""),
    "wenzhou2p-maidi.json": (
        lambda: search("wenzhou2p", has_event("win"), policy=_stakes_yes),
        ["stakes", "maidi", "dingdi", "win"],
        "win",
    ),
}


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    index = {}
    for name, (make, events, reason) in CASES.items():
        state = make()
        record = to_record(state)
        (OUT / name).write_text(json.dumps(record, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        index[name] = {"events": events, "reason": reason or None}
        print(name, len(record["actions"]), "actions,", record["result"]["reason"])
    (OUT / "index.json").write_text(json.dumps(index, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
