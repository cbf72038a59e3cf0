"""The spaces (空间) of every erma environment: the observation in one of two layouts, one Discrete action
space."""

from __future__ import annotations

import enum

import numpy as np
from gymnasium import spaces

from erma.bots.nn.features import NUM_ACTIONS, NUM_INPUTS, NUM_ORACLE, NUM_PLANES, NUM_SCALARS


class Layout(enum.Enum):
    """How an observation is laid out (观测格式)."""

    DICT = "dict"
    """The raw counts: ``observation`` (planes × 34, uint8), ``scalars`` (uint8), ``action_mask`` (int8 0/1),
    and with ``oracle`` the oracle planes — for custom networks and for masking by hand."""
    FLAT = "flat"
    """One float32 vector a network takes as it is: the ``nn`` bot's own scaled features
    (:func:`erma.bots.nn.features.net_input`: planes / 4, scalars by their range, the shanten after each
    discard, the preset) and with ``oracle`` the oracle planes / 4. The mask is not in it: read it from
    ``action_masks()`` (sb3-contrib's MaskablePPO does) or ``info["action_mask"]``."""


def flat_size(oracle: bool) -> int:
    """The length of a ``flat`` observation."""
    return NUM_INPUTS + (NUM_ORACLE * 34 if oracle else 0)


def observation_space(oracle: bool, layout: Layout = Layout.DICT) -> spaces.Space[object]:
    """The observation space of ``layout`` (with the oracle planes if ``oracle``)."""
    if layout is Layout.FLAT:
        # Every part is a uint8 count divided by a scale ≥ 1 (or a shanten ≤ 9 / 4): bounded by 255.
        return spaces.Box(0.0, 255.0, (flat_size(oracle),), dtype=np.float32)
    parts: dict[str, spaces.Space[np.ndarray]] = {
        "observation": spaces.Box(0, 255, (NUM_PLANES, 34), dtype=np.uint8),
        "scalars": spaces.Box(0, 255, (NUM_SCALARS,), dtype=np.uint8),
        "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), dtype=np.int8),
    }
    if oracle:
        parts["oracle"] = spaces.Box(0, 255, (NUM_ORACLE, 34), dtype=np.uint8)
    return spaces.Dict(parts)


def action_space() -> spaces.Discrete:
    """The fixed action space (erma.bots.nn.features lists the indices)."""
    return spaces.Discrete(NUM_ACTIONS)
