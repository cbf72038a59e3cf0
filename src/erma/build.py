"""Which build of erma is running (构建): the core compiled by mypyc from the ``.py`` sources, or pure Python.

``pip install`` compiles the modules listed in ``setup.py`` where a C compiler exists; each compiled module
is a shared library (``tiles.cpython-311-x86_64-linux-gnu.so``) beside its ``.py`` source, and Python's
import system prefers it. ``ERMA_PURE=1`` at install time compiles nothing; ``ERMA_PURE=1`` at run time
makes ``import erma`` install :class:`SourceFinder`, which loads every ``erma.*`` module from its ``.py``
source even where a compiled one sits beside it (the pure side of the tests and benchmarks, one install).

Standard library only: ``erma/__init__.py`` imports this module before anything else of erma.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

PURE_ENV = "ERMA_PURE"
"""The environment variable: set (to anything but ``""`` or ``"0"``) it means pure Python."""

_ROOT = Path(__file__).resolve().parent
_EXT_SUFFIXES = tuple(importlib.machinery.EXTENSION_SUFFIXES)


def pure_requested(environ: Mapping[str, str] | None = None) -> bool:
    """Whether ``ERMA_PURE`` asks for pure Python."""
    value = (os.environ if environ is None else environ).get(PURE_ENV, "")
    return value.strip() not in ("", "0")


class SourceFinder(importlib.abc.MetaPathFinder):
    """Finds ``erma.*`` modules in their ``.py`` sources only (never a compiled extension module)."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if not fullname.startswith("erma.") or path is None:
            return None
        loader = (importlib.machinery.SourceFileLoader, importlib.machinery.SOURCE_SUFFIXES)
        for entry in path:
            spec = importlib.machinery.FileFinder(entry, loader).find_spec(fullname)
            if spec is not None and spec.loader is not None:
                return spec
        return None  # a data folder or a namespace portion: the ordinary finders decide


def install_source_finder() -> None:
    """Put :class:`SourceFinder` first on ``sys.meta_path`` (once)."""
    if not any(isinstance(f, SourceFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, SourceFinder())


def _module_name(source: Path) -> str:
    parts = source.relative_to(_ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@dataclass(frozen=True, slots=True)
class BuildInfo:
    """What is installed beside the sources and what this process runs."""

    built: tuple[str, ...]
    """Modules with a compiled extension beside their source."""
    stale: tuple[str, ...]
    """Of those, the ones whose source is newer than the compiled file (rebuild: ``make install``)."""
    pure: bool
    """``ERMA_PURE`` is set: this process imports the sources."""

    @property
    def compiled(self) -> bool:
        """This process runs compiled modules."""
        return bool(self.built) and not self.pure

    def describe(self) -> str:
        """One line: ``compiled (mypyc): 40 modules`` or ``pure Python (ERMA_PURE=1; 40 compiled unused)``."""
        if self.pure:
            unused = f"; {len(self.built)} compiled modules unused" if self.built else ""
            return f"pure Python ({PURE_ENV}=1{unused})"
        if not self.built:
            return "pure Python (no compiled modules installed)"
        text = f"compiled (mypyc): {len(self.built)} modules"
        if self.stale:
            text += f"; STALE, sources newer than their build: {', '.join(self.stale)} (run make install)"
        return text


def build_info() -> BuildInfo:
    """Look beside each source of the installed package for its compiled module (no erma import)."""
    built: list[str] = []
    stale: list[str] = []
    for source in sorted(_ROOT.rglob("*.py")):
        for suffix in _EXT_SUFFIXES:
            ext = source.with_name(source.stem + suffix)
            if ext.exists():
                name = _module_name(source)
                built.append(name)
                if source.stat().st_mtime > ext.stat().st_mtime:
                    stale.append(name)
                break
    return BuildInfo(built=tuple(built), stale=tuple(stale), pure=pure_requested())


def is_compiled(module: ModuleType) -> bool:
    """Whether ``module`` was loaded from a compiled extension."""
    origin = getattr(module, "__file__", None) or ""
    return origin.endswith(_EXT_SUFFIXES)


def running_compiled(names: Sequence[str]) -> tuple[str, ...]:
    """Of the modules ``names``, those this process has loaded compiled (imports them)."""
    return tuple(n for n in names if is_compiled(importlib.import_module(n)))
