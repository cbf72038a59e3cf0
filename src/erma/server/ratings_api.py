"""Leaderboards and profiles (排行榜 / 个人资料) over REST.

- ``GET /api/leaderboard/{family}`` (``standard`` | ``wenzhou``; ``?limit=`` 1–500, default 50): ``family``,
  ``players``, ``top`` (position, name, rank, rating with its 90% interval, matches, hands) and ``me`` — the
  caller's own row when a session token is sent (``null`` otherwise or if unrated).
- ``GET /api/players/{name}``: ``name``, ``guest``, ``families`` → per family the rank, the rating and its
  interval, ``matches``, ``hands``, ``hands_played``, ``wins``, ``win_rate``, ``average_fans``,
  ``deal_in_rate`` and ``history`` (rating after each of the last 200 rated hands, oldest first). 404 for an
  unknown name.
- ``GET /api/ladder``: the ladder's levels (names in both languages, thresholds).
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from erma.errors import InvalidInputError
from erma.ratings import LEVELS
from erma.server.accounts_api import token_of
from erma.server.protocol import decimal


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status)


def rating_routes(state: dict[str, Any]) -> list[Route]:
    """The routes; ``state["store"]`` is the opened store."""

    async def leaderboard(request: Request) -> Response:
        st = state["store"]
        raw = request.query_params.get("limit", "50")
        limit = decimal(raw, 1, 500)
        if limit is None:  # (int() would read " 5", "+5", "5_0" and "٥" as numbers)
            return _error(400, "invalid_input", f"limit {raw[:40]!r}: expected an int 1–500")
        token = token_of(request)
        account = await st.account_for_session(token) if token else None
        try:
            board = await st.leaderboard(
                request.path_params["family"], limit, account.id if account is not None else None
            )
        except InvalidInputError as exc:
            return _error(400, "invalid_input", str(exc))
        for row in [*board["top"], *([board["me"]] if board["me"] else [])]:
            row.pop("account_id", None)
        return JSONResponse(board)

    async def player(request: Request) -> Response:
        name = request.path_params["name"]
        found = await state["store"].profile(name)
        if found is None:
            return _error(404, "not_found", f"no player named {name!r}")
        return JSONResponse(found)

    async def ladder(request: Request) -> Response:
        return JSONResponse(
            {
                "levels": [
                    {
                        "tier": lv.tier,
                        "star": lv.star,
                        "name_zh": lv.zh,
                        "name_en": lv.en,
                        "threshold": lv.threshold,
                    }
                    for lv in LEVELS
                ]
            }
        )

    return [
        Route("/api/leaderboard/{family}", leaderboard),
        Route("/api/players/{name}", player),
        Route("/api/ladder", ladder),
    ]
