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
from erma.game.record import upgrade
from erma.game.view import view_for
from erma.rules import find_ruleset
from erma.teach.page import rules_page as teach_page
from erma.tiles import parse_tile, to_mpsz


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
    """A preset's page (erma.teach.page): its tiles, options, special phases shown on played hands, and its
    fans with points and example hands (温州: its multiplier reasons). KeyError for an unknown preset."""
    return teach_page(name)
