"""The arena: duplicate walls, paired statistics, the same figures for any number of workers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from erma.cli import main
from erma.lab.arena import (
    ArenaConfig,
    GameOutcome,
    WallResult,
    duplicate_games,
    logged_games,
    percentiles,
    play_wall,
    run_arena,
    summarize,
)
from erma.rules import find_ruleset

KEYS = [
    "rules",
    "walls",
    "hands",
    "bots",
    "points_per_hand",
    "diff",
    "diff_ci95",
    "sd_hand",
    "wins",
    "draws",
    "deal_ins",
    "decision_ms",
]


def _timeless(summary: dict) -> dict:  # type: ignore[type-arg]
    return {k: v for k, v in summary.items() if k != "decision_ms"}


def test_a_wall_is_played_twice_with_seats_and_dealer_swapped(tmp_path: Path) -> None:
    config = ArenaConfig(find_ruleset("classic64"), ("level5", "greedy"), "swap", str(tmp_path))
    result = play_wall(config, 3)
    a, b = (json.loads((tmp_path / f"wall-000003-{g}.json").read_text()) for g in (0, 1))
    assert a["bots"] == ["level5", "greedy"] and b["bots"] == ["greedy", "level5"]
    assert a["seed"] == b["seed"] and a["dealer"] == b["dealer"] == 1  # same wall, same dealer seat
    # so the bot that dealt in game 0 is the other bot's in game 1, and each holds the other's tiles
    assert sum(g.points[0] + g.points[1] for g in result.games) == 0
    assert len(result.decision_ms[0]) > 0 and len(result.decision_ms[1]) > 0


def test_summary_of_known_walls() -> None:
    config = ArenaConfig(find_ruleset("classic64"), ("a", "b"), 0)
    walls = [
        WallResult(0, (GameOutcome((8, -8), 0, 1), GameOutcome((-2, 2), 1, None)), ((1.0, 3.0), (2.0,))),
        WallResult(1, (GameOutcome((0, 0), None, None), GameOutcome((4, -4), 0, 1)), ((5.0,), (4.0,))),
    ]
    s = summarize(config, walls)
    assert list(s) == KEYS
    assert s["hands"] == 4 and s["wins"] == [2, 1] and s["draws"] == 1 and s["deal_ins"] == [0, 2]
    assert s["points_per_hand"] == [2.5, -2.5]
    assert s["diff"] == 5.0  # per-wall (16 − 4) / 2 = 6 and (0 + 8) / 2 = 4
    lo, hi = s["diff_ci95"]
    assert lo < 5.0 < hi and round(hi - 5.0, 4) == 1.96  # sd of [6, 4] is √2, over √2 walls
    assert s["sd_hand"] == round((sum((x - 2.5) ** 2 for x in (8, -2, 0, 4)) / 3) ** 0.5, 4)
    assert s["decision_ms"]["a"] == {"p50": 3.0, "p95": 5.0, "p99": 5.0, "max": 5.0}


def test_percentiles_nearest_rank() -> None:
    values = [float(x) for x in range(1, 101)]
    assert percentiles(values) == {"p50": 50.0, "p95": 95.0, "p99": 99.0, "max": 100.0}
    assert percentiles([]) == {"p50": 0.0, "p95": 0.0, "p99": 0.0, "max": 0.0}


def test_one_or_two_workers_give_the_same_figures() -> None:
    config = ArenaConfig(find_ruleset("wenzhou2p"), ("level5", "greedy"), "workers")
    one = run_arena(config, 6, workers=1)
    two = run_arena(config, 6, workers=2)
    assert _timeless(one) == _timeless(two)
    assert one["decision_ms"].keys() == two["decision_ms"].keys() == {"level5", "greedy"}


@pytest.mark.parametrize("name", ["cuopai789", "wenzhou2p"])
def test_null_check_a_bot_against_itself_covers_zero(name: str) -> None:
    s = run_arena(ArenaConfig(find_ruleset(name), ("greedy", "greedy"), "null"), 40)
    lo, hi = s["diff_ci95"]
    assert lo <= 0 <= hi
    assert set(s["decision_ms"]) == {"greedy#1", "greedy#2"}


def test_cli_json_line(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["arena", "--rules", "classic64", "--bots", "level2,level1", "--walls", "3", "--json"])
    assert code == 0
    line = capsys.readouterr().out.strip()
    assert "\n" not in line and list(json.loads(line)) == KEYS


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "level5,nobody"], "unknown bot 'nobody'"),
        (["--bots", "level5"], "name two bots"),
        (["--walls", "0"], "--walls 0"),
        (["--workers", "0"], "--workers 0"),
        (["--rules", "mahjong"], "unknown rule set"),
    ],
)
def test_cli_bad_input(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--walls", "1", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_logged_games_are_the_arenas_games_with_the_bots_wrapped() -> None:
    rules = find_ruleset("classic64")
    walls = range(4, 7)
    assert [(w, g, d) for w, g, _, d in duplicate_games("logged", walls)] == [
        (w, g, w % 2) for w in walls for g in (0, 1)
    ]
    seen: list[tuple[int, int, int, str]] = []

    def wrap(bot, log, wall, game, seat):  # type: ignore[no-untyped-def]
        seen.append((wall, game, seat, bot.name))
        log.append({"seat": seat})
        return bot

    got = list(logged_games(rules, "logged", walls, ("level5", "greedy"), wrap))
    config = ArenaConfig(rules, ("level5", "greedy"), "logged")
    for w in walls:
        played = play_wall(config, w)
        for g in (0, 1):
            wall, game, result, log = got[2 * (w - walls[0]) + g]
            assert (wall, game) == (w, g)
            assert (result.deltas[g], result.deltas[1 - g]) == played.games[g].points  # bot A sits in seat g
            assert log == [{"seat": 0}, {"seat": 1}]
    assert {(g, s, name) for _, g, s, name in seen} == {
        (0, 0, "level5"),
        (0, 1, "greedy"),
        (1, 0, "greedy"),
        (1, 1, "level5"),
    }
