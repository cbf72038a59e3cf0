"""The websocket protocol (协议): typed client messages in one envelope, one parser, error replies.

Every client message is a JSON object with a ``type``; actions carry a per-match ``seq`` that the server
acknowledges (a retried seq is acknowledged again and not applied twice). Every server message is a JSON
object with a ``type``; messages about a match carry its id and the seat stream's version ``v``.
docs/protocol.md documents every message.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

PROTOCOL_VERSION = 1
MAX_MESSAGE_BYTES = 8192
"""Larger client messages are refused with an error (the connection stays open)."""


class _Msg(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Hello(_Msg):
    """Authenticate the socket with a session token; ``resume`` maps match ids to the last version seen."""

    type: Literal["hello"]
    token: str = Field(min_length=1, max_length=200)
    resume: dict[str, int] = Field(default_factory=dict, max_length=8)


class Rooms(_Msg):
    """Ask for the room list."""

    type: Literal["rooms"]


class Queue(_Msg):
    """Join a room's queue: ``any`` opponent (a person, or a bot after a short wait) or a ``bot`` at once."""

    type: Literal["queue"]
    room: str = Field(min_length=1, max_length=64)
    opponent: Literal["any", "bot"] = "any"
    level: int | None = Field(default=None, ge=1, le=5)
    """With ``opponent="bot"``: the bot's level (1–5); None: the room's ``bot_level``."""


class Cancel(_Msg):
    """Leave the queue."""

    type: Literal["cancel"]


class Act(_Msg):
    """Play an action in a match (text form, e.g. ``discard 5m``); ``seq`` increases per match."""

    type: Literal["action"]
    match: str = Field(min_length=1, max_length=64)
    seq: int = Field(ge=0, le=10**9)
    action: str = Field(min_length=1, max_length=64)


class Resync(_Msg):
    """Send me what I missed after version ``version`` of a match, then a snapshot."""

    type: Literal["resync"]
    match: str = Field(min_length=1, max_length=64)
    version: int = Field(ge=-1, le=10**9)


class Autoplay(_Msg):
    """Turn auto-play (托管) on or off for oneself."""

    type: Literal["autoplay"]
    match: str = Field(min_length=1, max_length=64)
    on: bool


class Leave(_Msg):
    """Leave the match (during a hand this is an escape, 逃跑)."""

    type: Literal["leave"]
    match: str = Field(min_length=1, max_length=64)


class Next(_Msg):
    """Confirm the next hand."""

    type: Literal["next"]
    match: str = Field(min_length=1, max_length=64)


class Ping(_Msg):
    """Keep-alive; answered with pong (and the client's ``t``)."""

    type: Literal["ping"]
    t: float | None = None


ClientMessage = Annotated[
    Hello | Rooms | Queue | Cancel | Act | Resync | Autoplay | Leave | Next | Ping,
    Field(discriminator="type"),
]
_ADAPTER: TypeAdapter[Any] = TypeAdapter(ClientMessage)
KNOWN_TYPES = ("hello", "rooms", "queue", "cancel", "action", "resync", "autoplay", "leave", "next", "ping")


class ProtocolError(ValueError):
    """A client message that cannot be read: ``code`` and a message naming what was wrong."""

    def __init__(self, code: str, message: str, seq: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.seq = seq


def parse_message(raw: str | bytes) -> Any:
    """Read one client message; raises ProtocolError (never anything else) for a bad one."""
    if len(raw) > MAX_MESSAGE_BYTES:
        raise ProtocolError("too_large", f"message of {len(raw)} bytes; the limit is {MAX_MESSAGE_BYTES}")
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ProtocolError("bad_json", f"not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", "a message is a JSON object with a 'type'")
    kind = data.get("type")
    if kind not in KNOWN_TYPES:
        raise ProtocolError("unknown_type", f"unknown message type {kind!r}; types: {', '.join(KNOWN_TYPES)}")
    try:
        return _ADAPTER.validate_python(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"][1:]) or "message"
        seq = data.get("seq") if isinstance(data.get("seq"), int) else None
        raise ProtocolError("bad_message", f"{kind}: {where}: {first['msg']}", seq) from None


def parse_object(data: dict[str, Any]) -> Any:
    """Read a client message already decoded (one forwarded by another server process)."""
    return _ADAPTER.validate_python(data)


def error(code: str, message: str, seq: int | None = None, match: str | None = None) -> dict[str, Any]:
    """An error reply."""
    out: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if seq is not None:
        out["seq"] = seq
    if match is not None:
        out["match"] = match
    return out
