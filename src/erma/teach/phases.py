"""Special phases (特殊阶段) shown on hands the engine played: each example is a hand of the greedy bots whose
seed a search found (``scripts/gen_teach_data.py --phases`` stores the seeds in ``phase_seeds.json``), played
again when a page asks and cut to the moment the phase happens.

An example is a plain dict: ``seat``, ``hand`` / ``after`` (that seat's tiles just before / after), the
``event`` the engine emitted, and facts of the phase; the client words it (web/rules-teach.js).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from importlib import resources
from typing import Any

from erma.game import Action, Kind, apply_unchecked
from erma.rules.ruleset import PRESETS
from erma.teach.play import Played, Policy, buy_stakes, pass_first_win, play

Example = dict[str, Any]
Finder = Callable[[Played], Example | None]


def _event(kind: str, test: Callable[[dict[str, Any]], bool] = lambda e: True) -> Finder:
    def find(p: Played) -> Example | None:
        for t in p.told:
            if t.event.get("type") == kind and test(t.event):
                seat = t.event.get("seat", 0)
                return {"seat": seat, "hand": t.before[seat], "after": t.after[seat], "event": t.event}
        return None

    return find


def _win(test: Callable[[dict[str, Any]], bool]) -> Finder:
    def find(p: Played) -> Example | None:
        result = p.state.result
        if result is None or not result.is_win:
            return None
        out = result.to_json()
        if not test(out):
            return None
        return {"seat": result.winner, "result": out}

    return find


def _fans(*ids: str) -> Callable[[dict[str, Any]], bool]:
    return lambda r: any(f["id"] in ids for f in r.get("fans", []))


def _riichi(p: Played) -> Example | None:
    for i, t in enumerate(p.told):
        e = t.event
        if e.get("type") == "discard" and e.get("riichi"):
            seat = e["seat"]
            autos = [
                x.event for x in p.told[i + 1 :] if x.event.get("type") == "auto" and x.event["seat"] == seat
            ]
            result = p.state.result
            won = result is not None and result.winner == seat
            return {
                "seat": seat,
                "hand": t.before[seat],
                "after": t.after[seat],
                "event": e,
                "autos": [a["action"] for a in autos[:6]],
                "won": won,
            }
    return None


def _bonus(p: Played) -> Example | None:
    found = _win(_fans("bonus_tiles"))(p)
    if found is not None:
        deal = next(t.event for t in p.told if t.event.get("type") == "deal")
        found["revealed"] = deal.get("revealed", [])
        found["bonus_kinds"] = deal.get("bonus_kinds", [])
    return found


def _haidi(p: Played) -> Example | None:
    """A 海底捞月 pick that wins (with the win's fans)."""
    pick = _event("haidi_pick", lambda e: bool(e.get("wins")))(p)
    if pick is None or p.state.result is None:
        return None
    pick["won"] = True
    pick["result"] = p.state.result.to_json()
    return pick


def _caishen(p: Played) -> Example | None:
    found = _win(lambda r: r.get("grade") == "soft")(p)
    if found is not None:
        deal = next(t.event for t in p.told if t.event.get("type") == "deal")
        found["flipped"] = deal.get("flipped")
        found["caishen"] = deal.get("caishen")
    return found


def _guoshui(p: Played) -> Example | None:
    for i, t in enumerate(p.told):
        e = t.event
        if e.get("type") == "claim_window" and any(o.startswith("win") for o in e.get("options", [])):
            nxt = p.told[i + 1].event if i + 1 < len(p.told) else {}
            if nxt.get("type") == "pass":
                seat = e["seat"]
                discards = [x for x in p.told[:i] if x.event.get("type") == "discard"]
                tile = discards[-1].event["tile"] if discards else None
                return {"seat": seat, "hand": t.before[seat], "tile": tile, "event": e}
    return None


# phase id → (the finder, the policy the hand is played with)
FINDERS: dict[str, tuple[Finder, Callable[[], Policy | None]]] = {
    "exchange": (_event("exchange", lambda e: e.get("count", 0) > 0), lambda: None),
    "cuo": (_event("cuo"), lambda: None),
    "triplet": (_event("triplet_accept"), lambda: None),
    "bonus": (_bonus, lambda: None),
    "riichi": (_riichi, lambda: None),
    "haidi": (_haidi, lambda: None),
    "xkong": (_event("xkong"), lambda: None),
    "caishen": (_caishen, lambda: None),
    "grade_soft": (_win(lambda r: r.get("grade") == "soft"), lambda: None),
    "grade_hard": (_win(lambda r: r.get("grade") == "hard"), lambda: None),
    "grade_double": (_win(lambda r: r.get("grade") == "double"), lambda: None),
    "maidi": (_win(lambda r: bool(r.get("maidi"))), lambda: buy_stakes),
    "eight_pairs": (_win(_fans("soft_eight_pairs", "hard_eight_pairs")), lambda: None),
    "three_caishen": (_win(_fans("three_caishen", "three_caishen_no_shape")), lambda: None),
    "guoshui": (_guoshui, pass_first_win),
    "settlement": (_win(lambda r: len(r.get("fans", [])) >= 2), lambda: None),
}

PHASES: dict[str, tuple[str, ...]] = {
    "cuopai789": ("exchange", "cuo", "triplet", "bonus", "riichi", "haidi", "settlement"),
    "classic64": ("riichi", "settlement"),
    "wushuang128": ("xkong", "riichi", "settlement"),
    "wenzhou2p": (
        "caishen",
        "grade_soft",
        "grade_hard",
        "grade_double",
        "maidi",
        "eight_pairs",
        "three_caishen",
        "guoshui",
        "settlement",
    ),
}
"""The phases each preset's page shows from a played hand (the cap, the escape and the base come from the
rules and the scorer: :func:`erma.teach.page.rules_page`)."""


def example(preset: str, phase: str, seed: str) -> Example | None:
    """The phase's example on hand ``seed`` (None if it does not happen there)."""
    finder, policy = FINDERS[phase]
    found = finder(play(PRESETS[preset], seed, policy()))
    if found is not None:
        found["seed"] = seed
    return found


def search(preset: str, phase: str, hands: int = 400) -> str | None:
    """The first seed ``teach:i`` whose hand shows ``phase``."""
    for i in range(hands):
        seed = f"teach:{i}"
        if example(preset, phase, seed) is not None:
            return seed
    return None


def escape_example(preset: str, seed: str = "teach:0", after: int = 6) -> Example:
    """The non-dealer leaves after ``after`` actions: what the escape costs (the engine settles it)."""
    p = play(PRESETS[preset], seed, stop=after)
    state = p.state
    seat = 1 - state.dealer
    apply_unchecked(state, seat, Action(Kind.ESCAPE))
    assert state.result is not None
    return {"seat": seat, "result": state.result.to_json()}


@cache
def stored_seeds() -> dict[str, dict[str, str]]:
    text = resources.files("erma.teach").joinpath("phase_seeds.json").read_text(encoding="utf-8")
    data: dict[str, dict[str, str]] = json.loads(text)
    return data


@cache
def examples(preset: str) -> dict[str, Example]:
    """Every phase example of ``preset`` that has a stored seed, played again."""
    out: dict[str, Example] = {}
    seeds = stored_seeds().get(preset, {})
    for phase in PHASES[preset]:  # in the order a newcomer meets them
        seed = seeds.get(phase)
        found = None if seed is None else example(preset, phase, seed)
        if found is not None:
            out[phase] = found
    out["escape"] = escape_example(preset)
    return out
