"""The oracle harness (lab, issue #39 headroom study): it plays the arena's games exactly (level5 through the
wrapper gives ``erma arena``'s figures), the state copy leaves the game untouched, and the defending oracles
never deal in outside a 报听 lock (with the foresight, not at all on these walls)."""

from __future__ import annotations

from erma.bots import make_bot
from erma.game import Kind, Phase, apply_unchecked, legal_actions, new_hand, seat_view
from erma.lab.arena import ArenaConfig, run_arena
from erma.lab.oracle import clone, deals_in, live_view, run_oracle_arena
from erma.rules import find_ruleset


def _figures(summary: dict[str, object]) -> dict[str, object]:
    return {
        k: v
        for k, v in summary.items()
        if k not in ("decision_ms", "bots", "oracle", "elapsed_s", "first", "per_wall")
    }


def test_the_wrapper_changing_nothing_gives_the_arenas_figures() -> None:
    rules = find_ruleset("classic64")
    plain = run_arena(ArenaConfig(rules, ("level5", "greedy"), "oracle-test"), 3)
    wrapped = run_oracle_arena(ArenaConfig(rules, ("level5-harness", "greedy"), "oracle-test"), 3)
    assert _figures(plain) == _figures(wrapped)


def test_trying_an_action_on_a_copy_leaves_the_state_as_it_was() -> None:
    rules = find_ruleset("wushuang128")
    state = new_hand(rules, "oracle-copy", 0)
    bots = [make_bot("greedy", "a"), make_bot("greedy", "b")]
    tried = 0
    while state.phase is not Phase.END and tried < 40:
        seat = state.actor
        legal = legal_actions(state, seat)
        if state.phase is Phase.TURN:
            before = (list(state.seats[seat].counts), state.head, len(state.events), state.phase, state.actor)
            for a in legal:
                if a.kind is Kind.DISCARD:
                    deals_in(state, seat, a)
                    tried += 1
            after = (list(state.seats[seat].counts), state.head, len(state.events), state.phase, state.actor)
            assert before == after
            view = seat_view(state, seat)
            live = live_view(view, state)
            wall = sum(1 for _ in range(state.head, state.tail))
            assert sum(live.unseen(t) for t in view.kinds) == wall
            assert clone(state).seats[seat].counts == state.seats[seat].counts
        apply_unchecked(state, seat, bots[seat].choose(seat_view(state, seat, legal), legal))
    assert tried


def test_the_defending_oracles_deal_in_only_when_locked() -> None:
    rules = find_ruleset("classic64")
    for name in ("perfect-defence", "perfect-defence+declare"):
        s = run_oracle_arena(ArenaConfig(rules, (name, "greedy"), "oracle-test"), 4)
        stats = s["oracle"][name]
        assert stats["dealt_in"] == stats["dealt_in_declared"] == s["deal_ins"][0]
