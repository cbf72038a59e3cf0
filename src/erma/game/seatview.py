"""The seat view (视角): everything one seat may know, and nothing more, as one value no one changes.

:func:`seat_view` builds it in one place; the wire (:meth:`SeatView.to_json`), the bots, the hints and any
later consumer read it. It never holds the opponent's concealed tiles, the wall order or the reserve, except
what a rule shows that seat: the revealed bonus tiles, the kinds offered to it for 搓牌, the triplet offered
to it. The opponent's private decisions do not show either: while the opponent decides something only it
was offered (a claim, a robbing chance, 搓牌, a triplet offer), this seat sees the opponent's turn. At the
end of the hand the result shows both hands.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from erma.frozen import reduce_frozen
from erma.game.actions import Action
from erma.game.legal import cuo_kinds, legal_actions, offered_multiplier
from erma.game.result import HandResult
from erma.game.seen import visible_counts
from erma.game.state import Declaration, GameState, Phase
from erma.hand import Meld
from erma.rules import RuleSet
from erma.rules.shapes import shape_mask
from erma.tiles import Tile, tile_to_mpsz, to_mpsz

HIDDEN_PHASES = frozenset({Phase.CLAIM, Phase.ROB, Phase.CUO, Phase.TRIPLET})
"""Decisions only the deciding seat learns it has: the other seat sees the decider's turn instead."""


@dataclass(slots=True, unsafe_hash=True)
class SeatView:
    """What one seat may know now. Tiles are kinds (ints); counts are 34 long.

    A value: nothing changes it once built (copies with changes: ``dataclasses.replace``). Not a frozen
    dataclass only for speed: a frozen dataclass's constructor cannot assign its fields, and the generated
    one stays interpreted Python in the compiled build (docs/performance.md); hashed and compared by value
    as a frozen one is."""

    seat: int
    rules: RuleSet
    phase: Phase
    """The phase as this seat may know it (an opponent's hidden decision shows as its turn)."""
    actor: int
    """Who is to act, as this seat may know it."""
    dealer: int
    dealer_dice: tuple[int, ...]
    """The dice that chose the dealer (public), empty if it was not rolled for."""
    prevalent_wind: int
    seat_winds: tuple[int, int]
    hand: tuple[int, ...]
    """Own concealed tiles by kind, as held (physical tiles)."""
    drawn: Tile | None
    """The tile this seat just drew, on its own turn."""
    melds: tuple[Meld, ...]
    """Own declared sets (concealed kongs included)."""
    opponent_melds: tuple[Meld, ...]
    """The opponent's open sets (its concealed kongs only as ``meld_texts`` until the hand ends)."""
    meld_texts: tuple[tuple[str, ...], tuple[str, ...]]
    """Both seats' sets as the table shows them (``[4?]`` for a concealed kong of the opponent)."""
    discards: tuple[tuple[Tile, ...], tuple[Tile, ...]]
    flowers: tuple[tuple[Tile, ...], tuple[Tile, ...]]
    riichi: tuple[bool, bool]
    declarations: tuple[Declaration | None, Declaration | None]
    """Where each seat declared 报听 (its declaring discard's place in its river; None before)."""
    opponent_hand_count: int
    wall_left: int
    draws_left: int
    """Normal draws left before the 流局 (the family's count)."""
    reserve_count: int
    revealed: tuple[Tile, ...]
    bonus_kinds: tuple[Tile, ...]
    last_discard: Tile | None
    version: int
    """The number of events so far (the stream position the view matches)."""
    legal: tuple[Action, ...]
    visible: tuple[int, ...]
    """Copies of each kind this seat can see (own hand and sets, both rivers, open sets, revealed tiles)."""
    offer: Tile | None
    """The kind of a triplet offered to this seat."""
    selected: tuple[Tile, ...]
    """Tiles this seat marked in the start exchange."""
    cuo_kinds: tuple[Tile, ...]
    """Kinds this seat may choose in a 搓牌 offer."""
    win_multiplier: int
    """The multiplier (温州 1, 2, 4) of the win this seat could declare now; 0 if none or no multipliers."""
    result: HandResult | None
    extras: Mapping[str, Any]
    """The family's public facts (wire form): 温州's 财神, flipped tile, streak, base, 买底 / 顶底."""
    wild: Tile | None
    """The wild kind (财神), if the family has one and it is dealt."""
    counts: tuple[int, ...]
    """Own concealed tiles as played: with a wild kind, wilds left out and 白板 as the wild's kind."""
    key: int
    """The packed key of ``counts`` (see erma.analysis.tables)."""
    jokers: int
    """Wild tiles held."""
    size: int
    """Own concealed tiles, wilds included."""

    def __init__(
        self,
        seat: int,
        rules: RuleSet,
        phase: Phase,
        actor: int,
        dealer: int,
        dealer_dice: tuple[int, ...],
        prevalent_wind: int,
        seat_winds: tuple[int, int],
        hand: tuple[int, ...],
        drawn: Tile | None,
        melds: tuple[Meld, ...],
        opponent_melds: tuple[Meld, ...],
        meld_texts: tuple[tuple[str, ...], tuple[str, ...]],
        discards: tuple[tuple[Tile, ...], tuple[Tile, ...]],
        flowers: tuple[tuple[Tile, ...], tuple[Tile, ...]],
        riichi: tuple[bool, bool],
        declarations: tuple[Declaration | None, Declaration | None],
        opponent_hand_count: int,
        wall_left: int,
        draws_left: int,
        reserve_count: int,
        revealed: tuple[Tile, ...],
        bonus_kinds: tuple[Tile, ...],
        last_discard: Tile | None,
        version: int,
        legal: tuple[Action, ...],
        visible: tuple[int, ...],
        offer: Tile | None,
        selected: tuple[Tile, ...],
        cuo_kinds: tuple[Tile, ...],
        win_multiplier: int,
        result: HandResult | None,
        extras: Mapping[str, Any],
        wild: Tile | None,
        counts: tuple[int, ...],
        key: int,
        jokers: int,
        size: int,
    ) -> None:
        """The dataclass's constructor written out (compiled, it is native code; one view a decision)."""
        self.seat = seat
        self.rules = rules
        self.phase = phase
        self.actor = actor
        self.dealer = dealer
        self.dealer_dice = dealer_dice
        self.prevalent_wind = prevalent_wind
        self.seat_winds = seat_winds
        self.hand = hand
        self.drawn = drawn
        self.melds = melds
        self.opponent_melds = opponent_melds
        self.meld_texts = meld_texts
        self.discards = discards
        self.flowers = flowers
        self.riichi = riichi
        self.declarations = declarations
        self.opponent_hand_count = opponent_hand_count
        self.wall_left = wall_left
        self.draws_left = draws_left
        self.reserve_count = reserve_count
        self.revealed = revealed
        self.bonus_kinds = bonus_kinds
        self.last_discard = last_discard
        self.version = version
        self.legal = legal
        self.visible = visible
        self.offer = offer
        self.selected = selected
        self.cuo_kinds = cuo_kinds
        self.win_multiplier = win_multiplier
        self.result = result
        self.extras = extras
        self.wild = wild
        self.counts = counts
        self.key = key
        self.jokers = jokers
        self.size = size

    # ------------------------------------------------------------------- conveniences for bots

    @property
    def copies(self) -> int:
        """Copies of each kind in the set."""
        return self.rules.copies

    @property
    def kinds(self) -> tuple[int, ...]:
        """The kinds in play."""
        return self.rules.kinds

    @property
    def shapes(self) -> int:
        """The winning shapes the rule set can win (:func:`erma.rules.shape_mask`), for the shape functions'
        ``allowed``."""
        return shape_mask(self.rules)

    @property
    def four_as_two(self) -> bool:
        """Four of a kind may make two pairs (八对)."""
        return self.rules.four_of_kind_counts_as_two_pairs

    @property
    def caishen(self) -> Tile | None:
        """温州's name for the wild kind."""
        return self.wild

    def unseen(self, tile: Tile) -> int:
        """Copies of a (physical) kind this seat has not seen (the most that can still come)."""
        return max(0, self.rules.copies - self.visible[tile])

    def play(self, tile: Tile) -> Tile:
        """How a physical tile plays: −1 for a wild, 白板 as the wild's kind; itself without wilds."""
        wild = self.wild
        if wild is None:
            return tile
        if tile == wild:
            return -1
        return wild if tile == 31 else tile

    # --------------------------------------------------------------------------------- the wire

    def to_json(self) -> dict[str, Any]:
        """The view as the protocol sends it (docs/protocol.md)."""
        t = tile_to_mpsz
        out: dict[str, Any] = {
            "seat": self.seat,
            "rules": self.rules.name,
            "phase": self.phase.value,
            "actor": self.actor,
            "dealer": self.dealer,
            "prevalent_wind": self.prevalent_wind,
            "seat_winds": list(self.seat_winds),
            "hand": to_mpsz([k for k, n in enumerate(self.hand) for _ in range(n)]),
            "drawn": t(self.drawn) if self.drawn is not None else None,
            "melds": [list(self.meld_texts[0]), list(self.meld_texts[1])],
            "discards": [[t(x) for x in river] for river in self.discards],
            "flowers": [[t(x) for x in f] for f in self.flowers],
            "riichi": list(self.riichi),
            "riichi_at": [d.before if d is not None and d.kept else None for d in self.declarations],
            "opponent_hand_count": self.opponent_hand_count,
            "wall": self.wall_left,
            "reserve": self.reserve_count,
            "revealed": [t(x) for x in self.revealed],
            "bonus_kinds": [t(x) for x in self.bonus_kinds],
            "last_discard": t(self.last_discard) if self.last_discard is not None else None,
            "version": self.version,
            "legal": [a.to_str() for a in self.legal],
        }
        out.update(self.extras)
        if self.offer is not None:
            out["offer"] = t(self.offer)
        if self.phase is Phase.EXCHANGE and self.actor == self.seat:
            out["selected"] = to_mpsz(list(self.selected))
        if self.phase is Phase.CUO and self.actor == self.seat:
            out["cuo_kinds"] = [t(x) for x in self.cuo_kinds]
        if self.dealer_dice:
            out["dealer_dice"] = list(self.dealer_dice)
        if self.result is not None:
            out["result"] = self.result.to_json()
        return out

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Rebuilt through the constructor (copy, pickle; also when compiled)."""
        return reduce_frozen(self)


def seen_phase(state: GameState, seat: int) -> tuple[Phase, int]:
    """(phase, actor) as ``seat`` may know them: an opponent's hidden decision shows as its turn."""
    ph = state.phase  # HIDDEN_PHASES by identity (an enum member's hash runs as interpreted Python)
    if state.actor != seat and (
        ph is Phase.CLAIM or ph is Phase.ROB or ph is Phase.CUO or ph is Phase.TRIPLET
    ):
        return Phase.TURN, state.actor
    return state.phase, state.actor


def seat_view(state: GameState, seat: int, legal: list[Action] | None = None) -> SeatView:
    """Everything ``seat`` may know now. ``legal``: :func:`legal_actions` of ``seat`` in this state, when
    the caller has it already (a player loop lists them once a step)."""
    me = state.seats[seat]
    opp = state.seats[1 - seat]
    family = state.family
    ended = state.phase is Phase.END
    texts = []
    for owner in (0, 1):
        row = []
        for m in state.seats[owner].melds:
            if m.is_concealed and owner != seat and not ended:
                row.append(f"[{m.size}?]")  # a concealed kong: its kind stays hidden until the hand ends
            else:
                row.append(family.meld_text(state, m))
        texts.append(tuple(row))
    acting = state.actor == seat
    phase, actor = seen_phase(state, seat)
    legal_now = tuple(legal_actions(state, seat) if legal is None else legal)
    counts, key, jokers = family.played(state, seat)
    return SeatView(
        seat=seat,
        rules=state.rules,
        phase=phase,
        actor=actor,
        dealer=state.dealer,
        dealer_dice=state.dealer_dice,
        prevalent_wind=state.prevalent_wind,
        seat_winds=(state.seat_wind(0), state.seat_wind(1)),
        hand=tuple(me.counts),
        drawn=state.drawn if acting else None,
        melds=tuple(me.melds),
        opponent_melds=tuple(m for m in opp.melds if not m.is_concealed or ended),
        meld_texts=(texts[0], texts[1]),
        discards=(tuple(state.seats[0].discards), tuple(state.seats[1].discards)),
        flowers=(tuple(state.seats[0].flowers), tuple(state.seats[1].flowers)),
        riichi=(state.seats[0].riichi, state.seats[1].riichi),
        declarations=(state.seats[0].declaration, state.seats[1].declaration),
        opponent_hand_count=opp.size,
        wall_left=state.wall_left,
        draws_left=max(0, family.draws_left(state)),
        reserve_count=len(state.reserve),
        revealed=tuple(state.revealed),
        bonus_kinds=tuple(state.bonus_kinds),
        last_discard=state.last_discard,
        version=len(state.events),
        legal=legal_now,
        visible=tuple(visible_counts(state, seat)[:34]),
        offer=state.offer if acting and state.phase is Phase.TRIPLET else None,
        selected=tuple(me.selected) if acting and state.phase is Phase.EXCHANGE else (),
        cuo_kinds=tuple(cuo_kinds(state, seat)) if acting and state.phase is Phase.CUO else (),
        win_multiplier=offered_multiplier(state, seat),
        result=state.result,
        extras=family.view_extras(state, seat),
        wild=state.wild,
        counts=counts,
        key=key,
        jokers=jokers,
        size=me.size,
    )
