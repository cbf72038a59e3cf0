"""温州麻将 (``wenzhou2p``, RULES §3): 财神 and 白板, winning hands, 软 / 硬 / 双翻, and settlement.

Pure functions. Hands are handled **as played** ("play space"): a 财神 (wild) is taken out of the count
vector and counted as a joker, and each 白板 stands in the 财神's kind (its natural face, RULES §3.1). So
the analysis tables see natural tiles plus ``jokers``; :func:`play_key` converts a seat's physical counts.

- :func:`classify` says whether a complete hand wins and what it is worth (×1 软, ×2 硬, ×4 双翻), with every
  reason that applies (like scoring's fans: which multiplier and why, and the tiles).
- :func:`settle_win`, :func:`escape_points`, :func:`maidi_term` are the money of RULES §3.7.
- :func:`check_win` reads a game state and returns a :class:`WenzhouWin` the engine settles.

>>> caishen_of(parse_tile("9p"), "flipped") == parse_tile("9p"), caishen_of(parse_tile("9p"), "next")
(True, 9)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from erma.analysis import shapes
from erma.analysis.tables import INC
from erma.frozen import reduce_frozen
from erma.game.families.wenzhou_play import (
    JOKER,
    WHITE,
    may_complete,
    phys_kind,
    play_key,
    play_kind,
    played_key,
)
from erma.hand import Meld, MeldKind
from erma.rules import RuleSet
from erma.tiles import Tile, next_kind, parse_tile, tile_to_mpsz, to_mpsz

if TYPE_CHECKING:
    from erma.game.state import GameState

GRADES = {1: "soft", 2: "hard", 4: "double"}
"""软 ×1, 硬 ×2, 双翻 ×4."""


def caishen_of(flipped: Tile, mode: str) -> Tile:
    """财神 kind from the flipped tile (``caishen_mode``: ``flipped`` or ``next``)."""
    return flipped if mode == "flipped" else next_kind(flipped)


# ------------------------------------------------------------------------------------- shapes


def _regular_ok(key: int, n: int, jokers: int, rules: RuleSet, melds_have_chow: bool) -> bool:
    if shapes.regular(key, n, jokers) != -1:
        return False
    if rules.allow_all_pungs or melds_have_chow:
        return True
    return _has_chow_reading(key, n, jokers)


def _has_chow_reading(key: int, n: int, jokers: int) -> bool:
    """Some reading has a chow in the concealed part (for ``allow_all_pungs=false``)."""
    for s in range(27):
        if s % 9 > 6:
            continue
        k, j = key, jokers
        for x in (s, s + 1, s + 2):
            if (k >> (4 * x)) & 15:
                k -= INC[x]
            elif j:
                j -= 1
            else:
                break
        else:
            if n == 3 or shapes.regular(k, n - 3, j) == -1:
                return True
    return False


def is_complete(key: int, n: int, jokers: int, concealed: bool, rules: RuleSet) -> bool:
    """Whether a 3k+2 hand as played may win: five sets and a pair, 八对 (no declared set), or 三财神."""
    if jokers >= 3 or shapes.regular(key, n, jokers) == -1:
        return True  # (five pungs are refused later by classify when allow_all_pungs is false)
    return concealed and n == 17 and _eight(key, n, jokers, rules) == -1


def _eight(key: int, n: int, jokers: int, rules: RuleSet) -> int:
    return shapes.eight_pairs(key, n, jokers, rules.four_of_kind_counts_as_two_pairs)


def shanten(key: int, n: int, jokers: int, concealed: bool, rules: RuleSet) -> int:
    """向听数 as played: the regular shape, or 八对 for a hand without declared sets."""
    v = shapes.regular(key, n, jokers)
    if concealed and n in (16, 17):
        v = min(v, _eight(key, n, jokers, rules))
    return v


# ----------------------------------------------------------------------------------- classify


@dataclass(frozen=True, slots=True)
class Reason:
    """One reason a win is worth a multiplier (like a fan)."""

    id: str
    name_zh: str
    name_en: str
    multiplier: int
    tiles: tuple[str, ...] = ()
    """The tiles it is about (mpsz)."""

    def to_dict(self) -> dict[str, Any]:
        """As a result lists it (the keys of a scoring fan, ``points`` = the multiplier)."""
        return {
            "id": self.id,
            "name_zh": self.name_zh,
            "name_en": self.name_en,
            "points": self.multiplier,
            "count": 1,
            "tiles": list(self.tiles),
        }

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Rebuilt through the constructor (copy, pickle; also when compiled)."""
        return reduce_frozen(self)


@dataclass(frozen=True, slots=True)
class WinFacts:
    """What the state knows of a win beyond the tiles."""

    how: str
    """``self``, ``discard`` or ``rob``."""
    win_tile: Tile
    """The physical winning tile."""
    tianhu: bool = False
    """天胡: the dealer wins before their first discard."""
    dihu: bool = False
    """地胡: the non-dealer wins on the dealer's first discard (or first self-draw, by option)."""
    single_left: bool = False
    """Just one concealed tile was left before the winning tile."""
    melds_have_chow: bool = False

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Rebuilt through the constructor (copy, pickle; also when compiled)."""
        return reduce_frozen(self)


@dataclass(frozen=True, slots=True)
class Verdict:
    """A win's worth: the multiplier M, its grade and every reason (the highest one sets M)."""

    multiplier: int
    grade: str
    """``soft`` 软, ``hard`` 硬 or ``double`` 双翻."""
    shape: str
    """``regular``, ``eight_pairs`` or ``none`` (三财神 without a shape)."""
    reasons: tuple[Reason, ...]
    three_caishen: bool
    """A 三财神 win (with or without shape): 财神钱 counts double."""

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Rebuilt through the constructor (copy, pickle; also when compiled)."""
        return reduce_frozen(self)


_R = {
    "hard_eight_pairs": ("硬八对", "Hard eight pairs"),
    "three_caishen": ("三财神", "Three wild tiles (with a shape)"),
    "tianhu": ("天胡", "Heavenly hand"),
    "dihu": ("地胡", "Earthly hand"),
    "dandiao": ("单吊", "Single wait"),
    "self_drawn": ("自摸", "Self-drawn"),
    "no_substitute": ("硬牌", "No wild tile standing in"),
    "robbing": ("抢框", "Robbing the kong"),
    "three_caishen_no_shape": ("三财神", "Three wild tiles (no shape)"),
    "soft_eight_pairs": ("软八对", "Soft eight pairs"),
    "soft": ("软牌", "Soft win"),
}


def classify(
    key: int, n: int, jokers: int, *, concealed: bool, facts: WinFacts, rules: RuleSet, caishen: Tile
) -> Verdict | None:
    """软 / 硬 / 双翻 of a complete hand as played (RULES §3.6), or None if it does not win.

    ``key``, ``n``, ``jokers`` include the winning tile; ``concealed``: no declared set (八对 allowed).
    """
    regular = _regular_ok(key, n, jokers, rules, facts.melds_have_chow)
    eight = concealed and n == 17 and _eight(key, n, jokers, rules) == -1
    three = jokers >= 3
    if not (regular or eight or three):
        return None
    natural = key + INC[caishen] * jokers  # every 财神 归位: played as its own kind
    nat_regular = bool(jokers) and _regular_ok(natural, n, 0, rules, facts.melds_have_chow)
    nat_regular = nat_regular or (regular and not jokers)
    nat_eight = eight and _eight(natural, n, 0, rules) == -1
    double = set(rules.double_fan_set)
    cs = tile_to_mpsz(caishen)
    win = tile_to_mpsz(facts.win_tile)
    found: list[tuple[str, int, tuple[str, ...]]] = []
    if nat_eight:
        found.append(("hard_eight_pairs", 4 if "hard_eight_pairs" in double else 2, ()))
    if three and (regular or eight):
        found.append(("three_caishen", 4 if "three_caishen" in double else 2, (cs, cs, cs)))
    if facts.tianhu:
        found.append(("tianhu", 4 if "tianhu" in double else 2, (win,)))
    if facts.dihu:
        found.append(("dihu", 4 if "dihu" in double else 2, (win,)))
    if (regular or eight) and _dandiao(key, n, jokers, facts, rules, caishen):
        found.append(("dandiao", 4 if "dandiao" in double else 2, (win,)))
    if facts.how == "self":
        found.append(("self_drawn", 2, (win,)))
    if facts.how == "rob" and rules.rob_kong_counts_as == "self_draw":
        found.append(("robbing", 2, (win,)))
    if nat_regular or nat_eight:
        found.append(("no_substitute", 2, (cs,) * jokers))
    if three and not (regular or eight):
        found.append(("three_caishen_no_shape", rules.three_caishen_no_shape_mult, (cs, cs, cs)))
    if eight and not nat_eight:
        found.append(("soft_eight_pairs", rules.soft_eight_pairs_mult, (cs,) * jokers))
    if not found:  # 软牌 names a win with no other reason: the label matches the grade
        found.append(("soft", 1, (cs,) * jokers))
    found.sort(key=lambda f: -f[1])
    reasons = tuple(Reason(i, *_R[i], m, tiles) for i, m, tiles in found)
    mult = reasons[0].multiplier
    shape = "regular" if regular else "eight_pairs" if eight else "none"
    return Verdict(mult, GRADES[mult], shape, reasons, three)


def multiplier_reasons(rules: RuleSet) -> list[dict[str, Any]]:
    """Each reason with the multiplier it gives under ``rules`` (RULES §3.6, as :func:`classify` assigns
    them), highest first: what a rules page lists instead of a fan table."""
    double = set(rules.double_fan_set)
    doubling = ("hard_eight_pairs", "three_caishen", "tianhu", "dihu", "dandiao")
    mult = {
        **{r: 4 if r in double else 2 for r in doubling},
        "self_drawn": 2,
        "robbing": 2,
        "no_substitute": 2,
        "three_caishen_no_shape": rules.three_caishen_no_shape_mult,
        "soft_eight_pairs": rules.soft_eight_pairs_mult,
        "soft": 1,
    }
    rows = [
        {"id": rid, "name_zh": zh, "name_en": en, "points": mult[rid]}
        for rid, (zh, en) in _R.items()
        if rid != "robbing" or rules.rob_kong_counts_as == "self_draw"
    ]
    return sorted(rows, key=lambda r: -r["points"])


def _dandiao(key: int, n: int, jokers: int, facts: WinFacts, rules: RuleSet, caishen: Tile) -> bool:
    if rules.dandiao_definition == "single_tile_left":
        return facts.single_left
    # pair_wait: some reading has the winning tile in the pair
    w = play_kind(facts.win_tile, caishen)
    spare = next(t for t in range(27, 34) if not (key >> (4 * t)) & 15 and t != w)
    pair = INC[spare] * 2
    options = []
    if w == JOKER:
        options += [(key - INC[x] + pair, jokers - 1) for x in range(34) if (key >> (4 * x)) & 15]
        if jokers >= 2:
            options.append((key + pair, jokers - 2))
    else:
        if (key >> (4 * w)) & 15 >= 2:
            options.append((key - 2 * INC[w] + pair, jokers))
        if jokers:
            options.append((key - INC[w] + pair, jokers - 1))
    return any(shapes.regular(k, n, j) == -1 for k, j in options)


# ---------------------------------------------------------------------------------- settlement


def base_points(rules: RuleSet, streak: int) -> int:
    """B: the base for the dealer's streak (the last entry for longer streaks)."""
    table = rules.base_by_streak
    return table[min(streak, len(table) - 1)]


def maidi_term(rules: RuleSet, buy: bool, top: bool, dealer_won: bool) -> int:
    """m of RULES §3.7: 买底 b and 顶底 d, each worth one base."""
    if not rules.maidi_enabled:
        return 0
    b, d = int(buy), int(top)
    if rules.maidi_symmetric:
        return b + d
    if dealer_won:
        return 1 + b if d else b
    return 1 + b if d else 0


@dataclass(frozen=True, slots=True)
class Settlement:
    """What a win moves: P = B × M × (1 + m), plus 财神钱."""

    base: int
    multiplier: int
    maidi: int
    win_points: int
    caishen_money: int
    """Paid by the loser to the winner (negative: the other way)."""
    caishen_held: tuple[int, int]
    """Physical 财神 of the winner (with the winning tile) and of the loser."""

    @property
    def points(self) -> int:
        """The loser's total payment to the winner."""
        return self.win_points + self.caishen_money

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Rebuilt through the constructor (copy, pickle; also when compiled)."""
        return reduce_frozen(self)


def settle_win(
    rules: RuleSet,
    verdict: Verdict,
    *,
    streak: int,
    buy: bool,
    top: bool,
    dealer_won: bool,
    caishen_winner: int,
    caishen_loser: int,
) -> Settlement:
    """RULES §3.7 for a win (財神钱 with k = 2 for a 三财神 win)."""
    b = base_points(rules, streak)
    m = maidi_term(rules, buy, top, dealer_won)
    money = 0
    if rules.caishen_money_enabled:
        k = 2 if verdict.three_caishen else 1
        money = (k * caishen_winner - caishen_loser) * rules.caishen_money_unit
    return Settlement(
        b, verdict.multiplier, m, b * verdict.multiplier * (1 + m), money, (caishen_winner, caishen_loser)
    )


def escape_points(rules: RuleSet, *, streak: int, buy: bool, top: bool, escaper_is_dealer: bool) -> int:
    """逃跑: B × (1 + m′) × 16 (dealer) or × 8; m′ as if the remaining player had won."""
    m = maidi_term(rules, buy, top, dealer_won=not escaper_is_dealer)
    dealer, other = rules.escape_penalty
    return base_points(rules, streak) * (1 + m) * (dealer if escaper_is_dealer else other)


# ------------------------------------------------------------------------------- the game's view


@dataclass(frozen=True, slots=True)
class WenzhouWin:
    """A win found in a game state: its verdict and settlement, as the engine records it."""

    verdict: Verdict
    settlement: Settlement
    hand: str
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def points(self) -> int:
        """What the loser pays the winner."""
        return self.settlement.points

    @property
    def multiplier(self) -> int:
        """×1 软, ×2 硬, ×4 双翻."""
        return self.verdict.multiplier

    def to_dict(self) -> dict[str, Any]:
        """The result's explanation: the multiplier, why (``fans``: one entry per reason), the money."""
        s = self.settlement
        return {
            "hand": self.hand,
            "fans": [r.to_dict() for r in self.verdict.reasons],
            "fan_total": self.verdict.multiplier,
            "multiplier": self.verdict.multiplier,
            "grade": self.verdict.grade,
            "shape": self.verdict.shape,
            "base": s.base,
            "maidi": s.maidi,
            "win_points": s.win_points,
            "caishen_money": s.caishen_money,
            "caishen_held": list(s.caishen_held),
            "points": s.points,
            **self.extra,
        }

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Rebuilt through the constructor (copy, pickle; also when compiled)."""
        return reduce_frozen(self)


def check_win(state: GameState, seat: int, tile: Tile, how: str) -> WenzhouWin | None:
    """``seat`` winning with physical ``tile`` (``self``: already in hand; ``discard``/``rob``: added)."""
    rules = state.rules
    caishen = state.wild
    assert caishen is not None
    me = state.seats[seat]
    added = -1 if how == "self" else tile
    n = me.size + (added >= 0)
    if not may_complete(me.counts, n, caishen, added, not me.melds, rules.four_of_kind_counts_as_two_pairs):
        return None
    counts = list(me.counts)
    physical = me.key
    if how != "self":
        counts[tile] = counts[tile] + 1
        physical += INC[tile]
    key, jokers = played_key(physical, counts, caishen)
    concealed = not me.melds
    if not is_complete(key, n, jokers, concealed, rules):
        return None
    dealer = state.dealer
    first = not state.opened
    tianhu = first and how == "self" and seat == dealer and me.discards_made == 0
    dihu = first and seat != dealer and me.discards_made == 0
    dihu = dihu and (
        (how == "discard" and state.seats[dealer].discards_made == 1)
        or (how == "self" and rules.dihu_includes_first_self_draw)
    )
    facts = WinFacts(
        how=how,
        win_tile=tile,
        tianhu=tianhu,
        dihu=dihu,
        single_left=n == 2 and len(me.melds) == 5,
        melds_have_chow=any(m.kind is MeldKind.CHOW for m in me.melds),
    )
    verdict = classify(key, n, jokers, concealed=concealed, facts=facts, rules=rules, caishen=caishen)
    if verdict is None:
        return None
    settlement = settle_win(
        rules,
        verdict,
        streak=state.streak,
        buy=state.stakes[0],
        top=state.stakes[1],
        dealer_won=seat == dealer,
        caishen_winner=counts[caishen],
        caishen_loser=state.seats[1 - seat].counts[caishen],
    )
    shown = list(counts)
    shown[tile] = shown[tile] - 1
    hand = "".join(meld_notation(m, caishen) for m in me.melds)
    hand += to_mpsz([t for t in range(34) for _ in range(shown[t])]) + "+" + tile_to_mpsz(tile)
    return WenzhouWin(verdict, settlement, hand)


def meld_notation(meld: Meld, caishen: Tile) -> str:
    """A declared set with its physical tiles (白板 where it plays the 财神's kind): ``(46p5z)``."""
    body = to_mpsz([phys_kind(t, caishen) for t in meld.tiles])
    return f"[{body}]" if meld.is_concealed else f"({body})"


__all__ = [
    "JOKER",
    "WHITE",
    "Reason",
    "Settlement",
    "Verdict",
    "WenzhouWin",
    "WinFacts",
    "base_points",
    "caishen_of",
    "check_win",
    "classify",
    "escape_points",
    "is_complete",
    "maidi_term",
    "meld_notation",
    "multiplier_reasons",
    "next_kind",
    "parse_tile",
    "phys_kind",
    "play_key",
    "play_kind",
    "played_key",
    "settle_win",
    "shanten",
]
