"""The spaces (空间) of every erma environment: one Dict observation, one Discrete action space."""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from erma.bots.nn.features import NUM_ACTIONS, NUM_ORACLE, NUM_PLANES, NUM_SCALARS


def observation_space(oracle: bool) -> spaces.Dict:
    """``observation`` (planes × 34, uint8), ``scalars`` (uint8), ``action_mask`` (int8 0/1), and with
    ``oracle`` the oracle planes (uint8)."""
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
