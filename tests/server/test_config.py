"""The rooms file: the bot level a room names, the hands of its rated matches."""

from __future__ import annotations

from pathlib import Path

import pytest

from erma.errors import RuleSetError
from erma.server.config import load_rooms

ROOM = '[[room]]\nid = "r"\nrules = "classic64"\n'


def test_packaged_rooms_name_a_bot_level() -> None:
    rooms = load_rooms()
    assert all(1 <= r.bot_level <= 5 for r in rooms.values())
    assert rooms["cuopai-pro"].bot_level == 5 and rooms["cuopai-novice"].public()["bot_level"] == 4


def test_bot_level_default_and_value(tmp_path: Path) -> None:
    path = tmp_path / "rooms.toml"
    path.write_text(ROOM, encoding="utf-8")
    assert load_rooms(path)["r"].bot_level == 4
    path.write_text(ROOM + "bot_level = 5\n", encoding="utf-8")
    assert load_rooms(path)["r"].bot_level == 5


@pytest.mark.parametrize("bad", ["0", "6", '"5"', "true", "2.5"])
def test_a_bad_bot_level_is_refused_by_name(tmp_path: Path, bad: str) -> None:
    path = tmp_path / "rooms.toml"
    path.write_text(ROOM + f"bot_level = {bad}\n", encoding="utf-8")
    with pytest.raises(RuleSetError, match=r"\(r\): bot_level must be an int 1–5"):
        load_rooms(path)


def test_rated_hands_default_and_value(tmp_path: Path) -> None:
    path = tmp_path / "rooms.toml"
    path.write_text(ROOM, encoding="utf-8")
    room = load_rooms(path)["r"]
    assert room.rated_hands == 8 and room.public()["rated_hands"] == 8
    path.write_text(ROOM + "rated_hands = 4\n", encoding="utf-8")
    assert load_rooms(path)["r"].rated_hands == 4


@pytest.mark.parametrize("bad", ["0", "65", "2.5", "true", '"8"'])
def test_a_bad_rated_hands_is_refused_by_name(tmp_path: Path, bad: str) -> None:
    path = tmp_path / "rooms.toml"
    path.write_text(ROOM + f"rated_hands = {bad}\n", encoding="utf-8")
    with pytest.raises(RuleSetError, match=r"\(r\): rated_hands must be an int 1–64"):
        load_rooms(path)
