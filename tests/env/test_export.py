"""``erma sim --export``: decision shards of the same games ``erma sim`` plays."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from erma.bots.nn.features import NUM_ACTIONS, NUM_PLANES
from erma.cli import main


def test_export_writes_the_games_sim_plays(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["sim", "--rules", "cuopai789", "--games", "6", "--bots", "greedy,random", "--seed", "4", "--json"]
    assert main([*args, "--export", str(tmp_path / "out")]) == 0
    exported = json.loads(capsys.readouterr().out)
    assert main(args) == 0
    plain = json.loads(capsys.readouterr().out)
    for key in ("wins", "draws", "points", "avg_actions_per_hand", "fans"):
        assert exported[key] == plain[key]
    shards = sorted((tmp_path / "out").glob("shard-*.npz"))
    assert shards
    with np.load(shards[0]) as d:
        n = len(d["action"])
        assert n == round(plain["avg_actions_per_hand"] * 6)
        assert d["obs"].shape == (n, NUM_PLANES, 34) and d["mask"].shape == (n, NUM_ACTIONS)
        assert all(d["mask"][i, d["action"][i]] == 1 for i in range(n))  # the action taken was allowed
        assert sorted(set(d["game"].tolist())) == list(range(6))
        points = [0, 0]
        for g in range(6):
            rows = d["game"] == g
            for seat in (0, 1):
                at = rows & (d["seat"] == seat)
                if at.any():
                    bot = int(d["bot"][at][0])
                    points[bot] += int(d["returns"][at][0])
        assert points == plain["points"] or sum(points) == 0
        assert list(d["bots"]) == ["greedy", "random"]


def test_export_with_records_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["sim", "--games", "1", "--export", str(tmp_path / "a"), "--records", str(tmp_path / "b")])
    assert code != 0
    assert "--export" in capsys.readouterr().err
