"""Replays and rules pages for the web client (回放 / 规则): pure functions the REST API serves.

A replay re-plays a stored hand with the engine (a hand is rule set + seed + actions, docs/records.md) and
returns, for one seat, the seat's view after the deal and after every action, with the events that action
produced as that seat saw them; the client words the events in its language. A rules page lists a preset's
options and its fans with their points, read from the fan tables (温州: its multiplier reasons).
"""

from __future__ import annotations

from typing import Any

from erma.errors import ErmaError, InvalidRecordError
from erma.game import apply, events_for, new_hand
from erma.game.engine import family_for
from erma.game.record import upgrade
from erma.game.view import view_for
from erma.rules import find_ruleset
from erma.rules.ruleset import PRESETS
from erma.scoring.table import load_table
from erma.tiles import parse_tile, tile_to_mpsz, to_mpsz


def requested_seat(text: str | None, own: int) -> int | None:
    """The seat a replay or review asks for (``?seat=0`` or ``1``; the caller's ``own`` seat without it);
    None when the text is neither."""
    if text is None:
        return own
    return int(text) if text in ("0", "1") else None


def replay_steps(record: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    """Step 0 is the deal; step k the table after the record's k-th action. Each step: ``action``
    ([seat, text] or None), ``events`` (what it produced, as ``seat`` saw it), ``view``
    (``view_for(state, seat)``) and ``hands`` (both concealed hands: a finished hand's record is open to its
    players). Raises InvalidRecordError for a record that does not replay."""
    record = upgrade(record)  # an older format's record reads as the current one (erma.game.record)
    try:
        rules = find_ruleset(record["rules"], record.get("options") or {})
        deck = record.get("deck")
        state = new_hand(
            rules,
            record["seed"],
            record.get("dealer"),
            record["prevalent_wind"],
            [parse_tile(t) for t in deck] if deck is not None else None,
            streak=record.get("streak", 0),
        )
        steps = [_step(state, seat, None, 0)]
        for item in record["actions"]:
            start = len(state.events)
            apply(state, item[0], item[1])
            steps.append(_step(state, seat, [item[0], item[1]], start))
    except InvalidRecordError:
        raise
    except (ErmaError, KeyError, TypeError, ValueError, IndexError) as exc:
        raise InvalidRecordError(f"record does not replay: {exc}") from None
    return steps


def _step(state: Any, seat: int, action: list[Any] | None, start: int) -> dict[str, Any]:
    view = view_for(state, seat)
    view["legal"] = []  # a replay is watched, not played
    return {
        "action": action,
        "events": events_for(state, seat, start),
        "view": view,
        "hands": [_concealed(state, s) for s in (0, 1)],
    }


def _concealed(state: Any, seat: int) -> str:
    return to_mpsz(state.seats[seat].tiles())


def rules_page(name: str) -> dict[str, Any]:
    """A preset's page: its tiles, the options players meet, and its fans (points from the fan table) or, for
    温州, its multiplier reasons. KeyError for an unknown preset."""
    rules = PRESETS[name]
    page: dict[str, Any] = {
        "name": name,
        "family": rules.family,
        "kinds": [tile_to_mpsz(t) for t in rules.kinds],
        "copies": rules.copies,
        "hand_size": rules.hand_size,
        "min_fan": rules.min_fan,
        "fan_cap": rules.fan_cap,
        "turn_timeout_s": rules.turn_timeout_s,
        "next_hand_timeout_s": rules.next_hand_timeout_s,
    }
    reasons = family_for(rules).multiplier_reasons(rules)
    if reasons:  # a family that multiplies wins (温州) instead of adding fans
        page["multipliers"] = reasons
        return page
    table = load_table(rules.fan_table)
    page["fan_table"] = {"id": table.id, "name_zh": table.name_zh, "name_en": table.name_en, "cap": table.cap}
    page["fans"] = [
        {"id": r.id, "name_zh": r.name_zh, "name_en": r.name_en, "points": r.value, "limit": r.limit}
        for r in table.rows
    ]
    return page
