"""The registry of detectors: what a detector is (:class:`FanSpec`), the decorators that register one
(:func:`fan`, :func:`fallback`, :func:`group`) and what a detector returns (:data:`Hit`).

A hit names the sets or tiles that make one instance: a tuple of tile tuples, e.g. ``((0, 1, 2), (0, 1, 2))``
for 一般高 123m123m.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from erma.frozen import reduce_frozen
from erma.scoring.features import ALL_SHAPES, KNITTED, REGULAR, SEVEN_PAIRS
from erma.scoring.readings import HandView
from erma.scoring.table import set_known_ids
from erma.tiles import Tile

Part = tuple[Tile, ...]
Hit = tuple[Part, ...]
Detector = Callable[[HandView], list[Hit]]

SET_SHAPES: Final = frozenset({REGULAR, KNITTED})
"""Shapes with sets (a 组合龙 reading has one set beside the knitted straight)."""
TILE_SHAPES: Final = frozenset({REGULAR, SEVEN_PAIRS, KNITTED})
"""Shapes whose tile make-up (suits, ranks, terminals) is scored."""


@dataclass(frozen=True, slots=True)
class FanSpec:
    """A registered detector."""

    id: str
    """The fan id the tables use."""
    shapes: frozenset[str]
    """The shapes it reads."""
    detect: Detector | None = None
    """The fan detector, for fan detectors."""
    family: str = ""
    """``chows`` or ``pungs`` for set-group predicates."""
    arity: int = 0
    """How many sets a set-group predicate takes."""
    predicate: Callable[..., bool] | None = None
    """The set-group predicate."""
    fallback: bool = False
    """Applies only when no other fan that counts for the minimum does (无番和)."""
    needs: int = 0
    """Facts (``F_*`` bits of :mod:`erma.scoring.features`) without which the detector finds nothing."""
    exact: str = ""
    """``"hand"`` / ``"win"``: with its needs met (on a shape it reads) the detector finds exactly one
    instance, the whole hand / the winning tile, and nothing otherwise; "" = ask it."""

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Rebuilt through the constructor (copy, pickle; also when compiled)."""
        return reduce_frozen(self)


REGISTRY: Final[dict[str, FanSpec]] = {}
"""Every known fan id → its detector."""


def fan(
    fan_id: str, shapes: frozenset[str] = ALL_SHAPES, needs: int = 0, exact: str = ""
) -> Callable[[Detector], Detector]:
    """Register a fan detector (``needs``: the ``F_*`` facts it cannot do without; ``exact``: they
    decide it, see :mod:`erma.scoring.detectors`)."""
    if exact not in ("", "hand", "win"):
        raise ValueError(f"fan {fan_id!r}: exact is 'hand', 'win' or '', not {exact!r}")

    def deco(fn: Detector) -> Detector:
        REGISTRY[fan_id] = FanSpec(fan_id, shapes, detect=fn, needs=needs, exact=exact)
        return fn

    return deco


def fallback(fan_id: str) -> Callable[[Detector], Detector]:
    """Register a fallback fan (scored when nothing else counts)."""

    def deco(fn: Detector) -> Detector:
        REGISTRY[fan_id] = FanSpec(fan_id, ALL_SHAPES, detect=fn, fallback=True)
        return fn

    return deco


def group(fan_id: str, family: str, arity: int) -> Callable[[Callable[..., bool]], Callable[..., bool]]:
    """Register a set-group predicate over ``arity`` chows or pungs (given in reference order)."""

    def deco(fn: Callable[..., bool]) -> Callable[..., bool]:
        REGISTRY[fan_id] = FanSpec(fan_id, frozenset({REGULAR}), family=family, arity=arity, predicate=fn)
        return fn

    return deco


set_known_ids(lambda: REGISTRY.keys())

NONE: Final[list[Hit]] = []
"""No hit: the fan does not apply (one shared empty list, never changed)."""

# A whole-hand hit is ``[(v.facts.tiles,)]``, a winning-tile hit ``[((v.facts.win_tile,),)]`` (written
# out in each detector: a helper call costs as much as the rest of a small detector).
