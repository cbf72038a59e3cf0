"""mypyc's class options (编译选项) where mypy is not installed: a stand-in that changes nothing.

The compiler reads ``@mypyc_attr(...)`` from the source; at run time the decorator does nothing. Pure
Python may run without mypy (and so without ``mypy_extensions``); the classes that allow interpreted
subclasses (:class:`~erma.game.family.Family` and its families, the expert's
:class:`~erma.bots.expert.estimate.Estimator`) then import this stand-in.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def mypyc_attr(*args: Any, **kwargs: Any) -> Callable[[T], T]:
    """The class as it is."""
    return lambda cls: cls
