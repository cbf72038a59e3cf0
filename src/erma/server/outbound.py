"""Outbound messages (下行消息): every message the server sends a client, one class each, beside the inbound
ones of :mod:`erma.server.protocol` (docs/protocol.md documents both).

Each gives the exact JSON object sent with :meth:`to_dict`: its keys in their order, and the keys left out
when they do not apply. A match's messages get their ``match`` and version ``v`` as a seat's stream takes
them (:meth:`erma.server.streams.SeatStreams.post`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from erma.bots.registry import bot_level
from erma.game.result import HandResult
from erma.server.seats import SeatInfo


def players(seats: Sequence[SeatInfo]) -> list[dict[str, Any]]:
    """The seats as the messages show them: name, whether a bot, the bot's level (None for a person)."""
    return [
        {"name": s.name, "bot": s.is_bot, "level": bot_level(s.bot.name) if s.bot is not None else None}
        for s in seats
    ]


# ---------------------------------------------------------------------------------------------- lobby


@dataclass(frozen=True)
class Error:
    """错误 An error reply (``seq``: the action's it answers; ``match``: the match it concerns)."""

    code: str
    message: str
    seq: int | None = None
    match: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "error", "code": self.code, "message": self.message}
        if self.seq is not None:
            out["seq"] = self.seq
        if self.match is not None:
            out["match"] = self.match
        return out


@dataclass(frozen=True)
class Pong:
    """The answer to a ping, with the client's ``t``."""

    t: float | None

    def to_dict(self) -> dict[str, Any]:
        return {"type": "pong", "t": self.t}


@dataclass(frozen=True)
class Welcome:
    """欢迎 Signed in: the protocol's version, the account and its balance."""

    protocol: int
    account_id: int
    name: str
    guest: bool
    balance: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": "welcome",
            "protocol": self.protocol,
            "account": {"id": self.account_id, "name": self.name, "guest": self.guest},
            "balance": self.balance,
        }


@dataclass(frozen=True)
class Replaced:
    """The socket is closed because the account signed in on another one."""

    message: str

    def to_dict(self) -> dict[str, Any]:
        return {"type": "replaced", "message": self.message}


@dataclass(frozen=True)
class Rooms:
    """房间 The rooms (each as :meth:`erma.server.config.Room.public` shows it)."""

    rooms: list[dict[str, Any]]

    def to_dict(self) -> dict[str, Any]:
        return {"type": "rooms", "rooms": self.rooms}


@dataclass(frozen=True)
class Queued:
    """排队 In a room's queue; a bot takes the empty seat after ``bot_after_s``."""

    room: str
    bot_after_s: float

    def to_dict(self) -> dict[str, Any]:
        return {"type": "queued", "room": self.room, "bot_after_s": self.bot_after_s}


@dataclass(frozen=True)
class Cancelled:
    """Out of the queue."""

    def to_dict(self) -> dict[str, Any]:
        return {"type": "cancelled"}


@dataclass(frozen=True)
class MatchNotice:
    """对局 The player's match and seat: a new match (with the first hand's ``commitment``), or one resumed
    (``resumed``); the room, the players and the number of hands (``hands``: None for no limit) unless the
    match is owned by another process (``room`` None)."""

    match: str
    seat: int
    room: str | None = None
    players: list[dict[str, Any]] | None = None
    hands: int | None = None
    commitment: str | None = None
    resumed: bool = False

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "match", "match": self.match, "seat": self.seat}
        if self.room is not None:
            out.update({"room": self.room, "players": self.players, "hands": self.hands})
        if self.commitment is not None:
            out["commitment"] = self.commitment
        if self.resumed:
            out["resumed"] = True
        return out


# ---------------------------------------------------------------------------------------------- match


@dataclass(frozen=True)
class HandStart:
    """开局 A hand is dealt: its number, the seat, the deal's digest, the rules and the room."""

    hand_no: int
    seat: int
    digest: str
    rules: str
    room: str
    dealer: int | None = None
    """庄 The hand's dealer seat."""
    scores: list[int] | None = None
    """The match's running score (each seat's points) before this hand."""
    bean_rate: int | None = None
    """Beans a point at this table (0: points only — a points-only friend table, the tutorial)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": "hand_start",
            "hand_no": self.hand_no,
            "seat": self.seat,
            "digest": self.digest,
            "rules": self.rules,
            "room": self.room,
            "dealer": self.dealer,
            "scores": self.scores,
            "bean_rate": self.bean_rate,
        }


@dataclass(frozen=True)
class Event:
    """事件 An engine event as the seat may see it (with the seat's own event number ``v``)."""

    event: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {"type": "event", "event": self.event}


@dataclass(frozen=True)
class View:
    """视图 The seat's view of the hand."""

    view: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {"type": "view", "view": self.view}


@dataclass(frozen=True)
class Snapshot:
    """快照 The seat's view after a reconnection or a resync, at version ``v`` of its stream."""

    match: str
    v: int
    view: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {"type": "snapshot", "match": self.match, "v": self.v, "view": self.view}


@dataclass(frozen=True)
class Ack:
    """确认 An action applied (``dup``: a retry of one already applied, nothing applied again)."""

    match: str
    seq: int
    dup: bool = False

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "ack", "match": self.match, "seq": self.seq}
        if self.dup:
            out["dup"] = True
        return out


@dataclass(frozen=True)
class HandEnd:
    """终局 A hand's end: its result, the revealed seed, the record, the beans and the scores, the deal's
    proof (``proof``: the server's part, its commitment and the contributions, or nothing) and the next
    hand's commitment (None when the match ends)."""

    result: HandResult
    seed: str
    salt: str
    digest: str
    record_id: Any
    balances: list[int]
    beans: list[int]
    bean_rate: int
    scores: list[int]
    proof: dict[str, Any]
    next_commitment: str | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": "hand_end",
            "result": self.result.to_json(),
            "seed": self.seed,
            "salt": self.salt,
            "digest": self.digest,
            "record_id": self.record_id,
            "balances": self.balances,
            "beans": self.beans,
            "bean_rate": self.bean_rate,
            "scores": self.scores,
            **self.proof,
            "next_commitment": self.next_commitment,
        }


@dataclass(frozen=True)
class MatchEnd:
    """终场 The match is over: the scores and the number of hands played; each hand's line (``lines``: its
    number, winner, how it ended — ``self_draw``, ``discard``, ``draw`` or ``escape`` — and points), the beans
    each seat won or lost over the match, the rating change of each person in a rated match (``rating``,
    None for a bot or an unrated match), the winner (None: level) and whether it was a friend table's."""

    scores: list[int]
    hands: int
    lines: list[dict[str, Any]] = field(default_factory=list)
    beans: list[int] = field(default_factory=lambda: [0, 0])
    rating: list[dict[str, float] | None] = field(default_factory=lambda: [None, None])
    winner: int | None = None
    friend: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": "match_end",
            "scores": self.scores,
            "hands": self.hands,
            "lines": self.lines,
            "beans": self.beans,
            "rating": self.rating,
            "winner": self.winner,
            "friend": self.friend,
        }


@dataclass(frozen=True)
class DbWait:
    """数据库重连 The table waits for the database (``waiting``: true) or has it back (false): its clocks
    stand still meanwhile. Not part of the seat's stream (no ``v``): a state, sent to the connected seats."""

    match: str
    waiting: bool

    def to_dict(self) -> dict[str, Any]:
        return {"type": "db_wait", "match": self.match, "waiting": self.waiting}


@dataclass(frozen=True)
class Away:
    """对手离线 The opponent's socket closed: it has ``deadline_ms`` (counted from when this message
    reaches the seat, after any pause) of its ``grace_s`` reconnect grace left; then auto-play (托管) plays
    its moves until it is back, and if still away when the hand ends it forfeits the hand."""

    seat: int
    deadline_ms: int
    grace_s: float

    def to_dict(self) -> dict[str, Any]:
        return {"type": "away", "seat": self.seat, "deadline_ms": self.deadline_ms, "grace_s": self.grace_s}


@dataclass(frozen=True)
class Back:
    """对手回来 The opponent that was away is back on a socket (its auto-play ends)."""

    seat: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "back", "seat": self.seat}


# -------------------------------------------------------------------------------------- friend tables


@dataclass(frozen=True)
class Friend:
    """好友房 The player's friend table: its invite (``code``, ``number``, ``url``), settings, expiry (None
    once both are seated), the player's seat, the players so far (None: an empty seat) and the host's
    seat."""

    code: str
    number: str
    rules: str
    hands: int
    stakes: str
    room: str | None
    bean_rate: int
    expires_at: float | None
    seat: int
    players: list[dict[str, Any] | None]
    host: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": "friend",
            "code": self.code,
            "number": self.number,
            "url": f"/join/{self.code}",
            "rules": self.rules,
            "hands": self.hands,
            "stakes": self.stakes,
            "room": self.room,
            "bean_rate": self.bean_rate,
            "expires_at": self.expires_at,
            "seat": self.seat,
            "players": self.players,
            "host": self.host,
        }


@dataclass(frozen=True)
class FriendClosed:
    """The friend table went before a match: ``cancelled`` (by a player) or ``expired``."""

    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {"type": "friend_closed", "reason": self.reason}


@dataclass(frozen=True)
class RematchWant:
    """再来一局 Who has asked for a rematch so far, by seat."""

    want: list[bool]

    def to_dict(self) -> dict[str, Any]:
        return {"type": "rematch", "want": self.want}


@dataclass(frozen=True)
class Chat:
    """快捷语 A quick-chat phrase from seat ``seat`` (to both seats; no stream version, never recorded)."""

    seat: int
    phrase: str

    def to_dict(self) -> dict[str, Any]:
        return {"type": "chat", "seat": self.seat, "phrase": self.phrase}
