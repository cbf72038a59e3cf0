"""The options of a rule set and the presets ``cuopai789``, ``classic64``, ``wushuang128``, ``wenzhou2p``.

Every key of RULES.md §0.10, §1.13, §2.12, §3.10 and §5.6 is a field with its documented default; a preset
is a name plus the keys it changes. Overrides are validated: an unknown key or a bad value is a RuleSetError.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from erma.errors import RuleSetError
from erma.frozen import reduce_frozen

_KINDS = {"full": tuple(range(34)), "wan_honors": (*range(9), *range(27, 34))}


def _choice(*values: object) -> dict[str, Any]:
    return {"choices": values}


_NO_FOLLOW_WIND = (
    "follow_wind_payment=true has no two-player reading, so it must stay false: 跟风 is a four-player custom "
    "(a payment when the players' first discards are the same wind); seed page 002 does not have it, "
    "RULES §3.4 gives no payer or amount, and with two players the one possible follow is forced by 跟打 "
    "(follow_lone_honour) whenever the non-dealer holds that wind once — in about one hand in five, a "
    "payment the deal decides, not the play (docs/engine.md)"
)


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
    hand_size: int = field(default=13, metadata=_choice(13, 16))
    """Tiles in a hand between turns (16 in 温州)."""
    family: str = field(default="standard", metadata=_choice("standard", "wenzhou"))
    """Which game the engine runs: ``standard`` (fan tables, RULES §1–§2) or ``wenzhou`` (温州麻将 §3: 财神,
    honours first, 软/硬/双翻 settlement). The §3.10 keys below take effect only in the ``wenzhou`` family."""

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

    # --- 温州 wenzhou2p (§3.10); used only with family="wenzhou"
    caishen_mode: str = field(default="flipped", metadata=_choice("flipped", "next"))
    """财神 = the flipped tile's kind (``flipped``) or the kind after it (``next``)."""
    caishen_flip_removed: bool = True
    """The flipped tile leaves play (otherwise it stays in the wall face up)."""
    caishen_discardable: bool = False
    """A 财神 may be discarded (it can then only be claimed for a win, as a wild)."""
    reserve_tiles: int = field(default=16, metadata={"range": (0, 60)})
    """Tail tiles kept for kong replacement draws (the 流局 threshold)."""
    reserve_counts_tail_draws: bool = True
    """The reserve is a threshold on all undrawn tiles (each kong shortens the hand by one draw)."""
    lone_honour_first: bool = True
    """跟打: a lone honour must be discarded before anything else."""
    follow_lone_honour: bool = True
    """Follow the opponent's honour discard with one's own lone copy of it."""
    follow_wind_payment: bool = field(default=False, metadata={**_choice(False), "refused": _NO_FOLLOW_WIND})
    """跟风, a four-player custom (payment for matching first discards); no two-player reading, must stay
    false (see ``_NO_FOLLOW_WIND`` and docs/engine.md)."""
    pass_win_rule: str = field(
        default="higher_only_until_draw", metadata=_choice("higher_only_until_draw", "none")
    )
    """过水: after declining a win worth ×m, only a higher win on a discard until one's next draw."""
    allow_all_pungs: bool = True
    """Pair + five pungs is a winning shape."""
    four_of_kind_counts_as_two_pairs: bool = False
    """For 八对: four of a kind may make two pairs."""
    dihu_includes_first_self_draw: bool = False
    """地胡 also on the non-dealer's self-drawn win with their first draw."""
    dandiao_definition: str = field(
        default="single_tile_left", metadata=_choice("single_tile_left", "pair_wait")
    )
    """单吊: one concealed tile left before the win, or any win whose winning tile completes the pair."""
    rob_kong: bool = True
    """抢框: an added kong may be robbed."""
    rob_kong_counts_as: str = field(default="self_draw", metadata=_choice("self_draw", "discard"))
    """How a robbing win is classified (self-drawn: 硬)."""
    soft_eight_pairs_mult: int = field(default=2, metadata=_choice(1, 2, 4))
    """Multiplier of 软八对."""
    three_caishen_no_shape_mult: int = field(default=2, metadata=_choice(1, 2, 4))
    """Multiplier of 三财神 without a winning shape."""
    double_fan_set: tuple[str, ...] = ("hard_eight_pairs", "three_caishen", "tianhu", "dihu", "dandiao")
    """The special wins worth 双翻 ×4."""
    base_by_streak: tuple[int, ...] = (10, 20, 30, 40)
    """Base points by the dealer's streak (0, 1, 2, …; the last entry for longer streaks)."""
    max_streak: int = field(default=4, metadata={"range": (1, 99)})
    """When the streak would reach this, the dealer is drawn again and the streak restarts at 0."""
    draw_passes_deal: bool = True
    """After a 流局 the deal passes (streak 0); otherwise the dealer deals again with the same streak."""
    maidi_enabled: bool = True
    """买底 / 顶底: a yes/no choice of each seat before the deal."""
    maidi_formula: str = field(default="plus_one_bei", metadata=_choice("plus_one_bei"))
    maidi_symmetric: bool = False
    """m = b + d whoever wins (otherwise RULES §3.7's asymmetric formula)."""
    caishen_money_enabled: bool = True
    """财神钱: each 财神 held at a win collects a unit."""
    caishen_money_unit: int = field(default=1, metadata={"range": (0, 10_000)})
    caishen_money_on_draw: bool = False
    """Pay 财神钱 at a 流局 too."""
    kong_money: bool = False
    """At each kong the opponent pays 1 × base (exposed) or 2 × base (concealed) at once."""
    escape_penalty: tuple[int, int] = (16, 8)
    """Escape penalty as multiples of the current base: (dealer, other)."""

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

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Rebuilt through the constructor (copy, pickle; also when compiled)."""
        return reduce_frozen(self)


_FIELDS = {f.name: f for f in fields(RuleSet)}

_NAMES = [f.name for f in fields(RuleSet)]
_WENZHOU_KEYS = frozenset(_NAMES[_NAMES.index("caishen_mode") : _NAMES.index("escape_penalty") + 1])
"""RULES §3.10: the 温州 family's keys."""
_STANDARD_KEYS = frozenset(
    [
        *_NAMES[_NAMES.index("same_tile_discard_after_claim") : _NAMES.index("inplay_includes_deal") + 1],
        *_NAMES[_NAMES.index("dealer_rotation") : _NAMES.index("escape_points") + 1],
        "flowers",
    ]
)
"""RULES §0.10, §1.13, §2.12 keys that only the standard family reads (温州 has its own claims, deal, dealer
rotation and settlement)."""
FAMILY_KEYS: dict[str, frozenset[str]] = {"standard": _STANDARD_KEYS, "wenzhou": _WENZHOU_KEYS}
"""The keys each family reads beyond the common ones (a key of another family is refused)."""

_FIXED: dict[str, str] = {
    "family": "the family is the preset's (cuopai789, classic64, wushuang128: standard; wenzhou2p: 温州)",
    "hand_size": "the hand size is the family's (13 standard, 16 温州)",
    "robbing_kong_only_added": "only added (and extended) kongs can be robbed: must stay true",
    "extension_counts_as_kong": "a 无双 kong's extension never counts as another kong: must stay false",
    "settle_each_hand": "every hand is settled when it ends: must stay true",
    "cap_by_balance": "a payer never pays more than their balance (no negative balances): must stay true",
    "cap_by_winner_balance": "a winner's receipts are not capped by their own balance: must stay false",
    "escape_share_weights": "with two players the other player receives the whole escape penalty",
    "disconnect_grace_s": "the grace window lasts until the hand ends (null); seconds are not supported",
}
"""Keys of RULES whose other values erma does not play; overriding them is refused with the reason."""


def _check(preset: str, key: str, value: Any) -> Any:
    f = _FIELDS.get(key)
    if key == "bean_rate":
        raise RuleSetError(
            f"rule set {preset!r}: bean_rate is a room setting (rooms.toml), not a rule option"
        )
    if f is None or key == "name":
        known = ", ".join(sorted(k for k in _FIELDS if k != "name"))
        raise RuleSetError(f"rule set {preset!r}: unknown option {key!r} (options: {known})")
    meta = f.metadata
    default = f.default
    if value is None and meta.get("nullable"):
        return None
    if "choices" in meta:
        if value not in meta["choices"] or type(value) is not type(meta["choices"][0]):
            if "refused" in meta and isinstance(value, type(default)):
                raise RuleSetError(f"rule set {preset!r}: {meta['refused']}")
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
    if key in ("base_by_streak", "escape_penalty", "double_fan_set"):
        return _check_sequence(preset, key, value)
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


_DOUBLE_FANS = ("hard_eight_pairs", "three_caishen", "tianhu", "dihu", "dandiao")


def _check_sequence(preset: str, key: str, value: Any) -> tuple[Any, ...]:
    if key == "escape_penalty" and isinstance(value, Mapping):
        value = [value.get("dealer"), value.get("other")]
    if not isinstance(value, list | tuple):
        raise RuleSetError(f"rule set {preset!r}: {key} must be a list, not {value!r}")
    if key == "double_fan_set":
        if not all(v in _DOUBLE_FANS for v in value):
            raise RuleSetError(f"rule set {preset!r}: {key} entries must be among {', '.join(_DOUBLE_FANS)}")
        return tuple(value)
    ok = all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 10_000 for v in value)
    if not ok or not value or (key == "escape_penalty" and len(value) != 2):
        shape = "{dealer: n, other: n}" if key == "escape_penalty" else "a non-empty list of ints 0–10000"
        raise RuleSetError(f"rule set {preset!r}: {key} must be {shape}, not {value!r}")
    return tuple(value)


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
    "classic64": _make("classic64", tile_set="wan_honors", first_dealer="dice"),
    "wushuang128": _make(
        "wushuang128", tile_set="wan_honors", copies=8, wushuang_kong_extension=True, first_dealer="dice"
    ),
    "wenzhou2p": _make(
        "wenzhou2p",
        family="wenzhou",
        hand_size=16,
        first_dealer="dice",
        declare_ready_enabled=False,
        min_fan=0,
    ),
}
"""The named presets (RULES.md §1, §2 and §3)."""


def preset_names() -> list[str]:
    """Names of the presets."""
    return sorted(PRESETS)


def find_ruleset(name: str, overrides: Mapping[str, Any] | None = None, **more: Any) -> RuleSet:
    """The preset ``name`` with validated overrides (a mapping, keywords, or both)."""
    base = PRESETS.get(name)
    if base is None:
        raise RuleSetError(f"unknown rule set {name!r}; presets are {', '.join(preset_names())}")
    changes = {**(overrides or {}), **more}
    for key in changes:
        if key in _FIXED:
            raise RuleSetError(f"rule set {name!r}: option {key} cannot be set: {_FIXED[key]}")
        other = next((fam for fam, keys in FAMILY_KEYS.items() if key in keys and fam != base.family), None)
        if other is not None:
            raise RuleSetError(
                f"rule set {name!r}: option {key} belongs to the {other} family; {name} plays the "
                f"{base.family} family"
            )
    checked: dict[str, Any] = {k: _check(name, k, v) for k, v in changes.items()}
    return dataclasses.replace(base, **checked)
