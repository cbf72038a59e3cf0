"""Test helper: RULES.md §0.1 hand notation with context (``(111z)123m… + 5z ; self, seat=W``) to a record."""

from __future__ import annotations

from typing import Any

from erma.hand import Hand, MeldKind
from erma.tiles import tile_to_mpsz, to_mpsz

WINDS = {"E": 0, "S": 1, "W": 2, "N": 3}
FLAG_ITEMS = {
    "initial": "is_initial",  # first turn / the dealer's first discard (天胡, 地胡, 人胡)
    "ready": "declared_ready",  # 报听
    "ready1": "declared_ready_first_turn",  # 天听 (with `ready`)
    "oneshot": "ready_one_shot",  # 报听一发 (with `ready`)
    "rob": "robbing",  # a robbed kong (with `kong`)
    "flowerset": "flowers_in_play",  # the flower variant (无花牌)
}


def record_of(text: str) -> dict[str, Any]:
    """A score_record input from a test vector; context items: self/discard, seat=, wind=, flowers=,
    last (is_4th_tile), kong (is_about_kong), wall (is_wall_last), the FLAG_ITEMS, flowerset=1234f (the
    flowers held, flower variant), bonus=N, copies=8; ``dealer`` / ``nondealer`` set is_dealer."""
    hand = Hand.parse(text)
    assert hand.win_tile is not None
    packs: list[list[Any]] = []
    for m in hand.melds:
        if m.kind is MeldKind.CHOW:
            packs.append(["CHI", tile_to_mpsz(m.tile + 1), 1])
        elif m.kind is MeldKind.PUNG:
            packs.append(["PENG", tile_to_mpsz(m.tile), 1])
        else:
            pack = ["GANG", tile_to_mpsz(m.tile), 0 if m.kind is MeldKind.CONCEALED_KONG else 1]
            packs.append(pack if m.size == 4 else [*pack, m.size])
    rec: dict[str, Any] = {
        "packs": packs,
        "hand": to_mpsz(hand.concealed),
        "win_tile": tile_to_mpsz(hand.win_tile),
        "seat_wind": 0,
        "prevalent_wind": 0,
    }
    context = text.split(";", 1)[1] if ";" in text else ""
    for item in (x.strip() for x in context.split(",")):
        if item == "self":
            rec["is_self_drawn"] = True
        elif item == "discard":
            rec["is_self_drawn"] = False
        elif item == "last":
            rec["is_4th_tile"] = True
        elif item == "kong":
            rec["is_about_kong"] = True
        elif item == "wall":
            rec["is_wall_last"] = True
        elif item in ("dealer", "nondealer"):
            rec["is_dealer"] = item == "dealer"
        elif item.startswith("seat="):
            rec["seat_wind"] = WINDS[item[5:]]
        elif item.startswith("wind="):
            rec["prevalent_wind"] = WINDS[item[5:]]
        elif item.startswith("flowers="):
            rec["flower_count"] = int(item[8:])
        elif item in FLAG_ITEMS:
            rec[FLAG_ITEMS[item]] = True
        elif item.startswith("flowerset="):
            rec["flowers"] = item[10:]
            rec["flowers_in_play"] = True
        elif item.startswith("bonus="):
            rec["bonus_count"] = int(item[6:])
        elif item.startswith("copies="):
            rec["copies"] = int(item[7:])
        elif item:
            raise ValueError(f"unknown context item {item!r} in {text!r}")
    return rec


def summary(result: dict[str, Any]) -> dict[str, int]:
    """name_zh → points × count, for compact expectations."""
    return {f["name_zh"]: f["points"] * f["count"] for f in result["fans"]}
