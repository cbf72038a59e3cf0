"""``erma serve`` with the test hooks of the protocol suite, for server processes (tests/scale):

- ``ERMA_TEST_FIXED_SECRETS=1``: every match secret and deal salt is the same (the same deal in two runs);
- ``ERMA_TEST_HIDE_CLAIMS_OF=SEAT``: the engine offers that seat no claim of a discard.

Run as ``python -m tests.server.patched_serve serve …`` (the arguments of ``erma``)."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Any

import erma.server.table as table_module
from erma.cli import main
from erma.game.families import FAMILIES
from erma.game.family import Family


class FixedSecrets:
    """Stands in for ``secrets`` in the table module: one match secret and one salt for every match."""

    @staticmethod
    def token_hex(nbytes: int = 16) -> str:
        return "5a" * nbytes


def claim_hooks(seat: Callable[[], int | None], hide: bool, seen: list[int]) -> dict[str, Family]:
    """Every rule family with its ``claim_options`` replaced: ``seat()``'s options are counted in ``seen``
    and, with ``hide``, taken away. Returns the families to register in ``FAMILIES`` by name: a subclass's
    instance each (compiled, the engine calls a hook through the class's method table, which a method
    patched onto the class would not change; the families allow interpreted subclasses for this)."""
    out: dict[str, Family] = {}
    for name, family in FAMILIES.items():

        class Counted(type(family)):  # type: ignore[misc]
            def claim_options(self, state: Any, who: int) -> list[Any]:
                options = super().claim_options(state, who)
                if options and who == seat():
                    seen.append(1)
                    return [] if hide else options
                return options

        out[name] = Counted()
    return out


def hide_claims_of(seat: int) -> None:
    FAMILIES.update(claim_hooks(lambda: seat, True, []))


if __name__ == "__main__":
    if os.environ.get("ERMA_TEST_FIXED_SECRETS"):
        table_module.secrets = FixedSecrets  # type: ignore[assignment]
    if os.environ.get("ERMA_TEST_HIDE_CLAIMS_OF"):
        hide_claims_of(int(os.environ["ERMA_TEST_HIDE_CLAIMS_OF"]))
    sys.exit(main(sys.argv[1:]))
