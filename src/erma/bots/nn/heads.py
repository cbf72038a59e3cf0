"""The per-item heads' layout (逐张打分的输入): which inputs each per-kind and per-chow head reads and which
action blocks it scores.

A weights file stores these arrays (``kind_rows``, ``kind_bases``, ``chow_rows``, ``chow_bases``) and
:class:`erma.bots.nn.bot.Network` reads them from there; the trainers (scripts/train_nn.py for imitation,
:mod:`erma.lab.env.policy` for PPO) build their networks from the functions here, so both write the same
layout.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from erma.bots.nn.derived import CHOW_AT
from erma.bots.nn.features import CHOW, CUO, DISCARD, RIICHI, SELECT
from erma.bots.nn.layout import NUM_PLANES, NUM_SCALARS, PLANES

__all__ = ["CHOW_BASES", "KIND_BASES", "KIND_PLANES", "chow_rows", "kind_rows"]

KIND_PLANES = ("hand", "played", "unseen", "opponent_river")
"""The planes the per-kind head reads beside the four per-kind derived blocks."""
KIND_BASES = (DISCARD, RIICHI, SELECT, CUO)
"""The per-kind action blocks (34 actions each) the per-kind head scores."""
CHOW_BASES = (CHOW,)
"""The chow block (21 actions) the per-chow head scores."""


def kind_rows() -> npt.NDArray[np.int64]:
    """(F, 34) input positions of each kind's own inputs: planes, then the derived per-kind blocks."""
    at = NUM_PLANES * 34 + NUM_SCALARS
    rows = [np.arange(34) + 34 * PLANES.index(p) for p in KIND_PLANES]
    rows += [np.arange(34) + at + 34 * i for i in range(4)]
    return np.stack(rows)


def chow_rows() -> npt.NDArray[np.int64]:
    """(1, 21) input positions of each chow's own input: the shanten after it."""
    return (np.arange(21) + NUM_PLANES * 34 + NUM_SCALARS + CHOW_AT)[None, :]
