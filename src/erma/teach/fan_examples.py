"""Fan examples (番种例牌): for every fan of a preset's table, a winning hand that scores it.

The hands are found by a seeded random search over shaped hands (sets and a pair, seven pairs, thirteen
orphans, a nine-gates or straight frame) drawn from small pools of kinds (one suit, honours, terminals,
greens …) with random win context; each is scored by :func:`erma.scoring.score_record`, and for each fan the
hand with the fewest other fans is kept. The result is stored in ``fan_examples.json`` beside this module
(``scripts/gen_teach_data.py --fans``); ``tests/teach/test_fan_examples.py`` scores every stored
example again and checks that it scores its fan.
"""

from __future__ import annotations

import json
import random
from functools import cache
from importlib import resources
from typing import Any

from erma.rules.ruleset import PRESETS
from erma.scoring import load_table, score_record
from erma.tiles import tile_to_mpsz

Record = dict[str, Any]

_SUITS = (range(0, 9), range(9, 18), range(18, 27))
_HONOURS = tuple(range(27, 34))
_TERMINALS = (0, 8, 9, 17, 18, 26)


def _pools(kinds: tuple[int, ...], rng: random.Random) -> list[int]:
    """A random pool of kinds to build a hand from (intersected with the preset's kinds)."""
    suit = list(rng.choice([s for s in _SUITS if s[0] in kinds]))
    choices: list[list[int]] = [
        list(kinds),
        list(kinds),
        suit,
        suit + list(_HONOURS),
        list(_HONOURS),
        [*_TERMINALS, *_HONOURS],
        [t for t in kinds if t < 27 and t % 9 not in (0, 8)],
        [19, 20, 21, 23, 25, 32],  # 绿一色: 23468s 发
        [18, 22, 24, 26, 33],  # 红孔雀: 1579s 中
        [t for t in suit if t % 9 < 4],  # 小于五
        [t for t in suit if t % 9 > 4],  # 大于五
        [t for t in suit if t % 9 > 5],  # 百万石
        [*suit, 27, 30],  # 东北新干线
        [t for t in suit if t % 9 not in (0, 8)],
        [*suit, 31, 32, 33],
        [*suit, 27, 28, 29, 30],
    ]
    pool = [t for t in rng.choice(choices) if t in kinds]
    return pool or list(kinds)


def _regular(
    pool: list[int], rng: random.Random, copies: int, frame: str
) -> tuple[list[Any], list[int]] | None:
    """(packs, concealed tiles incl. the winning tile) of a 4 sets + pair hand, or None."""
    counts = [0] * 34
    packs: list[Any] = []
    tiles: list[int] = []
    sets: list[tuple[str, int]] = []
    if frame == "straight":
        base = rng.choice([s[0] for s in _SUITS if s[0] in pool] or [pool[0] - pool[0] % 9])
        if base >= 27:
            return None
        sets = [("chow", base), ("chow", base + 3), ("chow", base + 6)]
    elif frame == "outside":  # every set holds a terminal (全带幺)
        base = rng.choice([s[0] for s in _SUITS if s[0] in pool] or [0])
        ends = [("chow", base), ("chow", base + 6), ("pung", base), ("pung", base + 8)]
        sets = [rng.choice(ends) for _ in range(4)]
        pool = [base, base + 8]
    elif frame == "twin":  # 双龙会: 123 123 789 789 and a pair of 5
        base = rng.choice([s[0] for s in _SUITS if s[0] in pool] or [0])
        sets = [("chow", base), ("chow", base), ("chow", base + 6), ("chow", base + 6)]
        pool = [base + 4]
    while len(sets) < 4:
        t = rng.choice(pool)
        kind = rng.choice(["chow", "chow", "pung", "pung", "kong"])
        if frame in ("outside", "twin"):
            break
        if kind == "chow" and (t >= 27 or t % 9 > 6 or t + 1 not in pool or t + 2 not in pool):
            kind = "pung"
        sets.append((kind, t))
    for kind, t in sets:
        need = [t, t + 1, t + 2] if kind == "chow" else [t] * (3 if kind == "pung" else 4)
        for x in need:
            counts[x] += 1
        declared = rng.random() < (0.5 if kind == "kong" else 0.25)
        if kind == "chow":
            if declared:
                packs.append(["CHI", tile_to_mpsz(t + 1), rng.choice([1, 3])])
            else:
                tiles += need
        elif kind == "pung":
            if declared:
                packs.append(["PENG", tile_to_mpsz(t), 1])
            else:
                tiles += need
        else:
            packs.append(["GANG", tile_to_mpsz(t), 1 if declared else 0])
    pair = rng.choice(pool)
    counts[pair] += 2
    tiles += [pair, pair]
    if max(counts) > copies:
        return None
    return packs, tiles


def _special(pool: list[int], rng: random.Random, copies: int, shape: str) -> list[int] | None:
    if shape == "orphans":
        tiles = [0, 8, 9, 17, 18, 26, *_HONOURS]
        return [*tiles, rng.choice(tiles)]
    if shape == "gates":
        base = rng.choice([s[0] for s in _SUITS if s[0] in pool] or [0])
        if base >= 27:
            return None
        return [base] * 3 + [base + i for i in range(1, 8)] + [base + 8] * 3 + [base + rng.randrange(9)]
    if len(pool) < 4:
        return None
    kinds = [rng.choice(pool) for _ in range(7)]
    if shape == "shifted":  # 连七对: seven consecutive pairs of one suit
        start = rng.choice([s[0] for s in _SUITS if s[0] in pool] or [0]) + rng.randrange(3)
        kinds = list(range(start, start + 7))
    tiles = [k for k in kinds for _ in range(2)]
    if max(tiles.count(k) for k in set(tiles)) > copies:
        return None
    return tiles


def _context(rec: Record, rng: random.Random, preset: str) -> None:
    concealed = not any(p[0] != "GANG" or p[2] for p in rec["packs"])
    rec["is_self_drawn"] = rng.random() < 0.5
    rec["seat_wind"] = rng.choice([0, 2, 0, 1, 3])
    rec["prevalent_wind"] = rng.choice([0, 0, 1, 2, 3])
    rec["is_dealer"] = rec["seat_wind"] == 0
    roll = rng.random()
    if roll < 0.05 and not rec["packs"]:
        rec["is_initial"] = True
    elif roll < 0.1:
        rec["is_wall_last"] = True
    elif roll < 0.15 and any(p[0] == "GANG" for p in rec["packs"]):
        rec["is_about_kong"] = True
        rec["is_self_drawn"] = True
    elif roll < 0.2:
        rec["is_about_kong"] = True
        rec["robbing"] = True
        rec["is_self_drawn"] = preset == "cuopai789"
    elif roll < 0.25:
        rec["is_4th_tile"] = True
    if rng.random() < 0.15 and PRESETS[preset].declare_ready_enabled:
        rec["declared_ready"] = True
        r = rng.random()
        if r < 0.2 and concealed and not rec["packs"]:
            rec["declared_ready_first_turn"] = True
        elif r < 0.4:
            rec["ready_one_shot"] = True
    if preset == "cuopai789" and rng.random() < 0.1:
        rec["bonus_count"] = rng.randint(1, 3)
    if preset != "cuopai789" and rng.random() < 0.15:
        flowers = sorted(rng.sample(range(1, 9), rng.randint(1, 8)))
        rec["flowers"] = "".join(str(f) for f in flowers) + "f"
        rec["flowers_in_play"] = True
    elif preset != "cuopai789" and rng.random() < 0.1:
        rec["flowers_in_play"] = True


def _candidate(preset: str, rng: random.Random) -> Record | None:
    rules = PRESETS[preset]
    pool = _pools(rules.kinds, rng)
    shape = rng.choices(
        ["regular", "straight", "outside", "twin", "pairs", "shifted", "orphans", "gates"],
        [60, 8, 6, 2, 18, 5, 3, 6],
    )[0]
    if shape in ("regular", "straight", "outside", "twin"):
        made = _regular(pool, rng, rules.copies, shape)
        if made is None:
            return None
        packs, tiles = made
    else:
        if shape == "orphans" and rules.tile_set != "full":
            return None
        got = _special(pool, rng, rules.copies, shape)
        if got is None:
            return None
        packs, tiles = [], got
    if any(t not in rules.kinds for t in tiles):
        return None
    win = tiles.pop(rng.randrange(len(tiles)))
    rec: Record = {
        "packs": packs,
        "hand": "".join(tile_to_mpsz(t) for t in sorted(tiles)),
        "win_tile": tile_to_mpsz(win),
    }
    if rules.copies != 4:
        rec["copies"] = rules.copies
    _context(rec, rng, preset)
    return rec


def search(preset: str, tries: int = 60_000, seed: int = 36) -> dict[str, Record]:
    """For each fan of ``preset``'s table, the found hand with the fewest fans (then the lowest total)."""
    table = PRESETS[preset].fan_table
    wanted = {r.id for r in load_table(table).rows}
    rng = random.Random(f"{preset}:{seed}")
    best: dict[str, tuple[tuple[int, int, int], Record]] = {}
    cap = load_table(table).cap
    limits = {r.id for r in load_table(table).rows if r.limit}
    over: tuple[int, Record] | None = None  # the highest total above the cap without a limit fan
    for _ in range(tries):
        rec = _candidate(preset, rng)
        if rec is None:
            continue
        got = score_record(rec, table)
        if "error" in got:
            continue
        size = len(rec) + len(rec["packs"])
        limit = any(f["id"] in limits for f in got["fans"])
        if cap and got["total"] > cap and not limit and (over is None or got["total"] > over[0]):
            over = (got["total"], rec)
        rank = (len(got["fans"]), got["total"], size)
        for f in got["fans"]:
            old = best.get(f["id"])
            if old is None or rank < old[0]:
                best[f["id"]] = (rank, rec)
        if len(best) == len(wanted) and all(v[0][0] <= 3 for v in best.values()) and (not cap or over):
            break
    out = {fid: best[fid][1] for fid in sorted(best) if fid in wanted}
    if over is not None:
        out[CAP_KEY] = over[1]
    return out


CAP_KEY = "_over_cap"
"""The stored example of a hand over the table's cap (no limit fan), beside the fan ids."""


STANDARD_PRESETS = tuple(p for p, r in PRESETS.items() if r.family == "standard")


@cache
def stored() -> dict[str, dict[str, Record]]:
    """The stored examples: preset → fan id → record."""
    text = resources.files("erma.teach").joinpath("fan_examples.json").read_text(encoding="utf-8")
    data: dict[str, dict[str, Record]] = json.loads(text)
    return data
