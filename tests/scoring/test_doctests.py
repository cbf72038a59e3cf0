"""The docstring examples of the scoring modules."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "__init__",
    "table",
    "context",
    "waits",
    "readings",
    "detectors",
    "combine",
    "pipeline",
    "plain",
    "cli",
]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    mod = importlib.import_module("erma.scoring" if name == "__init__" else f"erma.scoring.{name}")
    result = doctest.testmod(mod)
    assert result.failed == 0
