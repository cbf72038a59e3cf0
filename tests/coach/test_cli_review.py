"""``erma review``: the JSON it prints is review_record's, bad input exits 2 with one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from erma.cli import main
from erma.coach import review_record
from erma.game.record import load

RECORDS = Path(__file__).parent.parent / "data" / "records"


def test_json_is_review_record(capsys: pytest.CaptureFixture[str]) -> None:
    path = RECORDS / "cuopai789-rob.json"
    assert main(["review", str(path), "--json", "--seat", "1", "--samples", "4", "--seed", "s"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == review_record(load(path), 1, seed="s", samples=4)


def test_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["review", str(RECORDS / "cuopai789-rob.json"), "--samples", "4"]) == 0
    out = capsys.readouterr().out
    assert "seat 0:" in out and "seat 1:" in out and "played" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seat", "2"], "seat 2 is not 0 or 1"),
        (["--samples", "1"], "samples 1"),
    ],
)
def test_bad_arguments(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    assert main(["review", str(RECORDS / "cuopai789-rob.json"), *args]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_bad_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    assert main(["review", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "bad.json" in err and len(err.strip().splitlines()) == 1
    bad.write_text(json.dumps({"format": "erma.record/2", "rules": "nope"}), encoding="utf-8")
    assert main(["review", str(bad)]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
