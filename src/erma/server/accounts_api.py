"""The account endpoints (账户): guest, sign-up, login, guest upgrade, log out (one session or everywhere).

| Endpoint | Body | Answer |
|---|---|---|
| ``POST /api/guest`` | – | ``token``, ``account``, ``balance`` |
| ``POST /api/register`` | ``name``, ``password`` | the same, for a new named account |
| ``POST /api/login`` | ``name``, ``password`` | the same (401 ``bad_login``) |
| ``POST /api/upgrade`` | ``name``, ``password`` (a guest token) | ``account`` (same id), ``balance`` |
| ``POST /api/logout`` | – (a token) | ``{"ended": true}``: this token stops working |
| ``POST /api/logout_all`` | – (a token) | ``{"revoked": n}``: every token of the account stops working |
| ``POST /api/password`` | ``password``, ``new_password`` (a token) | ``token``: a new one; the others end |

A socket whose session ends (any of the last three, or expiry) is closed with 4401 "signed out"
(:mod:`erma.server.sessions`).

Sign-up (``register``, ``upgrade``) and ``login`` are rate-limited per client address and per name
(:mod:`erma.server.auth_limits`): 429 with ``{"error": "rate_limited", "limit": …, "retry_after": …}``.
Failed logins slow the (name, address) pair that fails, with growing waits, and past a ceiling per name the
addresses new to it (:mod:`erma.server.login_guard`): nobody can lock the owner out.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from erma.server.addresses import client_address
from erma.server.auth_limits import Limit, Limiter, Refused
from erma.server.config import Settings
from erma.server.login_guard import Backoff, LoginGuard
from erma.server.protocol import decode
from erma.store.accounts import name_key


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status)


def token_of(request: Request) -> str:
    """The session token of a request: ``Authorization: Bearer …`` only (a token in a URL is refused by the
    app before any route, docs/protocol.md)."""
    auth = request.headers.get("authorization", "")
    return auth[7:] if auth.lower().startswith("bearer ") else ""


class Credentials(BaseModel):
    """The body of ``register``, ``login`` and ``upgrade``: exactly ``name`` and ``password``, both strings
    (strict, as the websocket's messages: no other field, no number for a string)."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    name: str
    password: str


def _account(account: Any) -> dict[str, Any]:
    return {"id": account.id, "name": account.name, "guest": account.is_guest}


async def _credentials(request: Request) -> tuple[str, str]:
    body = await request.body()
    if len(body) > 4096:
        raise ValueError("request body too large")
    data = decode(body) if body else {}  # the protocol's limits (depth, numbers): a ValueError
    if not isinstance(data, dict):
        raise ValueError("the body must be a JSON object")
    try:
        given = Credentials.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "body"
        raise ValueError(f"{where}: {first['msg']}") from None
    return given.name, given.password


async def _password_change(request: Request) -> tuple[str, str]:
    body = await request.body()
    if len(body) > 4096:
        raise ValueError("request body too large")
    data = decode(body) if body else {}
    if not isinstance(data, dict):
        raise ValueError("the body must be a JSON object")
    for key in ("password", "new_password"):
        if not isinstance(data.get(key), str):
            raise ValueError(f"{key}: expected a string")
    return data["password"], data["new_password"]


def account_routes(
    state: dict[str, Any], settings: Settings, limiter: Limiter | None = None, guard: LoginGuard | None = None
) -> list[Route]:
    """The routes; ``state["store"]`` is the opened store (set at start-up)."""
    limiter = limiter or Limiter()
    window = settings.auth_window_s
    signup_addr = Limit(
        "signup_per_address", settings.signup_per_address, window, "sign-ups from this address"
    )
    signup_name = Limit("signup_per_name", settings.signup_per_name, window, "sign-ups for this name")
    login_addr = Limit("login_per_address", settings.login_per_address, window, "logins from this address")
    login_name = Limit("login_per_name", settings.login_per_name, window, "failed logins to this name")
    backoff = Backoff(settings.login_free_failures, settings.login_backoff_s, settings.login_backoff_max_s)
    guard = guard or LoginGuard(backoff, login_name, settings.login_slow_s)
    guest_addr = Limit(
        "guest_per_address", settings.guest_per_address, window, "guest accounts from this address"
    )

    def address(request: Request) -> str:
        return client_address(request, settings.trusted_proxies)

    async def session(st: Any, account: Any) -> Response:
        token = await st.new_session(account.id)
        return JSONResponse(
            {"token": token, "account": _account(account), "balance": await st.balance(account.id)}
        )

    async def guest(request: Request) -> Response:
        limiter.check((guest_addr, address(request)))
        st = state["store"]
        return await session(st, await st.create_guest())

    async def register(request: Request) -> Response:
        name, password = await _credentials(request)
        limiter.check((signup_addr, address(request)), (signup_name, name_key(name)))
        st = state["store"]
        answer = await session(st, await st.register(name, password))
        guard.succeeded(name_key(name), address(request))  # the owner's address is known to the name
        return answer

    async def login(request: Request) -> Response:
        name, password = await _credentials(request)
        key, where = name_key(name)[:64], address(request)  # names are at most 24 characters
        guard.admit(key, where)
        limiter.check((login_addr, where))
        st = state["store"]
        account = await st.login(name, password)
        if account is None:
            guard.failed(key, where)
            return _error(401, "bad_login", "wrong name or password")
        guard.succeeded(key, where)
        return await session(st, account)

    async def upgrade(request: Request) -> Response:
        st = state["store"]
        account = await st.account_for_session(token_of(request))
        if account is None:
            return _error(401, "not_authenticated", "a session token is needed")
        if not account.is_guest:
            return _error(400, "not_a_guest", f"{account.name} is already a named account")
        name, password = await _credentials(request)
        limiter.check((signup_addr, address(request)), (signup_name, name_key(name)))
        named = await st.upgrade_guest(account.id, name, password)
        guard.succeeded(name_key(name), address(request))
        return JSONResponse({"account": _account(named), "balance": await st.balance(named.id)})

    async def signed_out() -> None:
        """Close the sockets of the sessions just ended now: this process's, and (Redis) the others', which
        also find them at their next check."""
        hub = state.get("hub")
        if hub is not None:
            hub.sessions.poke()
            await hub.backend.announce_signout()

    async def logout(request: Request) -> Response:
        ended = await state["store"].end_session(token_of(request))
        if not ended:
            return _error(401, "not_authenticated", "no such session")
        await signed_out()
        return JSONResponse({"ended": True})

    async def logout_all(request: Request) -> Response:
        st = state["store"]
        account = await st.account_for_session(token_of(request))
        if account is None:
            return _error(401, "not_authenticated", "a session token is needed")
        revoked = await st.revoke_sessions(account.id)
        await signed_out()
        return JSONResponse({"revoked": revoked})

    async def password(request: Request) -> Response:
        st = state["store"]
        account = await st.account_for_session(token_of(request))
        if account is None:
            return _error(401, "not_authenticated", "a session token is needed")
        old, new = await _password_change(request)
        limiter.check((login_addr, address(request)), (login_name, name_key(account.name)))
        token = await st.change_password(account.id, old, new)
        if token is None:
            return _error(401, "bad_login", "wrong password")
        await signed_out()
        return JSONResponse({"token": token})

    def guarded(fn: Any) -> Any:
        async def endpoint(request: Request) -> Response:
            try:
                answer: Response = await fn(request)
                return answer
            except Refused as refused:
                return JSONResponse(
                    refused.body(), status_code=429, headers={"Retry-After": str(refused.retry_after)}
                )
            except (ValueError, json.JSONDecodeError) as exc:  # InvalidInputError, NameTakenError too
                code = "name_taken" if type(exc).__name__ == "NameTakenError" else "invalid_input"
                return _error(400, code, str(exc))

        return endpoint

    return [
        Route("/api/guest", guarded(guest), methods=["POST"]),
        Route("/api/register", guarded(register), methods=["POST"]),
        Route("/api/login", guarded(login), methods=["POST"]),
        Route("/api/upgrade", guarded(upgrade), methods=["POST"]),
        Route("/api/logout", guarded(logout), methods=["POST"]),
        Route("/api/logout_all", guarded(logout_all), methods=["POST"]),
        Route("/api/password", guarded(password), methods=["POST"]),
    ]
