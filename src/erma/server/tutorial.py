"""The tutorial tables (新手教程): one room per taught preset, hidden from the room list, whose table deals
the fixed wall of :mod:`erma.teach.tutorial` against the greedy bot, for points only: like a points-only
friend table (erma.server.friends) it holds and moves no beans and changes no rating, so a newcomer's
guided hand costs nothing, won, lost or left (跳过教程).

The lobby offers it to a first-time guest; the client guides the person with ``GET /api/tutorial/{name}``
(the moves to point at, docs/web.md)."""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from erma.server.config import Room
from erma.teach.tutorial import SECRETS, script, tutorial_rules

PREFIX = "tutorial-"


def tutorial_rooms() -> dict[str, Room]:
    """The tutorial rooms by id (``tutorial-cuopai789``, ``tutorial-wenzhou2p``)."""
    out = {}
    for preset in SECRETS:
        rid = PREFIX + preset
        out[rid] = Room(
            id=rid,
            name_zh="新手教程",
            name_en="Tutorial",
            rules=tutorial_rules(preset),
            tier="tutorial",
            entry_min=0,
            bean_rate=0,  # points only: nothing is held, nothing moves (table.py, settlement.py)
            rated_hands=1,
            rated=False,
        )
    return out


def tutorial_of(room: Room) -> str | None:
    """The preset a tutorial room teaches; None for any other room."""
    return room.rules.name if room.tier == "tutorial" and room.id.startswith(PREFIX) else None


def fixed_secret(room: Room) -> str | None:
    """A tutorial room's match secret (its wall); None elsewhere."""
    preset = tutorial_of(room)
    return SECRETS[preset] if preset else None


def tutorial_routes() -> list[Route]:
    """``GET /api/tutorial/{name}``: the tutorial's room and the person's moves to point at (404 for a
    preset without a tutorial)."""

    async def tutorial_info(request: Request) -> Response:
        preset = request.path_params["name"]
        if preset not in SECRETS:
            return JSONResponse(
                {
                    "error": "not_found",
                    "message": f"no tutorial for {preset!r} (tutorials: {', '.join(SECRETS)})",
                },
                status_code=404,
            )
        return JSONResponse({"room": PREFIX + preset, **await run_in_threadpool(script, preset)})

    return [Route("/api/tutorial/{name}", tutorial_info)]
