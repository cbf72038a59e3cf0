"""erma's command line with lab bots of the opponent's-holdings model registered (issue 39;
docs/lab/2026-12-08-level5-live-tiles.md): ``level5-liveNN`` is level5 reading a view in which the copies the
model expects the opponent to hold are counted as seen (each kind's expected copies rounded up from the
fraction 0.NN: ``level5-live50`` rounds to the nearest), so its tile efficiency, waits and win chances count
the tiles it expects still in the wall. The coefficients come from a JSON file of ``{rules: [..]}``
(``ERMA_HOLDINGS``, as ``scripts/holdings.py fit`` prints them) unless the module has them.

    ERMA_HOLDINGS=runs/h27l/coef.json python scripts/live_arena.py arena --rules classic64 \
        --bots level5-live50,level5 --walls 1000 --seed S --workers 1 --json
"""

from __future__ import annotations

import dataclasses
import json
import os
import sys
from collections.abc import Callable

from erma.bots.base import BotView
from erma.bots.expert import ExpertBot
from erma.bots.registry import BOTS
from erma.cli import main
from erma.game.actions import Action
from erma.lab import holdings

if os.environ.get("ERMA_HOLDINGS"):
    with open(os.environ["ERMA_HOLDINGS"]) as f:
        for rules, co in json.load(f).items():
            holdings.COEFFICIENTS.setdefault(rules, tuple(co))


def live_view(view: BotView, threshold: float) -> BotView:
    """``view`` with the copies the model expects the opponent to hold counted as seen."""
    co = holdings.COEFFICIENTS.get(view.rules.name)
    if co is None:
        return view
    unseen = [view.unseen(t) for t in range(34)]
    e = holdings.held_chances(view, unseen, view.kinds, co)
    visible = list(view.visible)
    for t in view.kinds:
        whole = int(e[t])
        extra = whole + (1 if e[t] - whole >= threshold else 0)
        visible[t] += min(extra, unseen[t])
    return dataclasses.replace(view, visible=tuple(visible))


class LiveBot:
    """level5 on the view :func:`live_view` makes."""

    uses_view = True

    def __init__(self, seed: int | str, threshold: float, name: str) -> None:
        self.inner = ExpertBot(seed, name="level5")
        self.threshold = threshold
        self.name = name

    def choose(self, view: BotView, legal: list[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        return self.inner.choose(live_view(view, self.threshold), legal)


def _factory(threshold: int) -> Callable[[int | str], LiveBot]:
    return lambda seed: LiveBot(seed, threshold / 100, f"level5-live{threshold}")


for _thr in (30, 50, 70, 90):
    BOTS[f"level5-live{_thr}"] = _factory(_thr)

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
