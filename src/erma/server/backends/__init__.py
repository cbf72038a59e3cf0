"""The backends (后端): what one server process shares with the others, in the process or through Redis
(:mod:`erma.server.backends.redis`, imported only when asked for)."""

from erma.server.backends.base import Backend, Fenced, Seating, match_log
from erma.server.backends.local import LocalBackend

__all__ = ["Backend", "Fenced", "LocalBackend", "Seating", "match_log"]
