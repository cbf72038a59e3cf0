"""The ASGI app (服务器): websocket game protocol, a small REST API, the web client, health and metrics."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import hmac
import logging
import re
import time
from collections.abc import AsyncIterator
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from erma.errors import ErmaError
from erma.server import protocol as P
from erma.server.accounts_api import account_routes
from erma.server.addresses import ForwardedProto, client_address, trusted_proxies
from erma.server.coach_api import Reviewer, review_routes
from erma.server.config import Settings, load_rooms
from erma.server.connection import KeepTransport
from erma.server.headers import SecurityHeaders
from erma.server.hub import Hub
from erma.server.ratings_api import rating_routes
from erma.server.tutorial import tutorial_rooms, tutorial_routes

MAX_FRAME_BYTES = 65536
"""A websocket frame larger than this closes the socket (1009) before it is read; up to it, a message over
8 KiB gets a ``too_large`` error and the socket stays open (docs/protocol.md)."""


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status)


async def _json(request: Request) -> dict[str, Any]:
    body = await request.body()
    if len(body) > 4096:
        raise ValueError("request body too large")
    if not body:
        return {}
    data = P.decode(body)  # the websocket's limits: depth, number length, finite numbers (ProtocolError)
    if not isinstance(data, dict):
        raise ValueError("the body must be a JSON object")
    return data


def create_app(settings: Settings | None = None, store: Any = None) -> Starlette:
    """The app; ``store`` (an opened erma.store.Store) may be given, else it is opened at start-up."""
    settings = settings or Settings()
    rooms = load_rooms(settings.rooms_file)  # validated before anything starts
    rooms.update(tutorial_rooms())  # 新手教程's tables (hidden from the room list)
    trusted_proxies(settings.trusted_proxies)  # so is the list of proxies (ValueError names the entry)
    state: dict[str, Any] = {"ready": False}
    reviewer = Reviewer(settings.review_workers)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        from erma.store import Store

        own = store is None
        st = (
            store
            if store is not None
            else await Store.open(settings.db_url, settings.data_dir, session_ttl_s=settings.session_ttl_s)
        )
        backend: Any = None
        if settings.redis_url:
            from erma.server.backends.redis import RedisBackend

            backend = RedisBackend(settings.redis_url, settings)
        hub = Hub(settings, rooms, st, backend)
        await hub.start()
        reviewer.metrics = hub.metrics  # reviews_computed / reviews_failed in /metrics
        if settings.gc_tuning:
            _tune_gc()
        state["hub"] = hub
        state["store"] = st
        metrics_listener = None
        if settings.metrics_port is not None:
            metrics_listener = await asyncio.start_server(
                _metrics_responder(lambda: metrics_text(hub)), settings.host, settings.metrics_port
            )
        state["ready"] = True
        try:
            yield
        finally:
            state["ready"] = False
            if metrics_listener is not None:
                metrics_listener.close()
            await hub.stop()
            reviewer.stop()
            if own:
                await st.close()

    def hub() -> Hub:
        h: Hub = state["hub"]
        return h

    async def account_of(request: Request) -> Any:
        auth = request.headers.get("authorization", "")
        token = auth[7:] if auth.lower().startswith("bearer ") else ""
        if not token:
            return None
        return await state["store"].account_for_session(token)

    async def healthz(request: Request) -> Response:
        if not state["ready"]:
            return PlainTextResponse("starting", status_code=503)
        return PlainTextResponse("ok")

    async def metrics(request: Request) -> Response:
        token = settings.metrics_token
        if not token:
            return _error(404, "not_found", "metrics are served on the operator's listener (metrics_port)")
        auth = request.headers.get("authorization", "")
        if not hmac.compare_digest(auth.encode(), f"Bearer {token}".encode()):
            return _error(401, "not_authenticated", "metrics need the operator token")
        return PlainTextResponse(metrics_text(hub()), media_type="text/plain; version=0.0.4")

    async def ws_endpoint(websocket: WebSocket) -> None:
        await hub().serve_socket(websocket)

    async def me(request: Request) -> Response:
        account = await account_of(request)
        if account is None:
            return _error(401, "not_authenticated", "a session token is needed")
        st = state["store"]
        return JSONResponse(
            {
                "account": _account(account),
                "balance": await st.balance(account.id),
                "history": await st.history(account.id, 20),
            }
        )

    async def relief(request: Request) -> Response:
        account = await account_of(request)
        if account is None:
            return _error(401, "not_authenticated", "a session token is needed")
        st = state["store"]
        granted = await st.daily_relief(account.id, dt.date.today().isoformat())
        return JSONResponse({"granted": granted, "balance": await st.balance(account.id)})

    async def rooms_list(request: Request) -> Response:
        return JSONResponse(
            {
                "rooms": [r.public() for r in rooms.values() if r.tier != "tutorial"],
                "friend_pair_cap": settings.friend_pair_cap,  # (the 好友房 form says it; 0: no cap)
            }
        )

    async def games(request: Request) -> Response:
        account = await account_of(request)
        if account is None:
            return _error(401, "not_authenticated", "a session token is needed")
        return JSONResponse({"games": await state["store"].list_games(account.id)})

    async def own_game(request: Request) -> tuple[Any, dict[str, Any]] | Response:
        """(account, stored record) of the game in the path, if the caller played it; else the error reply."""
        account = await account_of(request)
        if account is None:
            return _error(401, "not_authenticated", "a session token is needed")
        record_id = _record_id(request.path_params["id"])
        if isinstance(record_id, Response):
            return record_id
        stored = await state["store"].get_record(record_id)
        if stored is None or account.id not in stored["account_ids"]:
            return _error(404, "not_found", f"no game {record_id} of yours")
        return account, stored

    async def own_game_at_seat(request: Request) -> tuple[Any, dict[str, Any], int] | Response:
        """(account, stored record, seat) for a replay or review of the caller's own game: the seat of
        ``?seat=`` (the caller's own without it); else the error reply."""
        from erma.server.review import requested_seat

        found = await own_game(request)
        if isinstance(found, Response):
            return found
        account, stored = found
        seat_text = request.query_params.get("seat")
        seat = requested_seat(seat_text, stored["account_ids"].index(account.id))
        if seat is None:
            return _error(400, "invalid_input", f"seat {(seat_text or '')[:40]!r} is not 0 or 1")
        return account, stored, seat

    async def game(request: Request) -> Response:
        found = await own_game(request)
        if isinstance(found, Response):
            return found
        stored = found[1]
        return JSONResponse({**stored["record"], "id": stored["id"], "created": stored["created"]})

    async def game_replay(request: Request) -> Response:
        """The hand re-played by the engine, one seat view per step (docs/protocol.md)."""
        from erma.errors import InvalidRecordError
        from erma.server.review import replay_steps

        found = await own_game_at_seat(request)
        if isinstance(found, Response):
            return found
        _, stored, seat = found
        record = stored["record"]
        try:
            steps = replay_steps(record, seat)
        except InvalidRecordError as exc:
            return _error(400, "bad_record", str(exc))
        room = rooms.get(record.get("room", ""))
        return JSONResponse(
            {
                "id": stored["id"],
                "created": stored["created"],
                "seat": seat,
                "rules": record.get("rules"),
                "room": room.public() if room is not None else {"id": record.get("room")},
                "players": record.get("players"),
                "hand_no": record.get("hand_no"),
                "result": record.get("result"),
                "steps": steps,
            }
        )

    async def rules_info(request: Request) -> Response:
        """A preset's rules page: options and fans with points, from the fan tables."""
        from erma.server.review import rules_page

        name = request.path_params["name"]
        try:  # the first call plays the page's example hands: off the event loop
            return JSONResponse(await run_in_threadpool(rules_page, name))
        except KeyError:
            return _error(404, "not_found", f"no rule set {name!r}")

    async def friend_lookup(request: Request) -> Response:
        """A friend table by its code (``/api/friend/<code>``) or its number (``/api/friend?number=``)."""
        from erma.server.friend_desk import Refusal

        code = request.path_params.get("code")
        number = None if code is not None else request.query_params.get("number")
        if code is None and number is None:
            return _error(400, "bad_request", "give a code (/api/friend/<code>) or ?number=NNNNNN")
        if number is not None and len(number) > 32:
            number = number[:32]
        try:
            found = await hub().friends.lookup(
                client_address(request, settings.trusted_proxies), code, number
            )
        except Refusal as exc:
            return _error(429, exc.code, str(exc))
        return JSONResponse(found)

    web = Path(str(resources.files("erma").joinpath("web")))

    async def join_page(request: Request) -> Response:
        """``/join/<code>``: the client page (it reads the code from the path)."""
        page = web / "index.html"
        if not page.is_file():
            return _error(404, "not_found", "the web client is not installed")
        return FileResponse(page, headers={"Cache-Control": "no-cache"})

    routes: list[Any] = [
        Route("/healthz", healthz),
        Route("/metrics", metrics),
        *account_routes(state, settings),
        *rating_routes(state),
        Route("/api/me", me),
        Route("/api/relief", relief, methods=["POST"]),
        Route("/api/rooms", rooms_list),
        Route("/api/games", games),
        Route("/api/games/{id}", game),
        Route("/api/games/{id}/replay", game_replay),
        *review_routes(state, own_game_at_seat, reviewer, settings.review_wait_s),
        Route("/api/rules/{name}", rules_info),
        *tutorial_routes(),
        Route("/api/friend", friend_lookup),
        Route("/api/friend/{code}", friend_lookup),
        Route("/join/{code}", join_page),
        WebSocketRoute("/ws", ws_endpoint),
    ]
    if web.is_dir():
        worker = web / "sw.js"

        async def service_worker(request: Request) -> Response:
            """The web client's service worker from the root scope, checked for an update at every load."""
            return FileResponse(
                worker,
                media_type="text/javascript",
                headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"},
            )

        if worker.is_file():
            routes.append(Route("/sw.js", service_worker))
        routes.append(Mount("/", StaticFiles(directory=str(web), html=True), name="web"))
    handlers: dict[Any, Any] = {ErmaError: _erma_error}
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers=handlers,
        middleware=[
            Middleware(KeepTransport),  # outermost: the server's transport (a socket that reads nothing)
            Middleware(ForwardedProto, trusted=settings.trusted_proxies),  # first: the rest sees the scheme
            Middleware(SecurityHeaders),  # before the refusals: headers on them too
            Middleware(RefuseUrlTokens),
        ],
    )
    return app


def _record_id(text: str) -> int | Response:
    """A game id from a path (decimal, 1 … 2^63 − 1: what the database holds), or the error answer: 400 for
    what is not a number, 404 for a number no game can have."""
    if not (text.isascii() and text.isdigit()):
        return _error(400, "invalid_input", f"a game id is a number, not {text[:40]!r}")
    value = int(text) if len(text) <= 19 else 0
    if not 0 < value < 2**63:
        return _error(404, "not_found", f"no game {text[:40]}")
    return value


def metrics_text(h: Hub) -> str:
    """The Prometheus text of one process's gauges, counters and histograms."""
    backend = "redis" if h.backend.distributed else "local"
    lines = [
        "# TYPE erma_process_info gauge",
        f'erma_process_info{{pid="{h.backend.pid}",backend="{backend}"}} 1',
        "# TYPE erma_sockets gauge",
        f"erma_sockets {len(h.connections)}",
        "# TYPE erma_matches gauge",
        f"erma_matches {len(h.tables)}",
        "# TYPE erma_actions_per_second gauge",
        f"erma_actions_per_second {h.actions_per_second():.2f}",
    ]
    for key, gauge in sorted(h.backend.gauges().items()):
        lines += [f"# TYPE erma_{key} gauge", f"erma_{key} {gauge}"]
    for key, value in sorted({**h.metrics, **h.thinker.counters()}.items()):
        lines += [f"# TYPE erma_{key}_total counter", f"erma_{key}_total {value}"]
    lines += h.latency.lines("erma_action_latency_ms")
    lines += h.loop_lag.lines("erma_loop_lag_ms")
    lines.append(f"erma_uptime_seconds {time.time() - h.started:.0f}")
    return "\n".join(lines) + "\n"


def _metrics_responder(text: Any) -> Any:
    """A minimal HTTP responder for the separate metrics listener: ``GET /metrics`` and nothing else."""

    async def respond(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            line = await asyncio.wait_for(reader.readline(), 5)
            while (await asyncio.wait_for(reader.readline(), 5)) not in (b"\r\n", b"\n", b""):
                pass
            parts = line.split()
            ok = len(parts) >= 2 and parts[0] == b"GET" and parts[1].split(b"?")[0] == b"/metrics"
            body = text().encode() if ok else b"not found\n"
            status = b"200 OK" if ok else b"404 Not Found"
            writer.write(
                b"HTTP/1.1 " + status + b"\r\nContent-Type: text/plain; version=0.0.4\r\n"
                b"Content-Length: " + str(len(body)).encode() + b"\r\nConnection: close\r\n\r\n" + body
            )
            await writer.drain()
        except (TimeoutError, OSError, ValueError):
            pass
        finally:
            writer.close()

    return respond


class RefuseUrlTokens:
    """A session token in a URL ends up in logs and browser histories: any HTTP request whose query has a
    ``token`` is answered 400 ``token_in_url`` before a route sees it (websockets: Hub.serve_socket)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        query = scope.get("query_string", b"") if scope["type"] == "http" else b""
        if b"token" in query and "token" in parse_qs(query.decode("latin-1"), keep_blank_values=True):
            message = "send the session token in the Authorization header, never in the URL"
            await _error(400, "token_in_url", message)(scope, receive, send)
            return
        await self.app(scope, receive, send)


class RedactTokens(logging.Filter):
    """Blanks ``token=…`` in log lines (the access log writes every path with its query)."""

    PATTERN = re.compile(r"(token=)[^&\s\"]*", re.IGNORECASE)

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(
                self.PATTERN.sub(r"\1[redacted]", a) if isinstance(a, str) else a for a in record.args
            )
        if isinstance(record.msg, str):
            record.msg = self.PATTERN.sub(r"\1[redacted]", record.msg)
        return True


async def _erma_error(request: Request, exc: Exception) -> Response:
    return _error(400, "invalid_input", str(exc))


def _account(account: Any) -> dict[str, Any]:
    return {"id": account.id, "name": account.name, "guest": account.is_guest}


def _tune_gc() -> None:
    """What is alive once the server has started (modules, the schema, the rooms…) leaves the collector's
    scans for good, and collections run less often: a full collection walks every container a live table
    holds (each seat's message stream), and at 200 tables it stopped the event loop for 150–250 ms every few
    seconds. Tables hold no reference cycles of their own; reference counting frees them."""
    import gc

    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 50, 100)


def serve(settings: Settings) -> None:
    """Run the app with uvicorn until interrupted."""
    import uvicorn

    for name in ("uvicorn.access", "uvicorn.error"):
        logging.getLogger(name).addFilter(RedactTokens())
    if not logging.getLogger().handlers:  # structured per-match lines (erma.match) and warnings on stderr
        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    app = create_app(settings)
    uvicorn.run(
        app,
        host=settings.host,
        port=settings.port,
        ws="websockets-sansio",
        ws_per_message_deflate=False,
        ws_max_size=MAX_FRAME_BYTES,
        proxy_headers=False,  # X-Forwarded-For is read by erma.server.addresses, from trusted_proxies only
        log_level="info",
        lifespan="on",
        timeout_graceful_shutdown=max(1, round(settings.shutdown_grace_s)),
    )
