"""``cli_fan``: one JSON record per line in, one JSON result per line out; bad lines don't stop the loop."""

from __future__ import annotations

import io
import json

from erma.scoring import cli_fan


def test_cli_fan() -> None:
    lines = [
        json.dumps({"packs": [["PENG", "1z", 1]], "hand": "123456789m6z", "win_tile": "6z"}),
        "{not json",
        "",
        "[1, 2]",
        json.dumps({"packs": [], "hand": "123456789m1234z", "win_tile": "5z"}),
    ]
    out = io.StringIO()
    assert cli_fan(io.StringIO("\n".join(lines) + "\n"), out, "mcr") == 0
    results = [json.loads(x) for x in out.getvalue().splitlines()]
    assert [r.get("error") for r in results] == [None, "invalid_input", "invalid_input", "not_win"]
    assert results[0]["total"] == 27
    assert "清龙" in out.getvalue()  # ensure_ascii=False


def test_cli_fan_unknown_table() -> None:
    out = io.StringIO()
    assert cli_fan(io.StringIO(""), out, "nope") == 2
    assert json.loads(out.getvalue())["error"] == "invalid_table"
