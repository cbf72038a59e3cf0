"""``erma sim --export``: decision shards of the same games ``erma sim`` plays."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from erma.bots.nn.features import NUM_ACTIONS, NUM_PLANES
from erma.cli import main


def load(folder: Path) -> dict[str, np.ndarray]:
    parts: dict[str, list[np.ndarray]] = {}
    for f in sorted(folder.glob("shard-*.npz")):
        with np.load(f) as d:
            assert list(d["bots"]) == ["greedy", "random"]
            assert str(d["rules"]) == "cuopai789"
            for k in ("obs", "scalars", "mask", "action", "seat", "bot", "game", "returns"):
                parts.setdefault(k, []).append(d[k])
    return {k: np.concatenate(v) for k, v in parts.items()}


@pytest.mark.parametrize("workers", ["1", "2"])
def test_export_writes_the_games_sim_plays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], workers: str
) -> None:
    args = ["sim", "--rules", "cuopai789", "--games", "6", "--bots", "greedy,random", "--seed", "4", "--json"]
    assert main([*args, "--export", str(tmp_path / "out"), "--workers", workers]) == 0
    exported = json.loads(capsys.readouterr().out)
    assert main(args) == 0
    plain = json.loads(capsys.readouterr().out)
    for key in ("wins", "draws", "points", "avg_actions_per_hand", "fans", "random_events"):
        assert exported[key] == plain[key]
    d = load(tmp_path / "out")
    n = len(d["action"])
    assert n == round(plain["avg_actions_per_hand"] * 6)  # every decision of both seats
    assert d["obs"].shape == (n, NUM_PLANES, 34) and d["mask"].shape == (n, NUM_ACTIONS)
    assert all(d["mask"][i, d["action"][i]] == 1 for i in range(n))  # the action taken was allowed
    assert sorted(set(d["game"].tolist())) == list(range(6))
    points = [0, 0]
    for g in range(6):
        for seat in (0, 1):
            at = (d["game"] == g) & (d["seat"] == seat)
            if at.any():
                assert len(set(d["returns"][at].tolist())) == 1  # one return per seat and hand
                points[int(d["bot"][at][0])] += int(d["returns"][at][0])
    assert points == plain["points"]


def test_export_with_records_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["sim", "--games", "1", "--export", str(tmp_path / "a"), "--records", str(tmp_path / "b")])
    assert code != 0
    assert "--export" in capsys.readouterr().err
    assert not (tmp_path / "a").exists()
