"""The lab's tests share the server tests' running server (the load test drives one)."""

from tests.server.conftest import server

__all__ = ["server"]
