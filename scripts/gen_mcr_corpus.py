"""Generate tests/data/mcr_corpus.jsonl: winning hands scored by the reference calculator PyMahjongGB.

Each line is ``{"record": <score_record input>, "expected": {"fans": [[points, count, name_zh, name_en], …],
"total": N}}``. Hands come from targeted builders (one or more per fan, every special shape, flags and
winds) and from random winning hands in several styles; every hand is checked with PyMahjongGB, and the
corpus is chosen so that every fan appears at least ``--min-each`` times.

The reference (``pymahjonggb``, a dev dependency) is imported only here, in tests and in benchmarks.

    .venv/bin/python scripts/gen_mcr_corpus.py                 # write the golden corpus
    .venv/bin/python scripts/gen_mcr_corpus.py --check 50000   # dev loop: compare erma on 50k fresh hands
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import MahjongGB

from erma.tiles import BOTZONE, to_mpsz

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "mcr_corpus.jsonl"

Record = dict[str, Any]
WINDS = list(range(27, 31))
DRAGONS = [31, 32, 33]
HONORS = WINDS + DRAGONS
TERMINALS = [0, 8, 9, 17, 18, 26]
KNITTED = [
    sorted(9 * s + r for s, cls in enumerate(perm) for r in range(cls, 9, 3))
    for perm in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))
]


# --------------------------------------------------------------------------------- the reference


def reference(record: Record) -> tuple[list[list[Any]], int] | None:
    """PyMahjongGB's verbose fans and total, or None if it rejects the hand."""
    from erma.tiles import parse, parse_tile

    def bz(t: str) -> str:
        return BOTZONE[parse_tile(t)]

    packs = tuple((k, bz(t), o) for k, t, o in record["packs"])
    hand = record["hand"]
    tiles = parse(hand) if isinstance(hand, str) else [parse_tile(t) for t in hand]
    try:
        fans = MahjongGB.MahjongFanCalculator(
            packs,
            tuple(BOTZONE[t] for t in tiles),
            bz(record["win_tile"]),
            record.get("flower_count", 0),
            record.get("is_self_drawn", False),
            record.get("is_4th_tile", False),
            record.get("is_about_kong", False),
            record.get("is_wall_last", False),
            record.get("seat_wind", 0),
            record.get("prevalent_wind", 0),
            verbose=True,
        )
    except TypeError:
        return None
    out = [list(f) for f in fans]
    return out, sum(p * c for p, c, _, _ in out)


# ------------------------------------------------------------------------------------- builders


class Pool:
    """Tile copies left (4 of each kind)."""

    def __init__(self) -> None:
        self.left = [4] * 34

    def take(self, tiles: list[int]) -> bool:
        need = Counter(tiles)
        if any(self.left[t] < n for t, n in need.items()):
            return False
        for t, n in need.items():
            self.left[t] -= n
        return True


def chow_start(rng: random.Random, suits: list[int], ranks: list[int] | None = None) -> int:
    return 9 * rng.choice(suits) + rng.choice(ranks if ranks is not None else list(range(7)))


def make_record(
    rng: random.Random,
    sets: list[tuple[str, int]],
    pair: int,
    *,
    declared: int | None = None,
    win: int | None = None,
    flags: dict[str, Any] | None = None,
) -> Record | None:
    """A record from 4 sets (("chow", lowest) / ("pung", t) / ("kong", t)) and a pair; kongs are declared."""
    pool = Pool()
    tiles_of = {"chow": lambda t: [t, t + 1, t + 2], "pung": lambda t: [t] * 3, "kong": lambda t: [t] * 4}
    for kind, t in sets:
        if kind == "chow" and (t >= 27 or t % 9 > 6):
            return None
        if not pool.take(tiles_of[kind](t)):
            return None
    if not pool.take([pair, pair]):
        return None
    kongs = [i for i, (k, _) in enumerate(sets) if k == "kong"]
    others = [i for i, (k, _) in enumerate(sets) if k != "kong"]
    rng.shuffle(others)
    n_decl = declared if declared is not None else rng.choice([0, 0, 1, 1, 2, 3, 4])
    n_decl = max(n_decl, len(kongs))
    decl = kongs + others[: n_decl - len(kongs)]
    packs = []
    standing: list[int] = [pair, pair]
    for i, (kind, t) in enumerate(sets):
        if i in decl:
            if kind == "chow":
                packs.append(["CHI", t + 1, rng.randint(1, 3)])
            elif kind == "pung":
                packs.append(["PENG", t, rng.randint(1, 3)])
            else:
                packs.append(["GANG", t, rng.choice([0, 0, 1, 2, 3])])
        else:
            standing += tiles_of[kind](t)
    if win is None or win not in standing:
        win = rng.choice(standing)
    standing.remove(win)
    return finish(rng, packs, standing, win, flags)


def finish(
    rng: random.Random, packs: list[list[Any]], standing: list[int], win: int, flags: dict[str, Any] | None
) -> Record:
    """Add flags and winds, and write tiles in mpsz or Botzone notation at random."""
    botz = rng.random() < 0.3
    name = (lambda t: BOTZONE[t]) if botz else (lambda t: to_mpsz([t]))
    rng.shuffle(packs)
    rec: Record = {
        "packs": [[k, name(t), o] for k, t, o in packs],
        "hand": [name(t) for t in sorted(standing)] if rng.random() < 0.5 else to_mpsz(standing),
        "win_tile": name(win),
        "flower_count": rng.choice([0] * 6 + list(range(1, 9))),
        "is_self_drawn": rng.random() < 0.5,
        "is_4th_tile": rng.random() < 0.15,
        "is_about_kong": rng.random() < 0.1,
        "is_wall_last": rng.random() < 0.1,
        "seat_wind": rng.randint(0, 3),
        "prevalent_wind": rng.randint(0, 3),
    }
    if flags:
        rec.update(flags)
    return rec


def random_sets(
    rng: random.Random, tiles: list[int], p_chow: float, p_kong: float
) -> tuple[list[tuple[str, int]], int]:
    suited = [t for t in tiles if t < 27]
    sets: list[tuple[str, int]] = []
    for _ in range(4):
        if suited and rng.random() < p_chow:
            t = rng.choice(suited)
            base = 9 * (t // 9)
            t = max(base, min(t - rng.randint(0, 2), base + 6))
            sets.append(("chow", t))
        else:
            sets.append(("kong" if rng.random() < p_kong else "pung", rng.choice(tiles)))
    return sets, rng.choice(tiles)


STYLES: list[tuple[str, Callable[[random.Random], list[int]]]] = [
    ("any", lambda r: list(range(34))),
    (
        "one_suit_honors",
        lambda r: [9 * r.randint(0, 2) + i for i in range(9)] + r.sample(HONORS, r.randint(1, 7)),
    ),
    ("one_suit", lambda r: [9 * r.randint(0, 2) + i for i in range(9)]),
    ("two_suits", lambda r: [9 * s + i for s in r.sample(range(3), 2) for i in range(9)]),
    ("terminals_honors", lambda r: TERMINALS + HONORS),
    ("honors", lambda r: HONORS),
    ("simples", lambda r: [t for t in range(27) if t % 9 not in (0, 8)]),
    ("low", lambda r: [t for t in range(27) if t % 9 <= 3]),
    ("high", lambda r: [t for t in range(27) if t % 9 >= 5]),
    ("middle", lambda r: [t for t in range(27) if 3 <= t % 9 <= 5]),
    ("green", lambda r: [19, 20, 21, 23, 25, 32]),
    ("reversible", lambda r: [9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 31]),
    ("man_honors", lambda r: list(range(9)) + HONORS),
    ("even", lambda r: [t for t in range(27) if t % 9 in (1, 3, 5, 7)]),
    ("winds_dragons", lambda r: r.sample(range(27), 6) + HONORS),
]


def random_regular(rng: random.Random) -> Record | None:
    _, style = rng.choice(STYLES)
    tiles = style(rng)
    sets, pair = random_sets(rng, tiles, rng.choice([0.0, 0.3, 0.6, 0.9, 1.0]), rng.choice([0.0, 0.1, 0.4]))
    return make_record(rng, sets, pair)


def structured(rng: random.Random) -> Record | None:
    """Chow and pung patterns that make the set-group fans (steps, straights, same numbers)."""
    s = rng.sample(range(3), 3)
    r = rng.randint(0, 6)
    kind = rng.randint(0, 13)
    if kind == 0:  # pure steps / triples / quadruple
        step = rng.choice([0, 1, 2])
        n = rng.choice([3, 4])
        base = 9 * s[0] + rng.randint(0, 6 - step * (n - 1))
        sets = [("chow", base + step * i) for i in range(n)]
    elif kind == 1:  # pure straight
        sets = [("chow", 9 * s[0] + 3 * i) for i in range(3)]
    elif kind == 2:  # mixed straight
        sets = [("chow", 9 * s[i] + 3 * i) for i in range(3)]
    elif kind == 3:  # mixed triple / shifted chows
        step = rng.choice([0, 1])
        r = rng.randint(0, 6 - 2 * step)
        sets = [("chow", 9 * s[i] + r + step * i) for i in range(3)]
    elif kind == 4:  # pungs shifted / same number
        step = rng.choice([0, 1])
        r = rng.randint(0, 8 - 2 * step)
        mixed = rng.random() < 0.5 or step == 0
        sets = [("pung", 9 * (s[i] if mixed else s[0]) + r + step * i) for i in range(rng.choice([2, 3]))]
        if not mixed and rng.random() < 0.3 and r + 3 * step <= 8:
            sets.append(("pung", 9 * s[0] + r + 3 * step))
    elif kind == 5:  # terminal chows
        sets = [("chow", 9 * s[0]), ("chow", 9 * s[0] + 6), ("chow", 9 * s[1]), ("chow", 9 * s[1] + 6)]
        pair = 9 * rng.choice([s[2], s[0]]) + 4
        return make_record(rng, sets, pair)
    elif kind == 6:  # winds / dragons
        sets = [("pung", t) for t in rng.sample(WINDS, rng.choice([2, 3, 4]))]
    elif kind == 7:
        sets = [("pung", t) for t in rng.sample(DRAGONS, rng.choice([2, 3]))]
    elif kind == 8:  # kongs
        sets = [("kong", t) for t in rng.sample(range(34), rng.choice([1, 2, 2, 3, 4]))]
    elif kind == 9:  # pure terminal chows
        b = 9 * s[0]
        return make_record(rng, [("chow", b), ("chow", b), ("chow", b + 6), ("chow", b + 6)], b + 4)
    elif kind == 10:  # two chows related
        a = 9 * s[0] + rng.randint(0, 6)
        b = rng.choice(
            [a, 9 * s[1] + a % 9, a + 3 if a % 9 <= 3 else a - 3, 9 * s[0] + (6 if a % 9 == 0 else 0)]
        )
        sets = [("chow", a), ("chow", b)]
    elif kind == 11:  # all five
        sets = [("chow", 9 * rng.randint(0, 2) + rng.randint(2, 4)) for _ in range(rng.randint(2, 4))]
        sets += [("pung", 9 * rng.randint(0, 2) + 4) for _ in range(4 - len(sets))]
        return make_record(rng, sets, 9 * rng.randint(0, 2) + 4)
    elif kind == 12:  # outside hand
        sets = [
            ("chow", 9 * rng.randint(0, 2) + rng.choice([0, 6]))
            if rng.random() < 0.5
            else ("pung", rng.choice(TERMINALS + HONORS))
            for _ in range(4)
        ]
        return make_record(rng, sets, rng.choice(TERMINALS + HONORS))
    else:  # tile hog shapes
        t = 9 * s[0] + rng.randint(0, 6)
        sets = [("pung", t + rng.randint(0, 2)), ("chow", t)]
    while len(sets) < 4:
        if rng.random() < 0.6:
            sets.append(("chow", chow_start(rng, [0, 1, 2])))
        else:
            sets.append(("pung", rng.randrange(34)))
    rng.shuffle(sets)
    return make_record(rng, sets[:4], rng.randrange(34))


def seven_pairs(rng: random.Random) -> Record | None:
    style = rng.randint(0, 5)
    if style == 0:  # shifted
        base = 9 * rng.randint(0, 2) + rng.randint(0, 2)
        kinds = [base + i for i in range(7)]
        tiles = [t for k in kinds for t in (k, k)]
    else:
        pool = [
            list(range(34)),
            HONORS + TERMINALS,
            list(range(9)) + HONORS,
            [t for t in range(27) if t % 9 in (1, 3, 5, 7)],
            [t for t in range(27) if 1 <= t % 9 <= 7],
            [19, 20, 21, 23, 25, 32, 9, 10],
        ][style]
        tiles = []
        counts: Counter[int] = Counter()
        while len(tiles) < 14:
            k = rng.choice(pool)
            if counts[k] <= 2:
                counts[k] += 2
                tiles += [k, k]
    win = rng.choice(tiles)
    tiles.remove(win)
    return finish(rng, [], tiles, win, {"is_about_kong": False})


def thirteen_orphans(rng: random.Random) -> Record | None:
    tiles = TERMINALS + HONORS + [rng.choice(TERMINALS + HONORS)]
    win = rng.choice(tiles)
    tiles.remove(win)
    return finish(rng, [], tiles, win, None)


def honors_knitted(rng: random.Random) -> Record | None:
    seq = rng.choice(KNITTED)
    n = rng.choice([7, 7, 8, 9])
    tiles = rng.sample(seq, n) + rng.sample(HONORS, 14 - n)
    win = rng.choice(tiles)
    tiles.remove(win)
    return finish(rng, [], tiles, win, None)


def knitted_straight(rng: random.Random) -> Record | None:
    seq = rng.choice(KNITTED)
    pool = Pool()
    pool.take(seq)
    kind = rng.random()
    if kind < 0.5:
        t = chow_start(rng, [0, 1, 2])
        st = ("chow", t, [t, t + 1, t + 2])
    else:
        t = rng.randrange(34)
        st = ("pung", t, [t] * 3)
    pair = rng.randrange(34)
    if not pool.take(st[2]) or not pool.take([pair, pair]):
        return None
    packs: list[list[Any]] = []
    standing = [*seq, pair, pair]
    if rng.random() < 0.4:
        if st[0] == "chow":
            packs.append(["CHI", st[1] + 1, rng.randint(1, 3)])
        elif rng.random() < 0.3 and pool.take([st[1]]):
            packs.append(["GANG", st[1], rng.randint(0, 3)])
        else:
            packs.append(["PENG", st[1], rng.randint(1, 3)])
    else:
        standing += st[2]
    win = rng.choice(standing)
    standing.remove(win)
    return finish(rng, packs, standing, win, None)


def nine_gates(rng: random.Random) -> Record | None:
    s = 9 * rng.randint(0, 2)
    tiles = [s + r for r in (0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8)]
    return finish(rng, [], tiles, s + rng.randint(0, 8), None)


def melded_hand(rng: random.Random) -> Record | None:
    _, style = rng.choice(STYLES)
    sets, pair = random_sets(rng, style(rng), 0.5, 0.2)
    return make_record(rng, sets, pair, declared=4, win=pair, flags={"is_self_drawn": rng.random() < 0.3})


def last_tile(rng: random.Random) -> Record | None:
    t = rng.randrange(34)
    sets = (
        [("pung", t)]
        + [("chow", chow_start(rng, [0, 1, 2])) for _ in range(2)]
        + [("pung", rng.randrange(34))]
    )
    return make_record(rng, sets, rng.randrange(34), declared=1 + rng.randint(0, 2))


def chicken(rng: random.Random) -> Record | None:
    """Mixed chows and a pung of simples across suits, claimed: often no fan at all."""
    sets = [("chow", 9 * s + rng.randint(1, 5)) for s in (0, 1, 2)] + [
        ("pung", 9 * rng.randint(0, 2) + rng.randint(1, 7))
    ]
    return make_record(
        rng,
        sets,
        27 + rng.randint(0, 6),
        declared=rng.randint(1, 3),
        flags={"is_self_drawn": False, "flower_count": rng.choice([0, 0, 1])},
    )


BUILDERS: list[tuple[Callable[[random.Random], Record | None], float]] = [
    (random_regular, 10),
    (structured, 8),
    (seven_pairs, 2),
    (thirteen_orphans, 0.5),
    (honors_knitted, 1),
    (knitted_straight, 1.5),
    (nine_gates, 0.5),
    (melded_hand, 1),
    (last_tile, 1),
    (chicken, 1.5),
]


def hands(rng: random.Random) -> Iterator[tuple[Record, tuple[list[list[Any]], int]]]:
    """Endless valid winning hands with the reference's result."""
    fns = [f for f, _ in BUILDERS]
    weights = [w for _, w in BUILDERS]
    while True:
        fn = rng.choices(fns, weights)[0]
        rec = fn(rng)
        if rec is None:
            continue
        ref = reference(rec)
        if ref is None:
            continue
        yield rec, ref


def expected_of(ref: tuple[list[list[Any]], int]) -> dict[str, Any]:
    fans, total = ref
    return {"fans": fans, "total": total}


def compare(result: dict[str, Any], expected: dict[str, Any]) -> bool:
    """Does an erma result give the reference's fans (points, count, names) and total?"""
    if "error" in result:
        return False
    got = sorted([f["points"], f["count"], f["name_zh"], f["name_en"]] for f in result["fans"])
    return got == sorted(expected["fans"]) and result["total"] == expected["total"]


def build(n: int, min_each: int, seed: int) -> list[dict[str, Any]]:
    """At least ``n`` hands, every fan at least ``min_each`` times (rare fans sought on purpose)."""
    rng = random.Random(seed)
    chosen: list[dict[str, Any]] = []
    cover: Counter[str] = Counter()
    all_names = set()
    gen = hands(rng)
    tries = 0
    while True:
        rec, ref = next(gen)
        tries += 1
        names = {f[2] for f in ref[0]}
        all_names |= names
        rare = any(cover[x] < min_each for x in names)
        if rare or len(chosen) < n * 0.6 or (len(chosen) < n and rng.random() < 0.3):
            chosen.append({"record": rec, "expected": expected_of(ref)})
            cover.update(names)
        if len(chosen) >= n and len(all_names) >= 82 and all(cover[x] >= min_each for x in all_names):
            break
        if tries > 400 * n:
            missing = sorted(x for x in all_names if cover[x] < min_each)
            raise SystemExit(f"gave up: {len(all_names)} fans seen, short: {missing}")
    return chosen


def not_wins(n: int, seed: int) -> list[dict[str, Any]]:
    """Hands of the right size that do not win (the reference says ERROR_NOT_WIN): a winning hand with
    another winning tile, or random tiles."""
    from erma.tiles import parse, parse_tile

    rng = random.Random(seed)
    gen = hands(rng)
    out: list[dict[str, Any]] = []
    while len(out) < n:
        rec, _ = next(gen)
        rec = dict(rec)
        if rng.random() < 0.3:
            tiles = rng.sample([t for t in range(34) for _ in range(4)], 14)
            rec["packs"] = []
            rec["hand"] = to_mpsz(tiles[:13])
            rec["win_tile"] = to_mpsz([tiles[13]])
        else:
            hand = rec["hand"]
            held = parse(hand) if isinstance(hand, str) else [parse_tile(t) for t in hand]
            held += [
                parse_tile(t)
                for k, t, _ in rec["packs"]
                for t in ([t] * (3 if k == "PENG" else 4))
                if k != "CHI"
            ]
            w = rng.randrange(34)
            if held.count(w) >= 4:
                continue
            rec["win_tile"] = to_mpsz([w])
        if reference(rec) is None:
            out.append({"record": rec, "expected": {"error": "not_win"}})
    return out


def check(n: int, seed: int) -> int:
    """Compare erma with the reference on n fresh hands; print mismatches; return their number."""
    from erma.scoring import score_record

    rng = random.Random(seed)
    bad = 0
    gen = hands(rng)
    for i in range(n):
        rec, ref = next(gen)
        exp = expected_of(ref)
        got = score_record(rec)
        if not compare(got, exp):
            bad += 1
            if bad <= 20:
                print(json.dumps({"record": rec, "expected": exp, "got": got}, ensure_ascii=False))
        if (i + 1) % 10000 == 0:
            print(f"{i + 1} checked, {bad} mismatches", file=sys.stderr)
    print(f"{n} hands checked, {bad} mismatches", file=sys.stderr)
    return bad


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=3200, help="hands in the corpus (at least)")
    ap.add_argument("--min-each", type=int, default=10, help="least occurrences of every fan")
    ap.add_argument("--seed", type=int, default=20240601)
    ap.add_argument("--check", type=int, default=0, help="dev loop: compare erma on this many fresh hands")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    if args.check:
        raise SystemExit(1 if check(args.check, args.seed + 1) else 0)
    rows = build(args.n, args.min_each, args.seed)
    rows += not_wins(args.n // 10, args.seed + 2)
    cover: Counter[str] = Counter(f[2] for row in rows for f in row["expected"].get("fans", ()))
    with args.out.open("w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n")
    print(f"wrote {len(rows)} hands to {args.out}; {len(cover)} fans, rarest: {cover.most_common()[-5:]}")


if __name__ == "__main__":
    main()
