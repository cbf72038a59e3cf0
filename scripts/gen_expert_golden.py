"""Write tests/data/expert_golden.json: every action level5 and greedy took in a few arena walls per preset.

tests/bots/test_expert_golden.py plays the same walls and compares the actions one by one, so a change meant
to make the expert faster (the same estimate, less work) shows at once if it changed a choice. Rewrite the
file only after a deliberate change of level5's play, and say so in the commit.

    python scripts/gen_expert_golden.py
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from erma.lab.arena import ArenaConfig, play_wall
from erma.rules import find_ruleset

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "expert_golden.json"
PRESETS = ("cuopai789", "classic64", "wushuang128", "wenzhou2p")
WALLS = 6
SEED = "golden"


def actions_of(preset: str) -> list[list[list[object]]]:
    """Each game's actions ([seat, action]) of walls 0 … WALLS − 1 of ``level5,greedy`` on seed ``golden``."""
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        config = ArenaConfig(find_ruleset(preset), ("level5", "greedy"), SEED, records=tmp)
        for wall in range(WALLS):
            play_wall(config, wall)
            for game in (0, 1):
                record = json.loads((Path(tmp) / f"wall-{wall:06d}-{game}.json").read_text(encoding="utf-8"))
                out.append(record["actions"])
    return out


def main() -> None:
    data = {
        "seed": SEED,
        "walls": WALLS,
        "bots": ["level5", "greedy"],
        "games": {p: actions_of(p) for p in PRESETS},
    }
    OUT.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {OUT}: {sum(len(g) for g in data['games'].values())} games")


if __name__ == "__main__":
    main()
