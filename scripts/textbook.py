"""Textbook tile efficiency (牌效), written apart from erma's analysis: clear-cut early discards to check the
bots and the coach against (tests/bots/test_textbook.py, tests/data/textbook_discards.json).

The counter here knows nothing of :mod:`erma.analysis`: the shanten is found by searching every way to
split each suit into sets, partial sets (two tiles one tile from a set) and a pair (brute force, memoised
per suit), over the regular shape and seven pairs only (``8 − 2·sets − partials − pair`` with at most four
sets and partials; seven pairs ``6 − pairs + max(0, 7 − kinds)``). A discard's useful tiles are the unseen
copies, from the seat's view (its own tiles, both rivers, the open sets, the revealed tiles), of the kinds
that lower the shanten. A case is clear-cut when the best discard keeps the lowest shanten and beats every
other discard of that shanten by at least ``MARGIN`` tiles, the hand is not ready after it (no waits' value
at stake), the opponent has not declared 报听 (no dealing in at stake), only discards are on offer (no kong,
no win), and no other shape could be nearer (thirteen orphans, where the table wins it).

The positions come from erma's engine (deals of each preset, a few turns played by ``greedy-plain`` to give
the rivers something): ``python -m scripts.textbook --write`` regenerates the data file. Only the labels
matter here, and they come from this file alone.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "textbook_discards.json"
MARGIN = 4
"""The best discard beats the second by at least this many useful tiles."""
PRESETS = ("cuopai789", "classic64", "wushuang128")
"""The standard-family presets (温州's 16 tiles, 财神 and 八对 are not textbook efficiency)."""
ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


@functools.cache
def _suit_options(counts: tuple[int, ...], chains: bool) -> frozenset[tuple[int, int, int]]:
    """Every (sets, partials, pairs) one group's tiles split into (the rest left loose), by trying each way
    to use the lowest tile present: a pung, a chow, a pair, a two-tile partial, or nothing."""
    i = next((k for k, c in enumerate(counts) if c), -1)
    if i < 0:
        return frozenset({(0, 0, 0)})
    out: set[tuple[int, int, int]] = set()

    def take(parts: Sequence[int], add: tuple[int, int, int]) -> None:
        c = list(counts)
        for k in parts:
            if k >= len(c) or c[k] == 0:
                return
            c[k] -= 1
        for m, t, p in _suit_options(tuple(c), chains):
            out.add((m + add[0], t + add[1], p + add[2]))

    take((i, i, i), (1, 0, 0))
    take((i, i), (0, 0, 1))
    if chains:
        take((i, i + 1, i + 2), (1, 0, 0))
        take((i, i + 1), (0, 1, 0))
        take((i, i + 2), (0, 1, 0))
    c = list(counts)
    c[i] = 0  # every copy left loose
    for m, t, p in _suit_options(tuple(c), chains):
        out.add((m, t, p))
    return frozenset(out)


def _normal(options: frozenset[tuple[int, int, int]]) -> tuple[tuple[int, int, int], ...]:
    """(sets, partials, head) with one pair as the head and the other pairs as partials, capped (at most
    four sets, four partials) and without the options another one beats in every count."""
    flat = {(min(m, 4), min(t + p - (1 if p else 0), 4), 1 if p else 0) for m, t, p in options}
    return tuple(
        x for x in flat if not any(y != x and y[0] >= x[0] and y[1] >= x[1] and y[2] >= x[2] for y in flat)
    )


def _join(
    a: tuple[tuple[int, int, int], ...], b: tuple[tuple[int, int, int], ...]
) -> tuple[tuple[int, int, int], ...]:
    """The options of two groups together (a second head becomes a partial)."""
    both = frozenset((x[0] + y[0], x[1] + y[1], x[2] + y[2]) for x in a for y in b)
    return _normal(frozenset((m, t + (1 if h == 2 else 0), min(h, 1)) for m, t, h in both))


def regular_shanten(counts: Sequence[int]) -> int:
    """Shanten of the regular shape (four sets and a pair) of 13 or 14 tiles, by exhaustive splitting."""
    joined = _normal(_suit_options(tuple(counts[0:9]), True))
    for lo, hi, chains in ((9, 18, True), (18, 27, True), (27, 34, False)):
        joined = _join(joined, _normal(_suit_options(tuple(counts[lo:hi]), chains)))
    return min(8 - 2 * m - min(t, 4 - m) - h for m, t, h in joined)


def seven_pairs_shanten(counts: Sequence[int]) -> int:
    """七对: six minus the pairs (four of a kind two, as the MCR tables count it)."""
    pairs = sum(c // 2 for c in counts)
    return 6 - min(pairs, 7)


def orphans_shanten(counts: Sequence[int]) -> int:
    """十三幺: thirteen minus the orphan kinds held, one less with an orphan pair."""
    kinds = sum(1 for t in ORPHANS if counts[t])
    pair = any(counts[t] >= 2 for t in ORPHANS)
    return 13 - kinds - (1 if pair else 0)


def shanten(counts: Sequence[int]) -> int:
    """The textbook shanten: regular shape or seven pairs."""
    return min(regular_shanten(counts), seven_pairs_shanten(counts))


def discard_table(
    counts: Sequence[int], unseen: Sequence[int], kinds: Sequence[int]
) -> dict[int, tuple[int, int]]:
    """For each kind held: (shanten after discarding it, unseen useful tiles then)."""
    out: dict[int, tuple[int, int]] = {}
    c = list(counts)
    for d in kinds:
        if not c[d]:
            continue
        c[d] -= 1
        s = shanten(c)
        useful = 0
        for t in kinds:
            if unseen[t] and c[t] < 8:
                c[t] += 1
                if shanten(c) < s:
                    useful += unseen[t]
                c[t] -= 1
        out[d] = (s, useful)
        c[d] += 1
    return out


def clear_cut(table: dict[int, tuple[int, int]]) -> tuple[int, int, int] | None:
    """(best kind, its useful tiles, the second's) when the best is clear by :data:`MARGIN`, else None."""
    low = min(s for s, _ in table.values())
    ranked = sorted(((u, d) for d, (s, u) in table.items() if s == low), reverse=True)
    if low < 1:
        return None  # ready after the best discard: the value of the waits is at stake
    second = ranked[1][0] if len(ranked) > 1 else 0
    if ranked[0][0] - second < MARGIN:
        return None
    return ranked[0][1], ranked[0][0], second


# ----------------------------------------------------------------------------------- the data file


def _positions(preset: str, count: int) -> list[dict[str, Any]]:
    """Clear-cut early discards of ``preset`` (erma's engine deals and plays the turns before)."""
    import random

    from erma.bots import make_bot
    from erma.game.flow import apply
    from erma.game.legal import legal_actions
    from erma.game.seatview import seat_view
    from erma.game.start import new_hand
    from erma.game.state import Phase
    from erma.rules import find_ruleset

    rules = find_ruleset(preset)
    out: list[dict[str, Any]] = []
    wall = 0
    while len(out) < count and wall < 40 * count:
        seed = f"textbook:{preset}:{wall}"
        rng = random.Random(seed)
        stop = rng.randrange(0, 5)  # the seat's own discards before the case: 0–4
        target = rng.randrange(2)
        dealer = wall % 2
        wall += 1
        state = new_hand(rules, seed, dealer, 0)
        bots = [make_bot("greedy-plain", f"{seed}:{s}") for s in (0, 1)]
        actions: list[list[Any]] = []
        while state.phase is not Phase.END:
            seat = state.actor
            me = state.seats[seat]
            view = seat_view(state, seat)
            legal = legal_actions(state, seat)
            if seat == target and state.phase is Phase.TURN and me.discards_made == stop:
                kinds = {a.kind.value for a in legal}
                opponent = state.seats[1 - seat]
                if (
                    not me.melds
                    and not me.riichi
                    and not opponent.riichi  # a declared opponent puts dealing in at stake
                    and kinds <= {"discard"}  # no win, no kong on offer: a discard is the whole question
                ):
                    case = _case(view, preset, rules.kinds)
                    if case is not None:
                        record = {
                            "format": "erma.record/2",
                            "rules": preset,
                            "family": "standard",
                            "options": {},
                            "seed": seed,
                            "deck": None,
                            "dealer": dealer,
                            "prevalent_wind": 0,
                            "hand_no": None,
                            "streak": 0,
                            "actions": actions,
                        }
                        out.append({**case, "seat": seat, "record": record})
                break
            if max(s.discards_made for s in state.seats) > stop + 1:
                break
            text = bots[seat].choose(view, legal).to_str()
            actions.append([seat, text])
            apply(state, seat, text)
    return out


def _case(view: Any, preset: str, kinds: Sequence[int]) -> dict[str, Any] | None:
    from erma.tiles import to_mpsz

    counts = list(view.counts[:34])
    unseen = [max(0, view.rules.copies - view.visible[t]) for t in range(34)]
    table = discard_table(counts, unseen, kinds)
    found = clear_cut(table)
    if found is None:
        return None
    best, useful, second = found
    low = table[best][0]
    if preset == "cuopai789" and min(orphans_shanten(counts) - 1, 99) <= low + 1:
        return None  # thirteen orphans near: not a textbook regular-shape case
    hand = [t for t in range(34) for _ in range(counts[t])]
    return {
        "rules": preset,
        "hand": to_mpsz(hand),
        "best": to_mpsz([best]),
        "shanten": low,
        "useful": useful,
        "second": second,
    }


def main(argv: Sequence[str] | None = None) -> int:
    """``--write``: regenerate :data:`OUT`; ``--per N`` cases a preset."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--per", type=int, default=60)
    args = ap.parse_args(argv)
    cases = [c for p in PRESETS for c in _positions(p, args.per)]
    text = json.dumps({"margin": MARGIN, "cases": cases}, ensure_ascii=False, indent=1) + "\n"
    if args.write:
        OUT.write_text(text, encoding="utf-8")
    by = {p: sum(c["rules"] == p for c in cases) for p in PRESETS}
    print(f"{len(cases)} cases {by}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
