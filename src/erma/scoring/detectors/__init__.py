"""Step 2 of the pipeline, *detect*: one small predicate per fan id, shared by every table.

Three sorts of detector:

- a **fan detector** ``f(view) -> list[Hit]`` reads one reading and returns the fan's instances (empty:
  the fan does not apply). It declares the shapes it reads; on other shapes it is not asked.
- a **set-group predicate** ``f(a, b[, c[, d]]) -> bool`` says whether some chows (their lowest tiles) or
  pungs (their tiles), given in reference order, form the fan. Which groups are tried, and how often a
  set may be reused, is the pipeline's business (不得相同, 套算一次: :mod:`erma.scoring.combine`).
- a **fallback** applies when nothing else counts (无番和).

A fan detector may declare the facts it ``needs`` (``F_*`` bits of :mod:`erma.scoring.features`, such as
``F_PUNG | F_HONORS``): the pipeline then skips it on readings where one of them does not hold, which
saves the call. The bits must be necessary conditions (a detector that would find a hit without them is
wrong); leaving ``needs`` out is always correct. When they are also sufficient — the detector then finds
exactly one instance, the whole hand or the winning tile, as most tile make-up and situation fans do — it
may say so with ``exact="hand"`` or ``exact="win"``, and the pipeline writes that hit itself instead of
asking it (tests/scoring/test_exact.py holds every such detector to its word).

A hit names the sets or tiles that make one instance: a tuple of tile tuples, e.g. ``((0, 1, 2), (0, 1, 2))``

The detectors live in one module per fan group — :mod:`.special` (the special shapes), :mod:`.makeup` (tile
make-up), :mod:`.patterns` (whole-hand set patterns), :mod:`.pungs` (pungs and kongs, and their set
groups), :mod:`.chows` (chow set groups), :mod:`.situation` (how the hand was won), :mod:`.twoplayer` (the
fans only the two-player tables score) — and register themselves in :data:`REGISTRY` (:mod:`.registry`)
when imported; importing this package imports them all.

Adding a fan is one function in its group's module and one row in each table that scores it.
"""

from erma.scoring.detectors import (  # noqa: F401  (each registers its fans)
    chows,
    makeup,
    patterns,
    pungs,
    situation,
    special,
    twoplayer,
)
from erma.scoring.detectors.registry import REGISTRY, Detector, FanSpec, Hit, Part, fallback, fan, group

__all__ = ["REGISTRY", "Detector", "FanSpec", "Hit", "Part", "fallback", "fan", "group"]
