"""The golden corpus (tests/data/mcr_corpus.jsonl, made by scripts/gen_mcr_corpus.py): erma's `mcr` table
gives PyMahjongGB's fans, counts, points and total on every winning hand, and an error on every other."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from erma.scoring import score_record
from erma.tiles import BOTZONE, parse, parse_tile

CORPUS = Path(__file__).resolve().parent.parent / "data" / "mcr_corpus.jsonl"


def _rows() -> list[dict[str, Any]]:
    with CORPUS.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


ROWS = _rows()


def _fans(result: dict[str, Any]) -> list[list[Any]]:
    return sorted([f["points"], f["count"], f["name_zh"], f["name_en"]] for f in result["fans"])


def test_corpus_shape() -> None:
    wins = [r for r in ROWS if "fans" in r["expected"]]
    assert len(wins) >= 3000
    cover = Counter(f[2] for r in wins for f in r["expected"]["fans"])
    assert len(cover) == 82
    assert min(cover.values()) >= 10
    assert any(r["expected"].get("error") == "not_win" for r in ROWS)


def test_corpus_matches_golden() -> None:
    bad = []
    for row in ROWS:
        got = score_record(row["record"])
        exp = row["expected"]
        if "error" in exp:
            ok = got.get("error") == exp["error"]
        else:
            ok = "error" not in got and _fans(got) == sorted(exp["fans"]) and got["total"] == exp["total"]
            ok = ok and got["capped_total"] == got["total"]
        if not ok:
            bad.append((row, got))
    assert not bad, f"{len(bad)} mismatches, first: {bad[0]}"


def _reference(record: dict[str, Any]) -> tuple[list[list[Any]], int] | None:
    mgb = pytest.importorskip("MahjongGB")

    def bz(t: str) -> str:
        return BOTZONE[parse_tile(t)]

    hand = record["hand"]
    tiles = parse(hand) if isinstance(hand, str) else [parse_tile(t) for t in hand]
    try:
        fans = mgb.MahjongFanCalculator(
            tuple((k, bz(t), o) for k, t, o in record["packs"]),
            tuple(BOTZONE[t] for t in tiles),
            bz(record["win_tile"]),
            record["flower_count"],
            record["is_self_drawn"],
            record["is_4th_tile"],
            record["is_about_kong"],
            record["is_wall_last"],
            record["seat_wind"],
            record["prevalent_wind"],
            verbose=True,
        )
    except TypeError:
        return None
    out = sorted(list(f) for f in fans)
    return out, sum(p * c for p, c, _, _ in out)


def test_corpus_live_against_reference() -> None:
    """Re-check the golden file against PyMahjongGB itself, when it is installed."""
    pytest.importorskip("MahjongGB")
    for row in ROWS:
        ref = _reference(row["record"])
        exp = row["expected"]
        if ref is None:
            assert exp.get("error") == "not_win", row
            continue
        assert [ref[0], ref[1]] == [sorted(exp["fans"]), exp["total"]], row
        got = score_record(row["record"])
        assert _fans(got) == ref[0] and got["total"] == ref[1], (row, got)
