"""The referee (裁判): deal a hand, list legal actions, apply them, and run everything the rules do alone.

A hand is ``(rules, seed, dealer, prevalent wind)`` plus the actions applied in order; everything random
comes from one ``random.Random(seed)`` consumed in the order events happen (RULES.md §0.3).

- :func:`new_hand` deals.
- :func:`legal_actions` is the single source of legality.
- :func:`apply` checks an action against it (an illegal action raises IllegalActionError naming the action
  and the phase; the state is unchanged) and applies it; :func:`apply_unchecked` is the fast twin for bots'
  search and replays of trusted records: it assumes legality.
- The engine applies on its own what the rules make automatic: 补花, a declared-ready hand's forced
  discard and win, skipping a claim window in which the opponent can only pass.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

from erma.analysis import shapes
from erma.analysis.tables import INC
from erma.errors import IllegalActionError
from erma.game import wenzhou as wz
from erma.game.actions import PASS, WIN, Action, Kind
from erma.game.state import Event, GameState, Phase, Seat
from erma.game.win import WinCheck, check_win
from erma.hand import Meld, MeldKind
from erma.rules import RuleSet
from erma.tiles import Tile, tile_to_mpsz, to_mpsz

__all__ = [
    "apply",
    "apply_unchecked",
    "legal_actions",
    "new_hand",
    "offered_multiplier",
    "timeout_action",
    "waits_of",
]

_DISCARD = tuple(Action(Kind.DISCARD, t) for t in range(34))
_RIICHI = tuple(Action(Kind.DISCARD, t, riichi=True) for t in range(34))
_CHOW = tuple(Action(Kind.CHOW, t) for t in range(34))
_CKONG = tuple(Action(Kind.CONCEALED_KONG, t) for t in range(34))
_AKONG = tuple(Action(Kind.ADDED_KONG, t) for t in range(34))
_XKONG = tuple(Action(Kind.EXTEND_KONG, t) for t in range(34))
_PUNG = Action(Kind.PUNG)
_KONG = Action(Kind.KONG)
_MAIDI = Action(Kind.MAIDI)
_DINGDI = Action(Kind.DINGDI)


# ------------------------------------------------------------------------------------------- deal


def _choose_dealer(rules: RuleSet, rng: random.Random) -> int:
    if rules.first_dealer == "random":
        return rng.randrange(2)
    if rules.dealer_dice == "sum_parity":
        return 0 if (rng.randint(1, 6) + rng.randint(1, 6)) % 2 else 1
    while True:
        a = rng.randint(1, 6) + rng.randint(1, 6)
        b = rng.randint(1, 6) + rng.randint(1, 6)
        if a != b:
            return 0 if a > b else 1


def _next_kind(t: Tile) -> Tile:
    if t < 27:
        return t - 8 if t % 9 == 8 else t + 1
    if t < 31:
        return 27 if t == 30 else t + 1
    return {31: 33, 32: 31, 33: 32}[t]  # 中→发→白→中 is C→F→P→C in index terms: 33→32→31→33


def new_hand(
    rules: RuleSet,
    seed: str,
    dealer: int | None = None,
    prevalent_wind: int | None = None,
    deck: list[Tile] | None = None,
    *,
    streak: int = 0,
) -> GameState:
    """Shuffle and deal one hand. ``dealer=None`` chooses the dealer with the hand's generator first.

    ``deck`` (tests and puzzles) replaces the shuffle with a given order of the rule set's full tile list;
    the generator still drives every later random event. ``streak`` is the dealer's streak (温州: it sets the
    base); in the 温州 family the deal waits for the 买底 / 顶底 choices when they are enabled.
    """
    rng = random.Random(seed)
    dealer_drawn = dealer is None
    if dealer is None:
        dealer = _choose_dealer(rules, rng)
    tiles = rules.tile_list()
    if deck is not None:
        if sorted(deck) != tiles:
            raise IllegalActionError(
                f"deck: not a permutation of the {rules.name} tile set "
                f"({len(deck)} tiles, {len(tiles)} expected)"
            )
        tiles = list(deck)
    else:
        rng.shuffle(tiles)
    if rules.family == "wenzhou":
        return _new_wenzhou_hand(rules, seed, rng, dealer, dealer_drawn, prevalent_wind, deck, tiles, streak)
    if rules.inplay_tiles is not None:
        n_in = rules.inplay_tiles + (0 if rules.inplay_includes_deal else 27)
        inplay, reserve = tiles[:n_in], tiles[n_in:]
    else:
        inplay, reserve = tiles, []
    public = [False] * len(inplay)
    revealed: list[Tile] = []
    k = rules.bonus_reveal_count
    if k:
        if rules.bonus_reveal_from == "inplay_tail":
            revealed = inplay[-k:]
            for i in range(len(inplay) - k, len(inplay)):
                public[i] = True
        else:
            revealed, reserve = reserve[:k], reserve[k:]
    bonus = [t if rules.bonus_kind == "revealed" else _next_kind(t) for t in revealed]
    seats = [Seat(), Seat()]
    order = [dealer, 1 - dealer]
    pos = 0
    dealt: list[list[Tile]] = [[], []]
    for _ in range(3):
        for s in order:
            dealt[s].extend(inplay[pos : pos + 4])
            pos += 4
    for s in order:
        dealt[s].append(inplay[pos])
        pos += 1
    dealt[dealer].append(inplay[pos])
    pos += 1
    state = GameState(
        rules=rules,
        seed=seed,
        deck=list(deck) if deck is not None else None,
        dealer_drawn=dealer_drawn,
        rng=rng,
        dealer=dealer,
        prevalent_wind=rules.prevalent_wind if prevalent_wind is None else prevalent_wind,
        seats=seats,
        wall=inplay[pos:],
        wall_public=public[pos:],
        head=0,
        tail=len(inplay) - pos,
        reserve=reserve,
        bonus_kinds=bonus,
        revealed=revealed,
    )
    state.emit(
        "deal",
        None,
        {
            "dealer": dealer,
            "prevalent_wind": state.prevalent_wind,
            "seat_winds": [state.seat_wind(0), state.seat_wind(1)],
            "wall": state.wall_left,
            "reserve": len(reserve),
            "revealed": [tile_to_mpsz(t) for t in revealed],
            "bonus_kinds": [tile_to_mpsz(t) for t in bonus],
        },
    )
    for s in order:
        for t in dealt[s]:
            if t < 34:
                seats[s].add(t)
            else:
                seats[s].flowers.append(t)
        state.emit("hand", s, {"count": len(dealt[s])}, {"tiles": to_mpsz(dealt[s])}, s)
    state.counters = {
        "cuo": 0,
        "triplet_offer": 0,
        "triplet_accept": 0,
        "exchange": 0,
        "haidi": 0,
        "flower": 0,
    }
    # 补花 after the deal: dealer first, then the other, until neither holds a flower
    for s in order:
        for f in list(seats[s].flowers):
            state.emit("flower", s, {"tile": tile_to_mpsz(f)})
            state.counters["flower"] += 1
            if not _replace_flower_at_deal(state, s):
                return state
    last = dealt[dealer][-1]
    state.drawn = last if last < 34 and seats[dealer].counts[last] else None
    state.draw_kind = "deal"
    if rules.start_exchange_enabled and reserve:
        state.exchange_order = [dealer, 1 - dealer]
        state.phase = Phase.EXCHANGE
        state.actor = dealer
    else:
        _enter_turn(state, dealer, after_draw=False)
    return state


def _new_wenzhou_hand(
    rules: RuleSet,
    seed: str,
    rng: random.Random,
    dealer: int,
    dealer_drawn: bool,
    prevalent_wind: int | None,
    deck: list[Tile] | None,
    tiles: list[Tile],
    streak: int,
) -> GameState:
    """温州 (RULES §3.2): the shuffled tiles wait, all undrawn, for the 买底 / 顶底 choices, then the deal."""
    state = GameState(
        rules=rules,
        seed=seed,
        deck=list(deck) if deck is not None else None,
        dealer_drawn=dealer_drawn,
        rng=rng,
        dealer=dealer,
        prevalent_wind=rules.prevalent_wind if prevalent_wind is None else prevalent_wind,
        seats=[Seat(), Seat()],
        wall=tiles,
        wall_public=[False] * len(tiles),
        head=0,
        tail=len(tiles),
        reserve=[],
        bonus_kinds=[],
        revealed=[],
        streak=streak,
    )
    state.counters = {
        "cuo": 0,
        "triplet_offer": 0,
        "triplet_accept": 0,
        "exchange": 0,
        "haidi": 0,
        "flower": 0,
    }
    state.emit("stakes", None, {"dealer": dealer, "streak": streak, "base": wz.base_points(rules, streak)})
    if rules.maidi_enabled:
        state.phase = Phase.MAIDI
        state.actor = dealer
    else:
        _deal_wenzhou(state)
    return state


def _deal_wenzhou(state: GameState) -> None:
    """Flip the 财神 by dice (RULES §3.2 step 3), deal 16 + 16 and a 17th to the dealer, start the turn."""
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
    state.caishen = wz.caishen_of(flipped, rules.caishen_mode)
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
    state.emit(
        "deal",
        None,
        {
            "dealer": dealer,
            "prevalent_wind": state.prevalent_wind,
            "seat_winds": [state.seat_wind(0), state.seat_wind(1)],
            "wall": state.wall_left,
            "reserve": 0,
            "revealed": [tile_to_mpsz(flipped)],
            "bonus_kinds": [],
            "dice": [d1, d2],
            "flipped": tile_to_mpsz(flipped),
            "caishen": tile_to_mpsz(state.caishen),
            "flip_removed": rules.caishen_flip_removed,
        },
    )
    for s in order:
        for t in dealt[s]:
            state.seats[s].add(t)
        state.emit("hand", s, {"count": len(dealt[s])}, {"tiles": to_mpsz(dealt[s])}, s)
    state.drawn = dealt[dealer][-1]
    state.draw_kind = "deal"
    _enter_turn(state, dealer, after_draw=False)


def _stake(state: GameState, seat: int, yes: bool) -> None:
    """买底 (the dealer) or 顶底 (the non-dealer); after both, the deal."""
    if state.phase is Phase.MAIDI:
        state.stakes[0] = yes
        state.emit("maidi", seat, {"choice": yes})
        state.phase = Phase.DINGDI
        state.actor = 1 - state.dealer
    else:
        state.stakes[1] = yes
        state.emit("dingdi", seat, {"choice": yes})
        _deal_wenzhou(state)


def draws_left(state: GameState) -> int:
    """Normal draws left before the 流局 (温州: the reserved tail is not drawn normally)."""
    if state.caishen is None:
        return state.wall_left
    rules = state.rules
    return state.wall_left - (rules.reserve_tiles if rules.reserve_counts_tail_draws else state.reserve_left)


def _kong_room(state: GameState) -> int:
    """Tiles left for kong replacement draws."""
    if state.caishen is None or state.rules.reserve_counts_tail_draws:
        return state.wall_left
    return state.reserve_left


def _play_counts(state: GameState, seat: int) -> list[int]:
    """温州: a seat's concealed tiles as played (财神 left out, 白板 as the 财神's kind)."""
    caishen = state.caishen
    assert caishen is not None
    out = [0] * 34
    for t, n in enumerate(state.seats[seat].counts):
        if n and t != caishen:
            out[wz.play_kind(t, caishen)] += n
    return out


def _meld_text(state: GameState, meld: Meld) -> str:
    return meld.to_notation() if state.caishen is None else wz.meld_notation(meld, state.caishen)


def _win_mult(found: WinCheck | wz.WenzhouWin | None) -> int:
    return found.verdict.multiplier if isinstance(found, wz.WenzhouWin) else 0


def _replace_flower_at_deal(state: GameState, seat: int) -> bool:
    while True:
        if state.wall_left == 0:
            _draw_end(state)
            return False
        state.tail -= 1
        t = state.wall[state.tail]
        if t >= 34:
            state.seats[seat].flowers.append(t)
            state.emit("flower", seat, {"tile": tile_to_mpsz(t)})
            state.counters["flower"] += 1
            continue
        state.seats[seat].add(t)
        state.emit("draw", seat, {"from": "tail"}, {"tile": tile_to_mpsz(t)}, seat)
        return True


# ------------------------------------------------------------------------------------ legality


def waits_of(state: GameState, seat: int, key: int | None = None, n: int | None = None) -> list[Tile]:
    """Kinds that complete ``seat``'s concealed part (3k+1), leaving out kinds whose copies it all holds."""
    me = state.seats[seat]
    key = me.key if key is None else key
    n = me.size if n is None else n
    copies = state.rules.copies
    out = []
    for t in state.rules.kinds:
        held = (key >> (4 * t)) & 15
        if held + sum(m.tiles.count(t) for m in me.melds) >= copies:
            continue
        if shapes.overall(key + INC[t], n + 1) == -1:
            out.append(t)
    return out


def has_wait(state: GameState, seat: int, key: int, n: int) -> bool:
    """Whether a 3k+1 concealed part (given by key and size) is ready with some kind not all held."""
    if shapes.overall(key, n) != 0:
        return False
    me = state.seats[seat]
    copies = state.rules.copies
    for t in state.rules.kinds:
        if shapes.overall(key + INC[t], n + 1) == -1:
            held = (key >> (4 * t)) & 15
            if held + sum(m.tiles.count(t) for m in me.melds) < copies:
                return True
    return False


def _win(state: GameState, seat: int, tile: Tile, how: str) -> WinCheck | wz.WenzhouWin | None:
    cache_key = (len(state.events), len(state.actions), seat, tile, how)
    cache = _win_cache
    if cache_key in cache and cache[cache_key][0] is state:
        return cache[cache_key][1]
    found: WinCheck | wz.WenzhouWin | None
    if state.caishen is not None:
        found = wz.check_win(state, seat, tile, how)
    else:
        found = check_win(state, seat, tile, how)
    if len(cache) > 64:
        cache.clear()
    cache[cache_key] = (state, found)
    return found


_win_cache: dict[tuple[int, int, int, Tile, str], tuple[GameState, WinCheck | wz.WenzhouWin | None]] = {}


def _pool(state: GameState) -> list[int]:
    """Counts of each kind in the assist pool U: the reserve plus (by default) the undrawn wall."""
    c = [0] * 42
    for t in state.reserve:
        c[t] += 1
    if state.rules.assist_pool == "reserve+wall":
        for i in range(state.head, state.tail):
            if not state.wall_public[i]:
                c[state.wall[i]] += 1
    return c


def _kong_options(state: GameState, seat: int) -> list[Action]:
    rules = state.rules
    me = state.seats[seat]
    if _kong_room(state) < 1:
        return []
    out = []
    c = me.counts
    if state.caishen is not None:  # 温州: never with a 财神; 白板 play as the 财神's kind
        for t in rules.kinds:
            if c[t] >= 4 and t != state.caishen:
                out.append(_CKONG[t])
        for m in me.melds:
            t = wz.phys_kind(m.tile, state.caishen)
            if m.kind is MeldKind.PUNG and c[t] and t != state.caishen:
                out.append(_AKONG[t])
        return out
    for t in rules.kinds:
        if c[t] >= 4:
            out.append(_CKONG[t])
    for m in me.melds:
        if m.kind is MeldKind.PUNG and c[m.tile]:
            out.append(_AKONG[m.tile])
        elif rules.wushuang_kong_extension and m.is_kong and m.size < 8 and c[m.tile]:
            out.append(_XKONG[m.tile])
    if me.riichi:
        out = [a for a in out if _riichi_kong_ok(state, seat, a)]
    return out


def _riichi_kong_ok(state: GameState, seat: int, action: Action) -> bool:
    """After 报听 a kong is allowed only with the drawn tile and only if the waits stay the same."""
    if state.rules.kong_after_riichi == "never" or action.tile != state.drawn:
        return False
    me = state.seats[seat]
    before = waits_of(state, seat, me.key - INC[action.tile], me.size - 1)
    removed = 4 if action.kind is Kind.CONCEALED_KONG else 1
    after_key = me.key - INC[action.tile] * removed
    return before == waits_of(state, seat, after_key, me.size - removed) and bool(before)


def _discard_options(state: GameState, seat: int) -> list[Action]:
    me = state.seats[seat]
    rules = state.rules
    if state.caishen is not None:
        return _wenzhou_discards(state, seat)
    if me.riichi:
        return [_DISCARD[state.drawn]] if state.drawn is not None else []
    kinds = [t for t in rules.kinds if me.counts[t]]
    if state.claimed and not rules.same_tile_discard_after_claim and state.last_discard is not None:
        kinds = [t for t in kinds if t != state.last_discard] or kinds
    out = [_DISCARD[t] for t in kinds]
    if rules.declare_ready_enabled and not me.riichi and shapes.overall(me.key, me.size) <= 0:
        for t in kinds:
            if has_wait(state, seat, me.key - INC[t], me.size - 1):
                out.append(_RIICHI[t])
    return out


def _wenzhou_discards(state: GameState, seat: int) -> list[Action]:
    """温州 discards (RULES §3.4): never a 财神 (unless allowed); lone honours first, following the
    opponent's honour. A hand holding nothing but 财神 may discard one (nothing else is possible)."""
    rules = state.rules
    caishen = state.caishen
    assert caishen is not None
    counts = state.seats[seat].counts
    kinds = [t for t in rules.kinds if counts[t] and (t != caishen or rules.caishen_discardable)]
    if not kinds:
        return [_DISCARD[caishen]] if counts[caishen] else []
    if rules.lone_honour_first or rules.follow_lone_honour:
        played = _play_counts(state, seat)
        lone = [x for x in range(27, 34) if played[x] == 1]
        if lone:
            last = state.last_discard if state.discarder == 1 - seat else None
            if rules.follow_lone_honour and last is not None:
                followed = wz.play_kind(last, caishen)
                if followed in lone:
                    return [_DISCARD[wz.phys_kind(followed, caishen)]]
            if rules.lone_honour_first:
                return [
                    _DISCARD[wz.phys_kind(x, caishen)]
                    for x in sorted(lone, key=lambda x: wz.phys_kind(x, caishen))
                ]
    return [_DISCARD[t] for t in kinds]


def _self_win_tile(state: GameState) -> Tile | None:
    """The tile a self-drawn win is on: the drawn tile, or (dealer's first turn after an exchange gave the
    14th tile back) the highest tile held."""
    if state.drawn is not None:
        return state.drawn
    if state.claimed:
        return None
    counts = state.seats[state.actor].counts
    return max((t for t in range(34) if counts[t]), default=None)


def _claim_options(state: GameState, seat: int) -> list[Action]:
    """What ``seat`` may do with the opponent's discard, pass excluded."""
    t = state.last_discard
    assert t is not None
    me = state.seats[seat]
    out: list[Action] = []
    if state.caishen is not None:
        return _wenzhou_claims(state, seat, t)
    if (
        not me.furiten
        and shapes.overall(me.key + INC[t], me.size + 1) == -1
        and _win(state, seat, t, "discard")
    ):
        out.append(WIN)
    if me.riichi or state.wall_left == 0:
        return out
    c = me.counts
    if c[t] >= 3:
        out.append(_KONG)
    if c[t] >= 2:
        out.append(_PUNG)
    if t < 27:
        r = t % 9
        for start in (t - 2, t - 1, t):
            if 0 <= start % 9 <= 6 and start // 9 == t // 9 and r - 2 <= start % 9 <= r:
                need = [x for x in (start, start + 1, start + 2) if x != t]
                if all(c[x] for x in need):
                    out.append(_CHOW[start])
    return out


def _wenzhou_claims(state: GameState, seat: int, t: Tile) -> list[Action]:
    """温州 claims (RULES §3.4): no 财神 in a chow, pung or kong; 过水 limits discard wins."""
    me = state.seats[seat]
    caishen = state.caishen
    assert caishen is not None
    out: list[Action] = []
    found = _win(state, seat, t, "discard")
    if found is not None and _win_mult(found) > me.passed_win:
        out.append(WIN)
    p = wz.play_kind(t, caishen)
    if p == wz.JOKER or draws_left(state) <= 0:
        return out
    c = _play_counts(state, seat)
    if c[p] >= 3 and _kong_room(state) >= 1:
        out.append(_KONG)
    if c[p] >= 2:
        out.append(_PUNG)
    if p < 27:
        r = p % 9
        for start in range(max(p - 2, p - r), min(p, p - r + 6) + 1):
            if all(c[x] for x in (start, start + 1, start + 2) if x != p):
                out.append(_CHOW[start])
    return out


def legal_actions(state: GameState, seat: int) -> list[Action]:
    """Every action ``seat`` may take now (empty if it is not their decision). Escape and timeout are
    always accepted by :func:`apply` and are not listed."""
    if state.phase is Phase.END or seat != state.actor:
        return []
    memo = state.legal_memo
    if memo is None:
        return _legal(state, seat)
    key = (len(state.actions), len(state.events), seat)
    found = memo.get(key)
    if found is None:
        if len(memo) >= 8:
            memo.clear()
        found = memo[key] = _legal(state, seat)
    return list(found)


def _legal(state: GameState, seat: int) -> list[Action]:
    me = state.seats[seat]
    ph = state.phase
    if ph is Phase.TURN:
        out: list[Action] = []
        tile = _self_win_tile(state)
        if (
            not state.claimed
            and tile is not None
            and (state.caishen is not None or shapes.overall(me.key, me.size) == -1)
            and _win(state, seat, tile, "self") is not None
        ):
            out.append(WIN)
        out.extend(_kong_options(state, seat))
        out.extend(_discard_options(state, seat))
        return out
    if ph is Phase.CLAIM:
        return [*_claim_options(state, seat), PASS]
    if ph is Phase.ROB:
        return [WIN, PASS]
    if ph is Phase.MAIDI:
        return [_MAIDI, PASS]
    if ph is Phase.DINGDI:
        return [_DINGDI, PASS]
    if ph is Phase.EXCHANGE:
        rules = state.rules
        room = min(
            len(state.reserve), rules.start_exchange_max if rules.start_exchange_max is not None else 99
        )
        out = [Action(Kind.EXCHANGE)]
        if len(me.selected) < room:
            out += [Action(Kind.SELECT, t) for t in rules.kinds if me.counts[t] > me.selected.count(t)]
        return out
    if ph is Phase.TRIPLET:
        kinds = [t for t in state.rules.kinds for _ in range(min(3, me.counts[t]))]
        combos = sorted(set(itertools.combinations(kinds, 3)))
        return [PASS, *(Action(Kind.ACCEPT, tiles=c) for c in combos)]
    if ph is Phase.CUO:
        pool = _pool(state)
        return [PASS, *(Action(Kind.CUO, t) for t in state.rules.kinds if pool[t])]
    if ph is Phase.HAIDI:
        return [Action(Kind.PICK, index=i) for i in range(len(state.reserve))]
    return []


def offered_multiplier(state: GameState, seat: int) -> int:
    """温州: the multiplier (1, 2, 4) of the win ``seat`` could declare now — on the drawn tile, the discard
    or the added-kong tile — or 0 if none. Whether the 过水 limit allows it is :func:`legal_actions`' say;
    this is what the seat knows of its own win (bots weigh it). 0 in the other families."""
    if state.caishen is None or seat != state.actor:
        return 0
    ph = state.phase
    if ph is Phase.TURN:
        tile = _self_win_tile(state)
        found = _win(state, seat, tile, "self") if tile is not None and not state.claimed else None
    elif ph is Phase.CLAIM and state.last_discard is not None:
        found = _win(state, seat, state.last_discard, "discard")
    elif ph is Phase.ROB and state.pending_kong is not None:
        found = _win(state, seat, state.pending_kong[1], "rob")
    else:
        return 0
    return _win_mult(found)


def timeout_action(state: GameState, seat: int) -> Action:
    """The default for a seat whose clock ran out (RULES §5.3 ``tsumogiri``): take a legal win, pass
    claims, no kong, no 报听, discard the drawn tile if legal (else the highest-index legal discard),
    decline offers, exchange nothing, pick a random reserve position."""
    legal = legal_actions(state, seat)
    if not legal:
        raise IllegalActionError(f"timeout: seat {seat} has no decision in phase {state.phase.value}")
    if WIN in legal:
        return WIN
    ph = state.phase
    if ph is Phase.TURN:
        plain = [a for a in legal if a.kind is Kind.DISCARD and not a.riichi]
        for a in plain:
            if a.tile == state.drawn:
                return a
        return max(plain, key=lambda a: a.tile)
    if ph is Phase.EXCHANGE:
        return Action(Kind.EXCHANGE)
    if ph is Phase.HAIDI:
        return Action(Kind.PICK, index=state.rng.randrange(len(state.reserve)))
    return PASS


# -------------------------------------------------------------------------------------- applying


def apply(state: GameState, seat: int, action: Action | str) -> None:
    """Apply a seat's action after checking it; an illegal one raises IllegalActionError, changing nothing."""
    if isinstance(action, str):
        action = Action.parse(action)
    if not isinstance(action, Action):
        raise IllegalActionError(f"not an action: {action!r}")
    if seat not in (0, 1):
        raise IllegalActionError(f"{action}: seat {seat!r} is not 0 or 1")
    if state.phase is Phase.END:
        raise IllegalActionError(f"{action}: the hand is over")
    if action.kind is Kind.ESCAPE:
        apply_unchecked(state, seat, action)
        return
    if seat != state.actor:
        raise IllegalActionError(
            f"{action}: not seat {seat}'s decision (phase {state.phase.value}, seat {state.actor} to act)"
        )
    # the three tiles of an accepted triplet offer may come in any order (it sets where they go)
    check = Action(Kind.ACCEPT, tiles=tuple(sorted(action.tiles))) if action.kind is Kind.ACCEPT else action
    if action.kind is not Kind.TIMEOUT and check not in legal_actions(state, seat):
        legal = ", ".join(a.to_str() for a in legal_actions(state, seat)[:12])
        raise IllegalActionError(
            f"{action}: illegal in phase {state.phase.value} for seat {seat} (legal: {legal} …)"
        )
    apply_unchecked(state, seat, action)


def apply_unchecked(state: GameState, seat: int, action: Action) -> None:
    """Apply an action that is known to be legal (bots' search, trusted replays). Does not check it."""
    state.actions.append((seat, action.to_str()))
    if action.kind is Kind.TIMEOUT:
        resolved = timeout_action(state, seat)
        state.emit("timeout", seat, {"applied": resolved.to_str()})
        _do(state, seat, resolved)
    else:
        _do(state, seat, action)


def _auto(state: GameState, seat: int, action: Action) -> None:
    state.emit("auto", seat, {"action": action.to_str()})
    _do(state, seat, action)


def _do(state: GameState, seat: int, a: Action) -> None:
    k = a.kind
    if k is Kind.DISCARD:
        _discard(state, seat, a.tile, a.riichi)
    elif k is Kind.WIN:
        _declare_win(state, seat)
    elif k is Kind.PASS:
        _pass(state, seat)
    elif k in (Kind.CHOW, Kind.PUNG, Kind.KONG):
        _claim(state, seat, a)
    elif k is Kind.CONCEALED_KONG:
        _concealed_kong(state, seat, a.tile)
    elif k in (Kind.ADDED_KONG, Kind.EXTEND_KONG):
        _added_kong(state, seat, a.tile, k)
    elif k is Kind.SELECT:
        state.seats[seat].selected.append(a.tile)
    elif k is Kind.EXCHANGE:
        _exchange(state, seat)
    elif k is Kind.ACCEPT:
        _accept_triplet(state, seat, a.tiles)
    elif k is Kind.CUO:
        _take_cuo(state, seat, a.tile)
    elif k is Kind.PICK:
        _haidi_pick(state, seat, a.index)
    elif k is Kind.ESCAPE:
        _escape(state, seat)
    elif k in (Kind.MAIDI, Kind.DINGDI):
        _stake(state, seat, True)
    else:  # pragma: no cover - TIMEOUT is resolved before
        raise IllegalActionError(f"{a}: cannot be applied")


def _discard(state: GameState, seat: int, t: Tile, riichi: bool) -> None:
    me = state.seats[seat]
    me.remove(t)
    me.discards.append(t)
    me.discards_made += 1
    if riichi:
        me.riichi = True
        me.riichi_first_turn = me.discards_made == 1 and not state.opened
        me.riichi_draws = 0
        me.riichi_clean = True
        state.riichi_order.append(seat)
    state.emit("discard", seat, {"tile": tile_to_mpsz(t), "riichi": riichi, "drawn": t == state.drawn})
    state.last_discard = t
    state.discarder = seat
    state.discard_riichi = riichi
    state.drawn = None
    state.claimed = False
    opp = 1 - seat
    options = _claim_options(state, opp)
    if options:
        state.phase = Phase.CLAIM
        state.actor = opp
        state.emit("claim_window", opp, {}, {"options": [o.to_str() for o in options]}, opp, private=True)
    else:
        _normal_draw(state, opp)


def _pass(state: GameState, seat: int) -> None:
    me = state.seats[seat]
    ph = state.phase
    if ph in (Phase.MAIDI, Phase.DINGDI):
        _stake(state, seat, False)
        return
    if state.caishen is not None and state.rules.pass_win_rule != "none" and ph in (Phase.CLAIM, Phase.ROB):
        tile = (
            state.last_discard if ph is Phase.CLAIM else state.pending_kong[1] if state.pending_kong else None
        )
        if tile is not None:  # 过水: remember the best multiplier declined
            how = "discard" if ph is Phase.CLAIM else "rob"
            me.passed_win = max(me.passed_win, _win_mult(_win(state, seat, tile, how)))
    if ph is Phase.CLAIM:
        if state.last_discard is not None and _win(state, seat, state.last_discard, "discard") is not None:
            mode = state.rules.riichi_pass_furiten
            if me.riichi and mode != "none":
                me.furiten = True
                me.furiten_permanent = mode == "permanent"
        state.emit("pass", seat, {}, private=True, secret_to=seat)
        _normal_draw(state, seat)
    elif ph is Phase.ROB:
        state.emit("pass", seat, {}, private=True, secret_to=seat)
        assert state.pending_kong is not None
        owner, tile, kind = state.pending_kong
        state.pending_kong = None
        _complete_added_kong(state, owner, tile, kind)
    elif ph is Phase.TRIPLET:
        state.emit("triplet_decline", seat, {}, private=True, secret_to=seat)
        state.offer = None
        state.phase = Phase.TURN
        _riichi_auto(state, seat)
    elif ph is Phase.CUO:
        state.emit("cuo_decline", seat, {}, private=True, secret_to=seat)
        _draw_head(state, seat)


def _normal_draw(state: GameState, seat: int) -> None:
    """The start of ``seat``'s turn: exhaustion, a 搓牌 chance, or a draw from the head."""
    rules = state.rules
    me = state.seats[seat]
    if not me.furiten_permanent:
        me.furiten = False
    if draws_left(state) <= 0:
        _exhaust(state)
        return
    if (
        rules.cuo_prob > 0
        and (not me.riichi or rules.cuo_allowed_after_riichi)
        and me.cuo_offers < rules.cuo_max_per_hand
        and not all(state.wall_public[state.head : state.tail])
    ):
        pool = _pool(state)
        if any(pool[t] for t in rules.kinds) and state.rng.random() < rules.cuo_prob:
            me.cuo_offers += 1
            state.phase = Phase.CUO
            state.actor = seat
            kinds = [tile_to_mpsz(t) for t in rules.kinds if pool[t]]
            state.emit("cuo_offer", seat, {}, {"kinds": kinds}, seat, private=True)
            return
    _draw_head(state, seat)


def _draw_head(state: GameState, seat: int) -> None:
    t = state.wall[state.head]
    public = state.wall_public[state.head]
    state.head += 1
    _after_draw(state, seat, t, "normal", public)


def _replacement_draw(state: GameState, seat: int) -> None:
    if state.caishen is not None and state.reserve_left:
        state.reserve_left -= 1
    state.tail -= 1
    _after_draw(state, seat, state.wall[state.tail], "replacement", state.wall_public[state.tail])


def _after_draw(state: GameState, seat: int, t: Tile, kind: str, public: bool) -> None:
    me = state.seats[seat]
    while t >= 34:  # 补花: show the flower, draw a replacement from the tail
        me.flowers.append(t)
        state.emit("flower", seat, {"tile": tile_to_mpsz(t)})
        state.counters["flower"] += 1
        if state.wall_left == 0:
            _draw_end(state)
            return
        state.tail -= 1
        t = state.wall[state.tail]
        public = state.wall_public[state.tail]
        kind = "flower"
    me.add(t)
    me.passed_win = 0
    if me.riichi:
        me.riichi_draws += 1
    state.drawn = t
    state.draw_kind = kind
    state.claimed = False
    where = {"normal": "head", "cuo": "pool"}.get(kind, "tail")
    data: dict[str, Any] = {"from": where, "wall": state.wall_left}
    if public:
        data["tile"] = tile_to_mpsz(t)
    state.emit("draw", seat, data, {"tile": tile_to_mpsz(t)}, seat)
    _enter_turn(state, seat, after_draw=True)


def _enter_turn(state: GameState, seat: int, after_draw: bool) -> None:
    rules = state.rules
    me = state.seats[seat]
    state.phase = Phase.TURN
    state.actor = seat
    if (
        after_draw
        and rules.triplet_offer_prob > 0
        and not me.riichi
        and me.triplet_offers < rules.triplet_offer_max_per_hand
    ):
        pool = _pool(state)
        eligible = [t for t in rules.kinds if pool[t] >= 3]
        if eligible and state.rng.random() < rules.triplet_offer_prob:
            me.triplet_offers += 1
            if rules.triplet_offer_bias == "helpful":
                kind = state.rng.choices(eligible, weights=[1 + me.counts[t] for t in eligible])[0]
            else:
                kind = state.rng.choice(eligible)
            state.offer = kind
            state.phase = Phase.TRIPLET
            state.counters["triplet_offer"] += 1
            state.emit("triplet_offer", seat, {}, {"kind": tile_to_mpsz(kind)}, seat, private=True)
            return
    _riichi_auto(state, seat)


def _riichi_auto(state: GameState, seat: int) -> None:
    """A declared-ready hand plays itself: win on a completing draw, discard anything else."""
    me = state.seats[seat]
    if not me.riichi or state.phase is not Phase.TURN or state.drawn is None:
        return
    legal = legal_actions(state, seat)
    if WIN in legal and state.rules.auto_win_on_self_draw_after_riichi:
        _auto(state, seat, WIN)
    elif len(legal) == 1:
        _auto(state, seat, legal[0])


def _claim(state: GameState, seat: int, a: Action) -> None:
    t = state.last_discard
    assert t is not None and state.discarder is not None
    me = state.seats[seat]
    cs = state.caishen
    if (
        cs is not None and state.rules.pass_win_rule != "none"
    ):  # 过水: claiming instead of winning declines it
        me.passed_win = max(me.passed_win, _win_mult(_win(state, seat, t, "discard")))
    state.seats[state.discarder].discards.pop()
    p = t if cs is None else wz.play_kind(t, cs)  # what the tile plays as (温州: 白板 as the 财神's kind)

    def phys(x: Tile) -> Tile:
        return x if cs is None else wz.phys_kind(x, cs)

    if a.kind is Kind.CHOW:
        for x in (a.tile, a.tile + 1, a.tile + 2):
            if x != p:
                me.remove(phys(x))
        meld = Meld(MeldKind.CHOW, a.tile, claimed=p)
    elif a.kind is Kind.PUNG:
        me.remove(phys(p), 2)
        meld = Meld(MeldKind.PUNG, p, claimed=p)
    else:
        me.remove(phys(p), 3)
        meld = Meld(MeldKind.EXPOSED_KONG, p, claimed=p)
        _kong_money(state, seat, 1)
    me.melds.append(meld)
    _opened(state)
    state.emit(a.kind.value, seat, {"meld": _meld_text(state, meld), "tile": tile_to_mpsz(t)})
    state.phase = Phase.TURN
    state.actor = seat
    if a.kind is Kind.KONG:
        _replacement_draw(state, seat)
    else:
        state.drawn = None
        state.draw_kind = "claim"
        state.claimed = True


def _kong_money(state: GameState, seat: int, bases: int) -> None:
    """温州 ``kong_money``: the opponent pays ``bases`` × B at once (recorded in the result)."""
    if state.caishen is None or not state.rules.kong_money or not bases:
        return
    amount = bases * wz.base_points(state.rules, state.streak)
    state.kong_money[seat] += amount
    state.kong_money[1 - seat] -= amount


def _opened(state: GameState) -> None:
    state.opened = True
    for s in state.seats:
        s.riichi_clean = False


def _concealed_kong(state: GameState, seat: int, t: Tile) -> None:
    me = state.seats[seat]
    me.remove(t, 4)
    meld = Meld(MeldKind.CONCEALED_KONG, t if state.caishen is None else wz.play_kind(t, state.caishen))
    me.melds.append(meld)
    _opened(state)
    _kong_money(state, seat, 2)
    state.emit("ckong", seat, {}, {"meld": _meld_text(state, meld)}, seat)
    _replacement_draw(state, seat)


def _added_kong(state: GameState, seat: int, t: Tile, kind: Kind) -> None:
    rules = state.rules
    opp = 1 - seat
    state.emit(kind.value, seat, {"tile": tile_to_mpsz(t)})
    robbable = kind is Kind.ADDED_KONG or rules.rob_extended_kong
    if state.caishen is not None:  # 温州 抢框, within the 过水 limit
        found = _win(state, opp, t, "rob") if rules.rob_kong else None
        robbable = found is not None and _win_mult(found) > state.seats[opp].passed_win
    if robbable and not state.seats[opp].furiten and _win(state, opp, t, "rob") is not None:
        state.pending_kong = (seat, t, kind.value)
        state.phase = Phase.ROB
        state.actor = opp
        return
    _complete_added_kong(state, seat, t, kind.value)


def _complete_added_kong(state: GameState, seat: int, t: Tile, kind: str) -> None:
    me = state.seats[seat]
    me.remove(t)
    if state.caishen is not None:
        t = wz.play_kind(t, state.caishen)
    for i, m in enumerate(me.melds):
        if m.tile == t and (m.kind is MeldKind.PUNG or m.is_kong):
            if kind == Kind.ADDED_KONG.value:
                me.melds[i] = Meld(MeldKind.ADDED_KONG, t, claimed=m.claimed)
            else:
                me.melds[i] = Meld(m.kind, t, m.size + 1, m.claimed)
            break
    _opened(state)
    _replacement_draw(state, seat)


def _declare_win(state: GameState, seat: int) -> None:
    ph = state.phase
    if ph is Phase.TURN:
        drawn = _self_win_tile(state)
        assert drawn is not None
        found = _win(state, seat, drawn, "self")
        how, tile = "self", drawn
    elif ph is Phase.CLAIM:
        assert state.last_discard is not None and state.discarder is not None
        tile = state.last_discard
        found = _win(state, seat, tile, "discard")
        how = "discard"
        state.seats[state.discarder].discards.pop()
    else:  # ROB
        assert state.pending_kong is not None
        owner, tile, _ = state.pending_kong
        found = _win(state, seat, tile, "rob")
        how = "rob"
        state.seats[owner].remove(tile)
        state.pending_kong = None
    assert found is not None
    _finish_win(state, seat, tile, how, found)


def _finish_win(state: GameState, seat: int, tile: Tile, how: str, found: WinCheck | wz.WenzhouWin) -> None:
    loser = 1 - seat
    deltas = [0, 0]
    deltas[seat] = found.points
    deltas[loser] = -found.points
    extra: dict[str, Any] = {}
    if state.caishen is not None:
        extra = _wenzhou_extra(state)
        deltas = [d + k for d, k in zip(deltas, state.kong_money, strict=True)]
    state.result = {
        "reason": "win",
        "winner": seat,
        "loser": loser,
        "how": how,
        "tile": tile_to_mpsz(tile),
        **found.to_dict(),
        **extra,
        "deltas": deltas,
        "hands": _hands_shown(state),
    }
    state.phase = Phase.END
    state.emit("win", seat, {k: v for k, v in state.result.items() if k != "reason"})


def _wenzhou_extra(state: GameState) -> dict[str, Any]:
    """温州 facts every hand result carries: streak, 买底 / 顶底, and kong money when it is on."""
    out: dict[str, Any] = {
        "streak": state.streak,
        "stakes": {"maidi": state.stakes[0], "dingdi": state.stakes[1]},
    }
    if state.rules.kong_money:
        out["kong_money"] = list(state.kong_money)
    return out


def _hands_shown(state: GameState) -> list[str]:
    return ["".join(_meld_text(state, m) for m in s.melds) + to_mpsz(s.tiles()) for s in state.seats]


def _exhaust(state: GameState) -> None:
    rules = state.rules
    if rules.haidi_mode == "pick_reserve" and state.reserve:
        if rules.haidi_ready_means == "declared":
            eligible = list(state.riichi_order)
        else:
            ready = [s for s in (state.dealer, 1 - state.dealer) if waits_of(state, s)]
            eligible = [s for s in state.riichi_order if s in ready]
            eligible += [s for s in ready if s not in eligible]
        if eligible:
            state.haidi_queue = eligible if rules.haidi_second_player_if_first_fails else eligible[:1]
            state.haidi_picks_left = rules.haidi_picks
            state.phase = Phase.HAIDI
            state.actor = state.haidi_queue[0]
            state.counters["haidi"] += 1
            state.emit("haidi", state.actor, {"reserve": len(state.reserve)})
            return
    _draw_end(state)


def _haidi_pick(state: GameState, seat: int, index: int) -> None:
    t = state.reserve[index]
    me = state.seats[seat]
    me.add(t)
    state.drawn = t
    state.draw_kind = "haidi"
    found = _win(state, seat, t, "haidi")
    state.emit("haidi_pick", seat, {"index": index, "tile": tile_to_mpsz(t), "wins": found is not None})
    if found is not None:
        state.reserve.pop(index)
        _finish_win(state, seat, t, "haidi", found)
        return
    me.remove(t)
    state.drawn = None
    state.haidi_picks_left -= 1
    if state.haidi_picks_left > 0 and len(state.reserve) > 1:
        state.reserve.pop(index)
        return
    state.haidi_queue.pop(0)
    if state.haidi_queue:
        state.haidi_picks_left = state.rules.haidi_picks
        state.actor = state.haidi_queue[0]
        return
    _draw_end(state)


def _draw_end(state: GameState) -> None:
    deltas = [0, 0]
    extra: dict[str, Any] = {}
    if state.caishen is not None:
        extra = _wenzhou_extra(state)
        deltas = list(state.kong_money)
        if state.rules.caishen_money_on_draw and state.rules.caishen_money_enabled:
            held = [s.counts[state.caishen] for s in state.seats]
            money = (held[0] - held[1]) * state.rules.caishen_money_unit
            extra["caishen_money"] = [money, -money]
            deltas = [deltas[0] + money, deltas[1] - money]
    state.result = {"reason": "draw", **extra, "deltas": deltas, "hands": _hands_shown(state)}
    state.phase = Phase.END
    state.emit("exhausted", None, {"hands": state.result["hands"]})


def _escape(state: GameState, seat: int) -> None:
    rules = state.rules
    penalty = rules.escape_points if rules.fan_cap is None else min(rules.escape_points, rules.fan_cap)
    if rules.family == "wenzhou":
        penalty = wz.escape_points(
            rules,
            streak=state.streak,
            buy=state.stakes[0],
            top=state.stakes[1],
            escaper_is_dealer=seat == state.dealer,
        )
    deltas = [0, 0]
    deltas[seat] = -penalty
    deltas[1 - seat] = penalty
    state.result = {"reason": "escape", "escaper": seat, "points": penalty, "deltas": deltas}
    state.phase = Phase.END
    state.emit("escape", seat, {"points": penalty})


def _exchange(state: GameState, seat: int) -> None:
    me = state.seats[seat]
    chosen = sorted(me.selected)
    me.selected = []
    positions = state.rng.sample(range(len(state.reserve)), len(chosen)) if chosen else []
    got = [state.reserve[p] for p in positions]
    for p, t in zip(positions, chosen, strict=True):
        state.reserve[p] = t
    for t in chosen:
        me.remove(t)
    for t in got:
        me.add(t)
    me.exchanged = True
    if chosen:
        state.counters["exchange"] += 1
    state.emit("exchange", seat, {"count": len(chosen)}, {"gave": to_mpsz(chosen), "got": to_mpsz(got)}, seat)
    if seat == state.dealer and state.drawn is not None and not me.counts[state.drawn]:
        state.drawn = None
    state.exchange_order.pop(0)
    if state.exchange_order:
        state.actor = state.exchange_order[0]
    else:
        _enter_turn(state, state.dealer, after_draw=False)


def _accept_triplet(state: GameState, seat: int, given: tuple[Tile, ...]) -> None:
    me = state.seats[seat]
    kind = state.offer
    assert kind is not None
    places: list[tuple[str, int]] = [("r", i) for i, t in enumerate(state.reserve) if t == kind]
    if state.rules.assist_pool == "reserve+wall":
        places += [
            ("w", i)
            for i in range(state.tail - 1, state.head - 1, -1)
            if state.wall[i] == kind and not state.wall_public[i]
        ]
    for (where, i), t in zip(places[:3], given, strict=True):
        if where == "r":
            state.reserve[i] = t
        else:
            state.wall[i] = t
    for t in given:
        me.remove(t)
    me.add(kind)
    me.add(kind)
    me.add(kind)
    if state.drawn is not None and not me.counts[state.drawn]:
        state.drawn = None
    state.offer = None
    state.counters["triplet_accept"] += 1
    state.emit(
        "triplet_accept", seat, {}, {"kind": tile_to_mpsz(kind), "gave": to_mpsz(given)}, seat, private=True
    )
    state.phase = Phase.TURN
    _riichi_auto(state, seat)


def _take_cuo(state: GameState, seat: int, kind: Tile) -> None:
    state.counters["cuo"] += 1
    if kind in state.reserve:
        i = state.reserve.index(kind)
        state.reserve[i] = state.wall[state.head]
        state.head += 1
    else:
        j = next(
            i for i in range(state.head, state.tail) if state.wall[i] == kind and not state.wall_public[i]
        )
        del state.wall[j]
        del state.wall_public[j]
        state.tail -= 1
    state.emit("cuo", seat, {}, {"kind": tile_to_mpsz(kind)}, seat)
    _after_draw(state, seat, kind, "cuo", False)


def events_for(state: GameState, seat: int | None, start: int = 0) -> list[dict[str, Any]]:
    """The events from ``start`` as ``seat`` may see them, each with its version ``v``."""
    out = []
    for i, e in enumerate(state.events[start:], start):
        seen = e.for_seat(seat)
        if seen is not None:
            seen["v"] = i
            out.append(seen)
    return out


def replay_events(events: list[Event]) -> list[dict[str, Any]]:
    """Full events as a record stores them."""
    out = []
    for e in events:
        full = e.for_seat(None)
        assert full is not None
        out.append(full)
    return out
