"""The compiled core: mypyc compiles these modules from their own ``.py`` sources when a C compiler exists.

Everything else about the package is in pyproject.toml. ``ERMA_PURE=1 pip install .`` (or no C compiler)
gives the pure-Python package: the same sources, nothing compiled. See docs/performance.md.
"""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig

from setuptools import setup

COMPILED = [
    "src/erma/tiles.py",
    "src/erma/hand.py",
    "src/erma/analysis",
    "src/erma/scoring",
    "src/erma/rules",
    "src/erma/game",
    # the bots' hot paths: greedy, the expert's search, and what they stand on
    "src/erma/bots/base.py",
    "src/erma/bots/claimed.py",
    "src/erma/bots/greedy.py",
    "src/erma/bots/priors.py",
    "src/erma/bots/random_bot.py",
    "src/erma/bots/stakes.py",
    "src/erma/bots/expert",
    "src/erma/bots/nn",  # the learning view: the environments' observations and masks, and the nn bot
    "src/erma/lab/env_table.py",  # the environments' hand: deal, step, observe (no gymnasium or pettingzoo)
]
"""What mypyc compiles (files and packages, every module in them): the pure core, layer by layer, the
bots' hot paths, the learning view and the environments' hand. Nothing whose imports need more than the
core's dependencies (mypy follows them at build time, parent packages included: erma.lab.env's package
imports gymnasium, which a light install lacks; the hand it steps lives beside it, in erma.lab.env_table)."""

NOT_COMPILED = [
    "src/erma/scoring/cli.py",  # the `erma fan` command's argument handling: nothing hot
]


def pure_reason() -> str | None:
    """Why this build is pure Python, or None to compile."""
    if os.environ.get("ERMA_PURE", "").strip() not in ("", "0"):
        return "ERMA_PURE is set"
    compiler = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler}) found"
    return None


def extensions() -> list[object]:
    reason = pure_reason()
    if reason is not None:
        print(f"erma: building pure Python ({reason})", file=sys.stderr)
        return []
    from mypyc.build import mypycify

    paths = []
    for entry in COMPILED:
        if entry.endswith(".py"):
            paths.append(entry)
        else:
            for folder, _, files in sorted(os.walk(entry)):
                paths += [os.path.join(folder, f) for f in sorted(files) if f.endswith(".py")]
    paths = [p for p in paths if p not in NOT_COMPILED]
    # paths are mypy arguments: pyproject's [tool.mypy] applies; its overrides name modules not compiled here
    return list(mypycify(["--no-warn-unused-configs", *paths], opt_level="3", debug_level="0"))


setup(ext_modules=extensions())
