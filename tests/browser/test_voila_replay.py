"""The replay dashboard in a real browser: open the stored golden log, step through
it with the buttons and the round jump, and screenshot the board and the charts."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from page_checks import assert_no_error_output
from playwright.sync_api import Browser, Page, expect

pytestmark = pytest.mark.browser

RENDER_TIMEOUT_MS = 120_000  # the first request starts a kernel and replays the log


def test_replay_dashboard_steps_through_the_golden_log(
    voila_url: Callable[[str], str], page: Page, artifacts_dir: Path
) -> None:
    page.set_viewport_size({"width": 1320, "height": 1500})
    page.goto(voila_url("notebooks/replay.ipynb"))
    picker = page.locator("select").first
    expect(picker).to_be_visible(timeout=RENDER_TIMEOUT_MS)
    title = page.locator("b", has_text="match_seed7.jsonl")  # the replay's title line
    page.wait_for_timeout(1000)
    if not title.is_visible():  # the newest log of logs/ is open: open the golden one
        picker.select_option(label="match_seed7.jsonl")
        page.get_by_role("button", name="打开").click()
    # (on a fresh clone logs/ is empty and the golden log is already open)
    expect(title).to_be_visible(timeout=RENDER_TIMEOUT_MS)
    expect(page.get_by_text("步 0/")).to_be_visible(timeout=30_000)
    for _ in range(3):
        page.get_by_role("button", name="下 ▶").click()
    expect(page.get_by_text("步 3/")).to_be_visible(timeout=30_000)
    page.get_by_role("spinbutton").fill("5")
    page.get_by_role("button", name="跳转").click()
    expect(page.get_by_text("第 5/40 回合")).to_be_visible(timeout=30_000)
    expect(page.locator("canvas").first).to_be_visible()
    expect(page.locator("img").first).to_be_visible()  # the charts
    page.wait_for_timeout(500)  # let the canvas paint
    page.screenshot(path=str(artifacts_dir / "replay_round5.png"), full_page=True)
    assert_no_error_output(page)


EARLY_CLICKS = 6
# Clicks 下 ▶ from inside the page the moment the button exists (before Playwright's
# actionability checks would let a test click): the earliest a designer can click.
CLICK_AT_ONCE = """
(() => {
  let done = 0;
  const tick = () => {
    const b = [...document.querySelectorAll('button')].find(x => x.textContent.trim() === '下 ▶');
    if (b) { b.click(); done++; window.__early_clicks = done; }
    if (done < EARLY) setTimeout(tick, 5);
  };
  tick();
})()
""".replace("EARLY", str(EARLY_CLICKS))


@pytest.mark.parametrize(
    "notebook",
    [
        "notebooks/replay.ipynb",
        "notebooks/castle_replay.ipynb",
        "notebooks/cities_replay.ipynb",
        "notebooks/pin_replay.ipynb",
    ],
)
def test_first_next_clicks_after_opening_are_not_lost(
    voila_url: Callable[[str], str], browser: Browser, notebook: str, artifacts_dir: Path
) -> None:
    """Issue 17 item 11: 下 ▶ clicked N times right after the page appears shows step N —
    once with clicks fired the moment the button exists, once with mouse clicks as
    soon as Playwright sees it. (The castle replay page writes its demo match into the
    shared logs/, which the Throne page used to open as its newest log and fail on.)"""
    url = voila_url(notebook)
    for mode in ("at-once", "mouse"):
        page = browser.new_page(viewport={"width": 1440, "height": 900})
        if mode == "at-once":
            page.add_init_script(CLICK_AT_ONCE)
        page.goto(url)
        button = page.get_by_role("button", name="下 ▶")
        expect(button).to_be_visible(timeout=RENDER_TIMEOUT_MS)
        if mode == "mouse":
            for _ in range(EARLY_CLICKS):
                button.click()
        else:
            page.wait_for_function(f"window.__early_clicks === {EARLY_CLICKS}")
        expect(page.get_by_text(f"步 {EARLY_CLICKS}/")).to_be_visible(timeout=30_000)
        page.wait_for_timeout(500)  # a late click would still move it on
        expect(page.get_by_text(f"步 {EARLY_CLICKS}/")).to_be_visible()
        name = Path(notebook).stem
        page.screenshot(path=str(artifacts_dir / f"{name}_early_clicks_{mode}.png"))
        assert_no_error_output(page)
        page.close()
