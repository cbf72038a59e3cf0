"""A real server (uvicorn, real websockets, a real SQLite database) in a thread, and a small client."""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
import websockets

from erma.server.app import create_app
from erma.server.config import Settings


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


METRICS_TOKEN = "test-operator-token"
LOGGERS = ("", "uvicorn", "uvicorn.error")


class LogCapture(logging.Handler):
    """Every log record of the server (in this process) while a test server runs."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def tracebacks(self) -> list[str]:
        """The records that carry a traceback (an exception that reached a log)."""
        out = []
        for r in self.records:
            text = r.getMessage()
            if r.exc_info or r.stack_info or "Traceback (most recent call last)" in text:
                out.append(logging.Formatter().format(r))
        return out


@dataclass
class Running:
    url: str
    ws_url: str
    app: Any
    settings: Settings
    logs: LogCapture

    def assert_no_traceback(self) -> None:
        found = self.logs.tracebacks()
        assert not found, "the server logged a traceback:\n" + "\n".join(found[:3])


def start_server(tmp: Path, **over: Any) -> tuple[uvicorn.Server, threading.Thread, Running]:
    port = free_port()
    settings = Settings(
        port=port,
        data_dir=str(tmp),
        bot_fill_s=over.pop("bot_fill_s", 0.5),
        claim_window_s=over.pop("claim_window_s", 0.05),
        bot_pause_s=over.pop("bot_pause_s", 0.0),
        timeouts=over.pop("timeouts", False),
        time_scale=over.pop("time_scale", 0.2),
        msg_rate=over.pop("msg_rate", 500.0),  # tests play at five times a person's pace
        metrics_token=over.pop("metrics_token", METRICS_TOKEN),
        **over,
    )

    app = create_app(settings)
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=port,
        ws="websockets-sansio",
        lifespan="on",
        log_level="warning",
        proxy_headers=False,  # as erma serve: X-Forwarded-For only through trusted_proxies
    )
    capture = LogCapture()
    for name in LOGGERS:  # (uvicorn's own loggers do not propagate to the root)
        logging.getLogger(name).addHandler(capture)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            if httpx.get(url + "/healthz", timeout=1).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        time.sleep(0.05)
    else:
        raise RuntimeError("server did not start")
    return server, thread, Running(url, f"ws://127.0.0.1:{port}/ws", app, settings, capture)


def stop_server(server: uvicorn.Server, thread: threading.Thread, running: Running) -> None:
    """Stop a test server and fail if its log holds a traceback."""
    server.should_exit = True
    thread.join(10)
    for name in LOGGERS:
        logging.getLogger(name).removeHandler(running.logs)
    running.assert_no_traceback()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Running]:
    srv, thread, running = start_server(tmp_path)
    yield running
    stop_server(srv, thread, running)


class Client:
    """A test client speaking the protocol over a real websocket."""

    def __init__(self, running: Running, token: str | None = None) -> None:
        self.running = running
        self.token = token or httpx.post(running.url + "/api/guest").json()["token"]
        self.ws: Any = None
        self.seen: list[dict[str, Any]] = []
        self.seq = 0
        self.versions: dict[str, int] = {}

    async def connect(self, resume: dict[str, int] | None = None) -> dict[str, Any]:
        self.ws = await websockets.connect(self.running.ws_url, max_size=2**22)
        await self.send({"type": "hello", "token": self.token, "resume": resume or {}})
        return await self.expect("welcome")

    async def send(self, message: dict[str, Any] | str | bytes) -> None:
        await self.ws.send(message if isinstance(message, str | bytes) else json.dumps(message))

    async def recv(self, timeout: float = 10) -> dict[str, Any]:
        raw = await asyncio.wait_for(self.ws.recv(), timeout)
        msg = json.loads(raw)
        self.seen.append(msg)
        if "match" in msg and "v" in msg:
            self.versions[msg["match"]] = max(self.versions.get(msg["match"], -1), msg["v"])
        return msg

    async def expect(self, *types: str, timeout: float = 10) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            msg = await self.recv(max(0.01, deadline - time.monotonic()))
            if msg["type"] in types:
                return msg

    async def drain(self, quiet: float = 0.3) -> None:
        """Receive what is already on its way, until nothing comes for ``quiet`` seconds."""
        await asyncio.sleep(quiet)
        while True:
            try:
                await self.recv(quiet)
            except TimeoutError:
                return

    async def act(self, match: str, action: str, seq: int | None = None) -> None:
        if seq is None:
            self.seq += 1
            seq = self.seq
        await self.send({"type": "action", "match": match, "seq": seq, "action": action})

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()


def choose(view: dict[str, Any]) -> str:
    """A test client's policy: win, else pass claims, else discard the drawn tile (or the last legal)."""
    legal = view["legal"]
    if "win" in legal:
        return "win"
    if "pass" in legal:
        return "pass"
    if "exchange" in legal:
        return "exchange"
    drawn = view.get("drawn")
    if drawn and f"discard {drawn}" in legal:
        return f"discard {drawn}"
    plain = [a for a in legal if a.startswith("discard") and "riichi" not in a]
    return plain[-1] if plain else legal[0]


def run_async(coro: Any) -> Any:
    """asyncio.run, also when another library (sync Playwright) keeps a loop running in this thread."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = asyncio.run(coro)
        except BaseException as exc:  # re-raised in the caller's thread
            box["error"] = exc

    t = threading.Thread(target=target)
    t.start()
    t.join()
    if "error" in box:
        raise box["error"]
    return box.get("value")
