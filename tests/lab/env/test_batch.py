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


def test_a_league_gives_each_hand_slot_its_own_opponent() -> None:
    b = BatchEnv("classic64", 5, opponent="random, greedy,level3")
    b.reset(seed=4)
    assert [bot.name for bot in b.bots] == ["random", "greedy", "level3", "random", "greedy"]
    rng = np.random.default_rng(4)
    for _ in range(60):  # the hands play on against their own opponents, dealt anew when over
        acts = np.array([int(rng.choice(np.flatnonzero(m))) for m in b.obs["action_mask"]])
        _obs, _r, _term, _trunc, info = b.step(acts)
        assert not info["illegal"].any()
    assert [bot.name for bot in b.bots] == ["random", "greedy", "level3", "random", "greedy"]
