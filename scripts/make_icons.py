"""Render the installed app's PNG icons from src/erma/web/icons/icon.svg with Debian's Chromium (Playwright).

    .venv/bin/python scripts/make_icons.py

Writes icon-192.png, icon-512.png and icon-maskable-512.png beside the SVG (the SVG's felt fills the whole
square and its tile lies inside the maskable safe circle, 40 % of the size around the centre, so one drawing
serves both purposes).
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import sync_playwright

ICONS = Path(__file__).resolve().parent.parent / "src" / "erma" / "web" / "icons"
OUT = {"icon-192.png": 192, "icon-512.png": 512, "icon-maskable-512.png": 512}


def main() -> None:
    svg = (ICONS / "icon.svg").read_text(encoding="utf-8")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--headless", "--no-sandbox"])
        for name, size in OUT.items():
            page = browser.new_page(viewport={"width": size, "height": size})
            sized = svg.replace('width="512" height="512"', f'width="{size}" height="{size}"', 1)
            page.set_content(f"<html><body style='margin:0'>{sized}</body></html>")
            page.screenshot(path=str(ICONS / name), clip={"x": 0, "y": 0, "width": size, "height": size})
            page.close()
            print(f"{name}: {size}×{size}")
        browser.close()


if __name__ == "__main__":
    main()
