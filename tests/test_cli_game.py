"""``erma sim`` and ``erma replay`` as a user runs them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def erma(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "erma.cli", *args], capture_output=True, text=True, timeout=300
    )


def test_sim_json_is_deterministic_and_records_replay(tmp_path: Path) -> None:
    args = ["sim", "--rules", "cuopai789", "--games", "6", "--bots", "greedy,random", "--seed", "4", "--json"]
    first = erma(*args, "--records", str(tmp_path))
    second = erma(*args)
    assert first.returncode == 0, first.stderr
    a, b = json.loads(first.stdout.splitlines()[-1]), json.loads(second.stdout.splitlines()[-1])
    for key in ("seconds", "games_per_second", "actions_per_second"):
        assert key in a
        a.pop(key)
        b.pop(key)
    assert a == b
    assert a["rules"] == "cuopai789" and a["games"] == 6 and a["bots"] == ["greedy", "random"]
    assert sum(a["wins"]) + a["draws"] == 6
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 6
    ok = erma("replay", "--verify", str(files[0]))
    assert ok.returncode == 0, ok.stderr
    text = erma("replay", str(files[0]))
    assert text.returncode == 0 and "deal" in text.stdout


def test_sim_text_and_duplicate() -> None:
    out = erma("sim", "--rules", "classic64", "--games", "4", "--duplicate", "--bots", "random,greedy")
    assert out.returncode == 0, out.stderr
    assert "95% CI" in out.stdout and "games/s" in out.stdout


def test_replay_rejects_a_tampered_record(tmp_path: Path) -> None:
    erma("sim", "--rules", "classic64", "--games", "1", "--records", str(tmp_path), "--json")
    path = next(tmp_path.glob("*.json"))
    record = json.loads(path.read_text())
    record["result"]["deltas"] = [100, -100]
    bad = tmp_path / "tampered.json"
    bad.write_text(json.dumps(record))
    out = erma("replay", "--verify", str(bad))
    assert out.returncode == 1 and "result" in out.stderr and "Traceback" not in out.stderr
    record = json.loads(path.read_text())
    record["actions"][0][1] = "discard 9z"
    bad.write_text(json.dumps(record))
    out = erma("replay", "--verify", str(bad))
    assert out.returncode == 2 and "action 0" in out.stderr and "Traceback" not in out.stderr
    bad.write_text("{not json")
    out = erma("replay", str(bad))
    assert out.returncode == 2 and "cannot read a record" in out.stderr


def test_sim_bad_arguments() -> None:
    for args, fragment in [
        (["--rules", "nope"], "unknown rule set"),
        (["--bots", "greedy"], "name two bots"),
        (["--bots", "greedy,smart"], "unknown bot"),
        (["--option", "min_fan=-3"], "min_fan"),
    ]:
        out = erma("sim", "--games", "1", *args)
        assert out.returncode == 2 and fragment in out.stderr and "Traceback" not in out.stderr
