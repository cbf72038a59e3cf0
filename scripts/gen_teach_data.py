"""Regenerate the teaching data (erma.teach): the fan examples and the phase seeds the rules pages show, and
print the tutorial secrets to put in erma/teach/tutorial.py. Searches with the engine; a few minutes.

    .venv/bin/python scripts/gen_teach_data.py --fans --phases --tutorial
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from erma.rules.ruleset import PRESETS
from erma.scoring import load_table
from erma.teach import fan_examples, phases, tutorial

DATA = Path(__file__).resolve().parent.parent / "src" / "erma" / "teach"


def fans() -> None:
    out = {p: fan_examples.search(p) for p in fan_examples.STANDARD_PRESETS}
    for p, found in out.items():
        rows = load_table(PRESETS[p].fan_table).rows
        missing = [r.id for r in rows if r.id not in found]
        print(f"{p}: {len(found)} examples for {len(rows)} fans; missing {missing}", flush=True)
    text = json.dumps(out, ensure_ascii=False, indent=1, sort_keys=True) + "\n"
    (DATA / "fan_examples.json").write_text(text, encoding="utf-8")


def phase_seeds() -> None:
    out: dict[str, dict[str, str]] = {}
    for preset, names in phases.PHASES.items():
        out[preset] = {}
        for phase in names:
            seed = phases.search(preset, phase)
            print(preset, phase, seed, flush=True)
            if seed is not None:
                out[preset][phase] = seed
    (DATA / "phase_seeds.json").write_text(json.dumps(out, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def tutorials() -> None:
    for preset in tutorial.SECRETS:
        print(preset, tutorial.search(preset), flush=True)


if __name__ == "__main__":
    args = sys.argv[1:]
    if "--fans" in args:
        fans()
    if "--phases" in args:
        phase_seeds()
    if "--tutorial" in args:
        tutorials()
