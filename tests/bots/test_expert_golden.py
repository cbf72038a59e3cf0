"""level5 plays the golden walls exactly as recorded (tests/data/expert_golden.json, from
scripts/gen_expert_golden.py).

The expert's speed work keeps its estimate and so its choices; this shows it: every action of level5 and of
greedy in a few arena walls of each preset, compared one by one.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from scripts.gen_expert_golden import OUT, actions_of

GOLDEN = json.loads(Path(OUT).read_text(encoding="utf-8"))


@pytest.mark.parametrize("preset", sorted(GOLDEN["games"]))
def test_level5_plays_the_golden_walls_as_recorded(preset: str) -> None:
    expected = GOLDEN["games"][preset]
    got = actions_of(preset)
    assert len(got) == len(expected) == 2 * GOLDEN["walls"]
    for i, (a, b) in enumerate(zip(got, expected, strict=True)):
        first = next((k for k, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), None)
        assert a == b, (
            f"{preset} game {i}: first different action at {first}: {a[first or 0]} != {b[first or 0]}"
        )
    assert all(len(g) >= 5 for g in got)  # whole hands, not empty records
