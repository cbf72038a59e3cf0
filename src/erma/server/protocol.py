"""The websocket protocol (协议): typed client messages in one envelope, one parser (the server's messages
are in :mod:`erma.server.outbound`).

Every client message is a JSON object with a ``type``; actions carry a per-match ``seq`` that the server
acknowledges (a retried seq is acknowledged again and not applied twice). Every server message is a JSON
object with a ``type``; messages about a match carry its id and the seat stream's version ``v``.
docs/protocol.md documents every message.
"""

from __future__ import annotations

import json
import math
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    model_validator,
)
from pydantic_core import PydanticCustomError

from erma.errors import ErmaError
from erma.game.actions import Action

PROTOCOL_VERSION = 1
MAX_MESSAGE_BYTES = 8192
"""Larger client messages are refused with an error (the connection stays open)."""
MAX_DEPTH = 8
"""The deepest nesting of arrays and objects a client message may have (the deepest valid one has 2)."""
MAX_NUMBER_CHARS = 24
"""The longest number a client message may hold (more digits than any valid field needs)."""


ENTROPY = r"^[0-9a-f]{1,64}$"
"""A player's contribution to a hand's seed: up to 64 lowercase hex digits (32 random bytes)."""


class _Msg(BaseModel):
    """Strict (严格): a field takes only its own JSON type — no ``"3"`` for 3, no ``true`` for 1, no ``1`` for
    ``true``, no ``3.0`` for an integer — and no field the message type does not have."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


def canonical_action(text: str) -> str:
    """An action's text must be written as the server writes it (``Action.to_str``): canonical mpsz tiles,
    one space between words, no padding (``" discard 7p "``, ``"discard  7p"``, ``"discard B7"`` are
    refused, naming the form to send). Text that is no action at all passes: the table answers it with
    ``illegal_action``, listing what is legal."""
    try:
        canonical = Action.parse(text).to_str()
    except ErmaError:
        return text
    if canonical != text:
        raise PydanticCustomError(
            "canonical_action",
            "{text} is not written in canonical form; send {canonical}",
            {"text": json.dumps(text, ensure_ascii=False), "canonical": json.dumps(canonical)},
        )
    return text


class Hello(_Msg):
    """Authenticate the socket with a session token; ``resume`` maps match ids to the last version seen."""

    type: Literal["hello"]
    token: str = Field(min_length=1, max_length=200)
    entropy: str | None = Field(default=None, pattern=ENTROPY)
    """A fallback share of the first hand's seed (one sent with ``next`` after ``match`` counts instead)."""
    resume: dict[Annotated[str, Field(max_length=64)], Annotated[int, Field(ge=-1, le=10**9)]] = Field(
        default_factory=dict, max_length=8
    )


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
    action: Annotated[str, Field(min_length=1, max_length=64), AfterValidator(canonical_action)]
    hand: int | None = Field(default=None, ge=1, le=10**9)
    """The hand it is played in (``view.hand_no``); refused as ``stale`` in another. None: not checked."""
    decision: int | None = Field(default=None, ge=0, le=10**9)
    """The decision it answers (``view.decision``, + i for the i-th of several sent together): refused as
    ``stale`` once that decision was taken (by this seat or by auto-play). None: not checked."""


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
    """Confirm the next hand (or, right after ``match``, the first), with this seat's share of its seed."""

    type: Literal["next"]
    match: str = Field(min_length=1, max_length=64)
    entropy: str | None = Field(default=None, pattern=ENTROPY)
    hand: int | None = Field(default=None, ge=1, le=10**9)
    """The hand it confirms (1 after ``match``, k + 1 after hand k's ``hand_end``): refused as ``stale`` when
    that is not the next hand. With or without it, a ``next`` counts only between hands."""


class Review(_Msg):
    """Between hands: this seat is looking at a replay or a review (``on``) or is back (``off``); the clock to
    the next hand stands still meanwhile (at most ``review_hold_s`` a break)."""

    type: Literal["review"]
    match: str = Field(min_length=1, max_length=64)
    on: bool


class Ping(_Msg):
    """Keep-alive; answered with pong (and the client's ``t``)."""

    type: Literal["ping"]
    t: float | None = Field(default=None, allow_inf_nan=False)


def _match_length(hands: int) -> int:
    """A friend table's match length: 4, 8 or 16 hands (an integer: not ``4.0``, which a Literal takes)."""
    if hands not in (4, 8, 16):
        raise PydanticCustomError("hands", "Input should be 4, 8 or 16")
    return hands


class FriendCreate(_Msg):
    """Open a friend table (好友房) and sit at it: a rule preset, 4, 8 or 16 hands, points only or beans (at
    the rate of ``room``, a bean room of the preset; default its first)."""

    type: Literal["friend_create"]
    rules: str = Field(min_length=1, max_length=32)
    hands: Annotated[int, AfterValidator(_match_length)]
    stakes: Literal["points", "beans"] = "points"
    room: str | None = Field(default=None, min_length=1, max_length=64)

    @model_validator(mode="after")
    def _room_with_beans(self) -> FriendCreate:
        if self.room is not None and self.stakes != "beans":
            raise PydanticCustomError("room_without_beans", 'room is only for stakes "beans"')
        return self


class FriendJoin(_Msg):
    """Sit at a friend table by its invite ``code`` or its 6-digit ``number`` (one of them)."""

    type: Literal["friend_join"]
    code: str | None = Field(default=None, pattern=r"^[A-Za-z0-9_-]{16}$")
    number: str | None = Field(default=None, pattern=r"^[1-9][0-9]{5}$")

    @model_validator(mode="after")
    def _one_of(self) -> FriendJoin:
        if (self.code is None) == (self.number is None):
            raise PydanticCustomError("code_or_number", "send either code or number")
        return self


class FriendCancel(_Msg):
    """Close one's friend table: the host before its match starts, or either player between matches."""

    type: Literal["friend_cancel"]


class Rematch(_Msg):
    """再来一局: after a friend table's match ended, ask for another with the same settings."""

    type: Literal["rematch"]


ChatPhrase = Literal["hurry", "well_played", "again", "thanks", "oops", "smile", "cry", "angry", "thumbs"]
"""The quick-chat phrases and faces (快捷语): 快点吧, 打得好, 再来一局, 谢谢, 哎呀, and four faces."""


class Chat(_Msg):
    """A quick-chat phrase to the opponent (no free text); at most one per ``chat_interval_s``."""

    type: Literal["chat"]
    phrase: ChatPhrase


ClientMessage = Annotated[
    Hello
    | Rooms
    | Queue
    | Cancel
    | Act
    | Resync
    | Autoplay
    | Leave
    | Next
    | Review
    | Ping
    | FriendCreate
    | FriendJoin
    | FriendCancel
    | Rematch
    | Chat,
    Field(discriminator="type"),
]
_ADAPTER: TypeAdapter[Any] = TypeAdapter(ClientMessage)
KNOWN_TYPES = (
    "hello",
    "rooms",
    "queue",
    "cancel",
    "action",
    "resync",
    "autoplay",
    "leave",
    "next",
    "review",
    "ping",
    "friend_create",
    "friend_join",
    "friend_cancel",
    "rematch",
    "chat",
)
LOBBY_TYPES = (FriendCreate, FriendJoin, FriendCancel, Rematch, Chat)
"""The messages about a friend table or a chat, which name no match (the hub handles them)."""


def decimal(text: str, low: int, high: int) -> int | None:
    """A query parameter's integer in ``low`` … ``high``, written canonically — ASCII digits, no sign, no
    padding, no ``_``, no leading zero (``" 5"``, ``"+5"``, ``"5_0"``, ``"05"``, ``"٥"`` are not 5) — else
    None."""
    if not (text.isascii() and text.isdigit()) or len(text) > 18 or str(int(text)) != text:
        return None
    value = int(text)
    return value if low <= value <= high else None


class ProtocolError(ValueError):
    """A client message that cannot be read: ``code`` and a message naming what was wrong."""

    def __init__(self, code: str, message: str, seq: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.seq = seq


def _depth(text: str) -> int:
    """The deepest nesting of arrays and objects in a JSON text (brackets inside strings not counted)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def _number(text: str) -> None:
    if len(text) > MAX_NUMBER_CHARS:
        limit = MAX_NUMBER_CHARS
        raise ProtocolError("bad_json", f"a number of {len(text)} characters; the limit is {limit}")


def _parse_int(text: str) -> int:
    _number(text)
    return int(text)


def _parse_float(text: str) -> float:
    _number(text)
    value = float(text)
    if not math.isfinite(value):
        raise ProtocolError("bad_json", f"the number {text} is out of range")
    return value


def _parse_constant(text: str) -> Any:
    raise ProtocolError("bad_json", f"{text} is not a JSON number")


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys are all different (``{"seq": 1, "seq": true}`` means nothing: refused)."""
    out = dict(pairs)
    if len(out) != len(pairs):
        twice = next(k for i, (k, _) in enumerate(pairs) if any(k == j for j, _ in pairs[:i]))
        raise ProtocolError("bad_json", f"the key {json.dumps(twice, ensure_ascii=False)[:60]} appears twice")
    return out


def decode(raw: str | bytes) -> Any:
    """Decode a client message's JSON within the limits: size, nesting depth, number length, finite
    numbers, valid Unicode (no lone surrogates). Raises ProtocolError (never anything else)."""
    if len(raw) > MAX_MESSAGE_BYTES:
        raise ProtocolError("too_large", f"message of {len(raw)} bytes; the limit is {MAX_MESSAGE_BYTES}")
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        text.encode("utf-8")  # lone surrogates in the text itself
    except UnicodeError:
        raise ProtocolError("bad_json", "not JSON: the message is not valid UTF-8") from None
    if _depth(text) > MAX_DEPTH:
        raise ProtocolError("bad_json", f"nested deeper than {MAX_DEPTH} levels")
    try:
        data = json.loads(
            text,
            parse_int=_parse_int,
            parse_float=_parse_float,
            parse_constant=_parse_constant,
            object_pairs_hook=_object,
        )
        # a lone surrogate written as an escape (\\ud800) cannot be sent back in an error
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except json.JSONDecodeError as exc:
        raise ProtocolError("bad_json", f"not JSON: {exc}") from None
    except UnicodeError:
        raise ProtocolError("bad_json", "a string holds a lone surrogate (not valid Unicode)") from None
    except RecursionError:  # cannot happen after the depth check; refused all the same
        raise ProtocolError("bad_json", f"nested deeper than {MAX_DEPTH} levels") from None
    return data


def parse_message(raw: str | bytes) -> Any:
    """Read one client message; raises ProtocolError (never anything else) for a bad one."""
    data = decode(raw)
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", "a message is a JSON object with a 'type'")
    kind = data.get("type")
    if kind not in KNOWN_TYPES:
        raise ProtocolError("unknown_type", f"unknown message type {kind!r}; types: {', '.join(KNOWN_TYPES)}")
    try:
        return _ADAPTER.validate_python(data)
    except ValidationError as exc:
        raise _refusal(kind, data, exc) from None


def _refusal(kind: str, data: dict[str, Any], exc: ValidationError) -> ProtocolError:
    """The ``bad_message`` error of a message that failed its fields: the first field named, with what it
    held (e.g. ``queue: level: Input should be a valid integer (got "3")``), and its ``seq`` if it had one."""
    first = exc.errors()[0]
    where = ".".join(str(p) for p in first["loc"][1:]) or "message"
    text = first["msg"]
    if first["type"] not in ("missing", "extra_forbidden", "canonical_action") and where != "token":
        got = json.dumps(first["input"], ensure_ascii=False)
        text += f" (got {got if len(got) <= 40 else got[:37] + '...'})"
    seq = data.get("seq")
    return ProtocolError("bad_message", f"{kind}: {where}: {text}", seq if _is_int(seq) else None)


def _is_int(value: Any) -> bool:
    """An integer as JSON has it (``true`` is not one, though Python's bool is an int)."""
    return isinstance(value, int) and not isinstance(value, bool)


def parse_object(data: dict[str, Any]) -> Any:
    """Read a client message already decoded (one forwarded by another server process)."""
    return _ADAPTER.validate_python(data)
