"""The options of a rule set and the presets ``cuopai789``, ``classic64``, ``wushuang128``.

Every key of RULES.md §0.10, §1.13, §2.12 and §5.6 is a field with its documented default; a preset is a
name plus the keys it changes. Overrides are validated: an unknown key or a bad value is a RuleSetError.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from erma.errors import RuleSetError

_KINDS = {"full": tuple(range(34)), "wan_honors": (*range(9), *range(27, 34))}


def _choice(*values: object) -> dict[str, Any]:
    return {"choices": values}


@dataclass(frozen=True, slots=True)
class RuleSet:
    """A complete, frozen set of rule options (one field per key of RULES.md)."""

    name: str = "custom"
    """The preset the options came from."""

    # --- tiles (RULES §1.1, §2.1)
    tile_set: str = field(default="full", metadata=_choice("full", "wan_honors"))
    """``full`` 136 tiles (万筒条 + honours) or ``wan_honors`` (万 + honours only)."""
    copies: int = field(default=4, metadata=_choice(4, 8))
    """Copies of each kind: 4, or 8 for 无双."""
    flowers: bool = False
    """Add the eight flowers (one each), §2.6."""
    hand_size: int = field(default=13, metadata=_choice(13))
    """Tiles in a hand between turns."""

    # --- common keys (§0.10)
    seat_winds: tuple[int, int] = (0, 2)
    """Seat winds of dealer and non-dealer (0–3 = 东南西北): East and West."""
    prevalent_wind: int = field(default=0, metadata={"range": (0, 3)})
    """Prevalent wind of the first hand."""
    rotate_prevalent_wind: bool = False
    """Advance the prevalent wind each time the deal has passed twice."""
    same_tile_discard_after_claim: bool = True
    """A claimant may discard the kind just claimed."""

    # --- wall (§1.2)
    inplay_tiles: int | None = field(default=None, metadata={"range": (27, 136), "nullable": True})
    """Size of the in-play set (71 in cuopai789); None = every tile is in play (no reserve)."""
    inplay_includes_deal: bool = True
    """The in-play set includes the dealt tiles."""

    # --- dealer (§1.4, §2.2)
    first_dealer: str = field(default="random", metadata=_choice("random", "dice"))
    dealer_dice: str = field(default="sum_parity", metadata=_choice("sum_parity", "highest_roll"))
    dealer_rotation: str = field(default="winner", metadata=_choice("winner", "alternate"))
    """``winner``: the winner deals next; ``alternate``: the deal passes every hand."""
    draw_keeps_dealer: bool = True
    """After a 流局 the dealer deals again."""

    # --- kongs and robbing (§1.6, §2.3, §2.4)
    robbing_kong_only_added: bool = True
    robbing_kong_counts_as_self_draw: bool = False
    """A robbing win scores as self-drawn (cuopai789)."""
    wushuang_kong_extension: bool = False
    """Kongs may grow to 8 tiles with one's own tiles (无双)."""
    extension_counts_as_kong: bool = False
    rob_extended_kong: bool = True

    # --- declare ready 报听 (§1.8, §2.5)
    declare_ready_enabled: bool = True
    auto_win_on_self_draw_after_riichi: bool = True
    riichi_pass_furiten: str = field(default="none", metadata=_choice("none", "same_go_around", "permanent"))
    kong_after_riichi: str = field(
        default="if_waits_unchanged", metadata=_choice("if_waits_unchanged", "never")
    )

    # --- bonus tiles 花牌 (§1.7)
    bonus_reveal_count: int = field(default=0, metadata={"range": (0, 4)})
    bonus_reveal_from: str = field(default="inplay_tail", metadata=_choice("inplay_tail", "reserve"))
    bonus_kind: str = field(default="revealed", metadata=_choice("revealed", "next"))
    bonus_counts_for_min_fan: bool = False
    cap_applies_to_bonus: bool = True

    # --- assist mechanics (§1.9)
    assist_pool: str = field(default="reserve+wall", metadata=_choice("reserve+wall", "reserve_only"))
    start_exchange_enabled: bool = False
    start_exchange_max: int | None = field(default=None, metadata={"range": (0, 14), "nullable": True})
    triplet_offer_prob: float = field(default=0.0, metadata={"range": (0.0, 1.0)})
    triplet_offer_max_per_hand: int = field(default=1, metadata={"range": (0, 99)})
    triplet_offer_bias: str = field(default="uniform", metadata=_choice("uniform", "helpful"))
    cuo_prob: float = field(default=0.0, metadata={"range": (0.0, 1.0)})
    cuo_max_per_hand: int = field(default=1, metadata={"range": (0, 99)})
    cuo_allowed_after_riichi: bool = False

    # --- exhaustion and 海底捞月 (§1.10)
    haidi_ready_means: str = field(default="declared", metadata=_choice("declared", "tenpai"))
    haidi_mode: str = field(default="none", metadata=_choice("pick_reserve", "none"))
    haidi_picks: int = field(default=1, metadata={"range": (1, 99)})
    haidi_second_player_if_first_fails: bool = False

    # --- scoring and settlement (§1.11, §2.10)
    fan_table: str = "erqs"
    fan_cap: int | None = field(default=None, metadata={"range": (1, 10_000), "nullable": True})
    min_fan: int = field(default=8, metadata={"range": (0, 10_000)})
    flowers_count_for_min_fan: bool = False
    mcr_base_points: int = field(default=0, metadata={"range": (0, 100)})
    escape_points: int = field(default=88, metadata={"range": (0, 10_000)})

    # --- match (§5.6)
    match_hands: int = field(default=0, metadata={"range": (0, 10_000)})
    next_hand_timeout_s: float = field(default=15.0, metadata={"range": (0.0, 3600.0)})
    settle_each_hand: bool = True
    turn_timeout_s: float = field(default=15.0, metadata={"range": (0.0, 3600.0)})
    claim_timeout_s: float = field(default=8.0, metadata={"range": (0.0, 3600.0)})
    autoplay_after_timeouts: int = field(default=2, metadata={"range": (1, 100)})
    autoplay_policy: str = field(default="greedy", metadata=_choice("greedy", "tsumogiri"))
    disconnect_grace_s: float | None = field(
        default=None, metadata={"range": (0.0, 86400.0), "nullable": True}
    )
    bean_rate: int = field(default=1, metadata={"range": (0, 10**9)})
    cap_by_balance: bool = True
    cap_by_winner_balance: bool = False
    escape_share_weights: str = field(default="equal", metadata=_choice("equal"))

    # ------------------------------------------------------------------------------------ derived

    @property
    def kinds(self) -> tuple[int, ...]:
        """The suit and honour kinds in play."""
        return _KINDS[self.tile_set]

    def tile_list(self) -> list[int]:
        """The full tile list in index order (what the shuffle shuffles)."""
        tiles = [t for t in self.kinds for _ in range(self.copies)]
        if self.flowers:
            tiles += list(range(34, 42))
        return tiles

    def overrides(self) -> dict[str, Any]:
        """The options that differ from this rule set's preset."""
        base = PRESETS.get(self.name, RuleSet())
        out = {}
        for f in fields(self):
            if f.name != "name" and getattr(self, f.name) != getattr(base, f.name):
                value = getattr(self, f.name)
                out[f.name] = list(value) if isinstance(value, tuple) else value
        return out


_FIELDS = {f.name: f for f in fields(RuleSet)}


def _check(preset: str, key: str, value: Any) -> Any:
    f = _FIELDS.get(key)
    if f is None or key == "name":
        known = ", ".join(sorted(k for k in _FIELDS if k != "name"))
        raise RuleSetError(f"rule set {preset!r}: unknown option {key!r} (options: {known})")
    meta = f.metadata
    default = f.default
    if value is None and meta.get("nullable"):
        return None
    if "choices" in meta:
        if value not in meta["choices"] or type(value) is not type(meta["choices"][0]):
            choices = ", ".join(repr(c) for c in meta["choices"])
            raise RuleSetError(f"rule set {preset!r}: {key} must be one of {choices}, not {value!r}")
        return value
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise RuleSetError(f"rule set {preset!r}: {key} must be true or false, not {value!r}")
        return value
    if key == "seat_winds":
        if not (
            isinstance(value, list | tuple) and len(value) == 2 and all(v in (0, 1, 2, 3) for v in value)
        ):
            raise RuleSetError(f"rule set {preset!r}: seat_winds must be two winds 0–3, not {value!r}")
        return tuple(value)
    if key == "fan_table":
        from erma.scoring.table import table_names

        names = table_names()
        if value not in names:
            raise RuleSetError(
                f"rule set {preset!r}: unknown fan table {value!r} (tables: {', '.join(names)})"
            )
        return value
    lo, hi = meta.get("range", (None, None))
    wants_float = isinstance(lo, float)
    ok_type = (isinstance(value, int | float) if wants_float else isinstance(value, int)) and not isinstance(
        value, bool
    )
    if not ok_type or (lo is not None and not lo <= value <= hi):
        kind = "a number" if wants_float else "an int"
        bound = f" in {lo}–{hi}" if hi is not None and hi < 10_000 else f" ≥ {lo}"
        raise RuleSetError(f"rule set {preset!r}: {key} must be {kind}{bound}, not {value!r}")
    return float(value) if wants_float else value


def _make(name: str, **changes: Any) -> RuleSet:
    # a preset's fan table is checked by the tests (tests/game/test_rules.py), not at import
    checked: dict[str, Any] = {k: v if k == "fan_table" else _check(name, k, v) for k, v in changes.items()}
    return dataclasses.replace(RuleSet(), name=name, **checked)


PRESETS: dict[str, RuleSet] = {
    "cuopai789": _make(
        "cuopai789",
        inplay_tiles=71,
        robbing_kong_counts_as_self_draw=True,
        bonus_reveal_count=1,
        start_exchange_enabled=True,
        triplet_offer_prob=0.05,
        cuo_prob=0.05,
        haidi_mode="pick_reserve",
        fan_table="cuopai13",
        fan_cap=13,
        min_fan=1,
        escape_points=13,
    ),
    "classic64": _make("classic64", tile_set="wan_honors"),
    "wushuang128": _make("wushuang128", tile_set="wan_honors", copies=8, wushuang_kong_extension=True),
}
"""The named presets (RULES.md §1 and §2)."""


def preset_names() -> list[str]:
    """Names of the presets."""
    return sorted(PRESETS)


def find_ruleset(name: str, overrides: Mapping[str, Any] | None = None, **more: Any) -> RuleSet:
    """The preset ``name`` with validated overrides (a mapping, keywords, or both)."""
    base = PRESETS.get(name)
    if base is None:
        raise RuleSetError(f"unknown rule set {name!r}; presets are {', '.join(preset_names())}")
    changes = {**(overrides or {}), **more}
    checked: dict[str, Any] = {k: _check(name, k, v) for k, v in changes.items()}
    return dataclasses.replace(base, **checked)
