"""Draw the site's icons from the cards' own drawing (``cherki.ui.cards_svg.icon_svg``):
``favicon.ico`` (16, 32 and 48 pixels) and ``apple-touch-icon.png`` (180 pixels, a phone's
home screen), into the server's static folder. The SVG icon is served as it is drawn
(``/favicon.svg``); these are the same picture for the clients that ask for a bitmap.

Run again after changing the drawing (Debian's Chromium draws the pixels):

    uv run --group dev python scripts/make_icons.py
"""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image
from playwright.sync_api import Page, sync_playwright

from cherki.ui.cards_svg import icon_svg

STATIC = Path(__file__).resolve().parents[1] / "src" / "cherki" / "server" / "static"
ICO_SIZES = (16, 32, 48)
TOUCH = 180


def draw(page: Page, size: int, background: str) -> Image.Image:
    """The icon drawn by Chromium at ``size`` pixels on ``background``."""
    html = f"<html><body style='margin:0;background:{background}'>{icon_svg(size)}</body></html>"
    page.set_viewport_size({"width": size, "height": size})
    page.set_content(html)
    shot = page.screenshot(omit_background=background == "transparent")
    return Image.open(io.BytesIO(shot)).convert("RGBA")


def main() -> None:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True)
        page = browser.new_page()
        # each size drawn at its own pixels (sharper than one drawing scaled down)
        drawn = [draw(page, size, "transparent") for size in ICO_SIZES]
        drawn[-1].save(
            STATIC / "favicon.ico",
            sizes=[(s, s) for s in ICO_SIZES],
            append_images=drawn[:-1],
        )
        # a home-screen icon has no transparency: the pages' paper colour behind the cards
        draw(page, TOUCH, "#f6f1e7").convert("RGB").save(STATIC / "apple-touch-icon.png")
        browser.close()
    for name in ("favicon.ico", "apple-touch-icon.png"):
        print(STATIC / name, (STATIC / name).stat().st_size, "bytes")


if __name__ == "__main__":
    main()
