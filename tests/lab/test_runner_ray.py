"""A local Ray head on 127.0.0.1 runs `erma balance --cluster`: the same JSON as the local run."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

BALANCE = ["balance", "--rules", "cuopai789", "--vary", "cuo_prob=0,0.2", "--walls", "6", "--seed", "2"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _env() -> dict[str, str]:
    # a throw-away cluster on this machine: no token to share between the head and the driver
    return {**os.environ, "RAY_AUTH_MODE": "disabled", "RAY_USAGE_STATS_ENABLED": "0"}


@pytest.fixture
def ray_head(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`ray start --head --block` on 127.0.0.1 with two CPUs, in its own process group (stopped as one)."""
    ray = Path(sys.executable).with_name("ray")
    port, client = _free_port(), _free_port()
    temp = tmp_path_factory.mktemp("ray")
    log = open(temp / "head.log", "w+")  # noqa: SIM115 - closed at teardown
    head = subprocess.Popen(
        [str(ray), "start", "--head", "--block", "--node-ip-address=127.0.0.1", f"--port={port}",
         "--num-cpus=2", "--include-dashboard=false", "--disable-usage-stats", f"--temp-dir={temp}",
         f"--ray-client-server-port={client}"],
        stdout=log, stderr=subprocess.STDOUT, env=_env(), start_new_session=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 50
        while "Ray runtime started" not in (temp / "head.log").read_text():
            alive = head.poll() is None and time.monotonic() < deadline
            assert alive, (temp / "head.log").read_text()[-2000:]
            time.sleep(0.2)
        yield f"127.0.0.1:{port}"
    finally:
        os.killpg(head.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            head.wait(timeout=3)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(head.pid, signal.SIGKILL)  # what is left of the head's processes
        head.wait()
        log.close()


def test_balance_through_ray_gives_the_local_json(ray_head: str) -> None:
    cmd = [sys.executable, "-m", "erma.cli", *BALANCE, "--json"]
    local = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=_env())
    remote = subprocess.run(
        [*cmd, "--cluster", ray_head], capture_output=True, text=True, timeout=120, env=_env()
    )
    assert local.returncode == 0, local.stderr
    assert remote.returncode == 0, remote.stderr
    assert f"on cluster {ray_head}" in remote.stderr
    assert remote.stdout == local.stdout
