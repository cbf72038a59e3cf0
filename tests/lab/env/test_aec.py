"""The PettingZoo AEC environment: PettingZoo's own tests, determinism, rewards, masks, illegal actions."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from erma.bots.nn.features import NUM_ACTIONS, NUM_ORACLE, NUM_PLANES, PLANES, action_index
from erma.game import Kind, legal_actions
from erma.lab.env import env, raw_env
from erma.rules import preset_names

PRESETS = preset_names()


def play(e, seed: int, policy_seed: int):  # type: ignore[no-untyped-def]
    """One hand with random allowed actions; every observation and the cumulative rewards."""
    e.reset(seed=seed)
    rng = np.random.default_rng(policy_seed)
    seen = []
    for agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        seen.append((agent, obs["observation"].copy(), obs["scalars"].copy(), obs["action_mask"].copy()))
        if term or trunc:
            e.step(None)
            continue
        allowed = np.flatnonzero(obs["action_mask"])
        e.step(int(allowed[rng.integers(len(allowed))]))
    return seen


@pytest.mark.filterwarnings("ignore:Observation")  # a Dict observation with an action mask, on purpose
@pytest.mark.parametrize("preset", PRESETS)
def test_pettingzoo_api_and_seed(preset: str) -> None:
    api_test(env(preset), num_cycles=200)
    seed_test(lambda: env(preset), num_cycles=200)


@pytest.mark.parametrize("preset", PRESETS)
def test_same_seed_same_game_zero_sum(preset: str) -> None:
    a = raw_env(preset)
    b = raw_env(preset)
    first = play(a, 7, 3)
    second = play(b, 7, 3)
    assert len(first) == len(second) > 2
    for x, y in zip(first, second, strict=True):
        assert x[0] == y[0]
        assert all(np.array_equal(p, q) for p, q in zip(x[1:], y[1:], strict=True))
    result = a.unwrapped.state_of_hand.result
    assert result is not None
    other = play(raw_env(preset), 8, 3)
    assert [o[1].tobytes() for o in other[:3]] != [f[1].tobytes() for f in first[:3]]


def test_terminal_rewards_are_the_deltas() -> None:
    for seed in range(6):
        e = raw_env("classic64")
        e.reset(seed=seed)
        totals = dict.fromkeys(e.possible_agents, 0.0)
        rng = np.random.default_rng(seed)
        for _agent in e.agent_iter():
            obs, _, term, _, _ = e.last()
            if term:
                e.step(None)
                continue
            allowed = np.flatnonzero(obs["action_mask"])
            e.step(int(allowed[rng.integers(len(allowed))]))
            for a, r in e.rewards.items():
                totals[a] += r
        deltas = e.state_of_hand.result.deltas
        assert [totals["player_0"], totals["player_1"]] == [float(deltas[0]), float(deltas[1])]
        assert sum(totals.values()) == 0


@pytest.mark.parametrize("preset", PRESETS)
def test_mask_matches_the_legal_actions(preset: str) -> None:
    e = raw_env(preset)
    e.reset(seed=11)
    rng = np.random.default_rng(0)
    steps = 0
    while not all(e.terminations.values()) and steps < 400:
        agent = e.agent_selection
        st = e.state_of_hand
        seat = int(agent[-1])
        obs = e.observe(agent)
        other = e.observe(e.possible_agents[1 - seat])
        assert other["action_mask"].sum() == 0  # only the seat to act has choices
        legal = legal_actions(st, seat)
        want = {action_index(a) for a in legal}
        assert set(np.flatnonzero(obs["action_mask"]).tolist()) == want
        assert obs["observation"].shape == (NUM_PLANES, 34)
        assert obs["observation"][PLANES.index("hand")].tolist() == st.seats[seat].counts
        allowed = np.flatnonzero(obs["action_mask"])
        e.step(int(allowed[rng.integers(len(allowed))]))
        steps += 1
    assert all(e.terminations.values())


def test_oracle_planes_show_the_opponent_and_the_wall() -> None:
    e = raw_env("cuopai789", oracle=True)
    e.reset(seed=5)
    agent = e.agent_selection
    seat = int(agent[-1])
    obs = e.observe(agent)
    st = e.state_of_hand
    assert obs["oracle"].shape == (NUM_ORACLE, 34)
    assert obs["oracle"][0].tolist() == st.seats[1 - seat].counts
    assert int(obs["oracle"][1].sum()) == sum(1 for t in st.wall[st.head : st.tail] if t < 34)
    plain = raw_env("cuopai789")
    plain.reset(seed=5)
    assert "oracle" not in plain.observe(agent)
    assert np.array_equal(plain.observe(agent)["observation"], obs["observation"])


def test_illegal_actions_default_or_raise() -> None:
    e = raw_env("classic64")
    e.reset(seed=2)
    agent = e.agent_selection
    bad = int(np.flatnonzero(e.observe(agent)["action_mask"] == 0)[0])
    e.step(bad)
    assert e.infos[agent]["illegal"] is True
    strict = raw_env("classic64", illegal="raise")
    strict.reset(seed=2)
    before = len(strict.state_of_hand.actions)
    with pytest.raises(ValueError, match="not legal"):
        strict.step(bad)
    assert len(strict.state_of_hand.actions) == before


def test_shaped_rewards_pay_for_progress() -> None:
    e = raw_env("classic64", reward="shaped", shaping=1.0)
    e.reset(seed=4)
    on_the_way = []
    rng = np.random.default_rng(1)
    for _agent in e.agent_iter():
        obs, _, term, _, _ = e.last()
        if term:
            e.step(None)
            continue
        allowed = np.flatnonzero(obs["action_mask"])
        e.step(int(allowed[rng.integers(len(allowed))]))
        if not any(e.terminations.values()):
            on_the_way.extend(e.rewards.values())
    assert any(r != 0 for r in on_the_way)  # shanten changes are paid before the end
    assert all(float(r).is_integer() for r in on_the_way)  # whole shanten steps × 1.0


def test_every_engine_action_kind_has_an_index() -> None:
    assert NUM_ACTIONS == 268
    for kind in Kind:
        if kind in (Kind.TIMEOUT, Kind.ESCAPE):
            continue
        from erma.game import Action

        a = Action(kind, tile=0 if kind not in (Kind.ACCEPT, Kind.PICK) else -1, tiles=(0, 0, 1), index=0)
        assert 0 <= action_index(a) < NUM_ACTIONS
