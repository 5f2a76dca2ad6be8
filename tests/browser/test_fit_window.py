"""Issue 17 at 1280×720: the dashboards' main views fit the window without scrolling.

The page helpers every dashboard installs (``throne_lib.ui.demo``) zoom a view marked
by ``throne_lib.kit.ui.shell.fit_to_window`` out until its main part ends above the
fold: the replay board (its stepper above it) and the tower map with its 前往 buttons.
The views still work zoomed: a step of the replay, a node of the map by its button.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

RENDER_TIMEOUT_MS = 120_000
# The zoom of the .tp-fit view and the bottom of what must be in view, in window pixels.
FIT = """(sel) => { const v = document.querySelector('.tp-fit');
  const end = [...v.querySelectorAll(sel)].find(e => e.getClientRects().length);
  return { zoom: parseFloat(v.style.zoom) || 1, bottom: end.getBoundingClientRect().bottom,
           scrolled: document.getElementById('rendered_cells').scrollTop }; }"""


def _settled_fit(page: Page, selector: str) -> dict[str, Any]:
    """The fit once the zoom stopped changing (the helpers refit on every resize)."""
    last: dict[str, Any] = {}
    for _ in range(20):
        page.wait_for_timeout(300)
        now = dict(page.evaluate(FIT, selector))
        if now == last:
            return now
        last = now
    return last


def test_replay_board_fits_1280x720(
    voila_url: Callable[[str], str], page: Page, artifacts_dir: Path
) -> None:
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(voila_url("notebooks/replay.ipynb"))
    expect(page.get_by_text("步 0/")).to_be_visible(timeout=RENDER_TIMEOUT_MS)
    fit = _settled_fit(page, ".tp-fit-end")
    assert fit["scrolled"] == 0
    assert fit["zoom"] < 1  # the board did not fit at full size
    assert fit["bottom"] <= 720  # the whole board is in view
    step = page.get_by_role("button", name="下 ▶")
    expect(step).to_be_in_viewport()
    step.click()  # the zoomed stepper still works
    expect(page.get_by_text("步 1/")).to_be_visible(timeout=30_000)
    page.screenshot(path=str(artifacts_dir / "replay_1280x720.png"))


def test_tower_map_fits_1280x720(
    voila_server: Any, page: Page, artifacts_dir: Path, tmp_path: Path, monkeypatch: Any
) -> None:
    monkeypatch.setenv("THRONE_TOWER_SAVE", str(tmp_path / "tower-save.json"))
    server = voila_server("notebooks/tower.ipynb")
    try:
        server.wait_ready()
        page.set_viewport_size({"width": 1280, "height": 720})
        page.goto(server.url)
        start = page.locator(".tp-tower-start")
        expect(start).to_be_visible(timeout=RENDER_TIMEOUT_MS)
        start.click()
        go = page.locator(".tp-tower-go").first
        expect(go).to_be_visible(timeout=RENDER_TIMEOUT_MS)
        fit = _settled_fit(page, ".tp-fit-end")
        assert fit["scrolled"] == 0
        assert fit["bottom"] <= 720  # the map and its 前往 buttons are in view
        expect(go).to_be_in_viewport()
        page.screenshot(path=str(artifacts_dir / "tower_map_1280x720.png"))
        go.click()  # a battle: the map's view has no visible end, so it is not zoomed
        expect(page.locator(".tp-tower-auto")).to_be_visible(timeout=RENDER_TIMEOUT_MS)
        expect(page.locator(".tp-tower .tp-match canvas").first).to_be_visible()
        page.wait_for_timeout(500)
        zoom = page.evaluate("parseFloat(document.querySelector('.tp-fit').style.zoom) || 1")
        assert zoom == 1
    finally:
        server.stop()


@pytest.mark.parametrize(
    ("notebook", "start", "shown"),
    [
        ("castle", None, ".castle-table"),  # the round table and the hand
        ("pin", ".pin-start", ".pin-canvas"),  # the board, its prompt and the hand
    ],
)
def test_other_games_fit_1280x720(
    voila_url: Callable[[str], str],
    page: Page,
    artifacts_dir: Path,
    notebook: str,
    start: str | None,
    shown: str,
) -> None:
    """The other games' play pages get the same zoom from the kit's shell."""
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(voila_url(f"notebooks/{notebook}.ipynb"))
    if start is not None:
        page.locator(start).click(timeout=RENDER_TIMEOUT_MS)
    expect(page.locator(shown).first).to_be_visible(timeout=RENDER_TIMEOUT_MS)
    fit = _settled_fit(page, ".tp-fit-end")
    assert fit["scrolled"] == 0
    assert fit["bottom"] <= 720  # (castle's own seat ended 50 px below the fold unzoomed)
    page.screenshot(path=str(artifacts_dir / f"{notebook}_1280x720.png"))
