"""What several command groups share: rule options from the command line, a progress bar, the runner's
options."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Callable, Iterator
from typing import Any


def parse_options(pairs: list[str]) -> dict[str, Any]:
    from erma.errors import RuleSetError

    out: dict[str, Any] = {}
    for pair in pairs:
        if "=" not in pair:
            raise RuleSetError(f"--option {pair!r}: write KEY=VALUE (the value in JSON, e.g. min_fan=0)")
        key, raw = pair.split("=", 1)
        try:
            out[key] = json.loads(raw)
        except json.JSONDecodeError:
            out[key] = raw
    return out


@contextlib.contextmanager
def progress_bar(label: str, off: bool) -> Iterator[Callable[[int, int], None] | None]:
    """A rich progress bar of completed walls on stderr (none when stderr is not a terminal)."""
    if off or not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    task = bar.add_task(label, total=None)

    def update(done: int, total: int) -> None:
        bar.update(task, completed=done, total=total)

    with bar:
        yield update


def runner_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--workers", type=int, default=1, help="local processes to spread the walls over")
    parser.add_argument(
        "--cluster",
        default=None,
        metavar="ADDRESS",
        help="run the walls as Ray tasks: ray://HOST:PORT, HOST:PORT, auto, or local (erma[ray] extra)",
    )
