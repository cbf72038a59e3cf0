"""The Gymnasium single-agent environment and vector environments."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import erma.lab.env  # noqa: F401  (registers erma/<preset>-v0)
from erma.lab.env import SingleAgentEnv
from erma.rules import preset_names


@pytest.mark.parametrize("preset", preset_names())
def test_check_env(preset: str) -> None:
    check_env(SingleAgentEnv(preset, "random"), skip_render_check=True)


def run(e: SingleAgentEnv, seed: int) -> tuple[list[bytes], float]:
    obs, _ = e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    seen = [obs["observation"].tobytes()]
    total = 0.0
    done = False
    while not done:
        allowed = np.flatnonzero(obs["action_mask"])
        obs, r, done, trunc, info = e.step(int(allowed[rng.integers(len(allowed))]))
        assert not trunc and not info["illegal"]
        seen.append(obs["observation"].tobytes())
        total += r
    assert info["result"]["deltas"][info["seat"]] == total
    return seen, total


def test_registered_and_deterministic() -> None:
    a = gym.make("erma/cuopai789-v0")
    b = gym.make("erma/cuopai789-v0")
    assert run(a.unwrapped, 3) == run(b.unwrapped, 3)  # type: ignore[arg-type]
    assert run(a.unwrapped, 3)[0] != run(a.unwrapped, 4)[0]  # type: ignore[arg-type]


def test_fixed_seat_and_bad_arguments() -> None:
    e = SingleAgentEnv("wenzhou2p", "greedy", seat=1)
    _, info = e.reset(seed=1)
    assert info["seat"] == 1
    with pytest.raises(ValueError, match="seat"):
        SingleAgentEnv("classic64", seat=2)
    with pytest.raises(Exception, match="unknown bot"):
        SingleAgentEnv("classic64", opponent="nobody")
    with pytest.raises(Exception, match="unknown rule set"):
        SingleAgentEnv("nope")


def masked_actions(obs: dict[str, np.ndarray], rng: np.random.Generator) -> np.ndarray:
    return np.array([int(rng.choice(np.flatnonzero(m))) for m in obs["action_mask"]])


@pytest.mark.parametrize("vector", [gym.vector.SyncVectorEnv, gym.vector.AsyncVectorEnv])
def test_gymnasium_vector_envs(vector: type) -> None:
    envs = vector([lambda: SingleAgentEnv("classic64", "random") for _ in range(2)])
    try:
        obs, _ = envs.reset(seed=5)
        rng = np.random.default_rng(0)
        ends = 0
        for _ in range(60):
            if any(m.sum() == 0 for m in obs["action_mask"]):  # next-step autoreset: this step resets
                obs, _, term, _, _ = envs.step(np.zeros(2, dtype=np.int64))
                continue
            obs, _, term, _, _ = envs.step(masked_actions(obs, rng))
            ends += int(term.sum())
        assert obs["observation"].shape == (2, 18, 34)
        assert ends >= 1
    finally:
        envs.close()
