"""erma.lab.runner: the same results for any number of workers, retries, progress, and errors."""

from __future__ import annotations

import gc
from collections.abc import Sequence
from pathlib import Path

import pytest

from erma.lab.runner import RunnerError, default_shard_size, run_walls, shards
from erma.lab.selfplay import SimConfig, run, sim_shard
from erma.rules import find_ruleset


def _square(config: int, walls: Sequence[int]) -> list[int]:
    return [config + w * w for w in walls]


def _flaky(config: str, walls: Sequence[int]) -> list[int]:
    """Fails the first time it sees a shard (a marker file per shard), then succeeds."""
    marker = Path(config) / f"seen-{walls[0]}"
    if not marker.exists():
        marker.write_text("")
        raise RuntimeError(f"first attempt at wall {walls[0]}")
    return list(walls)


def _always_fails(config: None, walls: Sequence[int]) -> list[int]:
    raise ValueError("broken shard")


def test_shards_cover_every_wall_once() -> None:
    for walls, size in [(0, 3), (1, 3), (10, 3), (9, 3), (7, 100)]:
        got = [w for s in shards(walls, size) for w in s.walls]
        assert got == list(range(walls))
    assert default_shard_size(0, 2) == 1


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_results_in_wall_order_for_any_workers(workers: int) -> None:
    seen: list[tuple[int, int]] = []
    out = run_walls(_square, 5, 23, workers=workers, shard_size=4, progress=lambda d, t: seen.append((d, t)))
    assert out == [5 + w * w for w in range(23)]
    assert seen[0] == (0, 23) and seen[-1] == (23, 23)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


@pytest.mark.parametrize("workers", [1, 2])
def test_a_failed_shard_is_run_again(tmp_path: Path, workers: int) -> None:
    out = run_walls(_flaky, str(tmp_path), 9, workers=workers, shard_size=3, retries=1)
    assert out == list(range(9))
    assert len(list(tmp_path.glob("seen-*"))) == 3  # every shard failed once and was run again


def test_a_shard_failing_every_time_stops_the_run_with_its_walls() -> None:
    with pytest.raises(RunnerError, match=r"walls 0–1 failed 3 times.*ValueError: broken shard"):
        run_walls(_always_fails, None, 4, shard_size=2, retries=2)
    with pytest.raises(RunnerError, match="failed 2 times"):
        run_walls(_always_fails, None, 4, workers=2, shard_size=2, retries=1)


def test_bad_arguments() -> None:
    with pytest.raises(RunnerError, match="--workers 0"):
        run_walls(_square, 0, 3, workers=0)
    with pytest.raises(RunnerError, match="nothing answers"):
        run_walls(_square, 0, 3, cluster="127.0.0.1:1")


def test_self_play_is_the_same_on_one_or_two_workers_and_in_any_shards() -> None:
    rules = find_ruleset("cuopai789")
    a = run(rules, ["greedy", "random"], 12, seed=5, duplicate=True).summary()
    b = run(rules, ["greedy", "random"], 12, seed=5, duplicate=True, workers=2).summary()
    for s in (a, b):
        for key in ("seconds", "games_per_second", "actions_per_second"):
            s.pop(key)
    assert a == b
    config = SimConfig(rules, ("greedy", "random"), 5, duplicate=True)
    whole = sim_shard(config, range(12))
    pieces = sim_shard(config, [7, 3]) + sim_shard(config, [0])
    assert pieces == [whole[7], whole[3], whole[0]]  # a game depends on its index only


def test_a_run_puts_the_collector_back_as_it_was() -> None:
    before = gc.get_threshold(), gc.get_freeze_count()
    seen: list[tuple[int, int, int]] = []
    run(
        find_ruleset("classic64"),
        ["random", "random"],
        2,
        seed=3,
        progress=lambda _: seen.append(gc.get_threshold()),
    )
    assert seen and all(t[0] >= 100_000 for t in seen)  # spaced out during the run
    assert (gc.get_threshold(), gc.get_freeze_count()) == before
