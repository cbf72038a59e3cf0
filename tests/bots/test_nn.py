"""The ``nn`` bot: legal, seeded, small, numpy only; and the learning encoding it reads."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from erma.bots import make_bot
from erma.bots.nn.bot import WEIGHTS
from erma.bots.nn.features import (
    NUM_INPUTS,
    NUM_PLANES,
    NUM_SCALARS,
    PLANES,
    SCALARS,
    action_index,
    action_table,
    net_input,
    shanten_plane,
)
from erma.game import Phase, apply, legal_actions, new_hand, seat_view
from erma.rules import find_ruleset, preset_names
from erma.tiles import parse


def play(preset: str, seed: str, bots: list[str]) -> list[str]:
    rules = find_ruleset(preset)
    players = [make_bot(b, f"{seed}:{i}") for i, b in enumerate(bots)]
    st = new_hand(rules, seed)
    while st.phase is not Phase.END:
        seat = st.actor
        view = seat_view(st, seat)
        legal = legal_actions(st, seat)
        action = players[seat].choose(view, legal)
        assert action in legal, f"{bots[seat]} chose {action} outside {legal}"
        apply(st, seat, action)  # the checked apply: an illegal action would raise
    return [a for _, a in st.actions]


@pytest.mark.parametrize("preset", preset_names())
def test_nn_plays_legal_seeded_hands(preset: str) -> None:
    for h in range(3):
        first = play(preset, f"nn:{h}", ["nn", "greedy"])
        assert first == play(preset, f"nn:{h}", ["nn", "greedy"])
    play(preset, "nn:self", ["nn", "nn"])


def test_weights_are_small_and_need_no_torch() -> None:
    assert WEIGHTS.stat().st_size < 1_000_000
    code = (
        "import sys; from erma.bots import make_bot; from erma.lab.selfplay import play_hand;"
        "from erma.rules import find_ruleset;"
        "play_hand(find_ruleset('classic64'), 's', [make_bot('nn', 1), make_bot('greedy', 2)]);"
        "assert 'torch' not in sys.modules and 'gymnasium' not in sys.modules, sorted(sys.modules)"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


def test_shanten_plane_reads_the_played_plane() -> None:
    planes = np.zeros((NUM_PLANES, 34), dtype=np.uint8)
    scalars = np.zeros(NUM_SCALARS, dtype=np.uint8)
    for t in parse("123456789m12p11p5z"):  # 14 tiles: discard 5z and wait on 3p
        planes[PLANES.index("played"), t] += 1
    sh = shanten_plane(planes, scalars)
    five_z = parse("5z")[0]
    assert sh[five_z] == 0  # discarding 5z leaves a ready hand
    assert sh[0] >= 1  # discarding 1m breaks a set
    assert sh[34] == 0
    assert sh[parse("9s")[0]] == 9  # not held
    assert net_input(planes, scalars, "classic64").shape == (NUM_INPUTS,)
    assert SCALARS[0] == "seat"


def test_action_table_covers_every_legal_action() -> None:
    rules = find_ruleset("cuopai789")
    st = new_hand(rules, "table")
    view = seat_view(st, st.actor)
    legal = legal_actions(st, st.actor)
    mask, table = action_table(view, legal)
    assert {action_index(a) for a in legal} == set(np.flatnonzero(mask).tolist()) == set(table)
