"""Fan tables (番表) as data: one TOML file per table under ``scoring/tables/<id>.toml``.

A table lists the fans it scores, in priority order (highest first; the order also decides which fan's
exclusions apply first and the order of the result). Each ``[[fans]]`` row has:

``id``
    the fan id; its detector is code shared by all tables (:mod:`erma.scoring.detectors`).
``name_zh``, ``name_en``
    the names printed in results.
``value``
    points per instance; ``0`` means the fan is not scored.
``excludes``
    fans this one removes (不计) when it is counted: an id (remove every instance), or an inline table
    ``{ id = "…", count = N }`` (remove N instances) or ``{ id = "…", own = true }`` (remove the instances
    made of this fan's own sets, e.g. the 幺九刻 of a 三风刻's wind pungs).
``per_instance``
    count every instance (e.g. 幺九刻 each); otherwise a fan counts once however many instances it has.
``counts_for_min``
    false for flower and bonus fans, which never count toward a minimum and never prevent 无番和.
``limit``
    a limit fan (役满): when any applies, only limit fans are totalled.

The ``[table]`` header gives ``id``, ``name_zh``, ``name_en`` and optionally ``cap`` (the largest total
scored) and ``shapes`` (the winning shapes it recognises, e.g. ``["regular", "seven_pairs"]``; a hand
that wins only in another shape does not win with this table). ``[tie_break]`` optionally gives
``prefer`` (fan ids: among readings with the same total, a later reading scoring one of them replaces
an earlier one) and ``yield`` (fan ids of a special reading
that gives way to any later reading with the same total).

A fan that another counted fan excludes is not counted and excludes nothing itself: rows are processed
in table order, and a row already removed applies none of its exclusions.

>>> t = load_table("mcr")
>>> t.row("big_four_winds").value, t.row("big_four_winds").name_zh
(88, '大四喜')
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

from erma.errors import RuleSetError
from erma.frozen import reduce_frozen

_ROW_KEYS = frozenset(
    {"id", "name_zh", "name_en", "value", "excludes", "per_instance", "counts_for_min", "limit"}
)
_EXCL_KEYS = frozenset({"id", "count", "own"})
_TABLE_KEYS = frozenset({"id", "name_zh", "name_en", "cap", "shapes"})
_TIE_KEYS = frozenset({"prefer", "yield"})
SHAPE_NAMES = frozenset(
    {"regular", "seven_pairs", "thirteen_orphans", "honors_and_knitted", "knitted_straight"}
)
"""The shape names a table's ``shapes`` may list (:mod:`erma.scoring.features`)."""
_TOP_KEYS = frozenset({"table", "tie_break", "fans"})


@dataclass(frozen=True, slots=True)
class Exclusion:
    """One 不计 entry of a row: which fan it removes and how much of it."""

    target: str
    """The id of the fan removed."""
    count: int = 0
    """Instances removed; 0 removes every instance."""
    own: bool = False
    """Remove only the instances made of the excluding fan's own sets."""

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Rebuilt through the constructor (copy, pickle; also when compiled)."""
        return reduce_frozen(self)


@dataclass(frozen=True, slots=True)
class FanRow:
    """One fan of a table (番种)."""

    id: str
    """The detector id, shared by all tables."""
    name_zh: str
    """Chinese name, as printed."""
    name_en: str
    """English name, as printed."""
    value: int
    """Points per instance (番数); 0 = not scored."""
    excludes: tuple[Exclusion, ...] = ()
    """What this fan removes when counted (不计)."""
    per_instance: bool = False
    """Count each instance (e.g. 幺九刻 each) rather than once."""
    counts_for_min: bool = True
    """False for flower and bonus fans (花牌)."""
    limit: bool = False
    """A limit fan (役满)."""

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Rebuilt through the constructor (copy, pickle; also when compiled)."""
        return reduce_frozen(self)


@dataclass(frozen=True, slots=True)
class FanTable:
    """A fan table: rows in priority order, an optional cap and tie-break preferences."""

    id: str
    """Table id, the file's stem: ``mcr``."""
    name_zh: str
    """Chinese name of the table."""
    name_en: str
    """English name of the table."""
    rows: tuple[FanRow, ...]
    """The scored fans (value > 0), in priority order."""
    cap: int | None = None
    """Largest total scored; None = no cap."""
    prefer: frozenset[str] = frozenset()
    """Tie-break: a later reading with one of these fans wins a tie."""
    yield_to_later: frozenset[str] = frozenset()
    """Tie-break: a reading with one of these fans gives way to any later reading with the same total."""
    shapes: frozenset[str] | None = None
    """The winning shapes the table recognises (``regular``, ``seven_pairs``, …); None = every shape."""

    def row(self, fan_id: str) -> FanRow:
        """The row of a fan id; KeyError if the table does not score it."""
        for r in self.rows:
            if r.id == fan_id:
                return r
        raise KeyError(fan_id)

    @property
    def ids(self) -> tuple[str, ...]:
        """The scored fan ids, in priority order."""
        return tuple(r.id for r in self.rows)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Rebuilt through the constructor (copy, pickle; also when compiled)."""
        return reduce_frozen(self)


_known_ids: Callable[[], Collection[str]] | None = None


def set_known_ids(provider: Callable[[], Collection[str]]) -> None:
    """Register where the known fan ids come from (the detector registry does this on import)."""
    global _known_ids
    _known_ids = provider


def table_names() -> list[str]:
    """The ids of the packaged tables."""
    root = resources.files("erma.scoring").joinpath("tables")
    return sorted(p.name[:-5] for p in root.iterdir() if p.name.endswith(".toml"))


@functools.cache
def load_table(name: str) -> FanTable:
    """Read the packaged table ``tables/<name>.toml``; RuleSetError for an unknown name or a bad file."""
    if not isinstance(name, str) or not name.isidentifier():
        raise RuleSetError(f"fan table {name!r}: not a table name; tables are {', '.join(table_names())}")
    res = resources.files("erma.scoring").joinpath("tables", f"{name}.toml")
    if not res.is_file():
        raise RuleSetError(f"unknown fan table {name!r}; tables are {', '.join(table_names())}")
    return parse_table(res.read_text(encoding="utf-8"), f"{name}.toml")


def parse_table(text: str, source: str = "<table>") -> FanTable:
    """Parse and check a table file's text; ``source`` names the file in error messages."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RuleSetError(f"{source}: not valid TOML: {exc}") from None
    _no_unknown(data, _TOP_KEYS, source, "top level")
    head = _table_of(data, "table", source)
    _no_unknown(head, _TABLE_KEYS, source, "[table]")
    table_id = _str(head, "id", source, "[table]")
    cap = head.get("cap")
    if cap is not None and (not _is_int(cap) or cap <= 0):
        raise RuleSetError(f"{source}: [table] cap must be a positive integer, not {cap!r}")
    shapes = head.get("shapes")
    if shapes is not None and (
        not isinstance(shapes, list) or not shapes or not all(s in SHAPE_NAMES for s in shapes)
    ):
        raise RuleSetError(
            f"{source}: [table] shapes must be a list of {', '.join(sorted(SHAPE_NAMES))}, not {shapes!r}"
        )
    tie = _table_of(data, "tie_break", source, required=False)
    _no_unknown(tie, _TIE_KEYS, source, "[tie_break]")
    raw_rows = data.get("fans")
    if not isinstance(raw_rows, list) or not raw_rows:
        raise RuleSetError(f"{source}: no [[fans]] rows")
    known = set(_known_ids()) if _known_ids is not None else None
    rows: list[FanRow] = []
    seen: set[str] = set()
    for i, raw in enumerate(raw_rows, 1):
        row = _parse_row(raw, i, source, known)
        if row.id in seen:
            raise RuleSetError(f"{source}: fan row {i} ({row.id!r}): the id appears twice")
        seen.add(row.id)
        if row.value > 0:
            rows.append(row)
    prefer = _id_list(tie, "prefer", source, known)
    yld = _id_list(tie, "yield", source, known)
    return FanTable(
        id=table_id,
        name_zh=_str(head, "name_zh", source, "[table]"),
        name_en=_str(head, "name_en", source, "[table]"),
        rows=tuple(rows),
        cap=cap,
        prefer=frozenset(prefer),
        yield_to_later=frozenset(yld),
        shapes=None if shapes is None else frozenset(shapes),
    )


def _parse_row(raw: object, i: int, source: str, known: set[str] | None) -> FanRow:
    if not isinstance(raw, dict):
        raise RuleSetError(f"{source}: fan row {i}: expected a table of keys, got {raw!r}")
    where = f"fan row {i} ({raw.get('id', '?')!r})"
    _no_unknown(raw, _ROW_KEYS, source, where)
    fan_id = _str(raw, "id", source, where)
    if known is not None and fan_id not in known:
        raise RuleSetError(f"{source}: {where}: unknown fan id {fan_id!r} (no detector has this id)")
    value = raw.get("value")
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise RuleSetError(f"{source}: {where}: value must be an integer ≥ 0, not {value!r}")
    excludes: list[Exclusion] = []
    raw_ex = raw.get("excludes", [])
    if not isinstance(raw_ex, list):
        raise RuleSetError(f"{source}: {where}: excludes must be a list, not {raw_ex!r}")
    for item in raw_ex:
        excludes.append(_parse_exclusion(item, source, where, known))
    flags = {}
    for key, default in (("per_instance", False), ("counts_for_min", True), ("limit", False)):
        v = raw.get(key, default)
        if not isinstance(v, bool):
            raise RuleSetError(f"{source}: {where}: {key} must be true or false, not {v!r}")
        flags[key] = v
    return FanRow(
        id=fan_id,
        name_zh=_str(raw, "name_zh", source, where),
        name_en=_str(raw, "name_en", source, where),
        value=value,
        excludes=tuple(excludes),
        per_instance=flags["per_instance"],
        counts_for_min=flags["counts_for_min"],
        limit=flags["limit"],
    )


def _parse_exclusion(item: object, source: str, where: str, known: set[str] | None) -> Exclusion:
    if isinstance(item, str):
        ex = Exclusion(item)
    elif isinstance(item, dict):
        _no_unknown(item, _EXCL_KEYS, source, f"{where} excludes")
        target = _str(item, "id", source, f"{where} excludes")
        count = item.get("count", 0)
        own = item.get("own", False)
        if not _is_int(count) or count < 0 or not isinstance(own, bool) or (count and own):
            raise RuleSetError(
                f"{source}: {where}: exclusion {item!r} needs a count ≥ 1 or own = true (not both)"
            )
        ex = Exclusion(target, count, own)
    else:
        raise RuleSetError(
            f"{source}: {where}: an exclusion is an id or {{ id = …, count = N }}, not {item!r}"
        )
    if known is not None and ex.target not in known:
        raise RuleSetError(f"{source}: {where}: excludes unknown fan id {ex.target!r}")
    return ex


def _id_list(tie: Mapping[str, Any], key: str, source: str, known: set[str] | None) -> list[str]:
    v = tie.get(key, [])
    if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
        raise RuleSetError(f"{source}: [tie_break] {key} must be a list of fan ids, not {v!r}")
    for x in v:
        if known is not None and x not in known:
            raise RuleSetError(f"{source}: [tie_break] {key}: unknown fan id {x!r}")
    return list(v)


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _table_of(data: Mapping[str, Any], key: str, source: str, *, required: bool = True) -> dict[str, Any]:
    v = data.get(key)
    if v is None and not required:
        return {}
    if not isinstance(v, dict):
        raise RuleSetError(f"{source}: missing or malformed [{key}] section")
    return v


def _str(d: Mapping[str, Any], key: str, source: str, where: str) -> str:
    v = d.get(key)
    if not isinstance(v, str) or not v:
        raise RuleSetError(f"{source}: {where}: {key} must be a non-empty string, not {v!r}")
    return v


def _no_unknown(d: Mapping[str, Any], allowed: frozenset[str], source: str, where: str) -> None:
    extra = sorted(set(d) - allowed)
    if extra:
        raise RuleSetError(f"{source}: {where}: unknown key(s) {', '.join(map(repr, extra))}")
