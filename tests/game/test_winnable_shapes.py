"""Only the shapes a rule set can win count (可和的牌型): each preset's shapes, and the hints, 报听 and the
bots' shanten reading them (a 全不靠 wait is no wait where the fan table does not win it)."""

from __future__ import annotations

import pytest

from erma.analysis import Shapes
from erma.analysis.tables import INC
from erma.bots import make_bot
from erma.bots.expert import Estimator, Settings
from erma.bots.greedy import _sh
from erma.game import legal_actions, new_hand
from erma.game.hints import hints_for
from erma.game.seatview import seat_view
from erma.rules import find_ruleset, shape_mask, winnable_shapes
from erma.tiles import parse_tile

from .helpers import build_deck

QUIET = {"cuo_prob": 0.0, "triplet_offer_prob": 0.0, "start_exchange_enabled": False}
R, P = Shapes.REGULAR, Shapes.SEVEN_PAIRS


@pytest.mark.parametrize(
    ("preset", "overrides", "expected"),
    [
        ("cuopai789", {}, R | P | Shapes.THIRTEEN_ORPHANS),  # the cuopai13 table
        ("classic64", {}, R | P),  # erqs
        ("wushuang128", {}, R | P),  # erqs, 8 copies
        ("wenzhou2p", {}, R | Shapes.EIGHT_PAIRS),  # 温州's own
        ("cuopai789", {"fan_table": "mcr"}, Shapes.MCR),  # the MCR table wins every shape
        ("classic64", {"fan_table": "mcr"}, R | P),  # …but 万 + honours build no orphans, no knitted shape
        ("classic64", {"fan_table": "classic64t3"}, R | P),
        ("classic64", {"fan_table": "mcr_subset"}, R | P),
    ],
)
def test_each_rule_set_wins_the_shapes_of_its_table_and_tiles(
    preset: str, overrides: dict[str, str], expected: Shapes
) -> None:
    rules = find_ruleset(preset, overrides)
    assert winnable_shapes(rules) == expected
    assert shape_mask(rules) == expected.value


def test_a_knitted_wait_is_no_wait_in_cuopai789() -> None:
    """147m258p369s1234z is ready for 全不靠 (5z 6z 7z), a shape the cuopai13 table does not win: no waits in
    the hints, no 报听 on offer."""
    rules = find_ruleset("cuopai789", QUIET)
    deck = build_deck(rules, "11m22p33s456m789p99s", "147m258p369s1234z", draws="5z")
    state = new_hand(rules, "knit", dealer=0, deck=deck)
    assert "waits" not in hints_for(state, 1)
    view = seat_view(state, 1)
    assert view.shapes == (R | P | Shapes.THIRTEEN_ORPHANS).value
    assert _sh(view, view.key, view.size) > 0  # the bots read it as not ready
    # the same hand under the MCR table, which wins 全不靠, is ready on the three dragons
    mcr = find_ruleset("cuopai789", {**QUIET, "fan_table": "mcr", "min_fan": 1})
    state = new_hand(mcr, "knit", dealer=0, deck=build_deck(mcr, "11m22p33s456m789p99s", "147m258p369s1234z"))
    assert [w["tile"] for w in hints_for(state, 1)["waits"]] == ["5z", "6z", "7z"]


def test_classic64_bots_count_regular_and_seven_pairs() -> None:
    """345679m1234567z + 1m in classic64: 全不靠 (3 from ready by every MCR shape) cannot be built with 万 and
    honours, so the hand is 5 from ready after an honour discard, and the bots throw the honours first."""
    rules = find_ruleset("classic64")
    deck = build_deck(rules, "1345679m1234567z", "22268m11223344z")
    state = new_hand(rules, "all-honours", dealer=0, deck=deck)
    view = seat_view(state, 0)
    legal = legal_actions(state, 0)
    after_honour = view.key - INC[parse_tile("7z")]
    assert _sh(view, after_honour, 13) == 4  # 1345679m: regular 4 after an honour goes
    est = Estimator(view, Settings())
    assert est.shanten(after_honour, 13, 0) == 4
    assert est.shanten(view.key - INC[parse_tile("1m")], 13, 0) == 5  # 345679m1234567z: 5, not 3
    for name in ("level1", "level2", "greedy", "level5"):
        move = make_bot(name, "s").choose(view, legal)
        assert move.kind.value == "discard" and move.tile >= 27, (name, move.to_str())
