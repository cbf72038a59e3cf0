"""The declared waits' data and fit (lab): rows from arena games, the known-safe kinds, the logistic fit."""

from __future__ import annotations

import numpy as np

from erma.bots.expert.declared import N_FEATURES
from erma.lab.arena import ArenaConfig
from erma.lab.declared_waits import META, auc, col, collect, fit, log_loss, predict, summary
from erma.rules import find_ruleset


def test_collect_rows_and_known_safe_kinds() -> None:
    config = ArenaConfig(find_ruleset("classic64"), ("level5", "greedy"), "dw-test")
    rows = collect(config, range(4))
    assert rows.shape[1] == len(META) + N_FEATURES
    assert len(rows) > 0
    labels = rows[:, col("label")]
    assert set(np.unique(labels)) <= {0.0, 1.0}
    safe = rows[:, col("safe")] > 0.5
    assert labels[safe].sum() == 0  # a kind let go by since the declaration never deals in
    assert np.all((rows[:, col("baseline")] >= 0) & (rows[:, col("baseline")] <= 1))
    s = summary(rows, np.zeros(N_FEATURES))
    assert s["rows"] == len(rows) and s["safe_waits"] == 0


def test_fit_and_scores() -> None:
    rng = np.random.default_rng(0)
    x = np.column_stack([np.ones(4000), rng.normal(size=4000)])
    y = (rng.random(4000) < 1 / (1 + np.exp(-(-1 + 2 * x[:, 1])))).astype(float)
    w = fit(x, y, l2=0.1)
    assert abs(w[0] + 1) < 0.2 and abs(w[1] - 2) < 0.2
    p = predict(x, w)
    assert auc(p, y) > 0.8 and auc(-p, y) < 0.2
    assert auc(np.array([1.0, 1.0]), np.array([1.0, 0.0])) == 0.5
    assert log_loss(p, y) < log_loss(np.full(4000, y.mean()), y)
