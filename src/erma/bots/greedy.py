"""The greedy bot (贪心): shanten first, then the useful tiles still unseen, with a little fan sense.

- Takes a legal win (the engine lists a win only if it reaches the minimum fan). 温州: weighs it first
  (:func:`wz_wait_value`): a win is declined when waiting is worth more in bases — a 软 ×1 discard win early
  in the hand when self-draws (硬 ×2) or 双翻 are likely, a 三财神 win without a shape when every next tile
  wins and some make the shape.
- Discards to the lowest shanten, then the most unseen useful tiles; ties go to the tile worth least
  (lone honours and isolated terminals first, then the least connected tiles). 温州, ready after the
  discard: the wait worth most (its winning tiles weighed by the multiplier of a self-draw and of a discard
  win on each).
- Claims a discard (pung, chow, kong) only if it lowers the shanten after the best discard.
- Declares ready (报听) when the hand is ready with at least two unseen winning tiles.
- Kongs when the kong keeps the shanten; accepts a triplet offer that lowers the shanten; picks the 搓牌
  kind that helps most; gives back isolated tiles in the start exchange.
- The intermediate level (``level3``, 中级) is this bot with less to consider: no start exchange, no kongs,
  no 温州 value sense; where 报听 is allowed it keeps its hand closed (claims no discard), in 温州 it claims
  only a discard that makes the hand ready.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from erma.analysis import shapes
from erma.analysis.tables import INC
from erma.bots.base import BotView
from erma.bots.claimed import claimed_key
from erma.bots.stakes import Stakes, stake_choice
from erma.game.actions import PASS, WIN, Action, Kind
from erma.game.families import wenzhou_wins as wz
from erma.game.state import Phase
from erma.hand import MeldKind


def _shanten(view: BotView, key: int, n: int) -> int:
    return shapes.overall(key, n, 0, view.shapes)


def wz_shanten(key: int, n: int, jokers: int, concealed: bool, four_as_two: bool) -> int:
    """温州 shanten: regular shape with 财神 as jokers, or 八对 while no set is declared (``concealed``;
    ``four_as_two``: four of a kind counts as two pairs)."""
    v = shapes.regular(key, n, jokers)
    if concealed and n in (16, 17):
        v = min(v, shapes.eight_pairs(key, n, jokers, four_as_two))
    return v


def _sh(view: BotView, key: int, n: int, jokers: int | None = None, melded: bool = False) -> int:
    """Shanten as the rule family reads it (温州: jokers and 八对; ``melded``: after a new set)."""
    if view.caishen is None:
        return shapes.overall(key, n, 0, view.shapes)
    j = view.jokers if jokers is None else jokers
    return wz_shanten(key, n, j, not view.melds and not melded, view.four_as_two)


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
    allowed = view.shapes
    for t in view.kinds:
        left = view.unseen(t)
        if left and shapes.overall(key + INC[t], n + 1, 0, allowed) < s:
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
            if wz_shanten(key, n + 1, view.jokers + 1, concealed, view.four_as_two) < s:
                total += 2 * left  # a 财神 is worth more than the tile it stands for
        elif wz_shanten(key + INC[p], n + 1, view.jokers, concealed, view.four_as_two) < s:
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


def exchange_room(view: BotView) -> int:
    """How many tiles the start exchange may give back: the reserve's tiles, and ``start_exchange_max``."""
    cap = view.rules.start_exchange_max
    return view.reserve_count if cap is None else min(view.reserve_count, cap)


def exchange_step(view: BotView, selected: Sequence[int]) -> int | None:
    """Greedy's start exchange (换牌), one step: the first kind (in the rules' order) not yet marked with a
    single honour or an isolated terminal (:func:`_isolation` ≥ 5) to give back; None: commit (also when the
    rules allow no more)."""
    if len(selected) >= exchange_room(view):
        return None
    for t in view.rules.kinds:
        if view.counts[t] > list(selected).count(t) and _isolation(view, t) >= 5:
            return t
    return None


# ------------------------------------------------------------------------ 温州 value sense

OPPONENT_WIN_COST = 2.0
"""What the opponent's win costs, in bases (a win is worth 1.9 bases on average with 财神钱 in greedy
self-play)."""


def opponent_hazard(elapsed: int) -> float:
    """The chance the opponent wins on one turn of theirs after ``elapsed`` normal draws of the hand:
    roughly greedy self-play's rate (measured 3 % a turn after 8 draws, 6 % after 12, 12 % after 20; the
    line gives 4, 6 and 9 %), capped at 20 %."""
    return min(0.2, 0.01 + 0.004 * elapsed)


@dataclass(frozen=True, slots=True)
class Wait:
    """温州: what a ready (3k+1) hand waits for, as chances per turn and mean multipliers."""

    p_self: float
    """The chance one own draw wins (unseen winning tiles / unseen tiles)."""
    m_self: float
    """The mean multiplier of such a self-drawn win (at least 2)."""
    p_discard: float
    """The chance one opponent discard wins (unseen winning tiles the opponent may discard / unseen)."""
    m_discard: float
    """The mean multiplier of such a discard win."""


def wz_wait(view: BotView, key: int, n: int, jokers: int) -> Wait:
    """The wait of a 3k+1 hand as played (``key``, ``n`` tiles, ``jokers``): every unseen physical kind
    that completes it, classified (RULES §3.6) as a self-draw and as a discard win."""
    rules, cs = view.rules, view.caishen
    assert rules is not None and cs is not None
    concealed = not view.melds
    facts = wz.WinFacts(
        how="discard",
        win_tile=0,
        single_left=n == 1 and len(view.melds) == 5,
        melds_have_chow=any(m.kind is MeldKind.CHOW for m in view.melds),
    )
    # a hand one tile from 八对 may win as one; otherwise only a five-sets win (or 三财神) can come, and
    # unless it is 单吊 or five pungs need a look (allow_all_pungs=false) classify reduces to "some reading
    # with every 财神 归位" (硬 ×2) or not (软 ×1)
    eight = concealed and n == 16 and shapes.eight_pairs(key, n, jokers, view.four_as_two) == 0
    plain = not eight and not facts.single_left and rules.allow_all_pungs
    unseen = w_self = w_disc = 0
    v_self = v_disc = 0.0
    for t in view.kinds:
        u = view.unseen(t)
        if not u:
            continue
        unseen += u
        p = view.play(t)
        if p == wz.JOKER:
            k, j = key, jokers + 1
        else:
            k, j = key + INC[p], jokers
        if plain and j < 3:
            if shapes.regular(k, n + 1, j) != -1:
                continue
            m = 2 if not j or shapes.regular(k + INC[cs] * j, n + 1, 0) == -1 else 1
        else:
            v = wz.classify(k, n + 1, j, concealed=concealed, facts=facts, rules=rules, caishen=cs)
            if v is None:
                continue
            m = v.multiplier
        w_self += u
        v_self += u * max(2, m)
        if p != wz.JOKER or rules.caishen_discardable:
            w_disc += u
            v_disc += u * m
    if not unseen:
        return Wait(0.0, 0.0, 0.0, 0.0)
    return Wait(
        w_self / unseen,
        v_self / w_self if w_self else 0.0,
        w_disc / unseen,
        v_disc / w_disc if w_disc else 0.0,
    )


def wz_wait_value(
    view: BotView, wait: Wait, my_draw_first: bool, first_discard_barred: bool = False
) -> float:
    """The expected worth, in bases, of going on with a wait: own draws win with ``p_self``, each
    opponent turn ends the hand against us with :func:`opponent_hazard` or else discards a winning tile
    with ``p_discard`` (taken when it is worth more than going on), until the normal draws run out (流局,
    0). Backwards over the draws that are left; the first is ours if ``my_draw_first``.
    ``first_discard_barred``: the opponent's next discard cannot be won on (过水 after a declined
    robbing chance)."""
    rules = view.rules
    assert rules is not None
    dealt = len(rules.tile_list()) - (2 * rules.hand_size + 1) - int(rules.caishen_flip_removed)
    left = max(0, view.wall_left - rules.reserve_tiles)
    elapsed = max(0, dealt - view.wall_left)
    value = 0.0
    for i in range(left - 1, -1, -1):
        mine = (i % 2 == 0) == my_draw_first
        if mine:
            value = wait.p_self * wait.m_self + (1 - wait.p_self) * value
        else:
            q = opponent_hazard(elapsed + i)
            on = wait.p_discard * max(wait.m_discard, value) + (1 - wait.p_discard) * value
            if first_discard_barred and i == int(my_draw_first):
                on = value
            value = -q * OPPONENT_WIN_COST + (1 - q) * on
    return value


class GreedyBot:
    """贪心: lowest shanten, most unseen useful tiles; in 温州 it weighs 软 / 硬 / 双翻 (``value_sense``).

    ``value_sense=False`` is the plain greedy bot (every legal win taken, waits by count alone), kept as
    the baseline the value sense is measured against (bot name ``greedy-plain``). ``riichi=False`` never
    declares 报听; ``stakes`` are the 温州 stakes it weighs; ``exchange=False`` keeps its dealt tiles in the
    start exchange (换牌); ``claim_within=s`` claims a discard only if the hand is then at most ``s`` from
    ready (``level3``: 0, only a claim that makes it ready); ``kongs=False`` never kongs (暗杠, 加杠, nor on a
    discard); ``closed=True`` claims no discard where the rules allow 报听 (门清, ``level3``)."""

    name = "greedy"
    uses_view = True

    def __init__(
        self,
        seed: int | str = 0,
        *,
        value_sense: bool = True,
        riichi: bool = True,
        stakes: Stakes = Stakes.NONE,
        exchange: bool = True,
        claim_within: int | None = None,
        kongs: bool = True,
        closed: bool = False,
    ) -> None:
        self.rng = random.Random(f"greedy:{seed}")
        self.value_sense = value_sense
        self.riichi = riichi
        self.stakes = stakes
        self.exchange = exchange
        self.claim_within = claim_within
        self.kongs = kongs
        self.closed = closed
        if not value_sense:
            self.name = "greedy-plain"

    # ------------------------------------------------------------------------------------ choose

    def choose(self, view: BotView, legal: list[Action]) -> Action:
        """The greedy choice among ``legal``."""
        ph = view.phase
        if WIN in legal:
            if not (self.value_sense and view.caishen is not None and view.rules is not None):
                return WIN
            if self._wz_take_win(view, legal):
                return WIN
            if ph is not Phase.TURN:
                return PASS  # declined: never claim the tile instead (that would set the 过水 limit)
            legal = [a for a in legal if a != WIN]
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
        if ph in (Phase.MAIDI, Phase.DINGDI):
            return stake_choice(view, legal, self.stakes)
        return PASS if PASS in legal else legal[0]

    def _best_discard(
        self, view: BotView, key: int, n: int, discards: list[Action]
    ) -> tuple[Action, int, int]:
        """(discard, shanten after it, unseen useful tiles after it — 0 when ranked by 温州 worth)."""
        a, s, uk, _ = self._ranked_discard(view, key, n, discards)
        return a, s, uk

    def _ranked_discard(
        self, view: BotView, key: int, n: int, discards: list[Action]
    ) -> tuple[Action, int, int, float]:
        """:meth:`_best_discard` and the worth it ranked by (unseen useful tiles, or 温州 ready: the wait's
        :func:`wz_wait_value`)."""
        scored = []
        for a in discards:
            k, j = _minus(view, key, a.tile)
            scored.append((_sh(view, k, n - 1, j), a, k))
        best_s = min(s for s, _, _ in scored)
        valued = best_s == 0 and self.value_sense and view.caishen is not None and view.rules is not None
        best: tuple[float, int, float, Action, int] | None = None
        worth: float
        for s, a, k in scored:
            if s != best_s:
                continue
            if valued:  # 温州, ready: the wait worth most (multipliers of self-draws and discard wins)
                uk = 0
                j = view.jokers - (view.play(a.tile) == wz.JOKER)
                worth = wz_wait_value(view, wz_wait(view, k, n - 1, j), my_draw_first=False)
            else:
                uk = _ukeire(view, k, n - 1, s)
                worth = float(uk)
            rank = (worth, _isolation(view, a.tile), self.rng.random())
            if best is None or rank > best[:3]:
                best = (*rank, a, uk)
        assert best is not None
        return best[3], best_s, best[4], best[0]

    def _wz_take_win(self, view: BotView, legal: list[Action]) -> bool:
        """温州: take the offered win unless going on is worth more (both in bases, :func:`wz_wait_value`).
        A 双翻 is always taken. In a claim window declining means drawing at once (the 过水 limit then ends);
        after a self-draw (no 过水) or a robbing chance the opponent plays first."""
        m = view.win_multiplier
        if m >= 4 or m == 0:
            return True
        if view.phase is Phase.TURN:
            discards = [a for a in legal if a.kind is Kind.DISCARD and not a.riichi]
            if not discards:
                return True
            _, s, _, worth = self._ranked_discard(view, view.key, view.size, discards)
            return s != 0 or m >= worth  # (ready after the discard: ranked by the wait's worth)
        wait = wz_wait(view, view.key, view.size, view.jokers)
        if view.phase is Phase.CLAIM:
            return m >= wz_wait_value(view, wait, my_draw_first=True)
        # a robbing chance declined: the kong's owner draws and discards first, and 过水 bars that discard
        return m >= wz_wait_value(view, wait, my_draw_first=False, first_discard_barred=True)

    def _turn(self, view: BotView, legal: list[Action]) -> Action:
        discards = [a for a in legal if a.kind is Kind.DISCARD and not a.riichi]
        kongs = [a for a in legal if a.kind in (Kind.CONCEALED_KONG, Kind.ADDED_KONG, Kind.EXTEND_KONG)]
        if not discards:
            others = [a for a in legal if a not in kongs]
            return kongs[0] if kongs and (self.kongs or not others) else (others or legal)[0]
        if not self.kongs:
            kongs = []
        choice, s_after, uk = self._best_discard(view, view.key, view.size, discards)
        for a in kongs:
            removed = 4 if a.kind is Kind.CONCEALED_KONG else 1
            k = view.key - INC[view.play(a.tile)] * removed
            n = view.size - removed
            # the kong keeps the hand's shape: shanten after it (before the replacement) ≤ the best discard's
            if _sh(view, k, n, melded=True) <= s_after:
                return a
        riichi = Action(Kind.DISCARD, choice.tile, riichi=True)
        if self.riichi and riichi in legal and s_after == 0 and uk >= 2:
            return riichi
        return choice

    def _claim(self, view: BotView, legal: list[Action]) -> Action:
        t = view.last_discard
        if t is None or view.play(t) == wz.JOKER or (self.closed and view.rules.declare_ready_enabled):
            return PASS
        t = view.play(t)
        now = _sh(view, view.key, view.size)
        best: tuple[int, Action] | None = None
        for a in legal:
            if a.kind is Kind.KONG and not self.kongs:
                continue
            claimed = claimed_key(view, a, t)
            if claimed is None:
                continue
            k, n = claimed
            # after a pung or chow the hand has 3k+2 tiles (the formula is the best discard's shanten);
            # after a kong 3k+1 tiles that need one set less, before the replacement draw
            after = _sh(view, k, n, melded=True)
            if self.claim_within is not None and after > self.claim_within:
                continue  # too far from ready for this bot to open its hand
            if after < now and (best is None or after < best[0]):
                best = (after, a)
        return best[1] if best else PASS

    def _triplet(self, view: BotView, legal: list[Action]) -> Action:
        kind = view.offer
        if kind is None:
            return PASS
        now = _shanten(view, view.key, view.size)
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
        if accept in legal and _shanten(view, k, view.size) < now:
            return accept
        return PASS

    def _cuo(self, view: BotView, legal: list[Action]) -> Action:
        best: tuple[int, float, Action] | None = None
        for a in legal:
            if a.kind is not Kind.CUO:
                continue
            s = _shanten(view, view.key + INC[a.tile], view.size + 1)
            rank = (-s, self.rng.random())
            if best is None or rank > best[:2]:
                best = (*rank, a)
        return best[2] if best else PASS

    def _exchange(self, view: BotView, legal: list[Action]) -> Action:
        # give back single honours and isolated terminals, one at a time, then commit
        if not self.exchange:
            return Action(Kind.EXCHANGE)  # keeps the tiles dealt
        t = exchange_step(view, view.selected)
        return Action(Kind.SELECT, t) if t is not None else Action(Kind.EXCHANGE)
