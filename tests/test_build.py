"""The two builds (构建): compiled by mypyc from the sources, and pure Python under ``ERMA_PURE=1``."""

from __future__ import annotations

import copy
import hashlib
import json
import os
import pickle
import random
import subprocess
import sys

import pytest

import erma.tiles
from erma.analysis import shanten, useful_tiles
from erma.build import build_info, is_compiled, pure_requested
from erma.cli import version_text
from erma.game import Action
from erma.game.state import Event
from erma.hand import Meld, MeldKind
from erma.rules import RuleSet

CORE = (
    "erma.tiles",
    "erma.hand",
    "erma.analysis.shapes",
    "erma.rules.ruleset",
    "erma.game.state",
    "erma.bots.greedy",
    "erma.bots.expert.estimate",
    "erma.bots.nn.features",
    "erma.lab.env_table",
)

_DIGEST = """
import hashlib, json, random, sys
from erma.analysis import shanten, useful_tiles
rng = random.Random(20_000)
full = [t for t in range(34) for _ in range(4)]
h = hashlib.sha256()
for _ in range(int(sys.argv[1])):
    hand = rng.sample(full, 13)
    h.update(json.dumps([shanten(hand), useful_tiles(hand)]).encode())
print(h.hexdigest())
"""

_ENV_DIGEST = """
import hashlib, sys
import numpy as np
from erma.lab.env import raw_env
from erma.lab.env_table import flatten
h = hashlib.sha256()
for preset in ("cuopai789", "classic64", "wushuang128", "wenzhou2p"):
    e = raw_env(preset)
    e.reset(seed=7)
    rng = np.random.default_rng(7)
    for _ in range(int(sys.argv[1])):
        a = e.agent_selection
        if e.terminations[a]:
            e.reset()
            continue
        obs = e.observe(a)
        for part in (obs["observation"], obs["scalars"], obs["action_mask"], flatten(obs, e.rules)):
            h.update(part.tobytes())
        allowed = np.flatnonzero(obs["action_mask"])
        e.step(int(allowed[rng.integers(len(allowed))]))
        h.update(repr(sorted(e.rewards.items())).encode())
print(h.hexdigest())
"""


def _run(code: str, *args: str, pure: bool) -> str:
    env = {k: v for k, v in os.environ.items() if k != "ERMA_PURE"}
    if pure:
        env["ERMA_PURE"] = "1"
    return subprocess.check_output([sys.executable, "-c", code, *args], text=True, env=env).strip()


def test_pure_imports_the_sources() -> None:
    code = f"import importlib; print([importlib.import_module(m).__file__ for m in {CORE!r}])"
    files = json.loads(_run(code, pure=True).replace("'", '"'))
    assert all(f.endswith(".py") for f in files), files


def test_compiled_when_built_and_current() -> None:
    info = build_info()
    if pure_requested() or not info.built:
        pytest.skip("the pure build: nothing compiled to check")
    assert not info.stale, f"sources newer than their compiled modules: {info.stale} (run make install)"
    assert all(m in info.built for m in CORE)
    assert is_compiled(erma.tiles)
    assert "compiled (mypyc)" in version_text()


def test_version_says_which_build() -> None:
    text = _run("from erma.cli import version_text; print(version_text())", pure=True)
    assert "pure Python (ERMA_PURE=1" in text


def test_same_shanten_and_useful_tiles_both_builds() -> None:
    """20,000 random hands: the same shanten and useful tiles, compiled and pure (one digest each)."""
    assert _run(_DIGEST, "20000", pure=True) == _run(_DIGEST, "20000", pure=False)


def test_same_environment_observations_both_builds() -> None:
    """The environments' observations (planes, scalars, mask, the flat network input) and rewards, 1,500
    seeded steps in each preset: one digest, compiled and pure (the learning view and the environments' hand
    are compiled)."""
    assert _run(_ENV_DIGEST, "1500", pure=True) == _run(_ENV_DIGEST, "1500", pure=False)


def test_digest_is_sensitive() -> None:
    rng = random.Random(20_000)
    hand = rng.sample([t for t in range(34) for _ in range(4)], 13)
    a = hashlib.sha256(json.dumps([shanten(hand), useful_tiles(hand)]).encode()).hexdigest()
    b = hashlib.sha256(json.dumps([shanten(hand) + 1, useful_tiles(hand)]).encode()).hexdigest()
    assert a != b


@pytest.mark.parametrize(
    "value",
    [
        Meld(MeldKind.PUNG, 5),
        Meld(MeldKind.CHOW, 0, claimed=1),
        RuleSet(),
        Action.parse("discard 5m riichi"),
        Event("claim_window", 1, {}, {"options": ["pung"]}, 1, private=True),
    ],
    ids=repr,
)
def test_frozen_values_copy_and_pickle(value: object) -> None:
    """The server pickles rule sets and views to its bot processes; tests deep-copy states."""
    for again in (pickle.loads(pickle.dumps(value)), copy.deepcopy(value), copy.copy(value)):
        assert again == value and type(again) is type(value)
