"""Both builds in one run: the benchmark times the build this process runs (the compiled one after
``make install``) and its anchors, and runs itself again in a child process with ``ERMA_PURE=1`` (the same
sources imported as Python) for the pure side, with the same arguments and inputs.

A benchmark script takes ``--pure-side``: it then times erma alone and prints one JSON line last.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import erma.tiles
from erma.build import is_compiled

PURE_SIDE = "--pure-side"


def this_build() -> str:
    """``compiled`` or ``pure``: the build this process runs."""
    return "compiled" if is_compiled(erma.tiles) else "pure"


def pure_side(script: str, args: list[str]) -> dict[str, Any]:
    """Run ``script`` with ``args`` and ``--pure-side`` under ``ERMA_PURE=1``; its last line, as JSON."""
    env = {**os.environ, "ERMA_PURE": "1"}
    cmd = [sys.executable, str(Path(script).resolve()), *args, PURE_SIDE]
    out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return result


def emit(result: dict[str, Any]) -> None:
    """The pure side's answer: one JSON line."""
    print(json.dumps(result))
