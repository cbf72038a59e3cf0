"""The two observation layouts (观测格式): ``dict`` (raw counts with the mask) and ``flat`` (the nn bot's
scaled features, the mask apart), in the single-agent and the batch environments."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import erma.lab.env  # noqa: F401  (registers erma/<preset>-v0)
from erma.bots.nn.features import NUM_INPUTS, net_input
from erma.lab.env import BatchEnv, SingleAgentEnv
from erma.lab.env.spaces import Layout, flat_size
from erma.rules import preset_names


@pytest.mark.parametrize("preset", preset_names())
def test_flat_passes_gymnasiums_checker(preset: str) -> None:
    e = SingleAgentEnv(preset, "random", obs="flat")
    assert e.observation_space.shape == (NUM_INPUTS,)
    assert e.observation_space.dtype == np.float32
    check_env(e, skip_render_check=True)


def test_flat_is_the_nn_bots_input_of_the_same_hand_and_holds_no_mask() -> None:
    """Same seed, both layouts: the flat vector is net_input of the dict observation, step for step; the mask
    is in info and action_masks() only."""
    d = SingleAgentEnv("cuopai789", "greedy", obs="dict")
    f = SingleAgentEnv("cuopai789", "greedy", obs="flat")
    od, _ = d.reset(seed=11)
    of, info = f.reset(seed=11)
    rng = np.random.default_rng(11)
    done = False
    steps = 0
    while not done:
        assert of.dtype == np.float32 and of.shape == (NUM_INPUTS,)
        assert np.array_equal(of, net_input(od["observation"], od["scalars"], "cuopai789"))
        assert np.array_equal(info["action_mask"], od["action_mask"].astype(bool))
        assert np.array_equal(f.action_masks(), od["action_mask"].astype(bool))
        assert f.observation_space.contains(of)
        a = int(rng.choice(np.flatnonzero(od["action_mask"])))
        od, rd, done, _, _ = d.step(a)
        of, rf, done_f, _, info = f.step(a)
        assert rd == rf and done == done_f
        steps += 1
    assert steps > 3
    assert not f.action_masks().any()  # the hand is over: nothing to do


def test_action_masks_reach_through_gymnasiums_wrappers() -> None:
    """gym.make wraps the env (order enforcing, passive checker): sb3-contrib finds ``action_masks`` there."""
    e = gym.make("erma/classic64-v0", obs="flat")
    obs, info = e.reset(seed=5)
    masks = e.get_wrapper_attr("action_masks")()
    assert masks.dtype == bool and masks.any()
    assert np.array_equal(masks, info["action_mask"])
    obs, *_ = e.step(int(np.flatnonzero(masks)[0]))
    assert obs.shape == (NUM_INPUTS,)


def test_flat_with_the_oracle_planes() -> None:
    e = SingleAgentEnv("wenzhou2p", "random", obs="flat", oracle=True)
    obs, _ = e.reset(seed=2)
    assert obs.shape == (flat_size(True),) and flat_size(True) > NUM_INPUTS
    assert e.observation_space.contains(obs)


def test_batch_flat_rows_and_masks() -> None:
    n = 8
    d = BatchEnv("cuopai789", n, "random", obs="dict")
    f = BatchEnv("cuopai789", n, "random", obs="flat")
    od, _ = d.reset(seed=4)
    of, info = f.reset(seed=4)
    rng = np.random.default_rng(4)
    for _ in range(40):
        assert of.shape == (n, NUM_INPUTS) and of.dtype == np.float32
        for i in range(n):
            assert np.array_equal(of[i], net_input(od["observation"][i], od["scalars"][i], "cuopai789"))
        masks = f.action_masks()
        assert np.array_equal(masks, od["action_mask"].astype(bool)) and masks.any(axis=1).all()
        assert np.array_equal(info["action_mask"], masks)
        acts = np.array([int(rng.choice(np.flatnonzero(m))) for m in masks])
        od, rd, td, _, _ = d.step(acts)
        of, rf, tf, _, info = f.step(acts)
        assert np.array_equal(rd, rf) and np.array_equal(td, tf)
        assert not info["illegal"].any()


def test_unknown_layout_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="'rows'"):
        SingleAgentEnv("cuopai789", obs="rows")
    assert Layout("flat") is Layout.FLAT
