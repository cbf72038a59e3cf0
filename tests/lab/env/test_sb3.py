"""sb3-contrib's MaskablePPO over erma's environments (the ``rl`` extra): SB3's own env checker without a
warning, the masks found through Gymnasium's wrappers and through the native batch's VecEnv adapter, and a
short training run that never plays an illegal action."""

from __future__ import annotations

import warnings
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest

pytest.importorskip("sb3_contrib")
pytest.importorskip("torch")

from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
from stable_baselines3.common.env_checker import check_env
from stable_baselines3.common.vec_env import VecMonitor

import erma.lab.env  # noqa: F401  (registers erma/<preset>-v0)
from erma.bots.nn.features import NUM_ACTIONS, NUM_INPUTS
from erma.lab.env import SingleAgentEnv
from erma.lab.env.sb3 import BatchVecEnv, export_nn_weights
from erma.rules import preset_names


@pytest.mark.parametrize("preset", preset_names())
def test_sb3s_checker_has_nothing_to_say_of_the_flat_layout(preset: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(SingleAgentEnv(preset, "random", obs="flat"), warn=True)


def test_the_vec_adapter_gives_masks_and_terminal_observations() -> None:
    v = BatchVecEnv("wenzhou2p", num_envs=4, opponent="random", seed=3)
    assert is_masking_supported(v)
    obs = v.reset()
    assert obs.shape == (4, NUM_INPUTS) and obs.dtype == np.float32
    rng = np.random.default_rng(3)
    ends = 0
    for _ in range(200):
        masks = get_action_masks(v)
        assert masks.shape == (4, NUM_ACTIONS) and masks.any(axis=1).all()
        before = obs.copy()
        v.step_async(np.array([int(rng.choice(np.flatnonzero(m))) for m in masks]))
        obs, _rewards, dones, infos = v.step_wait()
        assert not np.shares_memory(obs, before)
        assert not any(i["illegal"] for i in infos)
        for i in np.flatnonzero(dones):
            ends += 1
            assert infos[i]["terminal_observation"].shape == (NUM_INPUTS,)
            assert infos[i]["episode"]["l"] >= 1
    assert ends > 0
    with pytest.raises(AttributeError, match="only 'action_masks'"):
        v.env_method("render")


def _no_illegal(model: MaskablePPO) -> None:
    buf = model.rollout_buffer
    assert buf.full
    # Every action taken was allowed by the mask stored beside it.
    taken = buf.actions.reshape(-1).astype(int)
    masks = buf.action_masks.reshape(len(taken), NUM_ACTIONS)
    assert masks[np.arange(len(taken)), taken].all()


def test_maskable_ppo_learns_a_little_on_the_batch_without_an_illegal_move() -> None:
    venv = VecMonitor(BatchVecEnv("cuopai789", num_envs=8, opponent="random", seed=1))
    model = MaskablePPO("MlpPolicy", venv, n_steps=32, batch_size=64, n_epochs=2, seed=1, device="cpu")
    model.learn(512)
    assert model.num_timesteps >= 512
    _no_illegal(model)


def test_maskable_ppo_through_gym_make() -> None:
    """The single-agent env as gym.make gives it, wrapped: MaskablePPO finds ``action_masks`` itself."""
    env = gym.make("erma/cuopai789-v0", opponent="random", obs="flat")
    model = MaskablePPO("MlpPolicy", env, n_steps=128, batch_size=64, n_epochs=1, seed=2, device="cpu")
    model.learn(128)
    _no_illegal(model)
    obs, _ = env.reset(seed=9)
    masks = env.get_wrapper_attr("action_masks")()
    action, _ = model.predict(obs, action_masks=masks, deterministic=True)
    assert masks[int(action)]


def test_the_trained_policy_plays_as_the_nn_bot(tmp_path: Path) -> None:
    """Exported weights give the nn bot the policy's own logits, and the arena plays it by path."""
    import torch

    from erma.bots import make_bot
    from erma.bots.nn.bot import Network
    from erma.lab.arena import ArenaConfig, run_arena
    from erma.rules import find_ruleset

    venv = BatchVecEnv("classic64", num_envs=4, opponent="random", seed=5)
    model = MaskablePPO(
        "MlpPolicy",
        venv,
        n_steps=32,
        batch_size=64,
        n_epochs=1,
        seed=5,
        device="cpu",
        policy_kwargs={"net_arch": [32, 32], "activation_fn": torch.nn.ReLU},
    )
    model.learn(128)
    path = tmp_path / "ppo.npz"
    export_nn_weights(model, path)
    obs = venv.reset()
    with torch.no_grad():
        dist = model.policy.get_distribution(torch.as_tensor(obs))
        want = dist.distribution.logits.numpy()
    got = Network(path).logits(obs)
    # torch's Categorical normalises its logits (log-softmax): compare up to a constant a row.
    got = (
        got
        - np.log(np.exp(got - got.max(axis=1, keepdims=True)).sum(axis=1, keepdims=True))
        - got.max(axis=1, keepdims=True)
    )
    assert np.allclose(got, want, atol=1e-4)
    assert make_bot(f"nn:{path}").name == f"nn:{path}"
    s = run_arena(ArenaConfig(find_ruleset("classic64"), (f"nn:{path}", "random"), 1), 3)
    assert s["hands"] == 6
