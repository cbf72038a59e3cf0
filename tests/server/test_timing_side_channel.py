"""Timing side channel (计时旁路, issue 37 item 1): the time a player waits after its discard must not tell
whether the bot had a claim option (pon / kong / win) on it.

Plays hands against the bot over the real socket (benchmarks/timing_classifier.py) with every bot decision
slowed down by 40 ms (a slower bot or a busy worker: the stream must look the same whatever the bot's think
time), until at least 60 of the player's discards gave the bot a claim option (and about three times as many
did not), as the issue asks. Before the fix the bot paused before its hidden claim decision and again before
its discard, so its discard reached the player about one pause later after a claim option: the best
threshold on the delay to the player's next decision told the two apart in about 90% of discards.

The figure held to the issue's 60% is the best threshold classifier's balanced accuracy **held out**: the
threshold (and its direction) fitted on half of each kind's discards and scored on the other half, both ways,
over 20 random splits. Null expectation (no difference at all between the kinds; simulated, normal delays,
1,000 runs of 60 against 170): median 49%, 99th percentile 59%, over 60% in 0.3% of runs. The
in-sample figure (the threshold fitted to the very discards it scores, the KS statistic) is printed too but
not held to 60%: under the same null its median is about 56% and it passes 60% in about 6% of runs
(60 against 60: median 57%, over 60% in one run in eight), so a bound on it fails a server that leaks nothing.
The server's side: the stream resumes after a discard from the loop's timer when the pause ends, whatever the
table is doing then (``SeatStreams._release_at``), so both kinds have the same release time.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "timing_classifier.py"


def classifier() -> ModuleType:
    spec = importlib.util.spec_from_file_location("timing_classifier", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (dataclasses look their module up)
    spec.loader.exec_module(module)
    return module


def test_the_best_threshold_on_the_wait_after_a_discard_cannot_tell_a_claim_option(tmp_path: Path) -> None:
    tc = classifier()
    samples = tc.measure(per_kind=60, tables=6, time_scale=0.25, think_ms=40, data_dir=str(tmp_path))
    figures = tc.report(samples)
    print(figures)
    assert figures["with_option"] >= 60 and figures["without_option"] >= 60, figures
    for name in ("to_next", "to_turn"):
        f = figures[name]
        # the same wait, to a few ms (the pause is 300 ms here; a second pause would add 150 ms and more)
        assert abs(f["median_ms_with"] - f["median_ms_without"]) < 20, (name, figures)
        # the bound, on discards the threshold was not fitted to (before the fix: ~0.9)
        assert f["heldout_accuracy"] <= 0.60, (name, figures)


def test_the_classifier_sees_a_difference_when_there_is_one() -> None:
    tc = classifier()
    separated = [(0.30, False)] * 10 + [(0.40, True)] * 10
    assert tc.balanced_accuracy(separated) == 1.0
    mixed = [(0.30, False), (0.30, True), (0.31, False), (0.31, True)]
    assert tc.balanced_accuracy(mixed) == 0.5


def test_held_out_accuracy_is_a_coin_toss_without_a_difference_and_sees_one() -> None:
    import random

    tc = classifier()
    rng = random.Random(37)
    same = [(rng.gauss(0.3, 0.01), rng.random() < 0.25) for _ in range(240)]
    assert tc.heldout_accuracy(same) < 0.6
    apart = [(rng.gauss(0.3 + 0.02 * y, 0.01), y) for y in [True] * 60 + [False] * 180]
    assert tc.heldout_accuracy(apart) > 0.75
