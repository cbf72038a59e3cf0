"""The review as readable lines (``erma review`` without ``--json``)."""

from __future__ import annotations

from typing import Any


def review_lines(review: dict[str, Any]) -> list[str]:
    """One line per decision (a mistake marked ``✗`` with its tag), its candidates, then the summary."""
    seats = ", ".join(map(str, review["seat"]))
    lines = [f"{review['rules']}: review of seat {seats} ({review['samples']} samples)"]
    for d in review["decisions"]:
        lo, hi = d["value_lost_ci95"]
        mark = f"✗ {d['tag']}" if d["mistake"] else ("=" if d["played"] == d["best"] else " ")
        lines.append(
            f"{d['step']:>4} seat {d['seat']} {d['kind']:<8} played {d['played']:<18} best {d['best']:<18} "
            f"lost {d['value_lost']:.3f} ({lo:+.3f} … {hi:+.3f}) {mark}"
        )
        for c in d["candidates"]:
            who = "*" if c["played"] else " "
            lines.append(
                f"{'':>10}{who} {c['action']:<18} value {c['value']:+.3f}  win {c['win']:.0%}  "
                f"deal-in {c['deal_in']:.0%}  useful {c['useful']}"
            )
    for s in review["summary"]:
        agree = "—" if s["agreement"] is None else f"{s['agreement']:.0%}"
        lines.append(
            f"seat {s['seat']}: {s['decisions']} decisions, agreement {agree}, {s['mistakes']} mistakes, "
            f"value lost {s['value_lost']:.3f}"
        )
    return lines
