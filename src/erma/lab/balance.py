"""Balance analysis (平衡分析) of rule options: every combination of varied options on the same walls.

Each wall ``w`` (seed ``sha256(f"{seed}:{w}")``) is played under every combination, twice: bot A in seat 0
and bot B in seat 1, then swapped (the bot in seat s chooses with seed ``f"{seed}:{w}:{s}"``; the dealer is
the wall's). Combinations are therefore *paired*: a difference between two of them is measured on the same
deals, and its interval comes from per-wall differences. Every interval is a 95% interval over walls (a wall
is the unit: its two hands are averaged first), so it holds although the two hands of a wall are related.
See docs/balance.md for what each figure means.

The work is one shard function, :func:`balance_shard`, run by :func:`erma.lab.runner.run_walls`; a wall's
result is a :class:`WallResult` (per combination, its two hands as :class:`HandStat`).
"""

from __future__ import annotations

import itertools
import json
import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from erma.analysis import shapes
from erma.bots import make_bot
from erma.errors import RuleSetError
from erma.game import Phase, apply_unchecked, legal_actions, new_hand, seat_view
from erma.game.engine import family_for
from erma.game.state import GameState
from erma.lab.runner import Progress, run_walls
from erma.lab.selfplay import Outcome, bot_seed, hand_seed, outcome
from erma.rules import RuleSet, find_ruleset, shape_mask

EVENTS = ("cuo", "triplet_offer", "triplet_accept", "exchange", "haidi", "flower")
"""The random events (the state's counters): 搓牌 taken, triplet offered / accepted (游戏中换牌), start
exchange made (开始时换牌), 海底捞月 phase entered, flower drawn (补花)."""

Z95 = 1.96


# ------------------------------------------------------------------------------------ options


def split_values(text: str) -> list[str]:
    """Split ``V1,V2,…`` at the commas outside brackets (a value may be a JSON list).

    >>> split_values('0,0.05,0.2')
    ['0', '0.05', '0.2']
    >>> split_values('[16,8],[8,4]')
    ['[16,8]', '[8,4]']
    """
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    out.append(cur)
    return [v.strip() for v in out]


def parse_value(raw: str) -> Any:
    """A value as typed: JSON if it reads as JSON (``0.05``, ``true``, ``null``, ``[16,8]``), else text."""
    try:
        return json.loads(raw)
    except json.JSONDecodeError:
        return raw


def parse_vary(items: Sequence[str]) -> dict[str, list[Any]]:
    """``KEY=V1,V2`` items as {key: [values]} (values not yet checked against the rule set)."""
    vary: dict[str, list[Any]] = {}
    for item in items:
        key, sep, raw = item.partition("=")
        key = key.strip()
        if not sep or not key or not raw.strip():
            raise RuleSetError(f"--vary {item!r}: write KEY=V1,V2 (e.g. cuo_prob=0,0.05,0.2)")
        if key in vary:
            raise RuleSetError(f"--vary {item!r}: {key} is varied twice")
        values = [parse_value(v) for v in split_values(raw)]
        if len(set(map(json.dumps, values))) != len(values):
            raise RuleSetError(f"--vary {item!r}: a value is repeated")
        vary[key] = values
    return vary


def combinations(
    preset: str, vary: dict[str, list[Any]], fixed: dict[str, Any] | None = None
) -> list[tuple[dict[str, Any], RuleSet]]:
    """Every combination of the varied values (first key slowest), each checked by the rule set.

    A bad key or value raises RuleSetError naming it (from :func:`erma.rules.find_ruleset`).
    """
    out = []
    keys = list(vary)
    for values in itertools.product(*(vary[k] for k in keys)):
        options = dict(zip(keys, values, strict=True))
        rules = find_ruleset(preset, {**(fixed or {}), **options})
        shown = {k: _plain(getattr(rules, k)) for k in keys}
        out.append((shown, rules))
    return out


def _plain(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


# ------------------------------------------------------------------------------------ one hand


@dataclass(frozen=True, slots=True)
class HandStat:
    """What one hand contributes to a combination's figures."""

    dealer: int
    outcome: Outcome
    winner_bot: int | None
    """0 for bot A, 1 for bot B."""
    length: int
    """Discards made in the hand (both players)."""
    events: tuple[tuple[int, ...], tuple[int, ...]]
    """Per seat, how often each of :data:`EVENTS` happened to it."""
    max_gap: tuple[int | None, int | None]
    """Per seat, how far it was furthest behind: max over its turns of own shanten − opponent's (None: no
    turn)."""
    escape_cost: tuple[int, int]
    """Per seat, what escaping (逃跑) would have cost it in this hand."""


def _shanten(state: GameState, seat: int) -> int:
    """向听数 of a seat's concealed hand as its family plays it (温州: 财神 wild, 八对 while concealed)."""
    me = state.seats[seat]
    _, key, wilds = family_for(state.rules).played(state, seat)
    if state.wild is None:
        return shapes.overall(key, me.size, 0, shape_mask(state.rules))
    v = shapes.regular(key, me.size, wilds)
    if not me.melds and me.size in (16, 17):
        v = min(v, shapes.eight_pairs(key, me.size, wilds, state.rules.four_of_kind_counts_as_two_pairs))
    return v


def escape_cost(state: GameState, seat: int) -> int:
    """The penalty ``seat`` would pay by escaping now (the family's, as the engine charges it)."""
    return family_for(state.rules).escape_points(
        state.rules,
        dealer=state.dealer,
        escaper=seat,
        streak=state.streak,
        stakes=(state.stakes[0], state.stakes[1]),
    )


def _seat_events(state: GameState) -> tuple[tuple[int, ...], tuple[int, ...]]:
    per = [Counter[str](), Counter[str]()]
    for e in state.events:
        if e.type in EVENTS and e.seat is not None:
            if e.type == "exchange" and not e.data.get("count"):
                continue  # an exchange of no tile is no exchange (the counter skips it too)
            per[e.seat][e.type] += 1
    return (tuple(per[0][k] for k in EVENTS), tuple(per[1][k] for k in EVENTS))


def play_tracked(rules: RuleSet, seed: str, bot_names: Sequence[str], bot_seeds: Sequence[str]) -> HandStat:
    """Play one hand (``bot_names[s]`` in seat s) and measure it, including how far each seat fell behind."""
    bots = [make_bot(n, s) for n, s in zip(bot_names, bot_seeds, strict=True)]
    state = new_hand(rules, seed)
    gap: list[int | None] = [None, None]
    last_turn: tuple[int, int] = (-1, -1)
    while state.phase is not Phase.END:
        seat = state.actor
        if state.phase is Phase.TURN:
            mark = (seat, state.seats[seat].discards_made)
            if mark != last_turn:  # once per turn (a kong and its replacement draw are the same turn)
                last_turn = mark
                g = _shanten(state, seat) - _shanten(state, 1 - seat)
                old = gap[seat]
                gap[seat] = g if old is None else max(old, g)
        legal = legal_actions(state, seat)
        bot = bots[seat]
        action = bot.choose(seat_view(state, seat, legal) if bot.uses_view else None, legal)  # type: ignore[arg-type]
        apply_unchecked(state, seat, action)
    out = outcome(state)
    return HandStat(
        dealer=state.dealer,
        outcome=out,
        winner_bot=None,
        length=sum(s.discards_made for s in state.seats),
        events=_seat_events(state),
        max_gap=(gap[0], gap[1]),
        escape_cost=(escape_cost(state, 0), escape_cost(state, 1)),
    )


# ------------------------------------------------------------------------------------ shards


@dataclass(frozen=True, slots=True)
class BalanceConfig:
    """What every wall of a balance run shares."""

    rules: tuple[RuleSet, ...]
    """One rule set per combination."""
    bots: tuple[str, str]
    seed: int | str


WallResult = tuple[tuple[HandStat, HandStat], ...]
"""Per combination, the wall's two hands (bot A in seat 0, then bot A in seat 1)."""


def play_wall(config: BalanceConfig, wall: int, *, mirror: bool = True) -> WallResult:
    """Play wall ``wall`` under every combination, twice (the bots swapped).

    With two bots of the same name the swapped hand is the same hand (the bot in a seat has that seat's
    seed either way), so it is played once and counted for both seatings (``mirror``; the result is the
    same).
    """
    seed = hand_seed(config.seed, wall)
    seeds = [bot_seed(config.seed, wall, s) for s in (0, 1)]
    a, b = config.bots
    out = []
    for rules in config.rules:
        pair = []
        first: HandStat | None = None
        for names, seat_of_a in (((a, b), 0), ((b, a), 1)):
            h = (
                first
                if (first is not None and mirror and a == b)
                else play_tracked(rules, seed, names, seeds)
            )
            first = h
            w = h.outcome.winner
            winner_bot = None if w is None else (0 if w == seat_of_a else 1)
            pair.append(
                HandStat(h.dealer, h.outcome, winner_bot, h.length, h.events, h.max_gap, h.escape_cost)
            )
        out.append((pair[0], pair[1]))
    return tuple(out)


def balance_shard(config: BalanceConfig, walls: Sequence[int]) -> list[WallResult]:
    """The runner's shard function of a balance run."""
    return [play_wall(config, w) for w in walls]


# ------------------------------------------------------------------------------------ statistics


def _r(x: float) -> float:
    return round(x, 4)


def mean_ci(values: Sequence[float], lo: float | None = None, hi: float | None = None) -> dict[str, Any]:
    """Mean and its 95% normal interval (values are per-wall, so independent); clipped to [lo, hi]; no
    interval from one value.

    >>> mean_ci([1.0, 2.0, 3.0])
    {'value': 2.0, 'ci95': [0.8684, 3.1316], 'n': 3}
    """
    n = len(values)
    if n == 0:
        return {"value": None, "ci95": None, "n": 0}
    m = math.fsum(values) / n
    if n == 1:
        return {"value": _r(m), "ci95": None, "n": 1}  # one wall: no interval
    sd = math.sqrt(math.fsum((v - m) ** 2 for v in values) / (n - 1))
    h = Z95 * sd / math.sqrt(n)
    a, b = m - h, m + h
    if lo is not None:
        a = max(lo, a)
    if hi is not None:
        b = min(hi, b)
    return {"value": _r(m), "ci95": [_r(a), _r(b)], "n": n}


def sd_ci(pairs: Sequence[tuple[float, float]], n_each: int) -> dict[str, Any]:
    """Standard deviation of a per-hand figure, from per-wall (mean, mean of squares), with a delta-method
    95% interval over walls."""
    n = len(pairs)
    if n < 2:
        return {"value": None, "ci95": None, "n": n}
    m1 = math.fsum(p[0] for p in pairs) / n
    m2 = math.fsum(p[1] for p in pairs) / n
    var = max(0.0, m2 - m1 * m1) * (n * n_each) / (n * n_each - 1)
    s = math.sqrt(var)
    if s == 0:
        return {"value": 0.0, "ci95": [0.0, 0.0], "n": n}
    g1, g2 = -m1 / s, 1 / (2 * s)
    c11 = math.fsum((p[0] - m1) ** 2 for p in pairs) / (n - 1)
    c22 = math.fsum((p[1] - m2) ** 2 for p in pairs) / (n - 1)
    c12 = math.fsum((p[0] - m1) * (p[1] - m2) for p in pairs) / (n - 1)
    se = math.sqrt(max(0.0, g1 * g1 * c11 + 2 * g1 * g2 * c12 + g2 * g2 * c22) / n)
    return {"value": _r(s), "ci95": [_r(max(0.0, s - Z95 * se)), _r(s + Z95 * se)], "n": n}


def diff_ci(p1: tuple[int, int], p2: tuple[int, int]) -> dict[str, Any]:
    """Difference of two proportions k1/n1 − k2/n2 with Newcombe's 95% interval (from the two Wilson
    intervals: sound for small counts and for rates of 0 or 1).

    >>> diff_ci((0, 1), (10, 20))["ci95"]
    [-0.7007, 0.3184]
    """
    (k1, n1), (k2, n2) = p1, p2
    if not n1 or not n2:
        return {"value": None, "ci95": None}
    a, b = k1 / n1, k2 / n2
    l1, u1 = _wilson(k1, n1)
    l2, u2 = _wilson(k2, n2)
    d = a - b
    lo = d - math.sqrt((a - l1) ** 2 + (u2 - b) ** 2)
    hi = d + math.sqrt((u1 - a) ** 2 + (b - l2) ** 2)
    return {"value": _r(d), "ci95": [_r(lo), _r(hi)]}


def _wilson(k: int, n: int) -> tuple[float, float]:
    p = k / n
    d = 1 + Z95 * Z95 / n
    c = (p + Z95 * Z95 / (2 * n)) / d
    h = Z95 * math.sqrt(p * (1 - p) / n + Z95 * Z95 / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def _points(h: HandStat) -> int:
    """Points that changed hands (the winner's gain; kong or 财神 money of a 流局 too)."""
    return max(abs(h.outcome.deltas[0]), abs(h.outcome.deltas[1]))


WALL_FIGURES: dict[str, tuple[Callable[[HandStat], float], bool]] = {
    "dealer_win_rate": (lambda h: float(h.outcome.winner == h.dealer), True),
    "nondealer_win_rate": (
        lambda h: float(h.outcome.winner is not None and h.outcome.winner != h.dealer),
        True,
    ),
    "draw_rate": (lambda h: float(h.outcome.reason == "draw"), True),
    "bot_a_win_rate": (lambda h: float(h.winner_bot == 0), True),
    "hand_length": (lambda h: float(h.length), False),
    "points_per_hand": (lambda h: float(_points(h)), False),
    "dealer_points_per_hand": (lambda h: float(h.outcome.deltas[h.dealer]), False),
}
"""The per-hand figures averaged per wall: (what a hand gives, is a proportion)."""


def _per_wall(hands: Sequence[tuple[HandStat, HandStat]], f: Callable[[HandStat], float]) -> list[float]:
    return [(f(x) + f(y)) / 2 for x, y in hands]


def combination_stats(hands: Sequence[tuple[HandStat, HandStat]]) -> dict[str, Any]:
    """Every figure of one combination from its walls' hand pairs."""
    out: dict[str, Any] = {}
    for name, (f, prop) in WALL_FIGURES.items():
        out[name] = mean_ci(_per_wall(hands, f), 0.0 if prop else None, 1.0 if prop else None)
    pts = [(_points(x) + _points(y)) / 2 for x, y in hands]
    sq = [(_points(x) ** 2 + _points(y) ** 2) / 2 for x, y in hands]
    out["points_spread"] = sd_ci(list(zip(pts, sq, strict=True)), 2)
    flat = [h for pair in hands for h in pair]
    wins = [h for h in flat if h.outcome.reason == "win"]
    out["wins"] = len(wins)
    out["hands"] = len(flat)
    out["fan_total"] = _histogram(h.outcome.fan_total for h in wins)
    out["points"] = _histogram(_points(h) for h in wins)
    fans: Counter[str] = Counter()
    for h in wins:
        fans.update({name for name, _ in h.outcome.fans})
    out["fans"] = {k: {"wins": v, "share": _r(v / len(wins))} for k, v in sorted(fans.items(), key=_by_count)}
    out["how"] = dict(sorted(Counter(h.outcome.how or "" for h in wins).items(), key=_by_count))
    out["events"] = _event_stats(hands)
    out["escape"] = _escape_stats(hands)
    return out


def _by_count(kv: tuple[str, int]) -> tuple[int, str]:
    return (-kv[1], kv[0])


def _histogram(values: Any) -> dict[str, int]:
    c = Counter(int(v) for v in values)
    return {str(k): c[k] for k in sorted(c)}


def _event_stats(hands: Sequence[tuple[HandStat, HandStat]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for i, name in enumerate(EVENTS):
        fired = _per_wall(hands, lambda h, i=i: float(h.events[0][i] + h.events[1][i] > 0))  # type: ignore[misc]
        count = _per_wall(hands, lambda h, i=i: float(h.events[0][i] + h.events[1][i]))  # type: ignore[misc]
        with_ = [0, 0]
        without = [0, 0]
        for pair in hands:
            for h in pair:
                for seat in (0, 1):
                    won = int(h.outcome.winner == seat)
                    bucket = with_ if h.events[seat][i] else without
                    bucket[0] += won
                    bucket[1] += 1
        out[name] = {
            "fire_rate": mean_ci(fired, 0.0, 1.0),
            "per_hand": mean_ci(count, 0.0),
            "seat_hands_with": with_[1],
            "win_rate_with": _rate(with_),
            "win_rate_without": _rate(without),
            "win_rate_change": diff_ci((with_[0], with_[1]), (without[0], without[1])),
        }
    return out


def _rate(kn: list[int]) -> dict[str, Any]:
    k, n = kn
    if not n:
        return {"value": None, "ci95": None, "n": 0}
    lo, hi = _wilson(k, n)
    return {"value": _r(k / n), "ci95": [_r(lo), _r(hi)], "n": n}


def _escape_stats(hands: Sequence[tuple[HandStat, HandStat]]) -> dict[str, Any]:
    """Escape incentive: at each seat-hand's furthest-behind moment (shanten gap ≥ 1), the points lost by
    playing on (−delta) against the escape penalty then; per wall, the mean over its behind seat-hands."""
    loss_w: list[float] = []
    cost_w: list[float] = []
    gain_w: list[float] = []
    better_w: list[float] = []
    behind_w: list[float] = []
    by_gap: dict[str, list[float]] = {}
    for pair in hands:
        loss, cost, gain, better = [], [], [], []
        n_seat_hands = 0
        for h in pair:
            for seat in (0, 1):
                n_seat_hands += 1
                g = h.max_gap[seat]
                if g is None or g < 1:
                    continue
                lost = -h.outcome.deltas[seat]
                c = h.escape_cost[seat]
                loss.append(lost)
                cost.append(c)
                gain.append(lost - c)
                better.append(float(lost > c))
                by_gap.setdefault(str(min(g, 3)), []).append(lost - c)
        behind_w.append(len(loss) / n_seat_hands)
        if loss:
            loss_w.append(sum(loss) / len(loss))
            cost_w.append(sum(cost) / len(cost))
            gain_w.append(sum(gain) / len(gain))
            better_w.append(sum(better) / len(better))
    return {
        "behind_share": mean_ci(behind_w, 0.0, 1.0),
        "play_on_loss": mean_ci(loss_w),
        "escape_cost": mean_ci(cost_w),
        "escape_gain": mean_ci(gain_w),
        "escape_better_share": mean_ci(better_w, 0.0, 1.0),
        "gain_by_gap": {
            ("3+" if k == "3" else k): {
                "seat_hands": len(v),
                "mean_gain": _r(sum(v) / len(v)),
                "escape_better_share": _r(sum(x > 0 for x in v) / len(v)),
            }
            for k, v in sorted(by_gap.items())
        },
    }


PAIRED = ("dealer_win_rate", "draw_rate", "hand_length", "points_per_hand", "bot_a_win_rate")
"""The figures compared with the first combination wall by wall."""


def summarize(
    preset: str,
    vary: dict[str, list[Any]],
    combos: Sequence[dict[str, Any]],
    bots: tuple[str, str],
    seed: int | str,
    results: Sequence[WallResult],
    fixed: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The balance report as JSON-ready data (nothing in it depends on timing or on how the run was split)."""
    out: dict[str, Any] = {
        "rules": preset,
        "options": dict(fixed or {}),
        "vary": vary,
        "bots": list(bots),
        "seed": seed,
        "walls": len(results),
        "hands_per_combination": 2 * len(results),
        "combinations": [],
    }
    per_combo = [[wall[c] for wall in results] for c in range(len(combos))]
    for c, options in enumerate(combos):
        stats = {"options": options, **combination_stats(per_combo[c])}
        if c:
            stats["vs_first"] = {
                name: mean_ci(
                    [
                        a - b
                        for a, b in zip(
                            _per_wall(per_combo[c], WALL_FIGURES[name][0]),
                            _per_wall(per_combo[0], WALL_FIGURES[name][0]),
                            strict=True,
                        )
                    ]
                )
                for name in PAIRED
            }
        out["combinations"].append(stats)
    return out


def run_balance(
    preset: str,
    vary: dict[str, list[Any]],
    walls: int,
    bots: tuple[str, str],
    seed: int | str,
    *,
    fixed: dict[str, Any] | None = None,
    workers: int = 1,
    cluster: str | None = None,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Play and summarize a balance run (see the module's docstring)."""
    if walls < 1:
        raise RuleSetError(f"--walls {walls}: at least 1")
    for name in bots:
        make_bot(name)  # an unknown bot fails before any worker starts
    combos = combinations(preset, vary, fixed)
    config = BalanceConfig(tuple(r for _, r in combos), bots, seed)
    results = run_walls(balance_shard, config, walls, workers=workers, cluster=cluster, progress=progress)
    return summarize(preset, vary, [o for o, _ in combos], bots, seed, results, fixed)
