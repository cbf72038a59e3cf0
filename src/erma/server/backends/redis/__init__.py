"""The Redis backend (Redis 后端): several ``erma serve`` processes on one Redis act as one server."""

from erma.server.backends.redis.backend import RedisBackend
from erma.server.backends.redis.wire import RemoteSeat

__all__ = ["RedisBackend", "RemoteSeat"]
