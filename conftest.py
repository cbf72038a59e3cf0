"""pytest at the repository's root: the doctests of a compiled module run in the pure run.

With the compiled core (docs/performance.md), ``erma.tiles`` is the extension module beside
``src/erma/tiles.py``: pytest cannot import that source as the module ``erma.tiles`` to collect its doctests.
A compiled run leaves them to the pure run (``ERMA_PURE=1``: the Makefile's ``PURE_SUITES`` name the core's
sources), which imports the sources themselves.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
from pathlib import Path

from erma.build import pure_requested

#: Sources that import an optional extra's package at the top: their doctests need it installed.
NEEDS = {"sb3.py": "sb3_contrib"}


def pytest_ignore_collect(collection_path: Path) -> bool | None:
    """Skip a source whose compiled module sits beside it, unless this run imports the sources; skip a
    source whose extra is not installed."""
    needs = NEEDS.get(collection_path.name)
    if needs is not None and importlib.util.find_spec(needs) is None:
        return True
    if collection_path.suffix != ".py" or pure_requested():
        return None
    stem = str(collection_path.with_suffix(""))
    if any(Path(stem + suffix).exists() for suffix in importlib.machinery.EXTENSION_SUFFIXES):
        return True
    return None
