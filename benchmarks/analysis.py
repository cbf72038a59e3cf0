"""Hand analysis: exactness on many random hands, and speed against the named anchors, in one run.

Anchors, timed on the same pre-built hands:
- PyMahjongGB ``MahjongShanten`` (C++; all five MCR shapes), given its own tile strings;
- the ``mahjong`` package's ``Shanten.calculate_shanten`` (pure Python; regular, seven pairs and
  thirteen orphans), given its own 34-count arrays;
- erma ``shanten`` (all five shapes) given lists of kinds: the build this process runs (compiled after
  ``make install``) and the pure-Python one (the same sources, ``ERMA_PURE=1``, in a child process on the
  same hands: benchmarks/builds.py).

Usage: .venv/bin/python benchmarks/analysis.py [--hands 100000] [--timing-hands 20000] [--repeats 5]
Machines here are shared and noisy: passes are timed in process CPU time and interleaved, and the script
prints medians of several repeats and their ratios.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import MahjongGB
from mahjong.shanten import Shanten

from erma.analysis import shanten, useful_by_shape
from erma.analysis import tables as erma_tables
from erma.tiles import BOTZONE

sys.path.insert(0, str(Path(__file__).resolve().parent))
from builds import PURE_SIDE, emit, pure_side, this_build

REF_FUNCS = {
    "regular": MahjongGB.RegularShanten,
    "seven_pairs": MahjongGB.SevenPairsShanten,
    "thirteen_orphans": MahjongGB.ThirteenOrphansShanten,
    "knitted_straight": MahjongGB.KnittedStraightShanten,
    "honors_and_knitted": MahjongGB.HonorsAndKnittedTilesShanten,
}
FULL = [t for t in range(34) for _ in range(4)]
WAN_HONORS = [t for t in [*range(9), *range(27, 34)] for _ in range(4)]


def sample_hands(rng: random.Random, count: int) -> list[list[int]]:
    """13-tile hands over all tiles (half) and over 万 + honours (a quarter), and melded hands (10/7/4/1)."""
    out = []
    for i in range(count):
        r = i % 8
        if r < 4:
            out.append(rng.sample(FULL, 13))
        elif r < 6:
            out.append(rng.sample(WAN_HONORS, 13))
        else:
            out.append(rng.sample(FULL if r == 6 else WAN_HONORS, rng.choice((10, 7, 4, 1))))
    return out


def check_exact(hands: Sequence[list[int]]) -> dict[str, int]:
    """Compare shanten and useful tiles by shape, and the overall shanten, with PyMahjongGB."""
    mismatches = checked = 0
    for hand in hands:
        bz = tuple(BOTZONE[t] for t in hand)
        for name, (s, useful) in useful_by_shape(hand).items():
            ref_s, ref_useful = REF_FUNCS[name](hand=bz)
            checked += 1
            if s != ref_s or sorted(useful) != sorted(BOTZONE.index(u) for u in ref_useful):
                mismatches += 1
                if mismatches <= 5:
                    print(f"  MISMATCH {name} {hand}: ours {(s, useful)} reference {(ref_s, ref_useful)}")
        packs = tuple(("PENG", "W1", 1) for _ in range((13 - len(hand)) // 3))
        checked += 1
        if shanten(hand) != MahjongGB.MahjongShanten(pack=packs, hand=bz):
            mismatches += 1
    return {"hands": len(hands), "comparisons": checked, "mismatches": mismatches}


def time_per_hand(fn: Callable[[], None], count: int, repeats: int) -> list[float]:
    """µs per hand of each pass, in process CPU time (time the process was descheduled by other load on the
    shared machine does not count)."""
    out = []
    for _ in range(repeats):
        t0 = time.process_time()
        fn()
        out.append((time.process_time() - t0) / count * 1e6)
    return out


def speed(hands: Sequence[list[int]], repeats: int) -> dict[str, object]:
    thirteen = [h for h in hands if len(h) == 13]
    bz = [tuple(BOTZONE[t] for t in h) for h in thirteen]
    arrays = [[h.count(t) for t in range(34)] for h in thirteen]
    calc = Shanten()

    def ours() -> None:
        for h in thirteen:
            shanten(h)

    def ref() -> None:
        for h in bz:
            MahjongGB.MahjongShanten(pack=(), hand=h)

    def lib() -> None:
        for a in arrays:
            calc.calculate_shanten(a)

    t0 = time.perf_counter()
    ours()  # the first pass builds the lazy tables
    cold = (time.perf_counter() - t0) / len(thirteen) * 1e6
    runs = {"erma": [], "pymahjonggb": [], "mahjong": []}
    for _ in range(repeats):  # interleaved, so noise hits all three alike
        runs["erma"] += time_per_hand(ours, len(thirteen), 1)
        runs["pymahjonggb"] += time_per_hand(ref, len(thirteen), 1)
        runs["mahjong"] += time_per_hand(lib, len(thirteen), 1)
    med = {k: statistics.median(v) for k, v in runs.items()}
    return {
        "hands": len(thirteen),
        "erma_cold_first_pass_us": round(cold, 2),
        "median_us": {k: round(v, 2) for k, v in med.items()},
        "ratio_vs_pymahjonggb": round(med["pymahjonggb"] / med["erma"], 2),
        "ratio_vs_mahjong": round(med["mahjong"] / med["erma"], 2),
        "tables": erma_tables.table_sizes(),
    }


def erma_only(hands: Sequence[list[int]], repeats: int) -> float:
    """The pure side: erma's median µs per 13-tile hand (after a first pass that builds the tables)."""
    thirteen = [h for h in hands if len(h) == 13]

    def ours() -> None:
        for h in thirteen:
            shanten(h)

    ours()
    return statistics.median(time_per_hand(ours, len(thirteen), repeats))


def import_time() -> float:
    code = "import time; t=time.perf_counter(); import erma, erma.analysis; print(time.perf_counter()-t)"
    runs = [float(subprocess.check_output([sys.executable, "-c", code], text=True)) for _ in range(5)]
    return statistics.median(runs)


def first_call() -> float:
    code = (
        "import time; from erma.analysis import shanten; t=time.perf_counter(); "
        "shanten('123m456p789s1155z'); print(time.perf_counter()-t)"
    )
    runs = [float(subprocess.check_output([sys.executable, "-c", code], text=True)) for _ in range(5)]
    return statistics.median(runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000, help="hands compared with the reference")
    parser.add_argument("--timing-hands", type=int, default=20_000, help="13-tile hands timed")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(PURE_SIDE, action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    timing = [rng.sample(FULL, 13) for _ in range(args.timing_hands // 2)]
    timing += [rng.sample(WAN_HONORS, 13) for _ in range(args.timing_hands - len(timing))]
    if args.pure_side:
        emit({"build": this_build(), "median_us": round(erma_only(timing, args.repeats), 2)})
        return
    result: dict[str, object] = {"build": this_build()}
    result["import_s"] = round(import_time(), 4)
    result["first_call_s"] = round(first_call(), 4)
    result["speed"] = speed(timing, args.repeats)
    side = ["--timing-hands", str(args.timing_hands), "--repeats", str(args.repeats)]
    pure = pure_side(__file__, [*side, "--seed", str(args.seed)])
    assert pure["build"] == "pure", pure
    result["pure_median_us"] = pure["median_us"]
    if args.hands:
        t0 = time.perf_counter()
        result["exact"] = check_exact(sample_hands(rng, args.hands))
        result["exact"]["seconds"] = round(time.perf_counter() - t0, 1)  # type: ignore[index]
    sp = result["speed"]
    assert isinstance(sp, dict)
    print(f"import erma: {result['import_s'] * 1000:.0f} ms; ", end="")
    print(f"first shanten call: {result['first_call_s'] * 1000:.1f} ms")
    print(f"shanten per 13-tile hand, median of {args.repeats} (µs): {sp['median_us']} ({result['build']})")
    med = sp["median_us"]
    assert isinstance(med, dict)
    pure_us = float(pure["median_us"])
    print(
        f"  side by side (µs/hand): erma {result['build']} {med['erma']}, erma pure {pure_us}, "
        f"PyMahjongGB {med['pymahjonggb']}; speed vs PyMahjongGB: {result['build']} "
        f"{med['pymahjonggb'] / med['erma']:.2f}×, pure {med['pymahjonggb'] / pure_us:.2f}×; "
        f"compiled/pure speed-up {pure_us / med['erma']:.2f}×"
    )
    print(f"  erma first pass (building lazy tables): {sp['erma_cold_first_pass_us']} µs/hand")
    print(f"  ratio PyMahjongGB/erma = {sp['ratio_vs_pymahjonggb']}  (≥ 1.0 means erma is as fast or faster)")
    print(f"  ratio mahjong/erma     = {sp['ratio_vs_mahjong']}")
    if "exact" in result:
        ex = result["exact"]
        print(f"exactness vs PyMahjongGB: {ex}")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
