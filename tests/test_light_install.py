"""The light core (轻量安装): ``pip install erma`` brings the engine, the bots and self-play with few
dependencies and none of the server's; ``erma[env]`` adds only what the learning environments need.

Each test installs the package from a copy of this source tree into a fresh virtual environment (pure Python,
``ERMA_PURE=1``: no compile, quick; pip's cache serves the wheels the project's own install already fetched).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: What the server extra brings (pyproject.toml): none of it may come with the light core.
SERVER_PACKAGES = {
    "sqlalchemy", "alembic", "aiosqlite", "asyncpg", "argon2-cffi", "starlette", "uvicorn", "websockets",
    "pydantic", "httpx", "redis", "openskill",
}  # fmt: skip


def _run(cmd: list[str], **kw: object) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "ERMA_PURE": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    env.pop("PYTHONPATH", None)
    return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600, **kw)  # type: ignore[call-overload,no-any-return]


def _installed(bin_dir: Path) -> set[str]:
    out = _run([str(bin_dir / "pip"), "list", "--format=json"])
    assert out.returncode == 0, out.stderr
    return {row["name"].lower() for row in json.loads(out.stdout)}


@pytest.fixture(scope="module")
def light(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A fresh venv with ``pip install erma`` from a copy of the sources (no build artefacts of the tree)."""
    base = tmp_path_factory.mktemp("light")
    src = base / "erma-src"
    shutil.copytree(
        ROOT / "src",
        src / "src",
        ignore=shutil.ignore_patterns("*.so", "__pycache__", "*.egg-info", "build"),
    )
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy2(ROOT / name, src / name)
    venv.EnvBuilder(with_pip=True, clear=True).create(base / "v")
    bin_dir = base / "v" / "bin"
    out = _run([str(bin_dir / "pip"), "install", "--quiet", str(src)])
    assert out.returncode == 0, out.stderr[-3000:]
    return bin_dir, src


def test_the_light_core_has_no_server_packages(light: tuple[Path, Path]) -> None:
    bin_dir, _ = light
    have = _installed(bin_dir)
    assert "erma" in have
    assert {"rich", "numpy"} <= have
    assert not have & SERVER_PACKAGES, sorted(have & SERVER_PACKAGES)
    assert not have & {"gymnasium", "pettingzoo", "torch"}


def test_the_light_core_plays_self_play_and_the_bots(light: tuple[Path, Path]) -> None:
    bin_dir, _ = light
    out = _run([str(bin_dir / "erma"), "sim", "--rules", "cuopai789", "--games", "3", "--bots",
                "greedy,level3", "--seed", "7", "--json", "--no-progress"])  # fmt: skip
    assert out.returncode == 0, out.stderr[-3000:]
    stats = json.loads(out.stdout.strip().splitlines()[-1])
    assert stats["games"] == 3
    nn = _run([str(bin_dir / "erma"), "sim", "--rules", "classic64", "--games", "1", "--bots", "nn,random",
               "--seed", "7", "--json", "--no-progress"])  # fmt: skip
    assert nn.returncode == 0, nn.stderr[-3000:]


def test_a_server_command_names_the_extra_it_needs(light: tuple[Path, Path]) -> None:
    bin_dir, _ = light
    out = _run([str(bin_dir / "erma"), "serve", "--port", "0"])
    assert out.returncode == 2
    assert "pip install 'erma[server]'" in out.stderr
    assert "Traceback" not in out.stderr
    check = _run([str(bin_dir / "erma"), "ledger", "check", "--db", "sqlite:///nowhere.db"])
    assert check.returncode == 2 and "erma[server]" in check.stderr and "Traceback" not in check.stderr


def test_the_env_extra_adds_only_the_environments(light: tuple[Path, Path]) -> None:
    bin_dir, src = light
    before = _installed(bin_dir)
    out = _run([str(bin_dir / "pip"), "install", "--quiet", f"{src}[env]"])
    assert out.returncode == 0, out.stderr[-3000:]
    have = _installed(bin_dir)
    assert {"gymnasium", "pettingzoo"} <= have
    assert not have & SERVER_PACKAGES, sorted(have & SERVER_PACKAGES)
    assert "torch" not in have and have >= before
    code = (
        "import gymnasium as gym, erma.lab.env\n"
        "from gymnasium.utils.env_checker import check_env\n"
        "env = gym.make('erma/cuopai789-v0')\n"
        "check_env(env.unwrapped)\n"
        "obs, info = env.reset(seed=3)\n"
        "print('ok', sorted(obs) if isinstance(obs, dict) else type(obs).__name__)\n"
    )
    run = _run([str(bin_dir / "python"), "-W", "error::UserWarning", "-c", code])
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.startswith("ok")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__, "-q"]))
