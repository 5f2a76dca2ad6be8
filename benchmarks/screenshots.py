"""Screenshots of the dashboards at 1440×900 and 1280×720 (issue 17), for docs/img/.

    .venv/bin/python benchmarks/screenshots.py [--out docs/img/dashboards] [NOTEBOOK ...]

Serves ``notebooks/`` with Voilà the way ``bench_ui.py`` does (the throne template,
voila.json), opens each dashboard in headless Chromium at both window sizes and saves
what is in view without scrolling (``<name>-1440x900.png``): the fold is the point.
Each page is shown in use, not as it opens: play a few clicks in (hand kept, a barracks
founded and selected: its summon cells lit); replay the golden log at round 5; tower a
climb in progress (the map after a start, ``tower-map-*``, then the first battle under
way); balance after a small sweep run from its button (the heatmap with n and the 95%
intervals) and a tiny 调平建议 search (``balance-suggest-*``: that section scrolled to
the top; the whole section at 1440×900 is ``docs/img/balance_suggest.png``). The tower's save goes to a temporary file; the sweep is saved in
``logs/balance/`` like any other. Not a test: look at them.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "browser"))

from bench_ui import ROOT, STATE, launch, voila  # noqa: E402
from widget_input import set_slider  # noqa: E402

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
    "castle": ".castle-inspector",
    "cities": ".castle-inspector",
    "pin": ".pin-start",
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
        click(*L.tray.center(0))
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


def _replay(page: Any, shot: Callable[[str], None]) -> None:
    """The golden log (the page opens the newest log of logs/ first) at round 5."""
    page.get_by_text("步 0/").wait_for(timeout=60_000)
    if not page.locator("b", has_text="match_seed7.jsonl").is_visible():
        page.locator("select").first.select_option(label="match_seed7.jsonl")
        page.get_by_role("button", name="打开").click()
        page.locator("b", has_text="match_seed7.jsonl").wait_for(timeout=60_000)
    page.get_by_role("spinbutton").fill("5")
    page.get_by_role("button", name="跳转").click()
    page.get_by_text("第 5/40 回合").wait_for(timeout=30_000)


def _pin(page: Any, shot: Callable[[str], None]) -> None:
    """PIN: start a match (the page opens on its settings), keep the hand, choose a
    card that can be deployed (its cells lit, its text in the inspector)."""
    page.locator(".pin-start").click()
    page.wait_for_selector(".pin-canvas canvas, canvas.pin-canvas", timeout=60_000)
    page.get_by_role("button", name="确认换牌：不换牌").click()
    for _ in range(20):  # the reveal for the first turn, then the AI may move first
        page.wait_for_timeout(1000)
        state = page.locator(".pin-state").first
        if (
            state.get_attribute("data-phase") == "action"
            and state.get_attribute("data-mine") == "1"
        ):
            break
        if state.get_attribute("data-mine") == "1" and page.locator("button.pin-btn").count():
            page.locator("button.pin-btn").last.click()  # 不抽 / the last choice
    cards = page.locator("button.pin-card:not(.pin-card-dimmed)")
    if cards.count():
        cards.first.click()
    page.wait_for_timeout(1500)


def _castle(page: Any, shot: Callable[[str], None]) -> None:
    """城堡之心: a 战报 name opened in the inspector (the hero just chosen)."""
    page.locator(".castle-log .tp-ref").first.click()
    page.wait_for_timeout(1000)


def _cities(page: Any, shot: Callable[[str], None]) -> None:
    """城池战: the cities turned face up, a hero chosen, a city in the inspector."""
    page.locator(".cities-reveal").click()
    page.locator(".castle-actions button", has_text="选择英雄").first.click()
    page.wait_for_timeout(3000)
    page.locator('.castle-log .tp-ref[data-ref^="city:"]').first.click()
    page.wait_for_timeout(1000)


def _tower(page: Any, shot: Callable[[str], None]) -> None:
    """Start a climb (the map: ``tower-map-*``), walk to the first node and let its
    battle run a few seconds with 自动战斗."""
    page.locator(".tp-tower-start").click()
    page.wait_for_selector(".tp-tower-go", timeout=60_000)
    page.wait_for_timeout(1500)  # the map canvas is drawn once the client is ready
    shot("map")
    page.locator(".tp-tower-go").first.click()
    auto = page.locator(".tp-tower-auto")  # the first row holds battles only
    auto.wait_for(timeout=60_000)
    page.wait_for_selector(".tp-tower .tp-match canvas", timeout=60_000)
    page.wait_for_timeout(1500)
    auto.click()
    page.wait_for_timeout(6000)  # a few turns of the battle


def _balance(page: Any, shot: Callable[[str], None]) -> None:
    """A small sweep from the page's button (4 generals, 2 matches a pair, serial), then
    a tiny 调平建议 search; the suggestions are in ``balance-suggest-*``."""
    set_slider(page, "每对局数", 2)
    page.get_by_role("button", name="运行新一轮模拟").click()
    page.get_by_text("完成：").wait_for(timeout=600_000)
    page.wait_for_timeout(500)
    shot("")
    for label, value in (("种群", 2), ("代数", 1), ("搜索区块", 2), ("留出区块", 1)):
        set_slider(page, label, value)
    page.get_by_role("button", name="开始搜索").click()
    page.locator(".tp-suggest-run", has_text="本次搜索").wait_for(timeout=600_000)
    done = page.get_by_text("调整后 after").or_(page.get_by_text("没有找到比现状更平衡的方案"))
    done.first.wait_for(timeout=120_000)  # the proposal's detail, drawn after the save
    page.wait_for_timeout(2000)  # and its heatmaps
    # Voilà's page scrolls inside #rendered_cells: the section's heading to the top.
    heading = page.get_by_text("调平建议 · Balance suggestions").first
    heading.evaluate("e => e.scrollIntoView({ block: 'start' })")
    page.wait_for_timeout(500)
    shot("suggest")
    if page.viewport_size and page.viewport_size["width"] == 1440:  # docs/balance.md's figure
        path = ROOT / "docs" / "img" / "balance_suggest.png"
        section = page.locator(".tp-suggest").first
        box = section.bounding_box()
        # Voilà's page scrolls inside #rendered_cells, which paints only what is in view:
        # a window as tall as the section, for the time of the picture
        page.set_viewport_size({"width": 1440, "height": int(box["height"] if box else 900) + 120})
        page.wait_for_timeout(1500)
        section.screenshot(path=str(path))
        page.set_viewport_size({"width": 1440, "height": 900})
        print(path.relative_to(ROOT))


# A page's action drives it into use; shot(tag) saves what is in view now as
# <name>-<tag>-<size>.png (tag "": the page's main screenshot).
ACTIONS: dict[str, Callable[[Any, Callable[[str], None]], None]] = {
    "play": lambda page, shot: _play(page),
    "replay": _replay,
    "pin": _pin,
    "castle": _castle,
    "cities": _cities,
    "tower": _tower,
    "balance": _balance,
}


def capture(page: Any, name: str, size: str, out: Path, t0: float) -> None:
    """Drive the opened page ``name`` into use (:data:`ACTIONS`) and save what is in view."""
    taken: set[str] = set()

    def shot(tag: str) -> None:
        stem = f"{name}-{tag}" if tag else name
        path = out / f"{stem}-{size}.png"
        page.screenshot(path=str(path))
        taken.add(tag)
        shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        print(f"{shown}  ({time.perf_counter() - t0:.1f} s)")

    if name in ACTIONS:
        ACTIONS[name](page, shot)
    if "" not in taken:
        page.wait_for_timeout(1000)
        shot("")
    if name == "tower":  # the next size starts a climb of its own
        page.goto("about:blank")  # pagehide: the page helpers stop its kernel (and its
        page.wait_for_timeout(3000)  # 自动战斗, which saves the run after every step)
        Path(os.environ["THRONE_TOWER_SAVE"]).unlink(missing_ok=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="*", default=list(DEFAULT))
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img" / "dashboards")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright

    tmp = tempfile.TemporaryDirectory()
    os.environ["THRONE_TOWER_SAVE"] = str(Path(tmp.name) / "tower-save.json")

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
                capture(page, name, f"{width}x{height}", args.out, t0)
                page.close()
        browser.close()


if __name__ == "__main__":
    main()
