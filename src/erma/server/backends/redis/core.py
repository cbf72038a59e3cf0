"""The Redis backend's core (核心): the client, the keys, the registered scripts, and the state the other
parts share (see :mod:`erma.server.backends.redis.backend` for the keys and channels)."""

from __future__ import annotations

import asyncio
from typing import Any

import redis.asyncio as aioredis

from erma.server.backends.base import Backend
from erma.server.backends.redis import scripts
from erma.server.backends.redis.wire import Relay
from erma.server.config import Settings


class RedisCore(Backend):
    """One process's connection to the Redis that every process shares."""

    distributed = True

    def __init__(self, url: str, settings: Settings) -> None:
        super().__init__()
        self.url = url
        self.prefix = settings.redis_prefix
        self.lease_ms = settings.lease_ms
        self.redis: Any = aioredis.Redis.from_url(
            url, decode_responses=True, socket_connect_timeout=2, socket_timeout=5, health_check_interval=5
        )
        self.relays: dict[tuple[str, int], Relay] = {}
        self.owners: dict[str, str] = {}
        """Match id → owner pid (a cache; refreshed from the lease when a publish finds nobody)."""
        self._ops: list[tuple[str, Any, Any]] = []
        """The writer's queue, in order: ``xadd`` (a table's stream 1-3, entry id, data), ``pub`` (channel,
        data), ``send`` (a local connection, a message or its text), ``cmd`` (a function adding commands to a
        pipeline), ``fut`` (set once everything before it is stored)."""
        self._texts: dict[int, tuple[dict[str, Any], str]] = {}
        """``id(message)`` → (message, its JSON text) for seat messages stored but not yet delivered: the text
        that goes into the seat's stream is the one sent to the socket (each message is encoded once)."""
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._stopping = False
        self.connected_to_redis = False
        self._write_script = self.redis.register_script(scripts.WRITE)
        self._acquire = self.redis.register_script(scripts.ACQUIRE)
        self._renew = self.redis.register_script(scripts.RENEW)
        self._reset = self.redis.register_script(scripts.RESET)
        self._del_if = self.redis.register_script(scripts.DEL_IF)
        self._pop_pair = self.redis.register_script(scripts.POP_PAIR)
        self._pop_waited = self.redis.register_script(scripts.POP_WAITED)
        self._pop_round = self.redis.register_script(scripts.POP_ROUND)

    # ------------------------------------------------------------------------------ keys

    def k(self, *parts: object) -> str:
        """A key or channel name."""
        return ":".join([self.prefix, *map(str, parts)])

    def mk(self, match: str, *parts: object) -> str:
        """A key of a match."""
        return self.k("m", match, *parts)
