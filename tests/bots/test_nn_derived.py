"""The ``nn`` bot's derived inputs (派生特征): shanten and useful tiles per discard, draws that help, claims,
温州's 八对 and 财神; and the bot reading either encoding and a preset's own weights."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from erma.bots.nn import bot as nn_bot
from erma.bots.nn.derived import DERIVED_NAMES, NONE, NUM_DERIVED, derived
from erma.bots.nn.features import (
    NUM_ACTIONS,
    NUM_INPUTS,
    NUM_INPUTS_V1,
    NUM_PLANES,
    NUM_SCALARS,
    PLANES,
    SCALARS,
    net_input,
)
from erma.tiles import parse


def obs(played: str, unseen: int = 4) -> tuple[np.ndarray, np.ndarray]:
    planes = np.zeros((NUM_PLANES, 34), dtype=np.uint8)
    scalars = np.zeros(NUM_SCALARS, dtype=np.uint8)
    for t in parse(played):
        planes[PLANES.index("played"), t] += 1
        planes[PLANES.index("hand"), t] += 1
    planes[PLANES.index("unseen")] = unseen
    return planes, scalars


def at(name: str) -> int:
    return DERIVED_NAMES.index(name)


def test_discards_of_a_hand_one_from_ready() -> None:
    planes, scalars = obs("123456789m12p11p5z")  # discard 5z: ready on 2p and 3p
    d = derived(planes, scalars, "cuopai789")
    assert d.shape == (NUM_DERIVED,) == (len(DERIVED_NAMES),)
    z5, p3, m1 = parse("5z3p1m")
    assert d[at(f"discard_shanten {z5}")] == 0
    assert d[at(f"discard_useful {z5}")] == 8  # the four unseen 2p and 3p
    assert d[at(f"best_discard {z5}")] == 1 and d[at(f"best_discard {m1}")] == 0
    assert d[at(f"discard_shanten {m1}")] >= 1
    assert d[at(f"discard_shanten {p3}")] == NONE  # not held
    assert d[at("shanten")] == 0


def test_a_ready_hand_sees_its_winning_draw_and_its_claims() -> None:
    planes, scalars = obs("123456789m12p11p")  # 13 tiles, waits on 2p and 3p
    p3, p1 = parse("3p1p")
    planes[PLANES.index("last_discard"), p1] = 1
    d = derived(planes, scalars, "cuopai789")
    assert d[at(f"improves {p3}")] == 1 and d[at("useful")] == 8
    assert d[at(f"improves {parse('4p')[0]}")] == 0
    assert d[at("pung_shanten")] == 0  # pung 1p, then discard 1p: still ready (on 2p)
    assert d[at("chow_low_shanten")] == NONE  # 1p as lowest needs 2p3p
    assert d[at("shanten")] == 0 and d[at(f"discard_shanten {p3}")] == NONE


def test_each_chow_is_read_at_its_place_in_the_action_space() -> None:
    planes, scalars = obs("123456789m23p11p")  # a 1p or 4p chow completes the sets
    planes[PLANES.index("last_discard"), parse("1p")[0]] = 1
    d = derived(planes, scalars, "cuopai789")
    assert d[at("chow_low_shanten")] == d[at("chow_shanten 9")] == -1  # the chow 1p2p3p
    assert d[at("chow_mid_shanten")] == d[at("chow_shanten 10")] == NONE
    assert d[at("pung_shanten")] == 0  # the pung 1p leaves 23p: ready after a discard
    assert sum(d[at(f"chow_shanten {9 * (i // 7) + i % 7}")] != NONE for i in range(21)) == 1


def test_wenzhou_counts_eight_pairs_and_the_caishen() -> None:
    planes, scalars = obs("1133557799m1133p5p7p")  # 16 tiles: seven pairs and two odd tiles
    planes[PLANES.index("wild"), parse("9p")[0]] = 1
    d = derived(planes, scalars, "wenzhou2p")
    assert d[at("wz_eight_pairs")] == 0  # 八对 ready: on 5p or 7p
    assert d[at("wz_regular")] > 0 and d[at("shanten")] == 0
    # 5p, 7p, and a 财神 (9p) counted twice
    assert d[at("useful")] == 16 and d[at(f"improves {parse('9p')[0]}")] == 1
    scalars[SCALARS.index("jokers")] = 1  # a 财神 joins: 17 tiles, a complete 八对
    d = derived(planes, scalars, "wenzhou2p")
    assert d[at("shanten")] == -1 and d[at(f"discard_shanten {parse('7p')[0]}")] == 0
    planes[PLANES.index("melds"), 0] = 3  # a declared set: no 八对
    assert derived(planes, scalars, "wenzhou2p")[at("concealed")] == 0


def test_net_input_has_both_encodings() -> None:
    planes, scalars = obs("123456789m12p11p5z")
    assert net_input(planes, scalars, "cuopai789").shape == (NUM_INPUTS,)
    assert net_input(planes, scalars, "cuopai789", 1).shape == (NUM_INPUTS_V1,)


def write_weights(path: Path, inputs: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    np.savez(
        path,
        layers=np.array(2),
        w0=rng.normal(size=(inputs, 8)).astype(np.float16),
        b0=np.zeros(8, dtype=np.float16),
        w1=rng.normal(size=(8, NUM_ACTIONS)).astype(np.float16),
        b1=np.zeros(NUM_ACTIONS, dtype=np.float16),
    )


@pytest.mark.parametrize(("inputs", "version"), [(NUM_INPUTS_V1, 1), (NUM_INPUTS, 2)])
def test_the_network_reads_its_encoding_from_its_size(tmp_path: Path, inputs: int, version: int) -> None:
    path = tmp_path / "w.npz"
    write_weights(path, inputs, 1)
    assert nn_bot.Network(path).version == version


def test_a_preset_prefers_its_own_weights(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shared = tmp_path / "weights.npz"
    write_weights(shared, NUM_INPUTS, 1)
    monkeypatch.setattr(nn_bot, "WEIGHTS", shared)
    assert nn_bot.preset_weights("cuopai789") == shared
    own = tmp_path / "weights-cuopai789.npz"
    write_weights(own, NUM_INPUTS_V1, 2)
    assert nn_bot.preset_weights("cuopai789") == own
    assert nn_bot.preset_weights("classic64") == shared


def test_the_shipped_weights_fit_two_megabytes_and_read_encoding_two() -> None:
    files = sorted(nn_bot.WEIGHTS.parent.glob("weights*.npz"))
    assert nn_bot.WEIGHTS in files and sum(f.stat().st_size for f in files) <= 2_000_000
    for f in files:
        assert nn_bot.Network(f).version == 2
    for preset in ("cuopai789", "wenzhou2p"):
        assert nn_bot.preset_weights(preset).name == f"weights-{preset}.npz"


def test_the_per_kind_head_scores_each_kind_by_its_own_inputs(tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    path = tmp_path / "w.npz"
    rows = np.stack([np.arange(34), np.arange(34) + 34])  # two inputs per kind
    w0, w1 = rng.normal(size=(NUM_INPUTS, 8)), rng.normal(size=(8, NUM_ACTIONS))
    u, ub = rng.normal(size=(8, 2)), rng.normal(size=2)
    arrays = {"w0": w0, "b0": np.zeros(8), "w1": w1, "b1": np.zeros(NUM_ACTIONS), "kind_u": u, "kind_ub": ub}
    np.savez(path, layers=np.array(2), kind_rows=rows, kind_bases=np.array([34]), **arrays)
    x = rng.random(NUM_INPUTS).astype(np.float32)
    h = np.maximum(x @ w0, 0.0)
    g = h @ u + ub
    want = h @ w1
    want[34:68] += g[0] * x[0:34] + g[1] * x[34:68]  # the block at 34 (报听 discards) only
    got = nn_bot.Network(path).logits(x)
    assert np.allclose(got, want, rtol=1e-4, atol=1e-3)
    assert np.allclose(nn_bot.Network(path).logits(x[None, :])[0], got, rtol=1e-5, atol=1e-5)
