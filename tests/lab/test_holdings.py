"""The opponent's holdings model (lab): rows from arena games labelled by the state, the binomial fit, the
expected copies scaled to the opponent's concealed tiles."""

from __future__ import annotations

import numpy as np

from erma.game import new_hand, seat_view
from erma.lab.arena import ArenaConfig
from erma.lab.holdings import META, N_FEATURES, col, collect, expected, features, fit, held_chances, summary
from erma.rules import find_ruleset


def test_rows_count_the_opponents_concealed_tiles() -> None:
    config = ArenaConfig(find_ruleset("classic64"), ("level5", "greedy"), "holdings-test")
    rows = collect(config, range(3))
    assert rows.shape[1] == len(META) + N_FEATURES and len(rows) > 0
    held, unseen = rows[:, col("held")], rows[:, col("unseen")]
    assert np.all((held >= 0) & (held <= unseen))  # a held copy is one the seat has not seen
    key = rows[:, col("wall")] * 1e7 + rows[:, col("decision")]
    _, inv = np.unique(key, return_inverse=True)
    per_decision = np.bincount(inv, weights=held)
    assert set(per_decision.tolist()) <= {1.0, 4.0, 7.0, 10.0, 13.0}  # 3k+1 concealed tiles between turns
    base = expected(rows, None)
    assert np.allclose(np.bincount(inv, weights=base), per_decision)
    s = summary(rows, np.zeros(N_FEATURES))
    assert s["held"] == int(held.sum())


def test_fit_recovers_a_binomial_model() -> None:
    rng = np.random.default_rng(1)
    x = np.column_stack([np.ones(5000), rng.normal(size=5000)])
    n = rng.integers(1, 5, size=5000).astype(float)
    p = 1 / (1 + np.exp(-(-0.5 + 1.5 * x[:, 1])))
    y = rng.binomial(n.astype(int), p).astype(float)
    w = fit(x, y, n, l2=0.1)
    assert abs(w[0] + 0.5) < 0.15 and abs(w[1] - 1.5) < 0.15


def test_expected_holdings_add_up_to_the_opponents_hand() -> None:
    rules = find_ruleset("classic64")
    state = new_hand(rules, seed="holdings-view", dealer=0)
    view = seat_view(state, 1)
    unseen = [view.unseen(t) for t in range(34)]
    co = [0.0] * N_FEATURES
    co[6] = 0.5  # more copies unseen, each more likely held
    e = held_chances(view, unseen, view.kinds, co)
    assert abs(sum(e) - view.opponent_hand_count) < 1e-6
    assert all(0.0 <= e[t] <= unseen[t] for t in range(34))
    assert len(features(view, unseen, view.kinds[0])) == N_FEATURES
