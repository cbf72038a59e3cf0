"""Frozen golden records (tests/data/records/): each replays to the same events and result, byte for byte.

A change in how the engine draws from its generator, orders its events or shapes an event or a result shows
here first. The files are written by scripts/gen_golden_records.py; rewrite them only for a deliberate change,
and say why in the commit.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from erma.game.events import replay_events
from erma.game.record import FORMAT, replay, verify

RECORDS = Path(__file__).resolve().parent.parent / "data" / "records"
INDEX = json.loads((RECORDS / "index.json").read_text(encoding="utf-8"))


def _dump(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, indent=1)


@pytest.mark.parametrize("name", sorted(INDEX))
def test_golden_record_replays_byte_for_byte(name: str) -> None:
    record = json.loads((RECORDS / name).read_text(encoding="utf-8"))
    assert record["format"] == FORMAT
    state = replay(record)
    events = replay_events(state.events)
    assert len(events) == len(record["events"])
    for i, (stored, now) in enumerate(zip(record["events"], events, strict=True)):
        assert _dump(now) == _dump(stored), f"{name}: event {i} differs"
    assert state.result is not None
    assert _dump(state.result.to_json()) == _dump(record["result"])
    assert verify(record) == []


@pytest.mark.parametrize("name", sorted(INDEX))
def test_golden_record_shows_its_mechanic(name: str) -> None:
    record = json.loads((RECORDS / name).read_text(encoding="utf-8"))
    kinds = {e["type"] for e in record["events"]}
    assert set(INDEX[name]["events"]) <= kinds
    if INDEX[name]["reason"]:
        assert record["result"]["reason"] == INDEX[name]["reason"]


def test_every_preset_and_mechanic_is_covered() -> None:
    presets = {json.loads((RECORDS / n).read_text(encoding="utf-8"))["rules"] for n in INDEX}
    assert presets == {"cuopai789", "classic64", "wushuang128", "wenzhou2p"}
    kinds = {k for entry in INDEX.values() for k in entry["events"]}
    for mechanic in ("maidi", "dingdi", "cuo", "triplet_accept", "haidi_pick", "akong", "xkong", "escape"):
        assert mechanic in kinds
    reasons = {entry["reason"] for entry in INDEX.values()}
    assert {"win", "draw", "escape"} <= reasons
    eight = json.loads((RECORDS / "wushuang128-eight-kong.json").read_text(encoding="utf-8"))
    assert sum(1 for e in eight["events"] if e["type"] == "xkong") == 4  # a kong grown to eight tiles
    rob = json.loads((RECORDS / "cuopai789-rob.json").read_text(encoding="utf-8"))
    assert rob["result"]["how"] == "rob"


def test_a_changed_event_is_caught() -> None:
    record = json.loads((RECORDS / "classic64-win.json").read_text(encoding="utf-8"))
    record["events"][3] = dict(record["events"][3], seat=1 - record["events"][3].get("seat", 0))
    assert verify(record) != []
