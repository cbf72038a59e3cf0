"""The ASGI app (服务器): websocket game protocol, a small REST API, the web client, health and metrics."""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import time
from collections.abc import AsyncIterator
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from erma.errors import ErmaError
from erma.server.accounts_api import account_routes
from erma.server.config import Settings, load_rooms
from erma.server.hub import Hub
from erma.server.ratings_api import rating_routes


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status)


async def _json(request: Request) -> dict[str, Any]:
    body = await request.body()
    if len(body) > 4096:
        raise ValueError("request body too large")
    if not body:
        return {}
    data = json.loads(body)
    if not isinstance(data, dict):
        raise ValueError("the body must be a JSON object")
    return data


def create_app(settings: Settings | None = None, store: Any = None) -> Starlette:
    """The app; ``store`` (an opened erma.store.Store) may be given, else it is opened at start-up."""
    settings = settings or Settings()
    rooms = load_rooms(settings.rooms_file)  # validated before anything starts
    state: dict[str, Any] = {"ready": False}

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
            from erma.server.redis_backend import RedisBackend

            backend = RedisBackend(settings.redis_url, settings)
        hub = Hub(settings, rooms, st, backend)
        await hub.start()
        if settings.gc_tuning:
            _tune_gc()
        state["hub"] = hub
        state["store"] = st
        state["ready"] = True
        try:
            yield
        finally:
            state["ready"] = False
            await hub.stop()
            if own:
                await st.close()

    def hub() -> Hub:
        h: Hub = state["hub"]
        return h

    async def account_of(request: Request) -> Any:
        auth = request.headers.get("authorization", "")
        token = auth[7:] if auth.lower().startswith("bearer ") else request.query_params.get("token", "")
        if not token:
            return None
        return await state["store"].account_for_session(token)

    async def healthz(request: Request) -> Response:
        if not state["ready"]:
            return PlainTextResponse("starting", status_code=503)
        return PlainTextResponse("ok")

    async def metrics(request: Request) -> Response:
        h = hub()
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
        return PlainTextResponse("\n".join(lines) + "\n", media_type="text/plain; version=0.0.4")

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
        return JSONResponse({"rooms": [r.public() for r in rooms.values()]})

    async def games(request: Request) -> Response:
        account = await account_of(request)
        if account is None:
            return _error(401, "not_authenticated", "a session token is needed")
        return JSONResponse({"games": await state["store"].list_games(account.id)})

    async def game(request: Request) -> Response:
        account = await account_of(request)
        if account is None:
            return _error(401, "not_authenticated", "a session token is needed")
        try:
            record_id = int(request.path_params["id"])
        except ValueError:
            return _error(400, "invalid_input", "a game id is a number")
        stored = await state["store"].get_record(record_id)
        if stored is None or account.id not in stored["account_ids"]:
            return _error(404, "not_found", f"no game {record_id} of yours")
        return JSONResponse({**stored["record"], "id": stored["id"], "created": stored["created"]})

    async def game_replay(request: Request) -> Response:
        """The hand re-played by the engine, one seat view per step (docs/protocol.md)."""
        from erma.errors import InvalidRecordError
        from erma.server.review import replay_steps

        account = await account_of(request)
        if account is None:
            return _error(401, "not_authenticated", "a session token is needed")
        try:
            record_id = int(request.path_params["id"])
        except ValueError:
            return _error(400, "invalid_input", "a game id is a number")
        stored = await state["store"].get_record(record_id)
        if stored is None or account.id not in stored["account_ids"]:
            return _error(404, "not_found", f"no game {record_id} of yours")
        seat_text = request.query_params.get("seat")
        if seat_text is None:
            seat = stored["account_ids"].index(account.id)
        elif seat_text in ("0", "1"):
            seat = int(seat_text)
        else:
            return _error(400, "invalid_input", f"seat {seat_text!r} is not 0 or 1")
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
        try:
            return JSONResponse(rules_page(name))
        except KeyError:
            return _error(404, "not_found", f"no rule set {name!r}")

    async def ws_endpoint(websocket: WebSocket) -> None:
        await hub().serve_socket(websocket)

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
        Route("/api/rules/{name}", rules_info),
        WebSocketRoute("/ws", ws_endpoint),
    ]
    web = Path(str(resources.files("erma").joinpath("web")))
    if web.is_dir():
        routes.append(Mount("/", StaticFiles(directory=str(web), html=True), name="web"))
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers={ErmaError: _erma_error})
    return app


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
    import logging

    import uvicorn

    if not logging.getLogger().handlers:  # structured per-match lines (erma.match) and warnings on stderr
        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    app = create_app(settings)
    uvicorn.run(
        app,
        host=settings.host,
        port=settings.port,
        ws="websockets-sansio",
        ws_per_message_deflate=False,
        log_level="info",
        lifespan="on",
        timeout_graceful_shutdown=max(1, round(settings.shutdown_grace_s)),
    )
