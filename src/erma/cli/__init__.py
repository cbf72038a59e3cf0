"""The ``erma`` command, one module per command group: hands and fans (:mod:`~erma.cli.hands`), the lab
(:mod:`~erma.cli.lab`: ``sim``, ``balance``, ``arena``, ``loadtest``), records (:mod:`~erma.cli.records`:
``replay``, ``review``, ``verify``) and the operator's (:mod:`~erma.cli.server`: ``serve``, ``ledger``,
``ratings``).

Errors in what the user typed are printed as one line naming the input, with exit code 2; never a
traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from erma import __version__
from erma.build import build_info
from erma.cli import hands, lab, records, server
from erma.errors import ErmaError


def version_text() -> str:
    """``erma 0.1.0 — compiled (mypyc): 34 modules`` or ``… — pure Python (…)``: which build runs."""
    return f"erma {__version__} — {build_info().describe()}"


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``erma`` command."""
    parser = argparse.ArgumentParser(
        prog="erma",
        description="erma (二麻): two-player mahjong",
        formatter_class=argparse.RawDescriptionHelpFormatter,  # --version's line unwrapped
    )
    parser.add_argument("--version", action="version", version=version_text(), help="the build running")
    sub = parser.add_subparsers(dest="command", required=True)
    for group in (hands, lab, records, server):
        group.register(sub)
    return parser


#: The packages of the optional extras, and the extra that brings each (pyproject.toml): a command that needs
#: one the light core lacks says which extra to install, never a traceback.
EXTRA_OF = {
    **dict.fromkeys(
        (
            "sqlalchemy",
            "alembic",
            "aiosqlite",
            "asyncpg",
            "argon2",
            "starlette",
            "uvicorn",
            "websockets",
            "pydantic",
            "httpx",
            "redis",
            "openskill",
        ),
        "server",
    ),
    **dict.fromkeys(("gymnasium", "pettingzoo"), "env"),
    "torch": "rl",
    "ray": "ray",
    "matplotlib": "report",
}


def missing_extra(exc: ModuleNotFoundError) -> str | None:
    """The extra that would bring the module ``exc`` names, or None when it is none of the extras'."""
    top = (exc.name or "").partition(".")[0]
    return EXTRA_OF.get(top)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``erma`` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.func(args)
    except ErmaError as exc:
        print(f"erma {args.command}: {exc}", file=sys.stderr)
        return 2
    except ModuleNotFoundError as exc:
        extra = missing_extra(exc)
        if extra is None:
            raise
        print(
            f"erma {args.command}: needs the {extra!r} extra, which is not installed"
            f" (no module {exc.name!r}): pip install 'erma[{extra}]'",
            file=sys.stderr,
        )
        return 2
    return code
