"""Measure the expert bot's priors (src/erma/bots/priors.py) from greedy self-play.

Per preset: the chance a seat wins in each round of the hand (between its k-th and (k+1)-th discard,
the hand still going), the same for a seat that has declared ready (报听), the share of seats ready (听牌)
right after their k-th discard, and the mean points of a win.
``python scripts/bot_priors.py [hands] [seed]``.
"""

from __future__ import annotations

import json
import sys

from erma.bots import make_bot
from erma.bots.greedy import _sh
from erma.game import Kind, Phase, apply_unchecked, legal_actions, new_hand, seat_view
from erma.lab.selfplay import hand_seed
from erma.rules import find_ruleset, preset_names

ROUNDS = 20


def measure(preset: str, hands: int, seed: str) -> dict[str, object]:
    rules = find_ruleset(preset)
    alive = [0] * ROUNDS
    won = [0] * ROUNDS
    riichi_alive = riichi_won = 0
    ready = [[0, 0] for _ in range(ROUNDS)]
    win_points: list[int] = []
    for i in range(hands):
        state = new_hand(rules, hand_seed(seed, i))
        bots = [make_bot("greedy", f"{seed}:{i}:{s}") for s in (0, 1)]
        made = [0, 0]
        alive[0] += 2
        while state.phase is not Phase.END:
            seat = state.actor
            a = bots[seat].choose(seat_view(state, seat), legal_actions(state, seat))
            apply_unchecked(state, seat, a)
            if a.kind is Kind.DISCARD and state.phase is not Phase.END:
                made[seat] += 1
                alive[min(ROUNDS - 1, made[seat])] += 1
                if state.seats[seat].riichi:
                    riichi_alive += 1
                v = seat_view(state, seat)
                k = min(ROUNDS - 1, made[seat])
                ready[k][1] += 1
                ready[k][0] += _sh(v, v.key, v.size) == 0
        r = state.result
        assert r is not None
        if r.is_win and r.winner is not None:
            win_points.append(max(r.deltas))
            won[min(ROUNDS - 1, made[r.winner])] += 1
            if state.seats[r.winner].riichi:
                riichi_won += 1
    return {
        "win_by_round": [round(w / a, 3) if a >= 20 else None for w, a in zip(won, alive, strict=True)],
        "win_per_round_riichi": round(riichi_won / max(1, riichi_alive), 3),
        "ready_by_discards": [round(a / b, 3) if b >= 20 else None for a, b in ready],
        "mean_win_points": round(sum(win_points) / max(1, len(win_points)), 2),
        "wins": len(win_points),
    }


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 400
    seed = sys.argv[2] if len(sys.argv) > 2 else "priors"
    print(json.dumps({p: measure(p, n, seed) for p in preset_names()}))
