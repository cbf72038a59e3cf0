"""The per-kind policy (erma.lab.env.policy) in MaskablePPO: it trains without an illegal move, its start is
near uniform, its export gives the nn bot the policy's own logits (heads included), it saves and loads, and
it refuses an observation it cannot read."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")
pytest.importorskip("torch")

import torch
from sb3_contrib import MaskablePPO

from erma.bots.nn.bot import Network
from erma.bots.nn.features import NUM_ACTIONS
from erma.lab.env.policy import KindHeadPolicy
from erma.lab.env.sb3 import BatchVecEnv, export_nn_weights


def _log_softmax(x: np.ndarray) -> np.ndarray:
    m = x.max(axis=1, keepdims=True)
    return x - m - np.log(np.exp(x - m).sum(axis=1, keepdims=True))


def _model(venv: BatchVecEnv, seed: int) -> MaskablePPO:
    return MaskablePPO(
        KindHeadPolicy,
        venv,
        n_steps=32,
        batch_size=64,
        n_epochs=1,
        seed=seed,
        device="cpu",
        policy_kwargs={"hidden": 32},
    )


def test_the_per_kind_policy_trains_and_plays_as_the_nn_bot(tmp_path: Path) -> None:
    venv = BatchVecEnv("cuopai789", num_envs=4, opponent="random", seed=5)
    model = _model(venv, 5)
    obs = venv.reset()
    masks = np.stack(venv.action_masks())
    with torch.no_grad():
        start = model.policy.get_distribution(torch.as_tensor(obs), action_masks=masks)
    # A near-uniform start over the allowed actions (small output layers).
    probs = start.distribution.probs.numpy()
    allowed = masks.sum(axis=1)
    assert np.allclose(probs.max(axis=1), 1 / allowed, rtol=0.2)
    model.learn(256)
    buf = model.rollout_buffer
    taken = buf.actions.reshape(-1).astype(int)
    assert buf.action_masks.reshape(len(taken), NUM_ACTIONS)[np.arange(len(taken)), taken].all()

    path = tmp_path / "kind.npz"
    export_nn_weights(model, path)
    net = Network(path)
    assert [h[3] for h in net.heads] == [[0, 34, 195, 231], [68]]  # the per-kind and per-chow blocks
    obs = venv.reset()
    with torch.no_grad():
        want = model.policy.get_distribution(torch.as_tensor(obs)).distribution.logits.numpy()
    assert np.allclose(_log_softmax(net.logits(obs)), want, atol=1e-4)

    # Saved and loaded (MaskablePPO.load rebuilds the policy from its constructor's parameters).
    model.save(tmp_path / "model.zip")
    again = MaskablePPO.load(tmp_path / "model.zip", env=venv, device="cpu")
    assert isinstance(again.policy, KindHeadPolicy) and again.policy.hidden == 32
    with torch.no_grad():
        back = again.policy.get_distribution(torch.as_tensor(obs)).distribution.logits.numpy()
    assert np.allclose(back, want, atol=1e-6)


def test_the_per_kind_policy_names_the_observation_it_needs() -> None:
    with pytest.raises(ValueError, match='obs="flat"'):
        MaskablePPO(KindHeadPolicy, BatchVecEnv("cuopai789", num_envs=2, obs="dict"), device="cpu")


def test_ppo_can_start_from_the_imitation_trained_bot() -> None:
    """``load_network`` puts a shipped weights file into the PPO actor: the same logits as the nn bot's."""
    from erma.bots.nn.bot import preset_weights
    from erma.lab.env.policy import KindHeadNet, load_network

    path = preset_weights("cuopai789")
    net = KindHeadNet(256)
    load_network(net, path)
    venv = BatchVecEnv("cuopai789", num_envs=6, opponent="random", seed=2)
    obs = venv.reset()
    with torch.no_grad():
        got = net(torch.as_tensor(obs)).numpy()
    want = Network(path).logits(obs)
    assert np.allclose(got, want, atol=1e-3)
    with pytest.raises(ValueError, match="w0 is"):
        load_network(KindHeadNet(64), path)
