"""``erma serve`` (src/erma/cli/server.py): every option described in ``--help``; ``make run`` listens where
the environment's ``HOST`` and ``PORT`` say (issue 36)."""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from erma.cli import server

ROOT = Path(__file__).resolve().parent.parent


def serve_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="erma")
    sub = parser.add_subparsers(dest="command")
    server.register(sub)
    found: argparse.ArgumentParser = sub.choices["serve"]
    return found


def test_every_serve_option_is_described() -> None:
    parser = serve_parser()
    options = [a for a in parser._actions if a.option_strings and a.dest != "help"]
    names = {"host", "port", "db", "data", "rooms", "redis", "lease_ms", "setting"}
    assert {a.dest for a in options} >= names
    bare = [a.option_strings[0] for a in options if not (a.help and len(a.help) > 15)]
    assert bare == [], f"options without a description: {bare}"
    text = parser.format_help()
    assert "default 127.0.0.1" in text and "default 8000" in text and "make run" in text


def dry_run(env: dict[str, str]) -> str:
    """What `make run` would run (make -n), in this environment."""
    done = subprocess.run(["make", "-n", "run"], cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.skipif(shutil.which("make") is None, reason="no make")
def test_make_run_honours_host_and_port() -> None:
    out = dry_run({**os.environ, "HOST": "0.0.0.0", "PORT": "8123"})
    assert "erma serve --host '0.0.0.0' --port '8123'" in out, out
    out = dry_run({k: v for k, v in os.environ.items() if k not in ("HOST", "PORT")})
    assert "erma serve --host '127.0.0.1' --port '8000'" in out, out
