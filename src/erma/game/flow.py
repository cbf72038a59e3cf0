"""The flow of a hand (行牌): applying actions, and everything the rules then do alone.

- :func:`apply` checks an action against :func:`~erma.game.legal.legal_actions` (an illegal action raises
  IllegalActionError naming the action and the phase; the state is unchanged) and applies it;
  :func:`apply_unchecked` is the fast twin for bots' search and replays of trusted records: it assumes
  legality.
- The engine applies on its own what the rules make automatic: 补花, a declared-ready hand's forced
  discard and win, skipping a claim window in which the opponent can only pass.
"""

from __future__ import annotations

from typing import Any

from erma.errors import IllegalActionError
from erma.game import assists, settle
from erma.game.actions import WIN, Action, Kind
from erma.game.assists import Next
from erma.game.flowers import show_flower
from erma.game.legal import find_win, legal_actions, remember_claims, self_win_tile, timeout_action
from erma.game.result import DrawSource
from erma.game.state import Declaration, GameState, Phase, Seat
from erma.hand import Meld, MeldKind
from erma.tiles import Tile, tile_to_mpsz


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
        do(state, seat, resolved)
    else:
        do(state, seat, action)


def auto(state: GameState, seat: int, action: Action) -> None:
    """An action the rules take for the seat (a declared-ready hand's draw), announced as ``auto``."""
    state.emit("auto", seat, {"action": action.to_str()})
    do(state, seat, action)


def do(state: GameState, seat: int, a: Action) -> None:
    """Carry out one action."""
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
        _follow(state, seat, assists.exchange(state, seat))
    elif k is Kind.ACCEPT:
        _follow(state, seat, assists.accept_triplet(state, seat, a.tiles))
    elif k is Kind.CUO:
        tile, public = assists.take_cuo(state, seat, a.tile)
        after_draw(state, seat, tile, DrawSource.CUO, public)
    elif k is Kind.PICK:
        assists.haidi_pick(state, seat, a.index)
    elif k is Kind.ESCAPE:
        settle.escape(state, seat)
    elif k in (Kind.MAIDI, Kind.DINGDI):
        state.family.stake(state, seat, True)
    else:  # pragma: no cover - TIMEOUT is resolved before
        raise IllegalActionError(f"{a}: cannot be applied")


def _discard(state: GameState, seat: int, t: Tile, riichi: bool) -> None:
    me = state.seats[seat]
    me.remove(t)
    if riichi:
        me.declaration = Declaration(len(me.discards), t, True, len(state.seats[1 - seat].discards))
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
    options = state.family.claim_options(state, opp)
    if options:
        state.phase = Phase.CLAIM
        state.actor = opp
        state.emit("claim_window", opp, {}, {"options": [o.to_str() for o in options]}, opp, private=True)
        remember_claims(state, options)
    else:
        normal_draw(state, opp)


def _pass(state: GameState, seat: int) -> None:
    me = state.seats[seat]
    ph = state.phase
    if ph in (Phase.MAIDI, Phase.DINGDI):
        state.family.stake(state, seat, False)
        return
    if ph is Phase.CLAIM:
        tile = state.last_discard
        if tile is not None and find_win(state, seat, tile, "discard") is not None:
            state.family.on_decline(state, seat, tile, "discard")  # (温州 过水)
            mode = state.rules.riichi_pass_furiten
            if me.riichi and mode != "none":
                me.furiten = True
                me.furiten_permanent = mode == "permanent"
        state.emit("pass", seat, {}, private=True, secret_to=seat)
        normal_draw(state, seat)
    elif ph is Phase.ROB:
        assert state.pending_kong is not None
        owner, tile, kind = state.pending_kong
        state.family.on_decline(state, seat, tile, "rob")
        state.emit("pass", seat, {}, private=True, secret_to=seat)
        state.pending_kong = None
        _complete_added_kong(state, owner, tile, kind)
    elif ph is Phase.TRIPLET:
        _follow(state, seat, assists.decline_triplet(state, seat))
    elif ph is Phase.CUO:
        _follow(state, seat, assists.decline_cuo(state, seat))


def _follow(state: GameState, seat: int, step: Next) -> None:
    """Take the step an assist left the hand at (only the flow drives the hand)."""
    if step is Next.DEALER_TURN:
        enter_turn(state, state.dealer, after_draw=False)
    elif step is Next.TURN:
        riichi_auto(state, seat)
    elif step is Next.DRAW:
        draw_head(state, seat)


def normal_draw(state: GameState, seat: int) -> None:
    """The start of ``seat``'s turn: exhaustion, a 搓牌 chance, or a draw from the head."""
    me = state.seats[seat]
    if not me.furiten_permanent:
        me.furiten = False
    if state.family.draws_left(state) <= 0:
        assists.exhaust(state)
        return
    if assists.offer_cuo(state, seat):
        return
    draw_head(state, seat)


def draw_head(state: GameState, seat: int) -> None:
    """Draw from the head of the wall."""
    t = state.wall[state.head]
    public = state.wall_public[state.head]
    state.head += 1
    after_draw(state, seat, t, DrawSource.NORMAL, public)


def replacement_draw(state: GameState, seat: int) -> None:
    """Draw a replacement from the tail (after a kong)."""
    state.family.on_replacement_draw(state)
    state.tail -= 1
    after_draw(state, seat, state.wall[state.tail], DrawSource.REPLACEMENT, state.wall_public[state.tail])


def after_draw(state: GameState, seat: int, t: Tile, kind: DrawSource, public: bool) -> None:
    """A tile reaches ``seat``'s hand (flowers set aside and replaced); its turn begins."""
    me = state.seats[seat]
    while t >= 34:  # 补花: show the flower, draw a replacement from the tail
        show_flower(state, seat, t)
        if state.wall_left == 0:
            settle.draw_end(state)
            return
        state.tail -= 1
        t = state.wall[state.tail]
        public = state.wall_public[state.tail]
        kind = DrawSource.FLOWER
    me.add(t)
    me.passed_win = 0
    if me.riichi:
        me.riichi_draws += 1
    state.drawn = t
    state.draw_kind = kind
    state.claimed = False
    # where it came from, as the event says (by identity: an enum member's hash runs as interpreted Python)
    where = "head" if kind is DrawSource.NORMAL else "pool" if kind is DrawSource.CUO else "tail"
    data: dict[str, Any] = {"from": where, "wall": state.wall_left}
    if public:
        data["tile"] = tile_to_mpsz(t)
    state.emit("draw", seat, data, {"tile": tile_to_mpsz(t)}, seat)
    enter_turn(state, seat, after_draw=True)


def enter_turn(state: GameState, seat: int, after_draw: bool) -> None:
    """``seat``'s turn: maybe a triplet offer first, then a declared-ready hand plays itself."""
    state.phase = Phase.TURN
    state.actor = seat
    if after_draw and assists.offer_triplet(state, seat):
        return
    riichi_auto(state, seat)


def riichi_auto(state: GameState, seat: int) -> None:
    """A declared-ready hand plays itself: win on a completing draw, discard anything else."""
    me = state.seats[seat]
    if not me.riichi or state.phase is not Phase.TURN or state.drawn is None:
        return
    legal = legal_actions(state, seat)
    if WIN in legal and state.rules.auto_win_on_self_draw_after_riichi:
        auto(state, seat, WIN)
    elif len(legal) == 1:
        auto(state, seat, legal[0])


def _take_discard(discarder: Seat) -> None:
    """The last discard leaves the river (claimed or won on); a declaring discard is then no longer kept."""
    d = discarder.declaration
    if d is not None and d.kept and d.before == len(discarder.discards) - 1:
        discarder.declaration = d._replace(kept=False)
    discarder.discards.pop()


def _claim(state: GameState, seat: int, a: Action) -> None:
    t = state.last_discard
    assert t is not None and state.discarder is not None
    me = state.seats[seat]
    state.family.on_decline(state, seat, t, "claim")  # claiming instead of winning declines any win
    _take_discard(state.seats[state.discarder])
    meld = state.family.take_claim(state, seat, a, t)
    if a.kind is Kind.KONG:
        state.family.on_kong(state, seat, concealed=False)
    me.melds.append(meld)
    _opened(state)
    state.emit(a.kind._value_, seat, {"meld": state.family.meld_text(state, meld), "tile": tile_to_mpsz(t)})
    state.phase = Phase.TURN
    state.actor = seat
    if a.kind is Kind.KONG:
        replacement_draw(state, seat)
    else:
        state.drawn = None
        state.draw_kind = DrawSource.CLAIM
        state.claimed = True


def _opened(state: GameState) -> None:
    state.opened = True
    for s in state.seats:
        s.riichi_clean = False


def _concealed_kong(state: GameState, seat: int, t: Tile) -> None:
    me = state.seats[seat]
    me.remove(t, 4)
    meld = Meld(MeldKind.CONCEALED_KONG, state.family.set_kind(state, t))
    me.melds.append(meld)
    _opened(state)
    state.family.on_kong(state, seat, concealed=True)
    state.emit("ckong", seat, {}, {"meld": state.family.meld_text(state, meld)}, seat)
    replacement_draw(state, seat)


def _added_kong(state: GameState, seat: int, t: Tile, kind: Kind) -> None:
    opp = 1 - seat
    state.emit(kind.value, seat, {"tile": tile_to_mpsz(t)})
    if state.family.robbable(state, opp, t, kind is Kind.EXTEND_KONG):
        state.pending_kong = (seat, t, kind.value)
        state.phase = Phase.ROB
        state.actor = opp
        return
    _complete_added_kong(state, seat, t, kind.value)


def _complete_added_kong(state: GameState, seat: int, t: Tile, kind: str) -> None:
    me = state.seats[seat]
    me.remove(t)
    t = state.family.set_kind(state, t)
    for i, m in enumerate(me.melds):
        if m.tile == t and (m.kind is MeldKind.PUNG or m.is_kong):
            if kind == Kind.ADDED_KONG.value:
                me.melds[i] = Meld(MeldKind.ADDED_KONG, t, claimed=m.claimed)
            else:
                me.melds[i] = Meld(m.kind, t, m.size + 1, m.claimed)
            break
    _opened(state)
    replacement_draw(state, seat)


def _declare_win(state: GameState, seat: int) -> None:
    ph = state.phase
    if ph is Phase.TURN:
        drawn = self_win_tile(state)
        assert drawn is not None
        found = find_win(state, seat, drawn, "self")
        how, tile = "self", drawn
    elif ph is Phase.CLAIM:
        assert state.last_discard is not None and state.discarder is not None
        tile = state.last_discard
        found = find_win(state, seat, tile, "discard")
        how = "discard"
        _take_discard(state.seats[state.discarder])
    else:  # ROB
        assert state.pending_kong is not None
        owner, tile, _ = state.pending_kong
        found = find_win(state, seat, tile, "rob")
        how = "rob"
        state.seats[owner].remove(tile)
        state.pending_kong = None
    assert found is not None
    settle.finish_win(state, seat, tile, how, found)
