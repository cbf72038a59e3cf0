"""The concealed hand after a claim: one reckoning for greedy, the expert and the review."""

from __future__ import annotations

import dataclasses

from erma.analysis.api import pack
from erma.bots.claimed import claimed_hand, claimed_key
from erma.game import Kind, new_hand, seat_view
from erma.game.actions import PASS, Action
from erma.hand import Meld, MeldKind
from erma.rules import find_ruleset
from erma.tiles import parse


def test_the_hand_after_each_claim() -> None:
    """碰 takes two held copies, 吃 the run's other two tiles, 明杠 three copies; the new set names the
    claimed tile; any other action claims nothing."""
    view = seat_view(new_hand(find_ruleset("classic64"), "claimed", dealer=0), 0)
    hand = dataclasses.replace(view, key=pack(parse("1123m55p777s")), size=9, melds=())
    pung, chow, kong = Action(Kind.PUNG, 13), Action(Kind.CHOW, 0), Action(Kind.KONG, 24)
    assert claimed_key(hand, pung, 13) == (pack(parse("1123m777s")), 7)  # 5p
    assert claimed_key(hand, chow, 2) == (pack(parse("13m55p777s")), 7)  # 3m into 123m
    assert claimed_key(hand, kong, 24) == (pack(parse("1123m55p")), 6)  # 7s
    assert claimed_hand(hand, pung, 13) == (pack(parse("1123m777s")), 7, Meld(MeldKind.PUNG, 13, claimed=13))
    assert claimed_hand(hand, chow, 2) == (pack(parse("13m55p777s")), 7, Meld(MeldKind.CHOW, 0, claimed=2))
    assert claimed_hand(hand, kong, 24) == (
        pack(parse("1123m55p")),
        6,
        Meld(MeldKind.EXPOSED_KONG, 24, claimed=24),
    )
    assert claimed_key(hand, PASS, 13) is None and claimed_hand(hand, PASS, 13) is None
