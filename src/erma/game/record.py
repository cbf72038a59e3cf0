"""Game records (牌谱): rules, options, seed, actions and events of one hand, as JSON; replay and verify.

The format is documented in docs/records.md. Replaying a record re-deals from its rules and seed and applies
its actions with the checked :func:`~erma.game.engine.apply`; the events and result must come out the same.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from erma.errors import ErmaError, InvalidRecordError
from erma.game.events import replay_events
from erma.game.flow import apply
from erma.game.start import new_hand
from erma.game.state import GameState
from erma.rules import find_ruleset
from erma.tiles import Tile, parse_tile, tile_to_mpsz


def to_mpsz_list(tiles: list[Tile] | None) -> list[str] | None:
    """Tiles one by one in mpsz, order kept (a deck)."""
    return None if tiles is None else [tile_to_mpsz(t) for t in tiles]


FORMAT = "erma.record/2"
"""The format written; version 2 names the rule family and stores the typed result's wire form."""
FORMATS = ("erma.record/1", FORMAT)
"""The formats read (docs/records.md: what changed between them)."""


def to_record(state: GameState, *, hand_no: int | None = None) -> dict[str, Any]:
    """The record of a hand (in progress or finished)."""
    return {
        "format": FORMAT,
        "rules": state.rules.name,
        "family": state.family.name,
        "options": state.rules.overrides(),
        "seed": state.seed,
        "deck": to_mpsz_list(state.deck),
        "dealer": None if state.dealer_drawn else state.dealer,
        "prevalent_wind": state.prevalent_wind,
        "hand_no": hand_no,
        "streak": state.streak,
        "actions": [[seat, text] for seat, text in state.actions],
        "events": replay_events(state.events),
        "result": state.result.to_json() if state.result is not None else None,
    }


def _field(record: dict[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    if key not in record:
        raise InvalidRecordError(f"record: missing key {key!r}")
    value = record[key]
    if not isinstance(value, kind):
        raise InvalidRecordError(f"record: {key!r} has the wrong type ({type(value).__name__})")
    return value


def _streak(record: dict[str, Any]) -> int:
    streak = record.get("streak", 0)
    if not isinstance(streak, int) or isinstance(streak, bool) or streak < 0:
        raise InvalidRecordError(f"record: streak {streak!r} is not a count ≥ 0")
    return streak


_V1_PRESETS = {"classic64": {"first_dealer": "random"}, "wushuang128": {"first_dealer": "random"}}
"""What format-1 records' presets were that format 2's are not (the first dealer by a coin, not dice)."""


def upgrade(record: dict[str, Any]) -> dict[str, Any]:
    """A record in the current format: a format-1 record gets its preset's old options made explicit, and
    its 温州 wins lose the 软牌 entry format 1 listed beside every reason (format 2 lists 软牌 only for a soft
    win, so the label matches the grade). Other records come back unchanged."""
    if not isinstance(record, dict):
        raise InvalidRecordError(f"a record is a JSON object, not {type(record).__name__}")
    if record.get("format") not in FORMATS:
        raise InvalidRecordError(
            f"record: format {record.get('format')!r} is not one of {', '.join(FORMATS)}"
        )
    if record["format"] == FORMAT:
        return record
    out = dict(record, format=FORMAT)
    options = record.get("options")
    if isinstance(options, dict):
        out["options"] = {**_V1_PRESETS.get(str(record.get("rules")), {}), **options}
    events = record.get("events")
    if isinstance(events, list):
        out["events"] = [
            _drop_soft(e) if isinstance(e, dict) and e.get("type") == "win" else e for e in events
        ]
    result = record.get("result")
    out["result"] = (
        _drop_soft(result) if isinstance(result, dict) and result.get("reason") == "win" else result
    )
    return out


def _drop_soft(win: dict[str, Any]) -> dict[str, Any]:
    fans = win.get("fans")
    if win.get("grade") in (None, "soft") or not isinstance(fans, list):
        return win
    return dict(win, fans=[f for f in fans if not (isinstance(f, dict) and f.get("id") == "soft")])


def replay(record: dict[str, Any]) -> GameState:
    """Re-play a record's actions from its rules and seed (each action checked). Raises InvalidRecordError."""
    final: GameState | None = None
    for final, _, _ in steps(record):  # noqa: B007 (the last state yielded is the result)
        pass
    assert final is not None, "steps yields the final state"
    return final


def steps(record: dict[str, Any]) -> Iterator[tuple[GameState, int, str]]:
    """Re-play a record one action at a time: yields ``(state, seat, text)`` before each action is applied
    (the state is live: read it before the next item), then ``(final state, -1, "")``. Raises
    InvalidRecordError."""
    record = upgrade(record)
    try:
        rules = find_ruleset(_field(record, "rules", str), _field(record, "options", dict))
        dealer = record.get("dealer")
        if dealer not in (None, 0, 1):
            raise InvalidRecordError(f"record: dealer {dealer!r} is not 0, 1 or null")
        deck = record.get("deck")
        if deck is not None and not (isinstance(deck, list) and all(isinstance(t, str) for t in deck)):
            raise InvalidRecordError("record: deck must be a list of tiles such as '5m'")
        state = new_hand(
            rules,
            _field(record, "seed", str),
            dealer,
            _field(record, "prevalent_wind", int),
            [parse_tile(t) for t in deck] if deck is not None else None,
            streak=_streak(record),
        )
        for i, item in enumerate(_field(record, "actions", list)):
            if not (
                isinstance(item, list) and len(item) == 2 and item[0] in (0, 1) and isinstance(item[1], str)
            ):
                raise InvalidRecordError(f"record: action {i} is not [seat, text]: {item!r}")
            yield state, item[0], item[1]
            try:
                apply(state, item[0], item[1])
            except ErmaError as exc:
                raise InvalidRecordError(f"record: action {i} {item!r}: {exc}") from None
    except InvalidRecordError:
        raise
    except ErmaError as exc:
        raise InvalidRecordError(f"record: {exc}") from None
    yield state, -1, ""


def verify(record: dict[str, Any]) -> list[str]:
    """Replay a record and list every difference from what it says (empty: it reproduces exactly)."""
    record = upgrade(record)
    state = replay(record)
    problems = []
    events = replay_events(state.events)
    recorded = record.get("events")
    if recorded != events:
        if not isinstance(recorded, list):
            problems.append("events: missing")
        else:
            for i, (a, b) in enumerate(zip(recorded, events, strict=False)):
                if a != b:
                    problems.append(f"event {i}: recorded {a!r}, replayed {b!r}")
                    break
            if len(recorded) != len(events):
                problems.append(f"events: recorded {len(recorded)}, replayed {len(events)}")
    replayed = state.result.to_json() if state.result is not None else None
    if record.get("result") != replayed:
        problems.append(f"result: recorded {record.get('result')!r}, replayed {replayed!r}")
    return problems


def load(path: str | Path) -> dict[str, Any]:
    """Read a record file; a broken file raises InvalidRecordError naming it."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InvalidRecordError(f"{path}: cannot read a record: {exc}") from None
    if not isinstance(data, dict):
        raise InvalidRecordError(f"{path}: a record is a JSON object")
    return data


def describe(record: dict[str, Any]) -> list[str]:
    """The hand as readable lines (for ``erma replay``)."""
    state = replay(record)
    names = ["seat 0", "seat 1"]
    lines = [f"{record['rules']}  seed {record['seed']}  dealer: {names[state.dealer]}"]
    for e in replay_events(state.events):
        t = e["type"]
        who = names[e["seat"]] if "seat" in e else ""
        rest = {k: v for k, v in e.items() if k not in ("type", "seat")}
        if t == "win" and "multiplier" in rest:  # 温州: 软 / 硬 / 双翻
            why = ", ".join(f"{f['name_zh']} ×{f['points']}" for f in rest["fans"])
            lines.append(f"{who} WINS ({rest['how']}) on {rest['tile']}: {rest['hand']}")
            lines.append(
                f"    ×{rest['multiplier']} {rest['grade']} ({why}); base {rest['base']}"
                f" × (1 + {rest['maidi']}) + 财神钱 {rest['caishen_money']} = {rest['points']} points"
            )
        elif t == "win":
            fans = ", ".join(f"{f['name_zh']} {f['points']}×{f['count']}" for f in rest["fans"])
            lines.append(f"{who} WINS ({rest['how']}) on {rest['tile']}: {rest['hand']}")
            lines.append(f"    {fans} = {rest['fan_total']} fan, {rest['points']} points")
        else:
            detail = " ".join(f"{k}={v}" for k, v in rest.items())
            lines.append(f"{who:>7} {t:<14} {detail}")
    return lines
