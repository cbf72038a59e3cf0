"""The reasons a win is multiplied by (胡法), for rules pages: 温州 lists them instead of a fan table.

Kept beside the game so that nothing above it names a rule family (the server's rules page asks here).
"""

from __future__ import annotations

from typing import Any

from erma.game.families import wenzhou_wins
from erma.rules import RuleSet


def multiplier_reasons(rules: RuleSet) -> list[dict[str, Any]]:
    """Each reason with the multiplier it gives under ``rules`` (RULES §3.6, as ``wenzhou_wins.classify``
    assigns them), highest first; empty for a family scored by a fan table."""
    if rules.family != "wenzhou":
        return []
    double = set(rules.double_fan_set)
    doubling = ("hard_eight_pairs", "three_caishen", "tianhu", "dihu", "dandiao")
    mult = {
        **{r: 4 if r in double else 2 for r in doubling},
        "self_drawn": 2,
        "robbing": 2,
        "no_substitute": 2,
        "three_caishen_no_shape": rules.three_caishen_no_shape_mult,
        "soft_eight_pairs": rules.soft_eight_pairs_mult,
        "soft": 1,
    }
    rows = [
        {"id": rid, "name_zh": zh, "name_en": en, "points": mult[rid]}
        for rid, (zh, en) in wenzhou_wins._R.items()
        if rid != "robbing" or rules.rob_kong_counts_as == "self_draw"
    ]
    return sorted(rows, key=lambda r: -r["points"])
