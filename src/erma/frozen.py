"""Frozen values (不可变值) that copy and pickle alike, compiled by mypyc or pure Python.

A compiled class's default pickling makes an empty object and assigns its fields one by one, which a frozen
dataclass refuses; :func:`reduce_frozen` rebuilds the value through its constructor instead (every field
is an ``__init__`` argument, in order). Standard library only.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any


def reduce_frozen(value: Any) -> tuple[Any, tuple[Any, ...]]:
    """``__reduce__`` of a frozen dataclass: its class and its fields' values, in order."""
    return type(value), tuple(getattr(value, f.name) for f in fields(value))
