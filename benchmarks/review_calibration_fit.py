"""Fit and report the calibration of the review's chance of winning from the rows that
``benchmarks/review_calibration.py --dump`` writes (the race's raw chance, what the seat saw, the outcome).

``--fit FILES``: a logistic regression of the outcome on :data:`erma.coach.calibration.TERMS` (Newton's
method, a small ridge), then, with ``--iso K``, a monotone map of its chance (K equal-count bins of the fit
set, pool adjacent violators, each pooled run one knot; above the last, on to 1); prints the ``MODELS``
entry to paste into erma/coach/calibration.py. ``--report FILES``: the decile table of the committed
model (or, with ``--fit``, of the model just fitted) on other rows — fit on one set of seeds, report on
another. The rows' decisions: ``review_calibration.py --dump F --presets P --decisions N --seed S``.

Usage: .venv/bin/python benchmarks/review_calibration_fit.py --preset cuopai789
       [--fit cuopai789.cal-t.jsonl [--iso 20]]
       [--report cuopai789.cal-r2.jsonl [--boot 1000] [--by bot]] [--json]
"""

from __future__ import annotations

import argparse
import json
import math
import textwrap
from typing import Any

import numpy as np

from erma.coach import calibration
from review_calibration import collapse, pav


def load(paths: list[str], preset: str) -> list[dict[str, Any]]:
    """The rows of ``preset`` in the JSONL files ``paths``."""
    rows = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            rows += [r for r in map(json.loads, f) if r["preset"] == preset]
    return rows


def logistic(rows: list[dict[str, Any]], draws: int, ridge: float) -> list[float]:
    """The coefficients of :data:`~erma.coach.calibration.TERMS` (maximum likelihood, ``ridge`` × |w|²/2)."""
    x = np.array([calibration.terms(r["raw"], r, draws) for r in rows])
    y = np.array([r["won"] for r in rows], dtype=float)
    w = np.zeros(x.shape[1])
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        grad = x.T @ (p - y) + ridge * w
        hess = (x * (p * (1 - p))[:, None]).T @ x + ridge * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w -= step
        if float(np.abs(step).max()) < 1e-10:
            break
    return [float(c) for c in w]


def bins(pred: list[float], won: list[int], k: int) -> list[tuple[int, float, float]]:
    """(n, mean predicted, observed rate) of ``k`` equal-count bins of the prediction (equal predictions
    stay in the order of the rows: never sorted by their outcome)."""
    order = sorted(range(len(pred)), key=lambda i: pred[i])
    out = []
    for j in range(k):
        part = order[len(order) * j // k : len(order) * (j + 1) // k]
        if part:
            out.append(
                (len(part), sum(pred[i] for i in part) / len(part), sum(won[i] for i in part) / len(part))
            )
    return out


def predict(rows: list[dict[str, Any]], preset: str) -> list[float]:
    """The calibrated chance of every row (the model in ``calibration.MODELS``)."""
    return [calibration.calibrated(preset, r["raw"], r) for r in rows]


def gap_intervals(rows: list[dict[str, Any]], pred: list[float], boot: int) -> list[tuple[float, float]]:
    """The 95 % interval of each decile's gap (observed − predicted), resampling whole hands ``boot`` times
    (a hand's decisions share its outcome: they are not independent); the deciles stay as cut."""
    order = sorted(range(len(pred)), key=lambda i: pred[i])
    hands = {h: j for j, h in enumerate(sorted({(r["seed"], r["hand"]) for r in rows}))}
    n = np.zeros((10, len(hands)))
    gap = np.zeros((10, len(hands)))
    for d in range(10):
        for i in order[len(order) * d // 10 : len(order) * (d + 1) // 10]:
            h = hands[(rows[i]["seed"], rows[i]["hand"])]
            n[d, h] += 1
            gap[d, h] += rows[i]["won"] - pred[i]
    rng = np.random.default_rng(20261201)
    draws = rng.multinomial(len(hands), [1 / len(hands)] * len(hands), size=boot).T  # hands × boot
    sample = (gap @ draws) / np.maximum(n @ draws, 1)
    lo, hi = np.percentile(sample, [2.5, 97.5], axis=1)
    return [(float(a), float(b)) for a, b in zip(lo, hi, strict=True)]


def table(title: str, rows: list[dict[str, Any]], pred: list[float], boot: int = 0) -> dict[str, Any]:
    """Print the decile table of ``pred`` against the rows' outcomes (with ``boot``: each gap's 95 %
    interval over hands); return it as JSON."""
    won = [int(r["won"]) for r in rows]
    deciles = bins(pred, won, 10)
    worst = max(abs(o - p) for _, p, o in deciles)
    hands = len({(r["seed"], r["hand"]) for r in rows})
    ci = gap_intervals(rows, pred, boot) if boot else []
    print(f"{title}: {len(rows)} decisions in {hands} hands; worst decile gap {100 * worst:.1f} points")
    print(
        "| decile | decisions | predicted | observed | gap |"
        + (" gap 95 % (hands resampled) |" if ci else "")
    )
    print("|---:|---:|---:|---:|---:|" + ("---:|" if ci else ""))
    for i, (k, p, o) in enumerate(deciles, 1):
        extra = f" {100 * ci[i - 1][0]:+.1f} … {100 * ci[i - 1][1]:+.1f} |" if ci else ""
        print(f"| {i} | {k} | {100 * p:.1f} % | {100 * o:.1f} % | {100 * (o - p):+.1f} |{extra}")
    loss = -sum(math.log(max(1e-12, p if w else 1 - p)) for p, w in zip(pred, won, strict=True)) / len(won)
    print(f"log loss {loss:.4f}", flush=True)
    return {"decisions": len(rows), "hands": hands, "deciles": deciles, "worst_gap": worst, "log_loss": loss,
            "gap_ci95": ci}  # fmt: skip


def entry(preset: str, model: calibration.Model) -> str:
    """The ``MODELS`` entry of ``preset`` as calibration.py holds it (between ``# fmt: off`` and ``on``)."""
    draws, *parts = model
    out = f'    "{preset}": (\n        {draws},\n'
    for part in parts:
        lines = textwrap.wrap(", ".join(repr(v) for v in part), 96)
        out += "        (\n" + "".join(f"            {line}\n" for line in lines) + "        ),\n"
    return out + "    ),\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--preset", required=True)
    ap.add_argument("--fit", nargs="*", default=[], metavar="JSONL")
    ap.add_argument("--report", nargs="*", default=[], metavar="JSONL")
    ap.add_argument(
        "--iso", type=int, default=0, help="bins of the monotone map after the logistic (0: none)"
    )
    ap.add_argument("--ridge", type=float, default=1.0)
    ap.add_argument("--boot", type=int, default=0, help="--report: resample hands this often (gaps' 95 %%)")
    ap.add_argument("--by", help="--report: a table per value of this row field too (e.g. bot)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    out: dict[str, Any] = {"preset": args.preset}
    if args.fit:
        rows = load(args.fit, args.preset)
        table(f"{args.preset} raw (fit set)", rows, [r["raw"] for r in rows])
        draws = max(int(r["draws_left"]) for r in rows)
        coef = logistic(rows, draws, args.ridge)
        calibration.MODELS[args.preset] = (draws, tuple(coef), (), ())
        if args.iso:
            fine = bins(predict(rows, args.preset), [int(r["won"]) for r in rows], args.iso)
            xs, ys = collapse([p for _, p, _ in fine], pav([o for _, _, o in fine], [n for n, _, _ in fine]))
            xs, ys = [*xs, 1.0], [*ys, 1.0]  # above the last bin: on to a sure win
            calibration.MODELS[args.preset] = (draws, tuple(coef), tuple(xs), tuple(ys))
        out["fit"] = table(f"{args.preset} calibrated (fit set)", rows, predict(rows, args.preset))
        coef_s, xs_s, ys_s = (
            tuple(round(v, 4) for v in part) for part in calibration.MODELS[args.preset][1:]
        )
        calibration.MODELS[args.preset] = (draws, coef_s, xs_s, ys_s)  # the rounded model is the one reported
        print(entry(args.preset, calibration.MODELS[args.preset]), end="")
    if args.report:
        rows = load(args.report, args.preset)
        out["report_raw"] = table(f"{args.preset} raw (report set)", rows, [r["raw"] for r in rows])
        out["report"] = table(
            f"{args.preset} calibrated (report set)", rows, predict(rows, args.preset), args.boot
        )
        for value in sorted({r[args.by] for r in rows}) if args.by else []:
            part = [r for r in rows if r[args.by] == value]
            out[f"report {args.by}={value}"] = table(
                f"{args.preset} calibrated (report set, {args.by} {value})", part, predict(part, args.preset)
            )
    if args.json:
        print(json.dumps(out))


if __name__ == "__main__":
    main()
