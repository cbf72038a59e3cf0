"""Generate erma's own SVG tile set (牌面) into src/erma/web/tiles/.

One file per tile kind in mpsz names (``1m.svg`` … ``9m.svg``, ``1p`` … ``9p``, ``1s`` … ``9s``,
``1z`` … ``7z`` = 東 南 西 北 白 發 中, ``1f`` … ``8f`` = 春 夏 秋 冬 梅 蘭 竹 菊) and ``back.svg``.
Every tile is a 60×80 view box: an ivory face over a green body (the tile's thickness), so a row of tiles
reads as real tiles at any size. Characters use the system's CJK serif fonts; dots and bamboo are drawn.
The files are generated data (like golden files): re-run after a change and commit the output.

    python scripts/gen_tiles.py            # writes src/erma/web/tiles/*.svg
    python scripts/gen_tiles.py --check    # exit 1 if the committed files differ from the generator's
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "src" / "erma" / "web" / "tiles"

W, H = 60, 80
FACE_H = 73
INK = "#1c2b5a"  # navy
RED = "#c1272d"
GREEN = "#157347"
BLUE = "#1f5fa8"
GOLD = "#c98a12"
FONT = "'Noto Serif CJK SC','Source Han Serif SC','Songti SC','STSong','SimSun','Noto Sans CJK SC',serif"

NUMERALS = "一二三四五六七八九"
WINDS = "東南西北"
PURPLE = "#7b3fa0"
FLOWERS = [("春", GREEN), ("夏", RED), ("秋", GOLD), ("冬", BLUE)]
FLOWERS += [("梅", RED), ("蘭", PURPLE), ("竹", GREEN), ("菊", GOLD)]
NAMES_EN = {
    "m": "Characters",
    "p": "Dots",
    "s": "Bamboo",
}
HONOUR_EN = ["East", "South", "West", "North", "White dragon", "Green dragon", "Red dragon"]
FLOWER_EN = ["Spring", "Summer", "Autumn", "Winter", "Plum", "Orchid", "Bamboo", "Chrysanthemum"]


def _frame(title: str, body: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" height="{H}">'
        f"<title>{title}</title>"
        "<defs>"
        '<linearGradient id="f" x1="0" y1="0" x2="0.3" y2="1">'
        '<stop offset="0" stop-color="#fffdf6"/><stop offset="1" stop-color="#efe7d2"/></linearGradient>'
        '<linearGradient id="b" x1="0" y1="0" x2="0" y2="1">'
        '<stop offset="0" stop-color="#2a9a6a"/><stop offset="1" stop-color="#156146"/></linearGradient>'
        "</defs>"
        f'<rect x="0.5" y="0.5" width="{W - 1}" height="{H - 1}" rx="7" fill="url(#b)"/>'
        f'<rect x="0.5" y="0.5" width="{W - 1}" height="{FACE_H}" rx="7" fill="url(#f)" '
        'stroke="#c9bd9c" stroke-width="1"/>'
        f'<rect x="2.5" y="2.5" width="{W - 5}" height="{FACE_H - 4}" rx="5.5" fill="none" '
        'stroke="#ffffff" stroke-opacity="0.7" stroke-width="1"/>'
        f"{body}</svg>\n"
    )


def _text(x: float, y: float, s: str, size: float, fill: str, weight: str = "700") -> str:
    return (
        f'<text x="{x}" y="{y}" font-family="{FONT}" font-size="{size}" font-weight="{weight}" '
        f'fill="{fill}" text-anchor="middle" dominant-baseline="central">{s}</text>'
    )


# ---------------------------------------------------------------------------------------- 萬


def characters(n: int) -> str:
    body = _text(30, 22, NUMERALS[n - 1], 27, INK) + _text(30, 53, "萬", 29, RED)
    return _frame(f"{n}m {NUMERALS[n - 1]}万 {n} {NAMES_EN['m']}", body)


# ---------------------------------------------------------------------------------------- 筒


def _dot(x: float, y: float, r: float, color: str) -> str:
    return (
        f'<circle cx="{x}" cy="{y}" r="{r}" fill="{color}"/>'
        f'<circle cx="{x}" cy="{y}" r="{r * 0.74:.2f}" fill="#fffaf0"/>'
        f'<circle cx="{x}" cy="{y}" r="{r * 0.56:.2f}" fill="{color}"/>'
        f'<circle cx="{x}" cy="{y}" r="{r * 0.2:.2f}" fill="#fffaf0"/>'
    )


DOT_LAYOUTS: dict[int, list[tuple[float, float, str]]] = {
    2: [(30, 20, GREEN), (30, 52, BLUE)],
    3: [(15, 14, BLUE), (30, 36, RED), (45, 58, GREEN)],
    4: [(18, 20, BLUE), (42, 20, GREEN), (18, 52, GREEN), (42, 52, BLUE)],
    5: [(17, 16, BLUE), (43, 16, GREEN), (30, 36, RED), (17, 56, GREEN), (43, 56, BLUE)],
    6: [(19, 14, GREEN), (41, 14, GREEN), (19, 38, RED), (41, 38, RED), (19, 58, RED), (41, 58, RED)],
    7: [
        (14, 11, GREEN),
        (30, 19, GREEN),
        (46, 27, GREEN),
        *((x, y, RED) for y in (44, 61) for x in (19, 41)),
    ],
    8: [(19, y, BLUE) for y in (11, 27, 43, 59)] + [(41, y, BLUE) for y in (11, 27, 43, 59)],
    9: [(x, y, c) for y, c in ((14, BLUE), (36, RED), (58, GREEN)) for x in (14, 30, 46)],
}
DOT_R = {2: 11, 3: 9, 4: 10, 5: 8.5, 6: 8, 7: 7, 8: 7, 9: 7.5}


def dots(n: int) -> str:
    if n == 1:
        body = (
            '<circle cx="30" cy="36.5" r="23" fill="#1f5fa8"/>'
            '<circle cx="30" cy="36.5" r="19.5" fill="#fffaf0"/>'
            + "".join(
                f'<circle cx="{30 + 14.5 * c:.2f}" cy="{36.5 + 14.5 * s:.2f}" r="2.6" fill="{GREEN}"/>'
                for c, s in _ring(12)
            )
            + '<circle cx="30" cy="36.5" r="11" fill="#c1272d"/>'
            '<circle cx="30" cy="36.5" r="7.5" fill="#fffaf0"/>'
            '<circle cx="30" cy="36.5" r="4.5" fill="#1f5fa8"/>'
        )
    else:
        body = "".join(_dot(x, y, DOT_R[n], c) for x, y, c in DOT_LAYOUTS[n])
    return _frame(f"{n}p {n}筒 {n} {NAMES_EN['p']}", body)


def _ring(k: int) -> list[tuple[float, float]]:
    import math

    return [(math.cos(2 * math.pi * i / k), math.sin(2 * math.pi * i / k)) for i in range(k)]


# ---------------------------------------------------------------------------------------- 条


def _stick(x: float, y: float, color: str, h: float = 18, w: float = 7) -> str:
    dark = "#0d4d2b" if color == GREEN else "#7d1418"
    top, mid, bot = y - h / 2, y, y + h / 2
    return (
        f'<rect x="{x - w / 2}" y="{top}" width="{w}" height="{h}" rx="{w / 2}" fill="{color}" '
        f'stroke="{dark}" stroke-width="0.8"/>'
        f'<rect x="{x - w / 2 - 0.8}" y="{mid - 1.2}" width="{w + 1.6}" height="2.4" rx="1.2" fill="{dark}"/>'
        f'<line x1="{x}" y1="{top + 2.5}" x2="{x}" y2="{mid - 2.5}" stroke="#fffaf0" stroke-opacity="0.55" '
        'stroke-width="1.2" stroke-linecap="round"/>'
        f'<line x1="{x}" y1="{mid + 2.5}" x2="{x}" y2="{bot - 2.5}" stroke="#fffaf0" stroke-opacity="0.55" '
        'stroke-width="1.2" stroke-linecap="round"/>'
    )


BAMBOO_LAYOUTS: dict[int, list[tuple[float, float, str]]] = {
    2: [(30, 20, GREEN), (30, 52, GREEN)],
    3: [(30, 20, GREEN), (19, 52, GREEN), (41, 52, GREEN)],
    4: [(19, 20, GREEN), (41, 20, GREEN), (19, 52, GREEN), (41, 52, GREEN)],
    5: [(15, 20, GREEN), (45, 20, GREEN), (30, 36, RED), (15, 52, GREEN), (45, 52, GREEN)],
    6: [(x, y, GREEN) for y in (20, 52) for x in (15, 30, 45)],
    7: [(30, 13, RED)] + [(x, y, GREEN) for y in (36, 59) for x in (15, 30, 45)],
    8: [(x, y, GREEN) for y in (20, 52) for x in (10, 23.5, 36.5, 50)],
    9: [(x, y, RED if x == 30 else GREEN) for y in (13, 36, 59) for x in (15, 30, 45)],
}


def bamboo(n: int) -> str:
    if n == 1:  # the bird (幺鸡)
        body = (
            f'<path d="M30 46 C18 46 12 60 8 66 C18 62 24 60 30 58 C36 60 42 62 52 66 C48 60 42 46 30 46Z" '
            f'fill="{GREEN}"/>'
            '<path d="M30 50 C26 56 26 62 30 66 C34 62 34 56 30 50Z" fill="#c1272d"/>'
            f'<ellipse cx="30" cy="38" rx="11" ry="13" fill="{GREEN}" stroke="#0d4d2b" stroke-width="1"/>'
            '<path d="M22 36 C26 30 34 30 38 36 C34 40 26 40 22 36Z" fill="#e9b949"/>'
            '<circle cx="30" cy="20" r="8" fill="#c1272d" stroke="#7d1418" stroke-width="1"/>'
            '<circle cx="32.5" cy="18.5" r="1.8" fill="#fffaf0"/>'
            '<circle cx="32.8" cy="18.6" r="0.9" fill="#111"/>'
            '<path d="M37.5 20 L44 21.5 L37.5 23Z" fill="#e9b949"/>'
            '<path d="M27 12 C25 6 30 5 30 9 C31 4 36 6 33 12Z" fill="#1f5fa8"/>'
        )
    else:
        h = 19 if n in (7, 9) else 26 if n in (2, 3, 4, 6, 8) else 24
        if n == 5:
            h = 26
        w = 6.5 if n == 8 else 8 if n <= 6 else 7.5
        body = "".join(
            _stick(x, y, c, h=20 if (n == 5 and c == RED) else h, w=w) for x, y, c in BAMBOO_LAYOUTS[n]
        )
    return _frame(f"{n}s {n}条 {n} {NAMES_EN['s']}", body)


# ------------------------------------------------------------------------------------- honours


def honour(n: int) -> str:
    title = f"{n}z {'東南西北白發中'[n - 1]} {HONOUR_EN[n - 1]}"
    if n <= 4:
        body = _text(30, 37, WINDS[n - 1], 40, INK, "900")
    elif n == 5:  # 白: an empty blue frame
        body = (
            f'<rect x="12" y="12" width="36" height="49" rx="3" fill="none" stroke="{BLUE}" '
            'stroke-width="3.5"/>'
            f'<rect x="17.5" y="17.5" width="25" height="38" rx="1.5" fill="none" stroke="{BLUE}" '
            'stroke-width="1.4"/>'
        )
    elif n == 6:
        body = _text(30, 37, "發", 40, GREEN, "900")
    else:
        body = _text(30, 37, "中", 44, RED, "900")
    return _frame(title, body)


def flower(n: int) -> str:
    char, color = FLOWERS[n - 1]
    corner = str((n - 1) % 4 + 1)
    body = (
        f'<circle cx="30" cy="40" r="20" fill="{color}" fill-opacity="0.12"/>'
        + _text(30, 41, char, 34, color, "900")
        + _text(11, 11, corner, 12, color, "700")
        + "".join(
            f'<circle cx="{30 + 23 * c:.2f}" cy="{40 + 23 * s:.2f}" r="1.6" fill="{color}" '
            'fill-opacity="0.5"/>'
            for c, s in _ring(16)
        )
    )
    return _frame(f"{n}f {char} {FLOWER_EN[n - 1]}", body)


def back() -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" height="{H}">'
        "<title>tile back</title>"
        '<defs><linearGradient id="k" x1="0" y1="0" x2="0.4" y2="1">'
        '<stop offset="0" stop-color="#33b07c"/><stop offset="1" stop-color="#17694a"/></linearGradient>'
        '<pattern id="d" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
        '<rect width="2" height="8" fill="#ffffff" fill-opacity="0.08"/>'
        "</pattern></defs>"
        f'<rect x="0.5" y="0.5" width="{W - 1}" height="{H - 1}" rx="7" fill="#f4ecd6"/>'
        f'<rect x="0.5" y="0.5" width="{W - 1}" height="{FACE_H}" rx="7" fill="url(#k)" stroke="#0f4f36"/>'
        f'<rect x="0.5" y="0.5" width="{W - 1}" height="{FACE_H}" rx="7" fill="url(#d)"/>'
        f'<rect x="6" y="6" width="{W - 12}" height="{FACE_H - 11}" rx="4" fill="none" stroke="#ffffff" '
        'stroke-opacity="0.25" stroke-width="1.2"/>'
        "</svg>\n"
    )


def all_tiles() -> dict[str, str]:
    """Every file name → its SVG text."""
    out: dict[str, str] = {}
    for n in range(1, 10):
        out[f"{n}m.svg"] = characters(n)
        out[f"{n}p.svg"] = dots(n)
        out[f"{n}s.svg"] = bamboo(n)
    for n in range(1, 8):
        out[f"{n}z.svg"] = honour(n)
    for n in range(1, 9):
        out[f"{n}f.svg"] = flower(n)
    out["back.svg"] = back()
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the files on disk")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    tiles = all_tiles()
    if args.check:
        on_disk = {n: (args.out / n).read_text() if (args.out / n).is_file() else None for n in tiles}
        stale = [n for n, t in tiles.items() if on_disk[n] != t]
        if stale:
            print("out of date:", " ".join(sorted(stale)))
            return 1
        return 0
    args.out.mkdir(parents=True, exist_ok=True)
    for name, text in tiles.items():
        (args.out / name).write_text(text, encoding="utf-8")
    print(f"wrote {len(tiles)} tiles to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
