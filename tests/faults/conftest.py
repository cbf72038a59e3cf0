"""A private PostgreSQL (initdb and pg_ctl in a temporary folder, on a free port) that a test may stop and
start again: the machine's shared server is never restarted. As root the server runs as the ``postgres``
user (initdb refuses root). Without the binaries the tests are skipped, except under CI, where they fail."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from ..server.conftest import free_port


def _bindir() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    if found:
        return Path(found[-1]).parent
    pg_ctl = shutil.which("pg_ctl")
    return Path(pg_ctl).parent if pg_ctl else None


class PrivatePostgres:
    """One PostgreSQL cluster of a test's own (trust auth, no fsync), stopped and started at will."""

    def __init__(self, bindir: Path, tmp: Path) -> None:
        self.bin = bindir
        self.dir = tmp / "pgdata"
        self.sock = tmp / "pgsock"
        self.port = free_port()
        self.as_root = os.geteuid() == 0
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *args: str) -> None:
        cmd = [str(self.bin / args[0]), *args[1:]]
        if self.as_root:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        subprocess.run(cmd, check=True, capture_output=True, timeout=60)

    def init(self) -> None:
        self.sock.mkdir()
        if self.as_root:
            shutil.chown(self.dir.parent, "postgres")
            shutil.chown(self.sock, "postgres")
        self._run("initdb", "-D", str(self.dir), "-U", "postgres", "-A", "trust", "--no-sync")
        self.start()

    def start(self) -> None:
        opts = f"-p {self.port} -k {self.sock} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run("pg_ctl", "-D", str(self.dir), "-o", opts, "-l", str(self.dir / "log"), "-w", "start")

    def stop(self, mode: str = "immediate") -> None:
        """Stop the server (``immediate``: every connection cut at once, as a crash or restart would)."""
        self._run("pg_ctl", "-D", str(self.dir), "-m", mode, "-w", "stop")

    def down(self) -> bool:
        try:
            self._run("pg_ctl", "-D", str(self.dir), "status")
        except subprocess.CalledProcessError:
            return True
        return False


@pytest.fixture
def private_pg() -> Iterator[PrivatePostgres]:
    bindir = _bindir()
    if bindir is None:
        if os.environ.get("CI"):
            pytest.fail("no PostgreSQL binaries (initdb, pg_ctl)")
        pytest.skip("no PostgreSQL binaries (initdb, pg_ctl)")
    tmp = Path(tempfile.mkdtemp(prefix="erma-pg-"))  # (pytest's own folders are private to root)
    os.chmod(tmp, 0o755)
    pg = PrivatePostgres(bindir, tmp)
    pg.init()
    try:
        yield pg
    finally:
        if not pg.down():
            pg.stop()
        shutil.rmtree(tmp, ignore_errors=True)
