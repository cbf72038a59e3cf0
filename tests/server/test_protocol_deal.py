"""A deal nobody can bias (docs/fairness.md, "A deal nobody can bias"): the server commits to its part of each
hand's seed before the players send theirs; hand_end reveals it; ``erma verify`` checks it all."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from erma.cli import main
from erma.game.match import deal_seed

from .conftest import Client, Running, run_async
from .test_protocol import play_until_hand_end


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def test_the_seed_combines_the_committed_part_and_both_contributions(
    server: Running, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mine = ["0123456789abcdef" * 2, "fedcba9876543210" * 2]

    async def go() -> tuple[dict[str, Any], list[dict[str, Any]], str]:
        c = Client(server)
        await c.connect()
        await c.send({"type": "queue", "room": "classic-novice", "opponent": "bot"})
        m = await c.expect("match")
        await c.send({"type": "next", "match": m["match"], "entropy": mine[0]})
        ends = [await play_until_hand_end(c, m["match"], m["seat"])]
        await c.send({"type": "next", "match": m["match"], "entropy": mine[1]})
        ends.append(await play_until_hand_end(c, m["match"], m["seat"]))
        await c.send({"type": "leave", "match": m["match"]})
        await c.expect("match_end")
        await c.close()
        return m, ends, c.token

    match, ends, token = run_async(go())
    seat = match["seat"]
    commitment = match["commitment"]  # sent before our first contribution
    for end, entropy in zip(ends, mine, strict=True):
        assert end["commitment"] == commitment
        assert sha(end["server_seed"]) == commitment
        assert end["contributions"][seat] == entropy
        assert len(end["contributions"][1 - seat]) == 32  # the bot's share
        assert end["seed"] == deal_seed(end["server_seed"], end["contributions"])
        commitment = end["next_commitment"]  # sent before our next contribution

    headers = {"Authorization": f"Bearer {token}"}
    record = httpx.get(f"{server.url}/api/games/{ends[0]['record_id']}", headers=headers).json()
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["verify", str(path)]) == 0
    out = capsys.readouterr().out
    assert "commit" in out and mine[0] in out
    record["contributions"][seat] = "00"  # a contribution other than the one that made the seed
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["verify", str(path)]) == 1
    assert "contributions" in capsys.readouterr().err


def test_bad_entropy_is_refused(server: Running) -> None:
    async def go() -> dict[str, Any]:
        c = Client(server)
        await c.connect()
        await c.send({"type": "next", "match": "x", "entropy": "not hex"})
        reply = await c.expect("error")
        await c.close()
        return reply

    reply = run_async(go())
    assert reply["code"] == "bad_message" and "entropy" in reply["message"]
