"""``erma loadtest`` reports what it could not do: connection failures are errors, and no table started is a
failure (exit 1)."""

from __future__ import annotations

import pytest

from erma.cli import main

from .conftest import Running


def test_a_wrong_websocket_path_is_an_error(server: Running, capsys: pytest.CaptureFixture[str]) -> None:
    url = server.ws_url.replace("/ws", "/ws/wrong")
    assert main(["loadtest", "--url", url, "--tables", "1", "--seconds", "1"]) == 1
    out, err = capsys.readouterr()
    assert "tables 0/1" in out and "errors 0" not in out
    assert "cannot connect" in err and "no table started" in err
