"""Calibration of the review's chance of winning: predicted (the played action's ``win``) against observed.

Self-play hands (benchmarks/review_hands.py, ``level5`` against ``greedy``, swapping seats) are replayed
and every decision with a choice is scored with :func:`erma.coach.review.win_chance` for the action played;
the outcome is whether that seat won the hand. The decisions are cut into ten deciles of the prediction and
each decile's mean prediction is set beside the observed rate (±5 points passes).

``--raw`` leaves the model of erma/coach/calibration.py out (the race's own chance). ``--dump PATH``
appends one JSONL row per decision instead — the raw chance, what the seat saw
(:func:`erma.coach.calibration.features`) and the outcome — for ``benchmarks/review_calibration_fit.py``,
which fits the model on one set of seeds and reports it on another (docs/review.md).

Usage: nice .venv/bin/python benchmarks/review_calibration.py [--decisions 20000] [--seed cal-r]
       [--presets cuopai789,…] [--bots level5,greedy] [--raw] [--json] [--dump PATH [--start HAND]]
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Iterator
from typing import Any

from erma.coach import calibration
from erma.coach.review import win_chance
from erma.game import legal_actions, seat_view
from erma.game.actions import Action, Kind
from erma.game.record import steps
from erma.game.state import GameState
from review_hands import PRESETS, play

Choice = tuple[dict[str, Any], int, int, GameState, list[Action], Action]


def choices(preset: str, seed: str, index: int, bots: list[str]) -> Iterator[Choice]:
    """Hand ``index``'s decisions with a choice: (record, step, seat, state, legal, action played) — the
    action among the legal ones (the record's result tells the outcome)."""
    record = play(preset, seed, index, bots)
    for step, (state, who, text) in enumerate(steps(record)):
        if who < 0 or state.actor != who:
            continue
        action = Action.parse(text)
        legal = legal_actions(state, who)
        if action.kind in (Kind.TIMEOUT, Kind.ESCAPE) or len(legal) < 2 or action not in legal:
            continue
        yield record, step, who, state, legal, action


def winner_of(record: dict[str, Any]) -> int | None:
    """The seat that won the hand (None: drawn or escaped)."""
    result = record["result"] or {}
    return result.get("winner") if result.get("reason") == "win" else None


def hand_points(preset: str, seed: str, index: int, bots: list[str]) -> list[tuple[float, int]]:
    """(predicted, won) for every decision with a choice of hand ``index``."""
    out = []
    for record, step, who, state, legal, action in choices(preset, seed, index, bots):
        p = win_chance(seat_view(state, who), legal, action, seed=seed, step=step)
        out.append((p, int(winner_of(record) == who)))
    return out


def hand_rows(preset: str, seed: str, index: int, bots: list[str]) -> list[dict[str, object]]:
    """One row per decision with a choice of hand ``index``: the race's raw chance (no map) of the action
    played, what the seat saw that a map may use, and the outcome (``--dump``)."""
    saved = calibration.MODELS.pop(preset, None)
    try:
        out: list[dict[str, object]] = []
        for record, step, who, state, legal, action in choices(preset, seed, index, bots):
            view = seat_view(state, who)
            raw = win_chance(view, legal, action, seed=seed, step=step)
            features = calibration.features(view, legal)
            winner = winner_of(record)
            out.append({"preset": preset, "seed": seed, "hand": index, "step": step, "seat": who,
                        "bot": record["bots"][who], "raw": round(raw, 6), **features,
                        "won": int(winner == who), "drawn": int(winner is None)})  # fmt: skip
        return out
    finally:
        if saved is not None:
            calibration.MODELS[preset] = saved


def dump(path: str, preset: str, seed: str, decisions: int, bots: list[str], start: int) -> None:
    """Append rows (:func:`hand_rows`) of hands ``start …`` to the JSONL file ``path`` until ``decisions``."""
    n = 0
    index = start
    t0 = time.process_time()
    with open(path, "a", encoding="utf-8") as f:
        while n < decisions:
            rows = hand_rows(preset, seed, index, bots)
            for r in rows:
                f.write(json.dumps(r, separators=(",", ":")) + "\n")
            f.flush()
            n += len(rows)
            index += 1
    print(f"{preset} {seed}: {n} decisions, hands {start}…{index - 1}, {time.process_time() - t0:.0f} s CPU")


def collapse(xs: list[float], ys: list[float]) -> tuple[list[float], list[float]]:
    """A strictly increasing map: each run of bins the monotone fit pooled to one rate becomes one knot at
    the run's mean prediction (a flat run would give many decisions the same chance, and the deciles of
    equal chances would be cut by play order, hand by hand)."""
    out_x: list[float] = []
    out_y: list[float] = []
    i = 0
    while i < len(xs):
        j = i
        while j + 1 < len(xs) and ys[j + 1] == ys[i]:
            j += 1
        out_x.append(sum(xs[i : j + 1]) / (j + 1 - i))
        out_y.append(ys[i])
        i = j + 1
    return out_x, out_y


def pav(ys: list[float], ws: list[float]) -> list[float]:
    """Pool adjacent violators: the non-decreasing fit of ``ys`` (weights ``ws``)."""
    blocks: list[list[float]] = []  # [mean, weight, count]
    for y, w in zip(ys, ws, strict=True):
        blocks.append([y, w, 1])
        while len(blocks) > 1 and blocks[-2][0] > blocks[-1][0]:
            m2, w2, c2 = blocks.pop()
            m1, w1, c1 = blocks.pop()
            blocks.append([(m1 * w1 + m2 * w2) / (w1 + w2), w1 + w2, c1 + c2])
    out: list[float] = []
    for m, _, c in blocks:
        out += [m] * int(c)
    return out


def bins(points: list[tuple[float, int]], k: int) -> list[tuple[int, float, float]]:
    """(n, mean predicted, observed rate) of ``k`` equal-count bins of the prediction (equal predictions
    stay in the order they were played: never sorted by their outcome)."""
    s = sorted(points, key=lambda x: x[0])
    out = []
    for i in range(k):
        part = s[len(s) * i // k : len(s) * (i + 1) // k]
        if part:
            out.append((len(part), sum(p for p, _ in part) / len(part), sum(w for _, w in part) / len(part)))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--decisions", type=int, default=20000)
    ap.add_argument("--seed", default="cal-r")
    ap.add_argument("--presets", default=",".join(PRESETS))
    ap.add_argument("--bots", default="level5,greedy")  # (greedy: level3 when the model was fitted)
    ap.add_argument("--raw", action="store_true", help="the race's chance, no model")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--dump", metavar="PATH", help="append raw rows (JSONL) instead of a table")
    ap.add_argument("--start", type=int, default=0, help="--dump: the first hand")
    args = ap.parse_args()
    bots = args.bots.split(",")
    if args.dump:
        for preset in args.presets.split(","):
            dump(args.dump, preset, args.seed, args.decisions, bots, args.start)
        return
    for preset in args.presets.split(","):
        if args.raw:
            calibration.MODELS.pop(preset, None)
        t0 = time.process_time()
        points: list[tuple[float, int]] = []
        hands = 0
        while len(points) < args.decisions:
            points += hand_points(preset, args.seed, hands, bots)
            hands += 1
        table = bins(points, 10)
        worst = max(abs(p - o) for _, p, o in table)
        how = "raw" if args.raw else "calibrated"
        print(f"{preset}: {len(points)} decisions in {hands} hands (seed {args.seed}, {how}), "
              f"{time.process_time() - t0:.0f} s CPU; worst decile gap {100 * worst:.1f} points")  # fmt: skip
        print("| decile | decisions | predicted | observed | gap |")
        print("|---:|---:|---:|---:|---:|")
        for i, (n, p, o) in enumerate(table, 1):
            print(f"| {i} | {n} | {100 * p:.1f} % | {100 * o:.1f} % | {100 * (o - p):+.1f} |")
        if args.json:
            print(json.dumps({"preset": preset, "seed": args.seed, "decisions": len(points), "hands": hands,
                              "raw": args.raw, "deciles": table, "worst_gap": worst}))  # fmt: skip


if __name__ == "__main__":
    main()
