"""The greedy bot (贪心): shanten first, then the useful tiles still unseen, with a little fan sense.

- Always takes a legal win (the engine lists a win only if it reaches the minimum fan).
- Discards to the lowest shanten, then the most unseen useful tiles; ties go to the tile worth least
  (lone honours and isolated terminals first, then the least connected tiles).
- Claims a discard (pung, chow, kong) only if it lowers the shanten after the best discard.
- Declares ready (报听) when the hand is ready with at least two unseen winning tiles.
- Kongs when the kong keeps the shanten; accepts a triplet offer that lowers the shanten; picks the 搓牌
  kind that helps most; gives back isolated tiles in the start exchange.
"""

from __future__ import annotations

import random

from erma.analysis import shapes
from erma.analysis.tables import INC
from erma.bots.base import BotView
from erma.game import wenzhou as wz
from erma.game.actions import PASS, WIN, Action, Kind
from erma.game.state import Phase


def _shanten(key: int, n: int) -> int:
    return shapes.overall(key, n)


def _wz_shanten(view: BotView, key: int, n: int, jokers: int, concealed: bool) -> int:
    """温州: regular shape with 财神 as jokers, or 八对 while no set is declared."""
    v = shapes.regular(key, n, jokers)
    if concealed and n in (16, 17):
        v = min(v, shapes.eight_pairs(key, n, jokers, view.four_as_two))
    return v


def _sh(view: BotView, key: int, n: int, jokers: int | None = None, melded: bool = False) -> int:
    """Shanten as the rule family reads it (温州: jokers and 八对; ``melded``: after a new set)."""
    if view.caishen is None:
        return shapes.overall(key, n)
    j = view.jokers if jokers is None else jokers
    return _wz_shanten(view, key, n, j, not view.melds and not melded)


def _minus(view: BotView, key: int, tile: int) -> tuple[int, int]:
    """(key, jokers) after giving away a physical tile."""
    p = view.play(tile)
    if p == wz.JOKER:
        return key, view.jokers - 1
    return key - INC[p], view.jokers


def _ukeire(view: BotView, key: int, n: int, s: int) -> int:
    if view.caishen is not None:
        return _wz_ukeire(view, key, n, s)
    total = 0
    for t in view.kinds:
        left = view.unseen(t)
        if left and shapes.overall(key + INC[t], n + 1) < s:
            total += left
    return total


def _wz_ukeire(view: BotView, key: int, n: int, s: int) -> int:
    """温州: unseen tiles that lower the shanten, each counted by the physical tile that plays it."""
    cs = view.caishen
    assert cs is not None
    concealed = not view.melds
    total = 0
    for t in view.kinds:
        p = view.play(t)
        left = view.unseen(t)
        if not left:
            continue
        if p == wz.JOKER:
            if _wz_shanten(view, key, n + 1, view.jokers + 1, concealed) < s:
                total += 2 * left  # a 财神 is worth more than the tile it stands for
        elif _wz_shanten(view, key + INC[p], n + 1, view.jokers, concealed) < s:
            total += left
    return total


def _isolation(view: BotView, t: int) -> int:
    """How little a tile connects: higher means a better discard."""
    c = view.counts
    if view.caishen is not None:
        t = view.play(t)
        if t == wz.JOKER:
            return -100  # never throw a 财神 away
    if not 0 <= t < 34:
        return 0
    if t >= 27:
        return 6 if c[t] == 1 else 0
    r = t % 9
    near = sum(c[t + d] for d in (-2, -1, 1, 2) if 0 <= r + d <= 8) + (c[t] - 1) * 2
    edge = 1 if r in (0, 8) else 0
    return max(0, 4 - near) + edge


class GreedyBot:
    """贪心: lowest shanten, most unseen useful tiles."""

    name = "greedy"
    uses_view = True

    def __init__(self, seed: int | str = 0) -> None:
        self.rng = random.Random(f"greedy:{seed}")

    # ------------------------------------------------------------------------------------ choose

    def choose(self, view: BotView, legal: list[Action]) -> Action:
        """The greedy choice among ``legal``."""
        if WIN in legal:
            return WIN
        ph = view.phase
        if ph is Phase.TURN:
            return self._turn(view, legal)
        if ph is Phase.CLAIM:
            return self._claim(view, legal)
        if ph is Phase.TRIPLET:
            return self._triplet(view, legal)
        if ph is Phase.CUO:
            return self._cuo(view, legal)
        if ph is Phase.EXCHANGE:
            return self._exchange(view, legal)
        if ph is Phase.HAIDI:
            return self.rng.choice(legal)
        return PASS if PASS in legal else legal[0]

    def _best_discard(
        self, view: BotView, key: int, n: int, discards: list[Action]
    ) -> tuple[Action, int, int]:
        """(discard, shanten after it, unseen useful tiles after it)."""
        scored = []
        for a in discards:
            k, j = _minus(view, key, a.tile)
            scored.append((_sh(view, k, n - 1, j), a, k))
        best_s = min(s for s, _, _ in scored)
        best: tuple[int, int, int, Action] | None = None
        for s, a, k in scored:
            if s != best_s:
                continue
            uk = _ukeire(view, k, n - 1, s)
            rank = (uk, _isolation(view, a.tile), self.rng.random())
            if best is None or rank > best[:3]:
                best = (*rank, a)  # type: ignore[assignment]
        assert best is not None
        return best[3], best_s, best[0]

    def _turn(self, view: BotView, legal: list[Action]) -> Action:
        discards = [a for a in legal if a.kind is Kind.DISCARD and not a.riichi]
        kongs = [a for a in legal if a.kind in (Kind.CONCEALED_KONG, Kind.ADDED_KONG, Kind.EXTEND_KONG)]
        if not discards:
            return kongs[0] if kongs else legal[0]
        choice, s_after, uk = self._best_discard(view, view.key, view.size, discards)
        for a in kongs:
            removed = 4 if a.kind is Kind.CONCEALED_KONG else 1
            k = view.key - INC[view.play(a.tile)] * removed
            n = view.size - removed
            # the kong keeps the hand's shape: shanten after it (before the replacement) ≤ the best discard's
            if _sh(view, k, n, melded=True) <= s_after:
                return a
        riichi = Action(Kind.DISCARD, choice.tile, riichi=True)
        if riichi in legal and s_after == 0 and uk >= 2:
            return riichi
        return choice

    def _claim(self, view: BotView, legal: list[Action]) -> Action:
        t = view.last_discard
        if t is None or view.play(t) == wz.JOKER:
            return PASS
        t = view.play(t)
        now = _sh(view, view.key, view.size)
        best: tuple[int, Action] | None = None
        for a in legal:
            if a.kind is Kind.PUNG:
                k, n = view.key - INC[t] * 2, view.size - 2
            elif a.kind is Kind.KONG:
                k, n = view.key - INC[t] * 3, view.size - 3
            elif a.kind is Kind.CHOW:
                k, n = view.key, view.size
                for x in (a.tile, a.tile + 1, a.tile + 2):
                    if x != t:
                        k -= INC[x]
                        n -= 1
            else:
                continue
            # after a pung or chow the hand has 3k+2 tiles (the formula is the best discard's shanten);
            # after a kong 3k+1 tiles that need one set less, before the replacement draw
            after = _sh(view, k, n, melded=True)
            if after < now and (best is None or after < best[0]):
                best = (after, a)
        return best[1] if best else PASS

    def _triplet(self, view: BotView, legal: list[Action]) -> Action:
        kind = view.offer
        if kind is None:
            return PASS
        now = _shanten(view.key, view.size)
        # give the three tiles that matter least (never the offered kind)
        order = sorted(
            (t for t in view.kinds for _ in range(view.counts[t]) if t != kind),
            key=lambda t: (_isolation(view, t), t),
            reverse=True,
        )
        give = tuple(sorted(order[:3]))
        if len(give) < 3:
            return PASS
        k = view.key + INC[kind] * 3 - sum(INC[t] for t in give)
        accept = Action(Kind.ACCEPT, tiles=give)
        if accept in legal and _shanten(k, view.size) < now:
            return accept
        return PASS

    def _cuo(self, view: BotView, legal: list[Action]) -> Action:
        best: tuple[int, float, Action] | None = None
        for a in legal:
            if a.kind is not Kind.CUO:
                continue
            s = _shanten(view.key + INC[a.tile], view.size + 1)
            rank = (-s, self.rng.random())
            if best is None or rank > best[:2]:
                best = (*rank, a)
        return best[2] if best else PASS

    def _exchange(self, view: BotView, legal: list[Action]) -> Action:
        # give back single honours and isolated terminals, one at a time, then commit
        for a in legal:
            if a.kind is Kind.SELECT and _isolation(view, a.tile) >= 5:
                return a
        return Action(Kind.EXCHANGE)
