"""The greedy bot's settings that make the intermediate level (中级, ``level3``): no start exchange, no kongs,
a closed hand where 报听 is allowed and claims only to ready in 温州 (self-played hands: greedy's choice is
played, the level's is compared)."""

from __future__ import annotations

from erma.analysis.tables import INC
from erma.bots import make_bot
from erma.bots.base import Bot, BotView
from erma.bots.greedy import GreedyBot, _sh
from erma.game import Phase
from erma.game.actions import PASS, WIN, Action, Kind
from erma.lab.selfplay import hand_seed, play_hand
from erma.rules import find_ruleset


class Both:
    """Plays greedy's choice and records, at each asked phase, what greedy and ``other`` chose."""

    uses_view = True
    name = "both"

    def __init__(self, other: Bot, seed: str) -> None:
        self.greedy, self.other = GreedyBot(seed), other
        self.seen: list[tuple[BotView, Action, Action]] = []

    def choose(self, view: BotView, legal: list[Action]) -> Action:
        mine = self.greedy.choose(view, legal)
        if view.phase in (Phase.EXCHANGE, Phase.CLAIM, Phase.TURN):
            self.seen.append((view, mine, self.other.choose(view, legal)))
        return mine


def _seen(rules: str, hands: int) -> list[tuple[BotView, Action, Action]]:
    out = []
    for h in range(hands):
        seats = [Both(make_bot("level3", f"{h}:{s}"), f"{h}:{s}") for s in (0, 1)]
        play_hand(find_ruleset(rules), hand_seed("level3", h), seats)
        out += seats[0].seen + seats[1].seen
    return out


def _after_claim(view: BotView, a: Action) -> int:
    t = view.play(view.last_discard)  # type: ignore[arg-type]
    if a.kind is Kind.PUNG:
        return _sh(view, view.key - INC[t] * 2, view.size - 2, melded=True)
    if a.kind is Kind.KONG:
        return _sh(view, view.key - INC[t] * 3, view.size - 3, melded=True)
    key, n = view.key, view.size
    for x in (a.tile, a.tile + 1, a.tile + 2):
        if x != t:
            key, n = key - INC[x], n - 1
    return _sh(view, key, n, melded=True)


def test_level3_keeps_its_dealt_tiles_where_greedy_gives_some_back() -> None:
    seen = [(g, o) for v, g, o in _seen("cuopai789", 6) if v.phase is Phase.EXCHANGE]
    assert all(o == Action(Kind.EXCHANGE) for _, o in seen)  # commits at once, nothing selected
    assert any(g.kind is Kind.SELECT for g, _ in seen)  # greedy gives back lone honours in the same spots


def test_level3_claims_only_what_makes_it_ready() -> None:
    claims = [(v, g, o) for v, g, o in _seen("wenzhou2p", 12) if v.phase is Phase.CLAIM and WIN not in [g, o]]
    opened = [(v, o) for v, _, o in claims if o != PASS]
    assert opened and all(_after_claim(v, o) == 0 for v, o in opened)
    assert all(o in (g, PASS) for _, g, o in claims)  # when it claims, it claims what greedy claims
    assert any(g != PASS and o == PASS for _, g, o in claims)  # and it lets some of greedy's claims go


def test_level3_is_the_intermediate_greedy() -> None:
    bot = make_bot("level3", 1)
    assert isinstance(bot, GreedyBot) and bot.name == "level3"
    assert (bot.exchange, bot.claim_within, bot.value_sense, bot.riichi) == (False, 0, False, True)
    assert (bot.kongs, bot.closed) == (False, True)
    greedy = make_bot("level4", 1)
    assert isinstance(greedy, GreedyBot) and greedy.claim_within is None
    assert (greedy.kongs, greedy.closed) == (True, False)


def test_level3_never_kongs_where_greedy_does() -> None:
    kongs = (Kind.CONCEALED_KONG, Kind.ADDED_KONG, Kind.EXTEND_KONG, Kind.KONG)
    seen = _seen("wushuang128", 16)  # eight copies of a kind: kongs come often
    assert any(g.kind in kongs for _, g, _ in seen)  # greedy kongs in these hands
    assert not any(o.kind in kongs for _, _, o in seen)  # level3, in the same spots, never
    turns = [(v, g, o) for v, g, o in seen if v.phase is Phase.TURN and g.kind in kongs]
    assert turns and all(o.kind is Kind.DISCARD for _, _, o in turns)  # it discards instead


def test_level3_claims_nothing_where_riichi_is_allowed() -> None:
    for rules in ("classic64", "cuopai789"):
        claims = [(g, o) for v, g, o in _seen(rules, 12) if v.phase is Phase.CLAIM]
        assert any(g not in (PASS, WIN) for g, _ in claims)  # greedy claims in these hands
        assert all(o in (PASS, WIN) for _, o in claims)  # level3 only wins on a discard, or passes


def test_exchange_step_gives_back_single_honours_and_isolated_terminals() -> None:
    """Greedy's start exchange, step by step: the first unmarked single honour or isolated terminal (in the
    rules' kind order), then commit; no more than ``start_exchange_max``."""
    from erma.bots.greedy import exchange_step
    from erma.game import new_hand, seat_view

    view = seat_view(new_hand(find_ruleset("cuopai789"), "ex3", dealer=0), 0)
    # 44m 7m 1p 6p 3s 4s 7s 9s 1z 22z 3z 6z: 1p is an isolated terminal, 1z 3z 6z single honours
    assert [t for t in range(34) for _ in range(view.hand[t])] == [
        3,
        3,
        6,
        9,
        14,
        20,
        21,
        24,
        26,
        27,
        28,
        28,
        29,
        32,
    ]
    steps = []
    while (t := exchange_step(view, steps)) is not None:
        steps.append(t)
    assert steps == [9, 27, 29, 32]
    capped = seat_view(new_hand(find_ruleset("cuopai789", {"start_exchange_max": 2}), "ex3", dealer=0), 0)
    assert exchange_step(capped, [9, 27]) is None
