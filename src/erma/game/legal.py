"""Legality (合法动作): the single source of what a seat may do now.

:func:`legal_actions` lists every action of the seat to act; the checked :func:`erma.game.flow.apply` accepts
nothing else. Where rule families differ (discards, claims, kongs, what wins) the family's hooks answer.
"""

from __future__ import annotations

from typing import Final

from erma.analysis import shapes
from erma.errors import IllegalActionError
from erma.game.actions import CUO, DISCARD, EXCHANGE, PASS, SELECT, WIN, Action, Kind, accept, pick
from erma.game.family import Win
from erma.game.seen import visible_counts
from erma.game.state import GameState, Phase
from erma.hand import Meld
from erma.rules.shapes import shape_mask
from erma.tiles import NUM_ALL_KINDS, Tile
from erma.tiles import counts as tile_counts

PUNG: Final = Action(Kind.PUNG)
KONG: Final = Action(Kind.KONG)
MAIDI: Final = Action(Kind.MAIDI)
DINGDI: Final = Action(Kind.DINGDI)


def waits_of(state: GameState, seat: int, key: int | None = None, n: int | None = None) -> list[Tile]:
    """Kinds that complete ``seat``'s concealed part (3k+1) by shape, leaving out kinds whose copies it all
    holds. ``key`` / ``n`` replace the seat's own packed key and size (a hand after a discard)."""
    me = state.seats[seat]
    key = me.key if key is None else key
    n = me.size if n is None else n
    rules = state.rules
    draws = shapes.draws_below(key, n, rules.kinds, 0, 0, shape_mask(rules))
    if not draws:
        return []
    return _not_all_held(draws, key, me.melds, rules.copies)


def _not_all_held(kinds: tuple[Tile, ...], key: int, melds: list[Meld], copies: int) -> list[Tile]:
    """``kinds`` less those whose copies the hand (``key``) and its declared sets hold all of."""
    in_sets = copies_in_sets(melds)
    return [t for t in kinds if not all_held(key, in_sets, t, copies)]


def all_held(key: int, in_sets: list[int], t: Tile, copies: int) -> bool:
    """Whether the hand (``key``) and its declared sets (:func:`copies_in_sets`) hold every copy of ``t``."""
    return ((key >> (4 * t)) & 15) + in_sets[t] >= copies


def copies_in_sets(melds: list[Meld]) -> list[int]:
    """Copies of each kind in declared sets."""
    out = [0] * 34
    for m in melds:
        for t in m.tiles:
            out[t] = out[t] + 1
    return out


_win_cache: Final[dict[tuple[int, int, int, Tile, str], tuple[GameState, Win | None]]] = {}


def find_win(state: GameState, seat: int, tile: Tile, how: str) -> Win | None:
    """The family's verdict on ``seat`` winning with ``tile`` now (memoised per state step, so legality and
    settlement agree and cost once)."""
    cache_key = (len(state.events), len(state.actions), seat, tile, how)
    hit = _win_cache.get(cache_key)
    if hit is not None and hit[0] is state:
        return hit[1]
    found = state.family.check_win(state, seat, tile, how)
    if len(_win_cache) > 64:
        _win_cache.clear()
    _win_cache[cache_key] = (state, found)
    return found


class _ClaimMemo:
    """The claim options :func:`~erma.game.flow._discard` found when it opened a claim window, for the state
    it found them in (by identity) at that step (actions and events applied): legality in the window reads
    them instead of asking the family again, once (the engine's own flow asks once a decision). One entry,
    replaced whole (threads may play hands)."""

    __slots__ = ("entry",)

    def __init__(self) -> None:
        self.entry: tuple[GameState, int, int, list[Action]] | None = None


_CLAIMS: Final = _ClaimMemo()


def remember_claims(state: GameState, options: list[Action]) -> None:
    """Note the claim options of the window just opened (the state is at the step legality will see)."""
    _CLAIMS.entry = (state, len(state.actions), len(state.events), options)


def _claim_options(state: GameState, seat: int) -> list[Action]:
    entry = _CLAIMS.entry
    steps = (len(state.actions), len(state.events))
    if entry is not None and entry[0] is state and (entry[1], entry[2]) == steps:
        _CLAIMS.entry = None  # read once: a later question (a caller may have changed the state) asks again
        return entry[3]
    return state.family.claim_options(state, seat)


def pool(state: GameState) -> list[int]:
    """Counts of each kind in the assist pool U: the reserve plus (by default) the undrawn hidden wall."""
    return _pool_counts(state, 0)[0]


def pool_reaches(state: GameState, copies: int) -> bool:
    """Whether some kind in play has at least ``copies`` copies in the assist pool (:func:`pool`), counted
    only until one has (搓牌 asks for one copy, 游戏中换牌 for three)."""
    return _pool_counts(state, copies)[1]


def _pool_counts(state: GameState, until: int) -> tuple[list[int], bool]:
    """The assist pool's counts by kind (:func:`pool`), and whether a kind in play reached ``until`` copies
    (the count then stops there; ``until`` 0: never, every tile counted)."""
    kinds = state.rules.kinds
    c = [0] * 42
    for t in state.reserve:
        c[t] = c[t] + 1
        if c[t] == until and t in kinds:
            return c, True
    if state.rules.assist_pool == "reserve+wall":
        wall = state.wall
        public = state.wall_public
        for i in range(state.head, state.tail):
            if not public[i]:
                t = wall[i]
                c[t] = c[t] + 1
                if c[t] == until and t in kinds:
                    return c, True
    return c, False


def self_win_tile(state: GameState) -> Tile | None:
    """The tile a self-drawn win is on: the drawn tile, or (dealer's first turn after an exchange gave the
    14th tile back) the highest tile held."""
    if state.drawn is not None:
        return state.drawn
    if state.claimed:
        return None
    counts = state.seats[state.actor].counts
    return max((t for t in range(34) if counts[t]), default=None)


def legal_actions(state: GameState, seat: int) -> list[Action]:
    """Every action ``seat`` may take now (empty if it is not their decision). Escape and timeout are
    always accepted by :func:`~erma.game.flow.apply` and are not listed."""
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
    family = state.family
    if ph is Phase.TURN:
        out: list[Action] = []
        tile = self_win_tile(state)
        if not state.claimed and tile is not None and find_win(state, seat, tile, "self") is not None:
            out.append(WIN)
        out.extend(family.kong_options(state, seat))
        out.extend(family.discard_options(state, seat))
        return out
    if ph is Phase.CLAIM:
        return [*_claim_options(state, seat), PASS]
    if ph is Phase.ROB:
        return [WIN, PASS]
    if ph is Phase.MAIDI:
        return [MAIDI, PASS]
    if ph is Phase.DINGDI:
        return [DINGDI, PASS]
    if ph is Phase.EXCHANGE:
        rules = state.rules
        room = min(
            len(state.reserve), rules.start_exchange_max if rules.start_exchange_max is not None else 99
        )
        out = [EXCHANGE]
        if len(me.selected) < room:
            chosen = tile_counts(me.selected, NUM_ALL_KINDS)
            out += [SELECT[t] for t in rules.kinds if me.counts[t] > chosen[t]]
        return out
    if ph is Phase.TRIPLET:
        return [PASS, *(accept(c) for c in triples(me.counts, state.rules.kinds))]
    if ph is Phase.CUO:
        return [PASS, *(CUO[t] for t in cuo_kinds(state, seat))]
    if ph is Phase.HAIDI:
        return [pick(i) for i in range(len(state.reserve))]
    return []


def triples(counts: list[int], kinds: tuple[Tile, ...]) -> list[tuple[Tile, Tile, Tile]]:
    """The triplet offer's choices: every distinct sorted three of the tiles held (of ``kinds``), in order —
    ``sorted(set(itertools.combinations(held, 3)))``, made without the repeats (a hand of 13 has up to 286
    combinations to hash and sort)."""
    held = sorted(t for t in kinds if counts[t])
    out: list[tuple[Tile, Tile, Tile]] = []
    n = len(held)
    for i in range(n):
        a = held[i]
        for j in range(i, n):
            b = held[j]
            if j == i and counts[a] < 2:
                continue
            for k in range(j, n):
                if k == j and counts[b] < (3 if j == i else 2):
                    continue
                out.append((a, b, held[k]))
    return out


def cuo_kinds(state: GameState, seat: int) -> list[Tile]:
    """搓牌: the kinds ``seat`` is offered — every kind of which it has not seen every copy. Its own view
    decides, so the offer shows nothing of the opponent's hand (the kinds present in the pool would); a kind
    with no copy left in the pool draws the head tile instead (docs/engine.md)."""
    seen = visible_counts(state, seat)
    copies = state.rules.copies
    return [t for t in state.rules.kinds if seen[t] < copies]


def offered_multiplier(state: GameState, seat: int) -> int:
    """The multiplier (温州 1, 2, 4) of the win ``seat`` could declare now — on the drawn tile, the discard
    or the added-kong tile — or 0 if none (and in families without multipliers). Whether a 过水 limit allows
    it is :func:`legal_actions`' say; this is what the seat knows of its own win (bots weigh it)."""
    if seat != state.actor or not state.family.multiplied:
        return 0
    ph = state.phase
    found: Win | None = None
    if ph is Phase.TURN:
        tile = self_win_tile(state)
        found = find_win(state, seat, tile, "self") if tile is not None and not state.claimed else None
    elif ph is Phase.CLAIM and state.last_discard is not None:
        found = find_win(state, seat, state.last_discard, "discard")
    elif ph is Phase.ROB and state.pending_kong is not None:
        found = find_win(state, seat, state.pending_kong[1], "rob")
    return found.multiplier if found is not None else 0


def stand_in_actions(legal: list[Action]) -> list[Action]:
    """What a stand-in (auto-play, RULES §5.3 ``greedy``) may choose for a person: never 报听 (the plain
    discard of the same tile instead), never a triplet offer accepted, never 买底 / 顶底 taken."""
    plain = {a.tile for a in legal if a.kind is Kind.DISCARD and not a.riichi}
    out = [a for a in legal if not a.riichi and a.kind not in (Kind.ACCEPT, Kind.MAIDI, Kind.DINGDI)]
    out += [DISCARD[a.tile] for a in legal if a.riichi and a.tile not in plain]
    return out or legal


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
        return EXCHANGE
    if ph is Phase.HAIDI:
        return pick(state.rng.randrange(len(state.reserve)))
    return PASS
