"""The balance report (平衡报告): a terminal table (rich), and a self-contained HTML page with plots.

The HTML page carries its plots as PNG images inside it (matplotlib, the ``erma[report]`` extra, imported
only for ``--out``), so it can be mailed or attached as one file. Its data is written beside it as JSON.
"""

from __future__ import annotations

import base64
import html
import io
import json
from pathlib import Path
from typing import Any

from erma.errors import ErmaError
from erma.lab.balance import EVENTS

EVENT_NAMES = {
    "cuo": "搓牌 cuo draw",
    "triplet_offer": "换牌 triplet offered",
    "triplet_accept": "换牌 triplet accepted",
    "exchange": "开始换牌 start exchange",
    "haidi": "海底捞月 haidi",
    "flower": "补花 flower",
}

FIGURE_NAMES = {
    "dealer_win_rate": "dealer wins 庄家胡",
    "nondealer_win_rate": "non-dealer wins 闲家胡",
    "draw_rate": "draws 流局",
    "bot_a_win_rate": "bot A wins",
    "hand_length": "hand length (discards)",
    "points_per_hand": "points per hand",
    "points_spread": "spread of points (SD)",
    "dealer_points_per_hand": "dealer's points per hand",
}


def label(options: dict[str, Any]) -> str:
    """A combination's name: ``key=value, …`` (a text value bare, others as JSON).

    >>> label({"cuo_prob": 0.05, "haidi_mode": "none", "fan_cap": None})
    'cuo_prob=0.05, haidi_mode=none, fan_cap=null'
    """
    return ", ".join(f"{k}={v if isinstance(v, str) else json.dumps(v)}" for k, v in options.items())


def _fmt(fig: dict[str, Any], pct: bool = False) -> str:
    v, ci = fig.get("value"), fig.get("ci95")
    if v is None or ci is None:
        return "–"
    if pct:
        return f"{v:.1%} ({ci[0]:.1%}–{ci[1]:.1%})"
    return f"{v:.2f} ({ci[0]:.2f}–{ci[1]:.2f})"


PCT = {"dealer_win_rate", "nondealer_win_rate", "draw_rate", "bot_a_win_rate"}


# ------------------------------------------------------------------------------------ terminal


def print_table(report: dict[str, Any]) -> None:
    """The report's main figures as rich tables on stdout."""
    from rich.console import Console
    from rich.table import Table

    console = Console()
    combos = report["combinations"]
    title = (
        f"{report['rules']} · {report['bots'][0]} vs {report['bots'][1]} · {report['walls']} walls × 2 "
        f"per combination · seed {report['seed']} · 95% intervals"
    )
    console.print(title)
    for i, c in enumerate(combos):
        console.print(f"  #{i + 1}  {label(c['options'])}", highlight=False)
    t = Table()
    t.add_column("figure")
    for i in range(len(combos)):
        t.add_column(f"#{i + 1}", justify="right")
    for key, name in FIGURE_NAMES.items():
        t.add_row(name, *(_fmt(c[key], key in PCT) for c in combos))
    t.add_row("median points of a win", *(_median(c["points"]) for c in combos))
    for e in EVENTS:
        if any(c["events"][e]["fire_rate"]["value"] for c in combos):
            t.add_row(
                f"{EVENT_NAMES[e]}: fires / Δ win",
                *(
                    _fmt(c["events"][e]["fire_rate"], True)
                    + " / "
                    + _signed(c["events"][e]["win_rate_change"])
                    for c in combos
                ),
            )
    t.add_row("behind (gap ≥ 1)", *(_fmt(c["escape"]["behind_share"], True) for c in combos))
    t.add_row("  lost by playing on", *(_fmt(c["escape"]["play_on_loss"]) for c in combos))
    t.add_row("  escape penalty", *(_fmt(c["escape"]["escape_cost"]) for c in combos))
    t.add_row("  escaping better in", *(_fmt(c["escape"]["escape_better_share"], True) for c in combos))
    console.print(t)
    if len(combos) > 1:
        d = Table(title="paired differences against #1 (same walls)", title_justify="left")
        d.add_column("figure")
        for i in range(1, len(combos)):
            d.add_column(f"#{i + 1}", justify="right")
        for key in combos[1]["vs_first"]:
            d.add_row(FIGURE_NAMES[key], *(_signed(c["vs_first"][key], key in PCT) for c in combos[1:]))
        console.print(d)


def _signed(fig: dict[str, Any], pct: bool = True) -> str:
    v, ci = fig.get("value"), fig.get("ci95")
    if v is None or ci is None:
        return "–"
    if pct:
        return f"{v * 100:+.1f} pt ({ci[0] * 100:+.1f}…{ci[1] * 100:+.1f})"
    return f"{v:+.2f} ({ci[0]:+.2f}…{ci[1]:+.2f})"


def _median(hist: dict[str, int]) -> str:
    n = sum(hist.values())
    if not n:
        return "–"
    seen = 0
    for k, v in hist.items():
        seen += v
        if 2 * seen >= n:
            return k
    return "–"  # pragma: no cover


# ------------------------------------------------------------------------------------ HTML


def check_report_deps() -> None:
    """Fail early, with one line, when matplotlib is missing."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise ErmaError("--out needs matplotlib: pip install 'erma[report]'") from None


def write_report(report: dict[str, Any], out: Path) -> Path:
    """Write ``report.html`` (plots embedded), ``report.json`` and each plot as PNG into ``out``; returns the
    HTML's path."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "report.json").write_text(
        json.dumps(report, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
    )
    images: dict[str, str] = {}
    path = out / "report.html"
    path.write_text(render_html(report, images), encoding="utf-8")
    for name, data in images.items():
        (out / f"{name}.png").write_bytes(base64.b64decode(data))
    return path


def _png(fig: Any) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    import matplotlib.pyplot as plt

    plt.close(fig)
    return base64.b64encode(buf.getvalue()).decode("ascii")


MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*"]
COLORS = ["#c0392b", "#2471a3", "#7f8c8d", "#27ae60", "#8e44ad", "#d68910", "#16a085", "#34495e"]


def _setup() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import logging

    import matplotlib.pyplot as plt

    logging.getLogger("matplotlib.font_manager").setLevel(logging.ERROR)  # a missing fallback font is fine

    plt.rcParams.update(
        {
            "font.size": 10,
            "axes.spines.top": False,
            "axes.spines.right": False,
            "axes.grid": True,
            "grid.alpha": 0.3,
            "font.family": ["DejaVu Sans", "Noto Sans CJK SC", "Noto Sans CJK JP", "WenQuanYi Zen Hei"],
        }
    )
    return plt


def _closed(fig: dict[str, Any]) -> dict[str, Any]:
    """A figure whose missing interval (one wall) is drawn as a point."""
    if fig.get("ci95") is not None:
        return fig
    v = fig.get("value") or 0.0
    return {**fig, "value": v, "ci95": [v, v]}


def _err(figs: list[dict[str, Any]], scale: float = 1.0) -> tuple[list[float], list[list[float]]]:
    vals = [(f["value"] or 0.0) * scale for f in figs]
    lo = [max(0.0, v - (f["ci95"][0] * scale if f["ci95"] else v)) for v, f in zip(vals, figs, strict=True)]
    hi = [max(0.0, (f["ci95"][1] * scale if f["ci95"] else v) - v) for v, f in zip(vals, figs, strict=True)]
    return vals, [lo, hi]


def plot_outcomes(report: dict[str, Any]) -> str:
    """Who wins: dealer / non-dealer / draw rates per combination, stacked to 100%, with intervals."""
    plt = _setup()
    combos = report["combinations"]
    names = [label(c["options"]) for c in combos]
    fig, ax = plt.subplots(figsize=(10, 0.65 * len(combos) + 1.8))
    y = list(range(len(combos)))[::-1]
    left = [0.0] * len(combos)
    parts = [
        ("dealer_win_rate", "dealer wins", COLORS[0]),
        ("nondealer_win_rate", "non-dealer wins", COLORS[1]),
    ]
    parts.append(("draw_rate", "draws", COLORS[2]))
    for key, name, color in parts:
        vals = [c[key]["value"] * 100 for c in combos]
        ax.barh(y, vals, left=left, color=color, label=name, height=0.6)
        for yi, lv, v, c in zip(y, left, vals, combos, strict=True):
            if v >= 6:
                lo, hi = _closed(c[key])["ci95"]
                ax.text(
                    lv + v / 2,
                    yi,
                    f"{v:.0f}%\n±{(hi - lo) * 50:.0f}",
                    ha="center",
                    va="center",
                    color="white",
                )
        left = [a + b for a, b in zip(left, vals, strict=True)]
    ax.set_yticks(y, names)
    ax.set_xlim(0, 100)
    ax.set_xlabel("share of hands (%)  —  numbers: value and half-width of the 95% interval")
    ax.set_title("How hands end")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=3, frameon=False)
    ax.grid(axis="y", visible=False)
    return _png(fig)


def plot_figures(report: dict[str, Any]) -> str:
    """Hand length, points per hand and their spread, the dealer's points: one panel each, with intervals."""
    plt = _setup()
    combos = report["combinations"]
    names = [label(c["options"]) for c in combos]
    keys = ["hand_length", "points_per_hand", "points_spread", "dealer_points_per_hand"]
    fig, axes = plt.subplots(1, 4, figsize=(13, max(2.4, 0.5 * len(combos) + 1.6)), sharey=True)
    y = list(range(len(combos)))[::-1]
    for ax, key in zip(axes, keys, strict=True):
        vals, err = _err([c[key] for c in combos])
        ax.errorbar(vals, y, xerr=err, fmt="o", color=COLORS[1], capsize=4)
        ax.set_title(FIGURE_NAMES[key])
        if key == "dealer_points_per_hand":
            ax.axvline(0, color="black", lw=0.8)
        ax.grid(axis="y", visible=False)
    axes[0].set_yticks(y, names)
    axes[0].set_ylim(-0.6, len(combos) - 0.4)
    fig.suptitle("Means with 95% intervals", y=1.02)
    return _png(fig)


def plot_distributions(report: dict[str, Any]) -> str:
    """Distributions of a win's points and of its fans: share of wins at each value, per combination."""
    plt = _setup()
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(13, 3.8))
    _distribution(a1, report, "points", "Points of a win", "points")
    _distribution(a2, report, "fan_total", "Fans of a win (番数)", "fan total of the win")
    a2.set_ylabel("")
    a1.legend(frameon=False, fontsize=8)
    return _png(fig)


def _distribution(ax: Any, report: dict[str, Any], key: str, title: str, xlabel: str) -> None:
    combos = report["combinations"]
    values = [int(k) for c in combos for k in c[key] if int(k) > 0]
    wide = bool(values) and max(values) > 20 * min(values)
    if wide:
        ax.set_xscale("log")
    for i, c in enumerate(combos):
        hist = {int(k): v for k, v in c[key].items()}
        n = sum(hist.values())
        if not n:
            continue
        xs = sorted(hist)
        dx = (i - (len(combos) - 1) / 2) * 0.08  # side by side: equal distributions stay visible
        ax.plot(
            [x * (1 + dx / 4) if wide else x + dx for x in xs],
            [100 * hist[x] / n for x in xs],
            MARKERS[i % len(MARKERS)] + "-",
            color=COLORS[i % len(COLORS)],
            label=label(c["options"]),
            alpha=0.85,
        )
    ax.set_xlabel(xlabel)
    ax.set_ylabel("share of wins (%)")
    ax.set_title(title)


def plot_events(report: dict[str, Any]) -> str | None:
    """Random events: how often each fires (left) and the change in the win rate of the seat it happens to."""
    combos = report["combinations"]
    events = [e for e in EVENTS if any(c["events"][e]["fire_rate"]["value"] for c in combos)]
    if not events:
        return None
    plt = _setup()
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(12, 0.9 * len(events) + 1.8), sharey=True)
    h = 0.8 / len(combos)
    for i, c in enumerate(combos):
        y = [len(events) - 1 - j + (len(combos) / 2 - i - 0.5) * h for j in range(len(events))]
        vals, err = _err([c["events"][e]["fire_rate"] for e in events], 100)
        color = COLORS[i % len(COLORS)]
        a1.barh(y, vals, height=h, xerr=err, color=color, label=label(c["options"]), capsize=2)
        ch = [c["events"][e]["win_rate_change"] for e in events]
        ok = [(yy, f) for yy, f in zip(y, ch, strict=True) if f["value"] is not None]
        if ok:
            vals2, err2 = _err([f for _, f in ok], 100)
            err2 = [
                [abs(v - f["ci95"][0] * 100) for v, (_, f) in zip(vals2, ok, strict=True)],
                [abs(f["ci95"][1] * 100 - v) for v, (_, f) in zip(vals2, ok, strict=True)],
            ]
            a2.errorbar(vals2, [yy for yy, _ in ok], xerr=err2, fmt="o", color=color, capsize=3)
    a1.set_yticks(range(len(events))[::-1], [EVENT_NAMES[e] for e in events])
    a1.set_xlabel("hands where it happens (%)")
    a1.set_title("How often each random event fires")
    a1.legend(frameon=False, fontsize=8, loc="lower right")
    a2.axvline(0, color="black", lw=0.8)
    a2.set_xlabel("win rate of the seat it happens to − of a seat it does not (points of %)")
    a2.set_title("What it does to its seat's odds of winning")
    for ax in (a1, a2):
        ax.grid(axis="y", visible=False)
    return _png(fig)


def plot_escape(report: dict[str, Any]) -> str:
    """Escape incentive: when furthest behind, the points lost by playing on against the escape penalty."""
    plt = _setup()
    combos = report["combinations"]
    names = [label(c["options"]) for c in combos]
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(12, max(2.6, 0.7 * len(combos) + 1.6)), sharey=True)
    y = list(range(len(combos)))[::-1]
    lv, le = _err([c["escape"]["play_on_loss"] for c in combos])
    cv, ce = _err([c["escape"]["escape_cost"] for c in combos])
    a1.barh(
        [v + 0.2 for v in y], lv, height=0.38, xerr=le, color=COLORS[1], label="lost by playing on", capsize=3
    )
    a1.barh(
        [v - 0.2 for v in y], cv, height=0.38, xerr=ce, color=COLORS[0], label="escape penalty", capsize=3
    )
    a1.set_yticks(y, names)
    a1.set_xlabel("points (mean over seat-hands that fell behind)")
    a1.set_title("Playing on vs escaping, when furthest behind")
    a1.legend(frameon=False, fontsize=9, loc="upper center", bbox_to_anchor=(0.5, -0.18), ncol=2)
    bv, be = _err([c["escape"]["escape_better_share"] for c in combos], 100)
    a2.barh(y, bv, xerr=be, color=COLORS[5], height=0.5, capsize=3)
    a2.set_xlim(0, max(10.0, *(v + e for v, e in zip(bv, be[1], strict=True))) * 1.15)
    for yy, v in zip(y, bv, strict=True):
        a2.text(v, yy, f" {v:.1f}%", va="center")
    a2.set_xlabel("seat-hands where escaping would have cost less (%)")
    a2.set_title("How often escaping pays")
    for ax in (a1, a2):
        ax.grid(axis="y", visible=False)
    return _png(fig)


def plot_paired(report: dict[str, Any]) -> str | None:
    """Paired differences against the first combination (same walls), with 95% intervals."""
    combos = report["combinations"]
    if len(combos) < 2:
        return None
    plt = _setup()
    keys = list(combos[1]["vs_first"])
    fig, axes = plt.subplots(
        1, len(keys), figsize=(3 * len(keys), max(2.4, 0.5 * len(combos) + 1.4)), sharey=True
    )
    y = list(range(len(combos) - 1))[::-1]
    for ax, key in zip(axes, keys, strict=True):
        scale = 100 if key in PCT else 1
        figs = [_closed(c["vs_first"][key]) for c in combos[1:]]
        vals = [f["value"] * scale for f in figs]
        err = [[v - f["ci95"][0] * scale for v, f in zip(vals, figs, strict=True)]]
        err.append([f["ci95"][1] * scale - v for v, f in zip(vals, figs, strict=True)])
        colors = [COLORS[2] if f["ci95"][0] <= 0 <= f["ci95"][1] else COLORS[1] for f in figs]
        for yy, v, lo, hi, col in zip(y, vals, err[0], err[1], colors, strict=True):
            ax.errorbar([v], [yy], xerr=[[lo], [hi]], fmt="o", color=col, capsize=4)
        ax.axvline(0, color="black", lw=0.8)
        ax.set_title(FIGURE_NAMES[key] + (" (pt)" if key in PCT else ""), fontsize=9)
        ax.grid(axis="y", visible=False)
    axes[0].set_yticks(y, [label(c["options"]) for c in combos[1:]])
    axes[0].set_ylim(-0.6, len(combos) - 1.4)
    fig.suptitle(
        f"Change against {label(combos[0]['options'])} on the same walls "
        "(blue: interval clear of 0; grey: within chance)",
        y=1.08,
    )
    return _png(fig)


_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;
color:#222;line-height:1.45}
h1{font-size:1.5em;margin-bottom:.2em} h2{font-size:1.15em;margin-top:2em;border-bottom:1px solid #ddd}
.meta{color:#555} img{max-width:100%} .cap{color:#444;font-size:.92em;margin:.2em 0 1em}
table{border-collapse:collapse;font-size:.9em;margin:.5em 0}
td,th{padding:3px 9px;border-bottom:1px solid #eee;text-align:right}
th:first-child,td:first-child{text-align:left} th{background:#f6f6f6}
.sig{font-weight:700} small{color:#777;white-space:nowrap}
td:first-child{white-space:nowrap} .k{font-weight:700;color:#2471a3}
"""


def _table(head: list[str], rows: list[list[str]]) -> str:
    """An HTML table; the cells are HTML already."""
    h = "".join(f"<th>{x}</th>" for x in head)
    body = "".join("<tr>" + "".join(f"<td>{x}</td>" for x in r) + "</tr>" for r in rows)
    return f"<table><tr>{h}</tr>{body}</table>"


def _cell(fig: dict[str, Any], pct: bool = False, signed: bool = False) -> str:
    """A value over its interval, small."""
    v, ci = fig.get("value"), fig.get("ci95")
    if v is None or ci is None:
        return "–"
    digits = "+.1f" if signed and pct else ".1%" if pct else "+.2f" if signed else ".2f"
    scale = 100 if pct and signed else 1

    def f(x: float) -> str:
        return format(x * scale, digits)

    cls = ""
    if signed and (ci[0] > 0 or ci[1] < 0):
        cls = " class=sig"
    return f"<span{cls}>{f(v)}</span><br><small>{f(ci[0])} … {f(ci[1])}</small>"


def _img(data: str | None, alt: str, caption: str, images: dict[str, str] | None = None) -> str:
    if data is None:
        return ""
    if images is not None:
        images[alt.replace(" ", "-")] = data
    return f'<img alt="{html.escape(alt)}" src="data:image/png;base64,{data}"><p class="cap">{caption}</p>'


def _findings(report: dict[str, Any], tags: list[str]) -> str:
    """The paired differences whose interval is clear of 0, in words."""
    combos = report["combinations"]
    if len(combos) < 2:
        return ""
    items = []
    for i, c in enumerate(combos[1:], start=1):
        for key, fig in c["vs_first"].items():
            lo, hi = fig["ci95"] or (0, 0)
            if lo > 0 or hi < 0:
                pct = key in PCT
                unit = " points of %" if pct else ""
                scale = 100 if pct else 1
                items.append(
                    f"<li>{tags[i]} against #1: {html.escape(FIGURE_NAMES[key])} "
                    f"<b>{fig['value'] * scale:+.2f}</b>{unit} "
                    f"(95%: {lo * scale:+.2f} … {hi * scale:+.2f})</li>"
                )
    quiet = [
        FIGURE_NAMES[k]
        for k in combos[1]["vs_first"]
        if all(
            (c["vs_first"][k]["ci95"] or [0, 0])[0] <= 0 <= (c["vs_first"][k]["ci95"] or [0, 0])[1]
            for c in combos[1:]
        )
    ]
    if items and quiet:
        items.append(
            f"<li>No combination differs from #1 beyond chance in: {html.escape(', '.join(quiet))}.</li>"
        )
    if not items:
        return (
            "<h2>Findings</h2><p>No combination differs from #1 beyond chance in dealer wins, draws, hand "
            "length, points per hand or bot A's wins (paired, 95%).</p>"
        )
    return (
        "<h2>Findings</h2><p>Differences from #1 that the run has shown (paired over walls, 95%):</p><ul>"
        + ("".join(items) + "</ul>")
    )


def render_html(report: dict[str, Any], images: dict[str, str] | None = None) -> str:
    """The report as one HTML page (plots embedded as PNG); ``images`` collects the plots by name (base64)."""
    combos = report["combinations"]
    esc = html.escape
    fixed = ", ".join(f"{k}={json.dumps(v)}" for k, v in report["options"].items()) or "none"
    parts = [
        "<!doctype html><html lang=en><head><meta charset=utf-8>",
        f"<title>erma balance · {esc(report['rules'])}</title><style>{_CSS}</style></head><body>",
        f"<h1>Balance of {esc(report['rules'])}: {esc(', '.join(report['vary']))}</h1>",
        f"<p class=meta>{esc(report['bots'][0])} vs {esc(report['bots'][1])} · {report['walls']} walls, each "
        f"played twice (bots swapped) under every combination: {report['hands_per_combination']} hands per "
        f"combination · seed {esc(str(report['seed']))} · fixed options: {esc(fixed)} · every interval is "
        "95%, over walls. What each figure means: docs/balance.md.</p>",
    ]
    tags = [f"<span class=k>#{i + 1}</span>" for i in range(len(combos))]
    parts.append(
        "<h2>Combinations</h2>"
        + _table(
            ["", *(esc(k) for k in report["vary"])],
            [
                [tags[i], *(esc(label({k: v}).partition("=")[2]) for k, v in c["options"].items())]
                for i, c in enumerate(combos)
            ],
        )
    )
    parts.append(_findings(report, tags))
    keys = list(FIGURE_NAMES)
    rows = [[tags[i], *(_cell(c[k], k in PCT) for k in keys)] for i, c in enumerate(combos)]
    parts.append("<h2>The figures</h2>" + _table(["", *(esc(FIGURE_NAMES[k]) for k in keys)], rows))
    parts.append(
        _img(
            plot_outcomes(report),
            "outcomes",
            "Each bar is one combination: the share of hands the dealer wins, the non-dealer wins, and that "
            "end in a draw (流局).",
            images=images,
        )
    )
    parts.append(
        _img(
            plot_paired(report),
            "paired differences",
            "Each dot is a combination's difference from the first, measured wall by wall on the same deals; "
            "the bar is its 95% interval. A blue dot is a difference the run has shown; a grey one is "
            "within chance.",
            images=images,
        )
    )
    parts.append(
        _img(
            plot_figures(report),
            "figures",
            "Hand length counts the discards of both players; points per hand are the points that changed "
            "hands (0 in a draw); their spread is the standard deviation per hand; the dealer's points are "
            "what the dealer won on average (negative: lost).",
            images=images,
        )
    )
    parts.append("<h2>How big the wins are</h2>")
    parts.append(
        _img(
            plot_distributions(report),
            "points and fans",
            "The share of wins at each number of points (left) and at each fan total (right); lines are "
            "drawn side by side so that equal ones stay visible.",
            images=images,
        )
    )
    top: dict[str, int] = {}
    for c in combos:
        for k, v in c["fans"].items():
            top[k] = top.get(k, 0) + v["wins"]
    fan_rows = [
        [esc(k), *(f"{c['fans'][k]['share']:.1%}" if k in c["fans"] else "–" for c in combos)]
        for k in sorted(top, key=lambda k: -top[k])[:15]
    ]
    parts.append("<p class=cap>Share of wins that score each fan (the 15 most frequent):</p>")
    parts.append(_table(["fan", *tags], fan_rows))
    parts.append("<h2>Random events</h2>")
    parts.append(
        _img(
            plot_events(report),
            "events",
            "Left: the share of hands in which the event happens at least once. Right: the win rate of a "
            "seat the event happened to, minus that of a seat it did not happen to, with its 95% interval. "
            "It is an association: a seat that accepts a triplet offer chose to, for instance.",
            images=images,
        )
    )
    ev_rows = []
    for e in EVENTS:
        if any(c["events"][e]["fire_rate"]["value"] for c in combos):
            ev_rows.append(
                [
                    esc(EVENT_NAMES[e]),
                    *(
                        _cell(c["events"][e]["fire_rate"], True)
                        + "<br>Δ win "
                        + _cell(c["events"][e]["win_rate_change"], True, True)
                        for c in combos
                    ),
                ]
            )
    if ev_rows:
        parts.append("<p class=cap>Per event: how often it fires, then Δ win (points of %).</p>")
        parts.append(_table(["event", *tags], ev_rows))
    else:
        parts.append("<p>No random event fired under any combination.</p>")
    parts.append("<h2>Escape incentive (逃跑)</h2>")
    parts.append(
        _img(
            plot_escape(report),
            "escape",
            "For every seat that fell behind in a hand (its shanten, at one of its turns, above the "
            "opponent's), at the turn it was furthest behind: what playing on cost it (its loss in the hand) "
            "against what escaping then would have cost (the escape penalty). Escaping pays where the blue "
            "bar passes the red one.",
            images=images,
        )
    )
    esc_names = {
        "behind_share": "seat-hands that fell behind",
        "play_on_loss": "points lost by playing on",
        "escape_cost": "escape penalty",
        "escape_gain": "gain from escaping (loss − penalty)",
        "escape_better_share": "escaping would have cost less",
    }
    esc_rows = [
        [tags[i], *(_cell(c["escape"][k], k.endswith("share")) for k in esc_names)]
        for i, c in enumerate(combos)
    ]
    parts.append(_table(["", *(esc(v) for v in esc_names.values())], esc_rows))
    parts.append("</body></html>\n")
    return "\n".join(parts)
