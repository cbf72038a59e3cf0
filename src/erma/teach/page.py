"""A preset's rules page (规则页): its options, its special phases with played examples, the fan cap and the
escape with what they cost, a worked settlement, and every fan (温州: every multiplier reason) with its
points and an example hand the scorer scores. Everything is read from the rule set, the fan tables and the
engine; the client only words it."""

from __future__ import annotations

import dataclasses
from functools import cache
from typing import Any

from erma.game.engine import family_for
from erma.rules.ruleset import PRESETS, RuleSet
from erma.scoring import load_table, score_record
from erma.teach import fan_examples, phases
from erma.tiles import tile_to_mpsz

SHOWN = ("fan_table", "min_fan", "fan_cap", "escape_points", "turn_timeout_s", "claim_timeout_s")
"""Options every standard page lists besides those the preset sets (温州: its own, below)."""
SHOWN_WENZHOU = ("base_by_streak", "max_streak", "maidi_enabled", "caishen_money_unit", "escape_penalty")


def _plain(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def preset_options(name: str) -> dict[str, Any]:
    """The options preset ``name`` sets (those that differ from the rule-set defaults)."""
    rules, base = PRESETS[name], RuleSet()
    return {
        f.name: _plain(getattr(rules, f.name))
        for f in dataclasses.fields(RuleSet)
        if f.name != "name" and getattr(rules, f.name) != getattr(base, f.name)
    }


def options(name: str) -> dict[str, Any]:
    """What the page lists: the preset's own options and the family's usual ones."""
    rules = PRESETS[name]
    shown = SHOWN_WENZHOU if rules.family == "wenzhou" else SHOWN
    return {**{k: _plain(getattr(rules, k)) for k in shown}, **preset_options(name)}


def _pack_text(pack: list[Any]) -> str:
    kind, tile = pack[0], pack[1]
    if kind == "CHI":
        mid = int(tile[0])
        return f"({mid - 1}{mid}{mid + 1}{tile[1]})"
    if kind == "PENG":
        return f"({tile[0] * 3}{tile[1]})"
    size = pack[3] if len(pack) > 3 else 4
    body = f"{tile[0] * size}{tile[1]}"
    return f"[{body}]" if pack[2] == 0 else f"({body})"


_CONTEXT = (
    "is_self_drawn",
    "is_initial",
    "is_wall_last",
    "is_about_kong",
    "robbing",
    "is_4th_tile",
    "declared_ready",
    "declared_ready_first_turn",
    "ready_one_shot",
)


def fan_example(record: dict[str, Any], table: str) -> dict[str, Any]:
    """A stored example as the page shows it: sets, concealed tiles, winning tile, context and the scorer's
    verdict (every fan it scores, the total and the capped total)."""
    got = score_record(record, table)
    return {
        "sets": [_pack_text(p) for p in record["packs"]],
        "hand": record["hand"],
        "win": record["win_tile"],
        "context": [k for k in _CONTEXT if record.get(k)],
        "seat_wind": record.get("seat_wind", 0),
        "prevalent_wind": record.get("prevalent_wind", 0),
        "bonus_count": record.get("bonus_count", 0),
        "flowers": record.get("flowers", ""),
        "fans": [[f["id"], f["points"], f["count"]] for f in got.get("fans", [])],
        "total": got.get("total"),
        "capped": got.get("capped_total"),
    }


def _cap_example(name: str) -> dict[str, Any] | None:
    """A stored hand whose fans add up past the cap (the 13-fan cap at work)."""
    cap = PRESETS[name].fan_cap
    rec = fan_examples.stored().get(name, {}).get(fan_examples.CAP_KEY)
    if cap is None or rec is None:
        return None
    return {**fan_example(rec, PRESETS[name].fan_table), "cap": cap}


@cache
def rules_page(name: str) -> dict[str, Any]:
    """Preset ``name``'s page (KeyError for an unknown preset). Plays the stored example hands once."""
    rules = PRESETS[name]
    page: dict[str, Any] = {
        "name": name,
        "family": rules.family,
        "kinds": [tile_to_mpsz(t) for t in rules.kinds],
        "copies": rules.copies,
        "hand_size": rules.hand_size,
        "min_fan": rules.min_fan,
        "fan_cap": rules.fan_cap,
        "turn_timeout_s": rules.turn_timeout_s,
        "next_hand_timeout_s": rules.next_hand_timeout_s,
        "options": options(name),
        "preset_options": sorted(preset_options(name)),
        "phases": phases.examples(name),
    }
    reasons = family_for(rules).multiplier_reasons(rules)
    if reasons:  # a family that multiplies wins (温州) instead of adding fans
        page["multipliers"] = reasons
        page["base_by_streak"] = list(rules.base_by_streak)
        return page
    table = load_table(rules.fan_table)
    stored = fan_examples.stored().get(name, {})
    examples = {fid: fan_example(rec, table.id) for fid, rec in stored.items() if fid != fan_examples.CAP_KEY}
    page["fan_table"] = {"id": table.id, "name_zh": table.name_zh, "name_en": table.name_en, "cap": table.cap}
    page["fans"] = [
        {
            "id": r.id,
            "name_zh": r.name_zh,
            "name_en": r.name_en,
            "points": r.value,
            "limit": r.limit,
            "example": examples.get(r.id),
        }
        for r in table.rows
    ]
    page["fan_names"] = {r.id: [r.name_zh, r.name_en] for r in table.rows}
    page["cap_example"] = _cap_example(name)
    return page
