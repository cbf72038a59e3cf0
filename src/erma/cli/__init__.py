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

from erma.cli import hands, lab, records, server
from erma.errors import ErmaError


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``erma`` command."""
    parser = argparse.ArgumentParser(prog="erma", description="erma (二麻): two-player mahjong")
    sub = parser.add_subparsers(dest="command", required=True)
    for group in (hands, lab, records, server):
        group.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``erma`` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.func(args)
    except ErmaError as exc:
        print(f"erma {args.command}: {exc}", file=sys.stderr)
        return 2
    return code
