"""The 温州 family (``wenzhou2p``, RULES §3): 财神 wilds, 16 + 1 tiles, 软 / 硬 / 双翻, 买底 / 顶底.

The hooks read a hand *as played* (a 财神 is a joker, 白板 plays the 财神's kind); the arithmetic of wins
and money is :mod:`erma.game.families.wenzhou_wins`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from erma.analysis.tables import INC
from erma.game import deal, flow
from erma.game.actions import AKONG, CHOW, CKONG, DISCARD, WIN, Action, Kind
from erma.game.families import wenzhou_wins as wz
from erma.game.family import Family, Win
from erma.game.legal import KONG, PUNG, find_win
from erma.game.result import WIN_HOWS, DrawSource, EndReason, FanEntry, Grade, HandResult
from erma.game.settle import hands_shown, win_deltas
from erma.game.state import GameState, Phase
from erma.hand import Meld, MeldKind
from erma.rules import RuleSet
from erma.tiles import Tile, tile_to_mpsz, to_mpsz

try:
    from mypy_extensions import mypyc_attr  # read by the compiler; a no-op at run time
except ImportError:  # pure Python without mypy installed
    from erma.game.compile_options import mypyc_attr


def _wild(state: GameState) -> Tile:
    assert state.wild is not None, "the 财神 is chosen at the deal"
    return state.wild


def _play_counts(state: GameState, seat: int) -> list[int]:
    """A seat's concealed tiles as played (财神 left out, 白板 as the 财神's kind)."""
    cs = _wild(state)
    out = state.seats[seat].counts[:34]
    out[cs] = 0
    if cs != wz.WHITE:
        out[cs] = out[wz.WHITE]
        out[wz.WHITE] = 0
    return out


_NOTATIONS: Final[dict[int, str]] = {}


def _notation(meld: Meld, wild: Tile) -> str:
    """A set's notation with its physical tiles (few values; views show them at every step), remembered by
    a number of what decides it: run or not, concealed or not, tile, size and the wild kind (a tuple key's
    hash, and a :class:`Meld`'s own, cost more)."""
    kind = meld.kind
    key = (meld.tile * 9 + meld.size) * 4 + 2 * (kind is MeldKind.CHOW) + (kind is MeldKind.CONCEALED_KONG)
    key = key * 34 + wild
    found = _NOTATIONS.get(key)
    if found is None:
        found = _NOTATIONS[key] = wz.meld_notation(meld, wild)
    return found


@mypyc_attr(allow_interpreted_subclasses=True)
class Wenzhou(Family):
    """The hooks of the 温州 family."""

    name = "wenzhou"
    multiplied = True

    # ------------------------------------------------------------------------------- the deal

    def start(self, state: GameState) -> None:
        """The shuffled tiles wait, all undrawn, for the 买底 / 顶底 choices, then the deal (RULES §3.2)."""
        rules = state.rules
        state.emit(
            "stakes",
            None,
            {"dealer": state.dealer, "streak": state.streak, "base": wz.base_points(rules, state.streak)},
        )
        if rules.maidi_enabled:
            state.phase = Phase.MAIDI
            state.actor = state.dealer
        else:
            self._deal(state)

    def stake(self, state: GameState, seat: int, yes: bool) -> None:
        """买底 (the dealer) or 顶底 (the non-dealer); after both, the deal."""
        if state.phase is Phase.MAIDI:
            state.stakes[0] = yes
            state.emit("maidi", seat, {"choice": yes})
            state.phase = Phase.DINGDI
            state.actor = 1 - state.dealer
        else:
            state.stakes[1] = yes
            state.emit("dingdi", seat, {"choice": yes})
            self._deal(state)

    def _deal(self, state: GameState) -> None:
        """Flip the 财神 by dice (RULES §3.2 step 3), deal 16 + 16 and a 17th to the dealer; the turn."""
        rules = state.rules
        tiles = state.wall
        d1, d2 = state.rng.randint(1, 6), state.rng.randint(1, 6)
        index = len(tiles) - (2 * min(d1, d2) - 1)
        flipped = tiles[index]
        public = [False] * len(tiles)
        if rules.caishen_flip_removed:
            del tiles[index]
            del public[index]
        else:
            public[index] = True
        state.flipped = flipped
        state.wild = cs = wz.caishen_of(flipped, rules.caishen_mode)
        state.revealed = [flipped]
        dealer = state.dealer
        order = [dealer, 1 - dealer]
        dealt: list[list[Tile]] = [[], []]
        pos = 0
        for _ in range(4):
            for s in order:
                dealt[s].extend(tiles[pos : pos + 4])
                pos += 4
        dealt[dealer].append(tiles[pos])
        pos += 1
        state.wall = tiles[pos:]
        state.wall_public = public[pos:]
        state.head = 0
        state.tail = len(state.wall)
        state.reserve_left = rules.reserve_tiles
        deal.emit_deal(
            state,
            0,
            [flipped],
            [],
            {
                "dice": [d1, d2],
                "flipped": tile_to_mpsz(flipped),
                "caishen": tile_to_mpsz(cs),
                "flip_removed": rules.caishen_flip_removed,
            },
        )
        for s in order:
            for t in dealt[s]:
                state.seats[s].add(t)
            state.emit("hand", s, {"count": len(dealt[s])}, {"tiles": to_mpsz(dealt[s])}, s)
        state.drawn = dealt[dealer][-1]
        state.draw_kind = DrawSource.DEAL
        flow.enter_turn(state, dealer, after_draw=False)

    # -------------------------------------------------------------------------------- legality

    def draws_left(self, state: GameState) -> int:
        """Normal draws left before the 流局 (the reserved tail is not drawn normally)."""
        rules = state.rules
        return state.wall_left - (
            rules.reserve_tiles if rules.reserve_counts_tail_draws else state.reserve_left
        )

    def kong_room(self, state: GameState) -> int:
        return state.wall_left if state.rules.reserve_counts_tail_draws else state.reserve_left

    def discard_options(self, state: GameState, seat: int) -> list[Action]:
        """Never a 财神 (unless allowed); lone honours first, following the opponent's honour (RULES §3.4).
        A hand holding nothing but 财神 may discard one (nothing else is possible)."""
        rules = state.rules
        cs = _wild(state)
        counts = state.seats[seat].counts
        wild_ok = rules.caishen_discardable
        kinds = [t for t in rules.kinds if counts[t] and (t != cs or wild_ok)]
        if not kinds:
            return [DISCARD[cs]] if counts[cs] else []
        if rules.lone_honour_first or rules.follow_lone_honour:
            played = _play_counts(state, seat)
            lone = [x for x in range(27, 34) if played[x] == 1]
            if lone:
                last = state.last_discard if state.discarder == 1 - seat else None
                if rules.follow_lone_honour and last is not None:
                    followed = wz.play_kind(last, cs)
                    if followed in lone:
                        return [DISCARD[wz.phys_kind(followed, cs)]]
                if rules.lone_honour_first:
                    return [
                        DISCARD[wz.phys_kind(x, cs)] for x in sorted(lone, key=lambda x: wz.phys_kind(x, cs))
                    ]
        return [DISCARD[t] for t in kinds]

    def claim_options(self, state: GameState, seat: int) -> list[Action]:
        """No 财神 in a chow, pung or kong; 过水 limits discard wins (RULES §3.4)."""
        t = state.last_discard
        assert t is not None
        me = state.seats[seat]
        cs = _wild(state)
        out: list[Action] = []
        found = find_win(state, seat, t, "discard")
        if found is not None and found.multiplier > me.passed_win:
            out.append(WIN)
        p = wz.play_kind(t, cs)
        if p == wz.JOKER or self.draws_left(state) <= 0:
            return out
        c = _play_counts(state, seat)
        if c[p] >= 3 and self.kong_room(state) >= 1:
            out.append(KONG)
        if c[p] >= 2:
            out.append(PUNG)
        if p < 27:
            r = p % 9
            for start in range(max(p - 2, p - r), min(p, p - r + 6) + 1):
                if all(c[x] for x in (start, start + 1, start + 2) if x != p):
                    out.append(CHOW[start])
        return out

    def kong_options(self, state: GameState, seat: int) -> list[Action]:
        """Never with a 财神; 白板 play as the 财神's kind."""
        if self.kong_room(state) < 1:
            return []
        me = state.seats[seat]
        cs = _wild(state)
        c = me.counts
        out = [CKONG[t] for t in state.rules.kinds if c[t] >= 4 and t != cs]
        for m in me.melds:
            t = wz.phys_kind(m.tile, cs)
            if m.kind is MeldKind.PUNG and c[t] and t != cs:
                out.append(AKONG[t])
        return out

    def check_win(self, state: GameState, seat: int, tile: Tile, how: str) -> Win | None:
        return wz.check_win(state, seat, tile, how)

    def robbable(self, state: GameState, robber: int, tile: Tile, extension: bool) -> bool:
        """抢框 (``rob_kong``), within the 过水 limit."""
        if not state.rules.rob_kong:
            return False
        found = find_win(state, robber, tile, "rob")
        return found is not None and found.multiplier > state.seats[robber].passed_win

    # ------------------------------------------------------------------------------------ sets

    def set_kind(self, state: GameState, tile: Tile) -> Tile:
        return wz.play_kind(tile, _wild(state))

    def take_claim(self, state: GameState, seat: int, action: Action, tile: Tile) -> Meld:
        me = state.seats[seat]
        cs = _wild(state)
        p = wz.play_kind(tile, cs)  # what the tile plays as (白板 as the 财神's kind)
        if action.kind is Kind.CHOW:
            for x in (action.tile, action.tile + 1, action.tile + 2):
                if x != p:
                    me.remove(wz.phys_kind(x, cs))
            return Meld(MeldKind.CHOW, action.tile, claimed=p)
        if action.kind is Kind.PUNG:
            me.remove(wz.phys_kind(p, cs), 2)
            return Meld(MeldKind.PUNG, p, claimed=p)
        me.remove(wz.phys_kind(p, cs), 3)
        return Meld(MeldKind.EXPOSED_KONG, p, claimed=p)

    def meld_text(self, state: GameState, meld: Meld) -> str:
        return _notation(meld, _wild(state))

    def meld_tiles(self, state: GameState, meld: Meld) -> tuple[Tile, ...]:
        cs = _wild(state)
        return tuple(wz.phys_kind(t, cs) for t in meld.tiles)

    def played(self, state: GameState, seat: int) -> tuple[tuple[int, ...], int, int]:
        me = state.seats[seat]
        if state.wild is None:  # before the deal
            return tuple(me.counts), me.key, 0
        key, jokers = wz.played_key(me.key, me.counts, state.wild)
        return tuple(_play_counts(state, seat)), key, jokers

    def on_decline(self, state: GameState, seat: int, tile: Tile, how: str) -> None:
        """过水: remember the best multiplier declined until the seat's next draw."""
        if state.rules.pass_win_rule == "none":
            return
        found = find_win(state, seat, tile, "rob" if how == "rob" else "discard")
        if found is not None:
            me = state.seats[seat]
            me.passed_win = max(me.passed_win, found.multiplier)

    def on_kong(self, state: GameState, seat: int, concealed: bool) -> None:
        """``kong_money``: the opponent pays 1 × B (exposed) or 2 × B (concealed) at once."""
        if not state.rules.kong_money:
            return
        amount = (2 if concealed else 1) * wz.base_points(state.rules, state.streak)
        state.kong_money[seat] += amount
        state.kong_money[1 - seat] -= amount

    def on_replacement_draw(self, state: GameState) -> None:
        if state.reserve_left:
            state.reserve_left -= 1

    # ------------------------------------------------------------------------------ settlement

    def _facts(self, state: GameState) -> dict[str, Any]:
        """Facts every hand result carries: streak, 买底 / 顶底, and kong money when it is on."""
        out: dict[str, Any] = {
            "streak": state.streak,
            "stakes": {"maidi": state.stakes[0], "dingdi": state.stakes[1]},
        }
        if state.rules.kong_money:
            out["kong_money"] = list(state.kong_money)
        return out

    def settle_win(self, state: GameState, seat: int, tile: Tile, how: str, found: Win) -> HandResult:
        assert isinstance(found, wz.WenzhouWin)
        loser = 1 - seat
        deltas = [d + k for d, k in zip(win_deltas(seat, found.points), state.kong_money, strict=True)]
        v, s = found.verdict, found.settlement
        return HandResult(
            EndReason.WIN,
            (deltas[0], deltas[1]),
            hands=hands_shown(state),
            winner=seat,
            loser=loser,
            how=WIN_HOWS[how],
            tile=tile,
            hand=found.hand,
            fans=tuple(FanEntry(r.id, r.name_zh, r.name_en, r.multiplier, 1, r.tiles) for r in v.reasons),
            fan_total=v.multiplier,
            points=found.points,
            grade=Grade(v.grade),
            extra={
                "multiplier": v.multiplier,
                "grade": v.grade,
                "shape": v.shape,
                "base": s.base,
                "maidi": s.maidi,
                "win_points": s.win_points,
                "caishen_money": s.caishen_money,
                "caishen_held": list(s.caishen_held),
            },
            facts=self._facts(state),
        )

    def settle_draw(self, state: GameState) -> HandResult:
        rules = state.rules
        facts = self._facts(state)
        deltas = list(state.kong_money)
        if rules.caishen_money_on_draw and rules.caishen_money_enabled:
            cs = _wild(state)
            held = [s.counts[cs] for s in state.seats]
            money = (held[0] - held[1]) * rules.caishen_money_unit
            facts["caishen_money"] = [money, -money]
            deltas = [deltas[0] + money, deltas[1] - money]
        return HandResult(EndReason.DRAW, (deltas[0], deltas[1]), hands=hands_shown(state), facts=facts)

    def escape_points(
        self, rules: RuleSet, *, dealer: int, escaper: int, streak: int, stakes: tuple[bool, bool]
    ) -> int:
        """逃跑: B × (1 + m′) × 16 (dealer) or × 8; m′ as if the remaining player had won (RULES §3.7)."""
        return wz.escape_points(
            rules, streak=streak, buy=stakes[0], top=stakes[1], escaper_is_dealer=escaper == dealer
        )

    def max_loss(self, rules: RuleSet, *, streak: int) -> int:
        """The larger of the worst escape and the worst win with every kong paid, 买底 and 顶底 both taken."""
        b = wz.base_points(rules, streak)
        m = max(wz.maidi_term(rules, True, True, dealer_won=d) for d in (True, False))
        escape = b * (1 + m) * max(rules.escape_penalty)
        money = 2 * rules.copies * rules.caishen_money_unit if rules.caishen_money_enabled else 0
        kongs = 5 * 2 * b if rules.kong_money else 0
        return max(escape, b * 4 * (1 + m) + money + kongs)

    def next_dealer(
        self, rules: RuleSet, dealer: int, streak: int, result: HandResult
    ) -> tuple[int | None, int]:
        """RULES §3.8: a winning dealer deals again with streak + 1 (at ``max_streak`` the dice choose anew);
        a non-dealer win passes the deal; a 流局 passes it too (``draw_passes_deal``)."""
        if result.reason is EndReason.WIN and result.winner == dealer:
            if streak + 1 >= rules.max_streak:
                return None, 0
            return dealer, streak + 1
        if result.reason is EndReason.WIN or rules.draw_passes_deal:
            return 1 - dealer, 0
        return dealer, streak

    # --------------------------------------------------------------------------- what a seat sees

    def view_extras(self, state: GameState, seat: int) -> Mapping[str, Any]:
        """财神 and the flipped tile are public; who holds 财神 is not."""
        rules = state.rules
        return {
            "caishen": tile_to_mpsz(state.wild) if state.wild is not None else None,
            "flipped": tile_to_mpsz(state.flipped) if state.flipped is not None else None,
            "streak": state.streak,
            "base": wz.base_points(rules, state.streak),
            "stakes": {"maidi": state.stakes[0], "dingdi": state.stakes[1]},
            "draws_left": max(0, self.draws_left(state)),
        }

    def multiplier_reasons(self, rules: RuleSet) -> list[dict[str, Any]]:
        return wz.multiplier_reasons(rules)

    def hint_waits(self, state: GameState, seat: int) -> list[Tile] | None:
        """Physical kinds that complete the hand as played (a 财神 drawn to two held makes 三财神), leaving
        out kinds whose copies the seat all holds; None if the hand is not one tile from winning."""
        me = state.seats[seat]
        cs = _wild(state)
        rules = state.rules
        key, jokers = wz.played_key(me.key, me.counts, cs)
        shanten = wz.shanten(key, me.size, jokers, not me.melds, rules)
        if shanten > 0 and jokers < 2:
            return None
        held = list(me.counts)
        for m in me.melds:
            for t in m.tiles:
                held[wz.phys_kind(t, cs)] += 1
        out = []
        for t in rules.kinds if shanten == 0 or jokers >= 3 else (cs,):  # (else only a third 财神 wins)
            if held[t] >= rules.copies:
                continue
            p = wz.play_kind(t, cs)
            k, j = (key, jokers + 1) if p == wz.JOKER else (key + INC[p], jokers)
            if wz.is_complete(k, me.size + 1, j, not me.melds, rules):
                out.append(t)
        return out

    def hint_worth(self, state: GameState, seat: int, tile: Tile, how: str) -> tuple[int, int] | None:
        """The settlement's points as if the opponent held no 财神 (theirs are hidden), and the multiplier."""
        rules = state.rules
        if how == "discard" and tile == state.wild and not rules.caishen_discardable:
            return None  # a 财神 only comes by a draw
        win = wz.check_win(state, seat, tile, how)
        if win is None:
            return None
        s = win.settlement
        hidden = s.caishen_held[1] * rules.caishen_money_unit if rules.caishen_money_enabled else 0
        return s.points + hidden, win.verdict.multiplier
