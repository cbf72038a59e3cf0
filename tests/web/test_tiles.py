"""The committed SVG tile set is exactly what scripts/gen_tiles.py generates (like golden files)."""

from __future__ import annotations

import importlib.util
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_tiles_are_generated_and_committed() -> None:
    spec = importlib.util.spec_from_file_location("gen_tiles", ROOT / "scripts" / "gen_tiles.py")
    assert spec and spec.loader
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    tiles = gen.all_tiles()
    assert len(tiles) == 27 + 7 + 8 + 1
    for name, text in tiles.items():
        ET.fromstring(text)  # well-formed
        assert (gen.OUT / name).read_text(encoding="utf-8") == text, f"{name}: run scripts/gen_tiles.py"
