"""Screenshots of the dashboards at 1440×900 and 1280×720 (issue 17), for docs/img/.

    .venv/bin/python benchmarks/screenshots.py [--out docs/img/dashboards] [NOTEBOOK ...]

Serves ``notebooks/`` with Voilà the way ``bench_ui.py`` does (the throne template,
voila.json), opens each dashboard in headless Chromium at both window sizes and saves
what is in view without scrolling (``<name>-1440x900.png``): the fold is the point.
The play page is shown a few clicks in (hand kept, one barracks founded, a barracks
selected: its summon cells lit); the others as they open. Not a test: look at them.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_ui import ROOT, STATE, launch, voila  # noqa: E402

from throne_lib.games.throne.ui.layout import DEFAULT_LAYOUT as L  # noqa: E402

SIZES = ((1440, 900), (1280, 720))
# The Throne & Phalanx dashboards of issue 17 and the home page; others can be named.
DEFAULT = ("index", "play", "cards", "replay", "tower", "balance")
# What shows that a page has rendered (besides Voilà's spinner going away).
READY = {
    "index": "#tp-link-play",
    "play": ".tp-match canvas",
    "cards": ".throne-gallery canvas",
    "tower": ".tp-tower canvas",
}


def _play(page: Any) -> None:
    """Keep the hand, found a barracks at b2, select it: the tray and summon cells."""

    def state() -> dict[str, str]:
        return dict(page.evaluate(STATE) or {})

    def click(x: float, y: float) -> None:
        box = page.locator(".tp-match canvas").first.bounding_box()
        seq = int(state().get("seq", "0"))
        sx, sy = box["width"] / L.width, box["height"] / L.height
        page.mouse.click(box["x"] + x * sx, box["y"] + y * sy)
        page.wait_for_function(f"(() => +({STATE}).seq > {seq})()", timeout=30_000)

    page.wait_for_function(
        f"(() => {{ const s = {STATE}; return s && s.turn === '0'; }})()", timeout=60_000
    )
    if state().get("phase") == "replace":
        click(*L.chip_center(0))
    for cell in ("b2", "d2", "f2"):
        if state().get("phase") != "found":
            break
        click(*L.cell_center(7 + ord(cell[0]) - 97))
    page.wait_for_function(
        f"(() => {{ const s = {STATE}; return s.turn === '0' && s.phase === 'main'; }})()",
        timeout=60_000,
    )
    page.wait_for_timeout(1500)  # the AI's opening turn settles
    click(*L.cell_center(7 + 1))


ACTIONS: dict[str, Callable[[Any], None]] = {"play": _play}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="*", default=list(DEFAULT))
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img" / "dashboards")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright

    with voila(ROOT / "notebooks", "screenshots_voila.log") as port, sync_playwright() as pw:
        browser = launch(pw)
        for name in args.notebooks:
            for width, height in SIZES:
                page = browser.new_page(viewport={"width": width, "height": height})
                t0 = time.perf_counter()
                page.goto(f"http://127.0.0.1:{port}/voila/render/{name}.ipynb", timeout=180_000)
                page.wait_for_selector("#rendered_cells", state="visible", timeout=180_000)
                if name in READY:
                    page.wait_for_selector(READY[name], timeout=180_000)
                page.wait_for_load_state("networkidle")
                if name in ACTIONS:
                    ACTIONS[name](page)
                page.wait_for_timeout(1000)
                path = args.out / f"{name}-{width}x{height}.png"
                page.screenshot(path=str(path))
                print(f"{path.relative_to(ROOT)}  ({time.perf_counter() - t0:.1f} s)")
                page.close()
        browser.close()


if __name__ == "__main__":
    main()
