"""What goes between the server processes through Redis (线路): a seat's stand-in for a socket held by
another process, a relayed socket, the publications' encoding."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Protocol

from erma.server.ports import OwnedTable, Socket


class Publisher(Protocol):
    """Where a remote seat's messages are published (the Redis backend's writer)."""

    def publish_text(self, pid: str, data: str, table: OwnedTable | None = None) -> None:
        """Queue a publication to a process."""


def dumps(data: Any) -> str:
    """JSON as published and stored (compact, UTF-8 as it is)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def in_pipe(pipe: Any, script: Any, keys: list[Any], args: list[Any]) -> None:
    """Queue a script call in a pipeline (the pipeline loads the script if Redis does not have it)."""
    pipe.scripts.add(script)
    pipe.evalsha(script.sha, len(keys), *keys, *args)


class RemoteSeat:
    """The stand-in for a player's socket held by another process: what the table sends it is published to
    that process, which relays it to the socket."""

    def __init__(self, backend: Publisher, pid: str, cid: str, match: str, seat: int) -> None:
        self.backend, self.pid, self.cid, self.match, self.seat = backend, pid, cid, match, seat

    def send(self, message: dict[str, Any]) -> None:
        """Publish a seat message to the relaying process."""
        self.backend.publish_text(self.pid, self.envelope(message, dumps(message)))

    def envelope(self, message: dict[str, Any], text: str) -> str:
        """What is published for a seat message (its JSON ``text``): ``{"k":"out"``, the match, the seat, the
        socket, the message's ``v`` and type, and last ``"msg":`` the text as it is, which the relay sends on
        without decoding it (see :func:`received`)."""
        head = {"k": "out", "m": self.match, "s": self.seat, "cid": self.cid}
        head["v"], head["t"] = message.get("v"), message.get("type")
        return dumps(head)[:-1] + ',"msg":' + text + "}"


@dataclass
class Relay:
    """A socket here playing a match owned elsewhere: the last version it was sent."""

    conn: Socket
    match: str
    seat: int
    last: int


def received(data: str) -> dict[str, Any]:
    """A publication as a dict. A seat message's (``{"k":"out",`` … ``"msg":`` its text ``}``) is not decoded
    whole: its header is, and the text is kept as ``text`` (the ``msg`` key is the envelope's last; nothing in
    the header before it can contain ``,"msg":``). An envelope from a process of an earlier version (no ``v``,
    ``t`` in the header) has them read from the message."""
    if not data.startswith('{"k":"out",'):
        return json.loads(data)  # type: ignore[no-any-return]
    at = data.index(',"msg":')
    d: dict[str, Any] = json.loads(data[:at] + "}")
    d["text"] = data[at + 7 : -1]
    if "t" not in d:
        message = json.loads(d["text"])
        d["v"], d["t"] = message.get("v"), message.get("type")
    return d
