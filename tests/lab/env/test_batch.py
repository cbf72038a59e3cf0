"""The native batch: N hands stepped together, same-step autoreset, seeded."""

from __future__ import annotations

import numpy as np

from erma.lab.env import BatchEnv


def run(seed: int, steps: int) -> tuple[list[bytes], float, int]:
    b = BatchEnv("cuopai789", 4, opponent="random", keep_final=True)
    obs, _ = b.reset(seed=seed)
    rng = np.random.default_rng(seed)
    frames = []
    total = 0.0
    ends = 0
    for _ in range(steps):
        assert (obs["action_mask"].sum(axis=1) > 0).all()  # every hand waits for the agent
        acts = np.array([int(rng.choice(np.flatnonzero(m))) for m in obs["action_mask"]])
        obs, r, term, trunc, info = b.step(acts)
        assert not trunc.any() and not info["illegal"].any()
        for i in np.flatnonzero(term):
            assert info["final_obs"][i] is not None
        frames.append(obs["observation"].tobytes())
        total += float(r.sum())
        ends += int(term.sum())
    return frames, total, ends


def test_batch_is_seeded_and_resets_finished_hands() -> None:
    a = run(9, 80)
    assert a == run(9, 80)
    assert a[2] >= 4  # hands ended and were dealt again
    assert a[0] != run(10, 80)[0]


def test_batch_spaces() -> None:
    b = BatchEnv("wenzhou2p", 3, oracle=True)
    obs, _ = b.reset(seed=1)
    assert obs["observation"].shape == (3, 18, 34)
    assert obs["oracle"].shape[0] == 3
    assert b.observation_space.contains(obs)
