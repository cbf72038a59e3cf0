"""Timing side channel (计时旁路, issue 37 item 1): the time a player waits after its discard must not tell
whether the bot had a claim option (pon / kong / win) on it.

Plays hands against the bot over the real socket (benchmarks/timing_classifier.py, a smaller sample) with
every bot decision slowed down by 40 ms (a slower bot or a busy worker: the stream must look the same whatever
the bot's think time). Before the fix the bot paused before its hidden claim decision and again before its
discard, so its discard reached the player about one pause later after a claim option: the best threshold on
the delay to the player's next decision told the two apart in about 90% of discards.
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
    samples = tc.measure(per_kind=30, tables=4, time_scale=0.25, think_ms=40, data_dir=str(tmp_path))
    figures = tc.report(samples)
    assert figures["with_option"] >= 30 and figures["without_option"] >= 30, figures
    for name in ("to_next", "to_turn"):
        f = figures[name]
        # the same wait, to a few ms (the pause is 300 ms here; a second pause would add 150 ms and more)
        assert abs(f["median_ms_with"] - f["median_ms_without"]) < 20, (name, figures)
        # 30 against ~90 discards: a fair server's best threshold still scores up to ~0.68 by chance (the
        # benchmark's 100 of each are held to the 60%); before the fix this was ~0.9
        assert f["balanced_accuracy"] <= 0.75, (name, figures)


def test_the_classifier_sees_a_difference_when_there_is_one() -> None:
    tc = classifier()
    separated = [(0.30, False)] * 10 + [(0.40, True)] * 10
    assert tc.balanced_accuracy(separated) == 1.0
    mixed = [(0.30, False), (0.30, True), (0.31, False), (0.31, True)]
    assert tc.balanced_accuracy(mixed) == 0.5
