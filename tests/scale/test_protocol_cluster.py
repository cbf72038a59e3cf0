"""The protocol suite (tests/server/test_protocol_*.py) through two ``erma serve`` processes on PostgreSQL and
Redis: each player on its own process (one of them relayed), the same deal with the opponent's claim options
present and absent in every preset, the fuzzer on each process, the endings missed while away delivered by
the other process; no traceback in either process's log."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
from websockets.sync.client import connect

from ..server.conftest import Client, run_async
from ..server.test_protocol_fairness import PRESET_ROOMS, assert_same_stream, play_pair
from ..server.test_protocol_parsing import AUDIT, strict_json
from .conftest import Cluster, Node

HOOKS = "tests.server.patched_serve"


def assert_no_traceback(nodes: list[Node]) -> None:
    for node in nodes:
        text = node.log.read_text(errors="replace")
        assert "Traceback" not in text, f"{node.log.name}:\n{text[-3000:]}"


def pair_of_nodes(cluster: Cluster, prefix: str, **env: str) -> list[Node]:
    return [
        cluster.start_node(
            module=HOOKS,
            env={"ERMA_TEST_FIXED_SECRETS": "1", **env},
            redis_prefix=prefix,
        )
        for _ in range(2)
    ]


def test_the_opponents_claim_options_do_not_show_across_processes(cluster: Cluster) -> None:
    streams: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for run, env in (("shown", {}), ("hidden", {"ERMA_TEST_HIDE_CLAIMS_OF": "1"})):
        a, b = pair_of_nodes(cluster, f"{cluster.prefix}{run}", **env)
        streams[run] = {}
        for room in PRESET_ROOMS:
            # (no probes: a probe relayed through Redis may take longer than the test's short pause)
            mine, theirs = run_async(play_pair(a, b, room, probe=False))
            assert mine[0]["seat"] == 0 and theirs[0]["seat"] == 1  # (the hook hides seat 1's claims)
            streams[run][room] = mine
            if run == "shown":
                assert any(m["type"] == "view" and m["view"]["phase"] == "claim" for m in theirs), room
        assert_no_traceback([a, b])
        for node in (a, b):
            cluster.terminate(node)
    for room in PRESET_ROOMS:
        assert_same_stream(streams["shown"][room], streams["hidden"][room], probed=False)
    assert cluster.ledger_check() == []


def test_fuzzed_messages_and_missed_endings_across_processes(cluster: Cluster) -> None:
    a = cluster.start_node(msg_rate=0)
    b = cluster.start_node(msg_rate=0)
    for node in (a, b):  # the audit's killers and a spread of bad input on each process
        with connect(node.ws_url) as ws:
            bad = [*AUDIT, json.dumps({"type": "action", "match": "m", "seq": -1, "action": "x" * 100})]
            for i, raw in enumerate(bad):
                ws.send(raw)
                assert strict_json(ws.recv(10))["type"] == "error"
                ws.send(json.dumps({"type": "ping", "t": i}))
                assert strict_json(ws.recv(10)) == {"type": "pong", "t": i}
        r = httpx.get(f"{node.url}/api/games/{2**63}", headers={"Authorization": "Bearer x"})
        assert r.status_code in (401, 404)

    async def away() -> tuple[dict[str, Any], dict[str, Any]]:
        c = Client(a)
        await c.connect()
        await c.send({"type": "queue", "room": "cuopai-novice", "opponent": "bot"})
        m = await c.expect("match")
        await c.expect("view")
        await c.ws.close()  # away: the hand ends in auto-play, the match with the forfeit
        headers = {"Authorization": f"Bearer {c.token}"}
        for _ in range(600):
            if httpx.get(a.url + "/api/games", headers=headers).json()["games"]:
                break
            await asyncio.sleep(0.1)
        await asyncio.sleep(0.5)
        back = Client(b, c.token)  # back on the other process
        await back.connect()
        end = await back.expect("hand_end")
        over = await back.expect("match_end")
        await back.close()
        assert end["match"] == over["match"] == m["match"]
        return end, over

    end, _ = run_async(away())
    assert end["beans"][0] != 0
    assert_no_traceback([a, b])
