"""The ``erma`` command, run as a user runs it."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from erma.cli import main


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "erma.cli", *args], capture_output=True, text=True, timeout=60
    )


def test_hand_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hand", "123m456p789s1155z"]) == 0
    out = capsys.readouterr().out
    assert "ready (听牌)" in out
    assert "1z×2 5z×2" in out  # useful tiles with how many remain unseen
    assert "1z 东×2, 5z 白×2" in out


def test_hand_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hand", "W1 W2 W3 B4 B5 B6 T7 T8 T9 F1 F1 J3 J3", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["tiles"] == "123m456p789s1155z"
    assert report["shanten"] == 0
    assert report["shanten_by_shape"]["thirteen_orphans"] == 8
    assert report["waits"] == [{"tile": "1z", "unseen": 2}, {"tile": "5z", "unseen": 2}]
    assert report["useful_total"] == 4


def test_hand_exposed_and_copies(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hand", "1m", "--exposed", "111m", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["waits"] == []
    assert main(["hand", "1m", "--exposed", "111m", "--copies", "8", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["waits"] == [{"tile": "1m", "unseen": 4}]


@pytest.mark.parametrize(
    ("tiles", "fragment"),
    [("123m4", "no suit letter"), ("11111m", "more than 4 copies"), ("123m", "3 tiles")],
)
def test_hand_bad_input_is_one_line(tiles: str, fragment: str) -> None:
    proc = run("hand", tiles)
    assert proc.returncode == 2
    assert fragment in proc.stderr
    assert "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_demo() -> None:
    proc = run("demo")
    assert proc.returncode == 0, proc.stderr
    assert "thirteen_orphans" in proc.stdout and "waits" in proc.stdout
