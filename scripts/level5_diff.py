"""Where level5 and greedy (level 4) choose differently: level5 plays greedy on an arena's walls, and at
each of level5's decisions greedy's choice on the same view is asked too (a GreedyBot with level5's seed);
the decisions where they differ are counted by kind.

    python scripts/level5_diff.py classic64 t19x 150

A discard pair is tagged by the shanten after each (``l5 s+1``: level5's leaves the hand a step further) and,
at the same shanten, by the unseen useful tiles level5 gives up (``uk-2``) at greedy's shanten (``at s1``);
``riichi greedy``: greedy declares 报听 with the tile level5 throws without declaring. Claims: ``A vs B`` is
level5's kind against greedy's.
"""

from __future__ import annotations

import sys
from collections import Counter

from erma.bots import make_bot
from erma.bots.base import BotView
from erma.bots.greedy import GreedyBot, _minus, _sh, _ukeire
from erma.game import Phase, apply_unchecked, legal_actions, new_hand, seat_view
from erma.game.actions import Action, Kind
from erma.lab.arena import arena_bot_seed
from erma.lab.selfplay import hand_seed
from erma.rules import find_ruleset


def after(view: BotView, a: Action) -> tuple[int, int]:
    """(shanten, unseen useful tiles) after discarding ``a``."""
    k, j = _minus(view, view.key, a.tile)
    s = _sh(view, k, view.size - 1, j)
    return s, _ukeire(view, k, view.size - 1, s)


def tag(view: BotView, a: Action, b: Action) -> str:
    if a.kind is not Kind.DISCARD or b.kind is not Kind.DISCARD:
        return f"{a.kind.name} vs {b.kind.name}"
    if a.tile == b.tile:
        return "riichi l5" if a.riichi else "riichi greedy"
    (sa, ua), (sb, ub) = after(view, a), after(view, b)
    out = f"l5 s+{sa - sb}" if sa != sb else "same s " + ("uk=" if ua == ub else f"uk{ua - ub:+d}")
    out += f" at s{sb}"
    if a.riichi != b.riichi:
        out += " (riichi l5)" if a.riichi else " (riichi greedy)"
    return out


def main() -> None:
    rules, seed, walls = find_ruleset(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    count: Counter[tuple[str, str]] = Counter()
    for wall in range(walls):
        for g in (0, 1):
            names = ("level5", "greedy") if g == 0 else ("greedy", "level5")
            bots = [make_bot(names[s], arena_bot_seed(seed, wall, g, s)) for s in (0, 1)]
            shadow = GreedyBot(arena_bot_seed(seed, wall, g, g))  # level5 sits in seat g
            state = new_hand(rules, hand_seed(seed, wall), wall % 2)
            while state.phase is not Phase.END:
                seat = state.actor
                legal = legal_actions(state, seat)
                view = seat_view(state, seat, legal)
                a = bots[seat].choose(view, legal)
                if seat == g and len(legal) > 1:
                    b = shadow.choose(view, legal)
                    count[view.phase.name, "all"] += 1
                    if a != b:
                        count[view.phase.name, tag(view, a, b)] += 1
                apply_unchecked(state, seat, a)
    for (phase, kind), n in sorted(count.items(), key=lambda kv: (kv[0][0], -kv[1])):
        print(f"{phase:>8} {kind:<36} {n}")


if __name__ == "__main__":
    main()
