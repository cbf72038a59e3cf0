"""Identical results compiled and pure (编译与纯 Python 结果一致): one JSON of each build, the same digest.

A child process of each build (``ERMA_PURE=1`` for the pure one, spawned side by side) writes one JSON of

- ``shanten``: 20,000 random 13-tile hands' shanten by shape, and every win of the ready ones among them
  scored;
- ``fans``: 20,000 winning hands built from random sets (some declared, random flags and winds, a few seven
  pairs) scored with ``mcr``, the first 4,000 of them with every other packaged fan table too: each
  result's fans (id, names, points, count, tiles), total, capped total and reading, or its error;
- ``records``: the golden records (tests/data/records) replayed: every event and the result;
- ``arena``: a duplicate arena run, ``greedy`` against ``level3``, 10 walls (20 games) in each of two presets:
  every game's record and the summary (without the decision times, which are clocks);

and the test compares the two digests (and the parts' sizes, so that an empty part cannot pass). The same
file is the child: ``python tests/test_identical_builds.py PART`` prints the part's JSON.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from erma.build import build_info, pure_requested

PARTS = ("shanten", "fans", "records", "arena")
RECORDS = Path(__file__).resolve().parent / "data" / "records"
_FULL = [t for t in range(34) for _ in range(4)]


def shanten_part(hands: int = 20_000) -> dict[str, Any]:
    """Shanten by shape of random 13-tile hands, and the fans of every win of the ready ones among them."""
    from erma.analysis import shanten_by_shape, useful_tiles
    from erma.scoring import score_record
    from erma.tiles import to_mpsz

    rng = random.Random(34_001)
    out = []
    wins = []
    for _ in range(hands):
        hand = sorted(rng.sample(_FULL, 13))
        by_shape = shanten_by_shape(hand)
        out.append(by_shape)
        if min(by_shape.values()) == 0:
            for win in useful_tiles(hand):
                rec = {"packs": [], "hand": to_mpsz(hand), "win_tile": to_mpsz([win])}
                wins.append([rec["hand"], rec["win_tile"], score_record(rec)])
    return {"by_shape": out, "wins": wins}


def _winning_record(rng: random.Random) -> dict[str, Any]:
    """A complete hand from random sets and a pair (or seven pairs), some sets declared, random flags."""
    from erma.tiles import tile_to_mpsz

    counts = [0] * 34
    if rng.random() < 0.08:  # seven pairs
        kinds = rng.sample(range(34), 7)
        concealed = [t for k in kinds for t in (k, k)]
        packs: list[list[Any]] = []
    else:
        concealed = []
        packs = []
        pair = rng.randrange(34)
        counts[pair] += 2
        concealed += [pair, pair]
        while len(packs) * 3 + len(concealed) < 14:
            if rng.random() < 0.5:  # a chow
                suit, start = rng.randrange(3), rng.randrange(7)
                tiles = [9 * suit + start + i for i in range(3)]
            else:
                t = rng.randrange(34)
                tiles = [t, t, t]
            if any(counts[t] + tiles.count(t) > 4 for t in tiles):
                continue
            for t in tiles:
                counts[t] += 1
            if rng.random() < 0.3:  # declared
                if tiles[0] != tiles[1]:
                    packs.append(["CHI", tile_to_mpsz(tiles[1]), rng.randrange(1, 4)])
                elif counts[tiles[0]] == 3 and rng.random() < 0.3:
                    counts[tiles[0]] += 1
                    packs.append(["GANG", tile_to_mpsz(tiles[0]), rng.randrange(0, 4)])
                else:
                    packs.append(["PENG", tile_to_mpsz(tiles[0]), rng.randrange(1, 4)])
            else:
                concealed += tiles
    win = concealed.pop(rng.randrange(len(concealed)))
    return {
        "packs": packs,
        "hand": "".join(tile_to_mpsz(t) for t in sorted(concealed)),
        "win_tile": tile_to_mpsz(win),
        "flower_count": rng.choice((0, 0, 0, 1, 2)),
        "is_self_drawn": rng.random() < 0.4,
        "is_4th_tile": rng.random() < 0.1,
        "is_about_kong": rng.random() < 0.1,
        "is_wall_last": rng.random() < 0.1,
        "seat_wind": rng.randrange(4),
        "prevalent_wind": rng.randrange(4),
    }


def fans_part(hands: int = 20_000, others: int = 4_000) -> dict[str, Any]:
    """The scores of winning hands built from random sets: ``hands`` of them under ``mcr``, the first
    ``others`` under every other packaged table."""
    from erma.scoring import score_record, table_names

    rng = random.Random(34_002)
    records = [_winning_record(rng) for _ in range(hands)]
    return {
        name: [score_record(r, name) for r in (records if name == "mcr" else records[:others])]
        for name in table_names()
    }


def records_part() -> dict[str, Any]:
    """The golden records replayed: events and result of each."""
    from erma.game.events import replay_events
    from erma.game.record import replay

    out = {}
    for path in sorted(RECORDS.glob("*.json")):
        if path.name == "index.json":
            continue
        state = replay(json.loads(path.read_text(encoding="utf-8")))
        assert state.result is not None
        out[path.name] = {"events": replay_events(state.events), "result": state.result.to_json()}
    return out


def arena_part(walls: int = 10) -> dict[str, Any]:
    """A duplicate arena run, greedy against level3, in two presets: every game's record and the summary."""
    from erma.lab.arena import ArenaConfig, run_arena
    from erma.rules import PRESETS

    out = {}
    for preset in ("cuopai789", "wenzhou2p"):
        with tempfile.TemporaryDirectory() as folder:
            config = ArenaConfig(PRESETS[preset], ("greedy", "level3"), seed=34, records=folder)
            summary = run_arena(config, walls)
            summary.pop("decision_ms")  # wall-clock times: the one thing that differs
            games = {
                p.name: json.loads(p.read_text(encoding="utf-8")) for p in sorted(Path(folder).iterdir())
            }
        out[preset] = {"summary": summary, "games": games}
    return out


def _sizes(part: str, value: dict[str, Any]) -> list[int]:
    """What the part holds (hands scored, records, games): the test checks the parts are not empty."""
    if part == "shanten":
        return [len(value["by_shape"]), len(value["wins"])]
    if part == "fans":
        return [sum(1 for r in rs if "fans" in r) for rs in value.values()]
    if part == "records":
        return [len(value), sum(len(r["events"]) for r in value.values())]
    return [len(v["games"]) for v in value.values()]


def _child(part: str, *, pure: bool) -> tuple[str, str, list[int]]:
    """Run one part in a child of one build: (its build, the digest of its JSON, its sizes)."""
    env = {k: v for k, v in os.environ.items() if k != "ERMA_PURE"}
    if pure:
        env["ERMA_PURE"] = "1"
    done = subprocess.run(
        [sys.executable, __file__, part], env=env, capture_output=True, text=True, check=False, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    head, body = done.stdout.split("\n", 1)
    meta = json.loads(head)
    return meta["build"], hashlib.sha256(body.encode()).hexdigest(), meta["sizes"]


@pytest.mark.skipif(pure_requested(), reason="the pure run: the compiled side is the other suite's")
def test_identical_results_compiled_and_pure() -> None:
    """The golden records, 20,000 random hands' shanten and fans, winning hands' fans under every table and a
    duplicate arena run: the same JSON (one digest a part) from the compiled and the pure build."""
    info = build_info()
    if not info.built or info.stale:
        pytest.skip("no current compiled build to compare (make install)")
    with ThreadPoolExecutor(max_workers=2) as pool:
        jobs = {
            (part, pure): pool.submit(_child, part, pure=pure) for part in PARTS for pure in (False, True)
        }
        got = {key: job.result() for key, job in jobs.items()}
    for part in PARTS:
        (c_build, c_digest, c_sizes), (p_build, p_digest, p_sizes) = got[part, False], got[part, True]
        assert (c_build, p_build) == ("compiled", "pure"), part
        assert all(n > 0 for n in c_sizes), (part, c_sizes)
        assert c_sizes == p_sizes, part
        assert c_digest == p_digest, f"{part}: the builds give different results"


def main(part: str) -> None:
    import erma.scoring.pipeline
    from erma.build import is_compiled

    value = {"shanten": shanten_part, "fans": fans_part, "records": records_part, "arena": arena_part}[part]()
    build = "compiled" if is_compiled(erma.scoring.pipeline) else "pure"
    print(json.dumps({"build": build, "sizes": _sizes(part, value)}))
    print(json.dumps(value, ensure_ascii=False, sort_keys=True))


if __name__ == "__main__":
    main(sys.argv[1])
