"""``erma loadtest`` counts what went wrong as failures in its JSON: a match that ends early, error codes, a
client stuck past the end (given up, not waited for), and a socket closed with 4409 (``moved``) reconnected at
once. Against a scripted server that misbehaves in one way per test."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import httpx
import pytest
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from erma.cli import main
from erma.lab.loadtest import run_load
from tests.server.conftest import free_port, run_async

Script = Callable[[WebSocket, dict[str, Any]], Awaitable[None]]


def serve(script: Script) -> Iterator[tuple[str, dict[str, Any]]]:
    """A server answering /api/guest and speaking ``script`` on /ws; yields the websocket URL and the
    script's state."""
    state: dict[str, Any] = {"sockets": 0}

    async def guest(request: Request) -> JSONResponse:
        return JSONResponse({"token": "t"})

    async def healthz(request: Request) -> JSONResponse:
        return JSONResponse({})

    async def ws(socket: WebSocket) -> None:
        await socket.accept()
        state["sockets"] += 1
        with contextlib.suppress(WebSocketDisconnect):
            await script(socket, state)

    app = Starlette(routes=[Route("/api/guest", guest, methods=["POST"]), Route("/healthz", healthz),
                            WebSocketRoute("/ws", ws)])  # fmt: skip
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(200):
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                break
        except httpx.HTTPError:
            time.sleep(0.05)
    try:
        yield f"ws://127.0.0.1:{port}/ws", state
    finally:
        server.should_exit = True
        thread.join(10)


async def _until(socket: WebSocket, kind: str) -> dict[str, Any]:
    while True:
        msg: dict[str, Any] = await socket.receive_json()
        if msg["type"] == kind:
            return msg


async def ends_at_once(socket: WebSocket, state: dict[str, Any]) -> None:
    """A match that ends (a forfeit, say) after one hand, the client never having left; one error."""
    await _until(socket, "queue")
    await socket.send_json({"type": "match", "match": "m1", "seat": 0, "hands": None, "v": 0})
    await _until(socket, "next")
    await socket.send_json({"type": "error", "code": "server_error", "message": "boom"})
    await socket.send_json({"type": "hand_end", "match": "m1", "v": 1})
    await socket.send_json({"type": "match_end", "match": "m1", "v": 2, "scores": [0, 0], "hands": 1})
    await _until(socket, "never")


async def never_ends(socket: WebSocket, state: dict[str, Any]) -> None:
    """A match that never ends: every message answered no_such_match, forever."""
    await _until(socket, "queue")
    await socket.send_json({"type": "match", "match": "m1", "seat": 0, "hands": None, "v": 0})
    while True:
        await socket.receive_json()
        await socket.send_json({"type": "error", "code": "no_such_match", "message": "gone"})


async def moved_once(socket: WebSocket, state: dict[str, Any]) -> None:
    """The first socket is closed with 4409 (moved); on the next one the match goes on and the client leaves
    at its end."""
    if state["sockets"] == 1:
        await _until(socket, "queue")
        await socket.send_json({"type": "match", "match": "m1", "seat": 0, "hands": 1, "v": 0})
        await _until(socket, "next")
        await socket.close(code=4409, reason="moved")
        state["closed_at"] = time.monotonic()
        return
    state["back_after"] = time.monotonic() - state["closed_at"]
    await _until(socket, "hello")
    await socket.send_json({"type": "match", "match": "m1", "seat": 0, "resumed": True})
    await socket.send_json({"type": "hand_end", "match": "m1", "v": 1})
    await socket.send_json({"type": "match_end", "match": "m1", "v": 2, "scores": [0, 0], "hands": 1})
    await _until(socket, "never")


@pytest.fixture
def scripted(request: pytest.FixtureRequest) -> Iterator[tuple[str, dict[str, Any]]]:
    yield from serve(request.param)


@pytest.mark.parametrize("scripted", [ends_at_once], indirect=True)
def test_a_match_that_ends_early_and_an_error_are_failures(scripted: tuple[str, dict[str, Any]]) -> None:
    summary = run_async(run_load([scripted[0]], tables=1, seconds=5, give_up_s=5))
    assert summary["ended_early"] == 1 and summary["error_codes"] == {"server_error": 1}
    assert summary["failures"] == 2 and summary["matches_lost"] == 0 and summary["stuck"] == 0


@pytest.mark.parametrize("scripted", [never_ends], indirect=True)
def test_a_stuck_client_is_given_up(
    scripted: tuple[str, dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    url = scripted[0]
    t0 = time.monotonic()
    summary = run_async(run_load([url], tables=2, seconds=1, give_up_s=2))
    assert time.monotonic() - t0 < 10, "the run ends at --seconds plus the give-up bound"
    assert summary["stuck"] == 2 and summary["failures"] >= 2
    assert summary["lost"][0]["stuck"] and summary["lost"][0]["match"] == "m1"
    assert main(["loadtest", "--url", url, "--tables", "1", "--seconds", "1", "--give-up", "1"]) == 1
    assert "failures" in capsys.readouterr().err


@pytest.mark.parametrize("scripted", [moved_once], indirect=True)
def test_a_moved_socket_reconnects_at_once(scripted: tuple[str, dict[str, Any]]) -> None:
    url, state = scripted
    summary = run_async(run_load([url], tables=1, seconds=0.5, give_up_s=5))
    assert summary["moved"] == 1 and summary["reconnects"] == 1
    assert state["back_after"] < 0.3, "no backoff after 4409 (other closes wait 0.5 s)"
    assert summary["failures"] == 0, repr(summary)


def _view(v: int, decision: int, legal: list[str]) -> dict[str, Any]:
    view = {"legal": legal, "actor": 0, "seat": 0, "hand_no": 1, "decision": decision}
    return {"type": "view", "match": "m1", "v": v, "view": view}


async def replays_old_views(socket: WebSocket, state: dict[str, Any]) -> None:
    """After a takeover the stream's messages are resent (views whose decisions were taken meanwhile), then a
    snapshot of decision 3, all before the client answers: the server judges each action as the real one does
    (current.action_refusal: ``stale`` if it names an old decision; without hand and decision the action
    lands on decision 3, where only "pass" is legal)."""
    await _until(socket, "queue")
    await socket.send_json({"type": "match", "match": "m1", "seat": 0, "hands": 1, "v": 0})
    await _until(socket, "next")
    for v, decision in ((1, 0), (2, 1), (3, 2)):
        await socket.send_json(_view(v, decision, ["discard 1m", "discard 2m"]))
    snap = _view(4, 3, ["pass"])
    await socket.send_json({**snap, "type": "snapshot"})
    state["actions"] = []
    while True:
        msg = await _until(socket, "action")
        state["actions"].append(msg)
        if msg.get("decision") is not None and msg["decision"] < 3:
            code = "stale"
        elif msg["action"] != "pass":
            code = "illegal_action"
        else:
            break
        error = {"type": "error", "code": code, "message": "no", "seq": msg["seq"], "match": "m1"}
        await socket.send_json(error)
    await socket.send_json({"type": "ack", "match": "m1", "seq": msg["seq"]})
    await socket.send_json({"type": "hand_end", "match": "m1", "v": 5})
    await socket.send_json({"type": "match_end", "match": "m1", "v": 6, "scores": [0, 0], "hands": 1})
    await _until(socket, "never")


@pytest.mark.parametrize("scripted", [replays_old_views], indirect=True)
def test_actions_on_resent_views_are_stale_not_errors(scripted: tuple[str, dict[str, Any]]) -> None:
    url, state = scripted
    summary = run_async(run_load([url], tables=1, seconds=0.5, give_up_s=5))
    actions = state["actions"]
    assert [(a.get("hand"), a.get("decision")) for a in actions] == [(1, 0), (1, 1), (1, 2), (1, 3)]
    assert summary["stale"] == 3 and summary["error_codes"] == {}, summary
    assert summary["failures"] == 0, repr(summary)
