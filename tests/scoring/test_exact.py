"""Detectors keep the word of their declarations, on every corpus reading of a shape they read: where the
facts lack one of their ``needs`` they find nothing, and those that declare ``exact`` find, where the facts
meet their needs, exactly the one hit the pipeline writes for them (the whole hand or the winning tile)."""

from __future__ import annotations

import json
from pathlib import Path

from erma.scoring import REGISTRY
from erma.scoring.plain import plain_facts
from erma.scoring.readings import readings_of

CORPUS = Path(__file__).resolve().parent.parent / "data" / "mcr_corpus.jsonl"
RECORDS = [
    json.loads(line)["record"] for line in CORPUS.read_text(encoding="utf-8").splitlines() if line.strip()
]


def test_detectors_keep_their_declarations() -> None:
    exact = [spec for spec in REGISTRY.values() if spec.exact]
    needing = [spec for spec in REGISTRY.values() if spec.needs and spec.detect is not None]
    assert len(exact) >= 20
    met = dict.fromkeys((spec.id for spec in exact), 0)
    for record in RECORDS:
        facts = plain_facts(record)
        assert facts is not None
        for view in readings_of(facts):
            for spec in needing:
                if view.shape in spec.shapes and spec.needs & ~view.features:
                    assert spec.detect is not None
                    assert not spec.detect(view), (spec.id, record, view.describe())
            for spec in exact:
                if view.shape not in spec.shapes or spec.needs & ~view.features:
                    continue
                assert spec.detect is not None
                want = [(facts.tiles,)] if spec.exact == "hand" else [((facts.win_tile,),)]
                assert spec.detect(view) == want, (spec.id, record, view.describe())
                met[spec.id] += 1
    assert all(met.values()), [k for k, v in met.items() if not v]  # each one met on some reading
