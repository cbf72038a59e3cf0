"""The Redis backend's writer (日志): a match's log and its seats' streams stored in order, one fenced write
at a time, and nothing delivered to a player before what was logged before it is stored."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from redis.exceptions import RedisError

from erma.server.backends.base import Fenced, match_log
from erma.server.backends.redis.queues import RedisQueues
from erma.server.backends.redis.wire import RemoteSeat, dumps
from erma.server.ports import OwnedTable

log = logging.getLogger("erma.redis")


class RedisLog(RedisQueues):
    """The owner's writes: logs, streams, publications and deliveries, queued and stored in order."""

    def log(self, table: OwnedTable, entry: dict[str, Any]) -> None:
        if not (table.dirty or table.fenced):
            self._queue("xadd", table, (1, f"{len(table.entries)}-0", dumps(entry)))

    def log_seat(self, table: OwnedTable, seat: int, message: dict[str, Any]) -> None:
        if not (table.dirty or table.fenced):
            text = dumps(message)
            texts = self._texts
            texts[id(message)] = (message, text)
            if len(texts) > 8192:  # never delivered (the seat was away): forget the oldest
                del texts[next(iter(texts))]
            self._queue("xadd", table, (2 + seat, f"{message['v'] + 1}-0", text))

    def deliver(self, table: OwnedTable, conn: Any, message: dict[str, Any]) -> None:
        got = self._texts.pop(id(message), None)
        text = got[1] if got is not None and got[0] is message else None
        if isinstance(conn, RemoteSeat):  # published after the stream writes queued before it
            data = conn.envelope(message, dumps(message) if text is None else text)
            self.publish_text(conn.pid, data, table)
        elif text is not None and hasattr(conn, "send_text"):  # sent once the writes before it are stored
            self._queue("send", table, (conn, text))
        else:
            self._queue("send", table, (conn, message))
        if table.starts_clock(message):  # a decision's view, a hand_end: its clock starts as it goes out
            self._queue("sent", table, message)

    def publish(self, pid: str, data: dict[str, Any]) -> None:
        """Queue a message to a process (in order with the stream writes)."""
        self.publish_text(pid, dumps(data))

    def publish_text(self, pid: str, data: str, table: OwnedTable | None = None) -> None:
        """Queue a publication to a process, after the stream writes queued before it (and dropped if it is
        ``table``'s and a newer owner fences it)."""
        self._queue("pub", table, (self.k("p", pid), data))

    async def barrier(self, table: OwnedTable) -> None:
        deadline = time.monotonic() + 10
        while True:
            await self._flush()
            if table.fenced:
                raise Fenced(f"match {table.id}: a newer owner holds it")
            if not table.dirty or time.monotonic() > deadline:
                return
            await asyncio.sleep(0.1)  # Redis away: the log is stored again before any bean moves

    # ---------------------------------------------------------------------------- writer

    def _queue(self, kind: str, table: OwnedTable | None, args: Any) -> None:
        self._ops.append((kind, table, args))
        self._wake.set()

    async def _flush(self) -> None:
        """Wait until everything queued so far has been sent."""
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue("fut", None, fut)
        await fut

    async def _write_loop(self) -> None:
        """Send whatever is queued, one write at a time (order kept)."""
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._ops:
                if len(self._ops) <= 3000:
                    batch, self._ops = self._ops, []
                else:
                    batch, self._ops = self._ops[:3000], self._ops[3000:]
                await self._write(batch)

    async def _write(self, batch: list[tuple[str, Any, Any]]) -> None:
        """Store a batch in one call of the write script (each match's entries behind one check of its fence,
        then the publications), then deliver its messages: nothing reaches a player before the entries queued
        before it are stored, and nothing of a fenced match reaches anyone."""
        groups: dict[OwnedTable, list[Any]] = {}
        pubs: list[tuple[OwnedTable | None, str, str]] = []
        cmds = []
        for kind, table, args in batch:
            if kind == "xadd":
                groups.setdefault(table, []).extend(args)
            elif kind == "pub":
                if table is not None:
                    groups.setdefault(table, [])  # its fence is checked too
                pubs.append((table, *args))
            elif kind == "cmd":
                cmds.append(args)
        results: dict[OwnedTable, int] = {}
        if groups or pubs:
            keys, argv = self._write_args(groups, pubs)
            try:
                results = dict(zip(groups, await self._write_script(keys=keys, args=argv), strict=True))
            except (RedisError, OSError) as exc:
                log.warning("redis write failed (%s); the matches are stored again when it is back", exc)
                self.connected_to_redis = False
                for table, entries in groups.items():
                    if entries:
                        table.dirty = True
        if cmds:
            with contextlib.suppress(RedisError, OSError):
                pipe = self.redis.pipeline(transaction=False)
                for cmd in cmds:
                    cmd(pipe)
                await pipe.execute(raise_on_error=False)
        for table, r in results.items():
            if r == -1 and not table.fenced:
                self._fence(table)
            elif r == -2:
                table.dirty = True
        for kind, target, arg in batch:
            if kind == "fut":
                if not arg.done():
                    arg.set_result(None)
            elif kind == "send" and not target.fenced:
                conn, message = arg
                if isinstance(message, str):
                    conn.send_text(message)
                else:
                    conn.send(message)
            elif kind == "sent" and not target.fenced:
                target.sent(arg)

    def _write_args(
        self, groups: dict[OwnedTable, list[Any]], pubs: list[tuple[OwnedTable | None, str, str]]
    ) -> tuple[list[str], list[Any]]:
        """KEYS and ARGV of the write script (:data:`_WRITE`)."""
        keys: list[str] = []
        argv: list[Any] = [len(groups)]
        index: dict[OwnedTable, int] = {}
        for g, (table, entries) in enumerate(groups.items(), 1):
            index[table] = g
            base = self.mk(table.id, "")
            keys += [base + "epoch", base + "log", base + "s:0", base + "s:1"]
            argv += [table.epoch, len(entries) // 3]
            argv += entries
        argv.append(len(pubs))
        for owner, channel, data in pubs:
            argv += [0 if owner is None else index[owner], channel, data]
        return keys, argv

    def _fence(self, table: OwnedTable) -> None:
        table.fenced = True
        if self.owners.get(table.id) == self.pid:  # no longer ours: route to the lease's holder
            del self.owners[table.id]
        match_log("fenced", table.id, pid=self.pid, epoch=table.epoch)
        if table.task is not None and table.task is not asyncio.current_task():
            table.task.cancel()
