"""A PIN match in a real browser: Voilà serves pin.ipynb, Chromium plays 甲 by mouse.

快速对局 (3 rounds) against the scripted AI. Each own turn the test clicks a hand card,
then the first highlighted support-line hex if the card lit any (deploy by card then
hex, PIN-UI-6), then the last prompt button (结束回合, 放弃, …); decisions (mulligan,
reveal, windows, retreats) are answered by their buttons (PIN-UI-7). The status line's
data-* attributes say what the page shows; ``data-seq`` counts handled inputs.
Screenshots: pin_opening.png, pin_midgame.png, pin_result.png in tests/artifacts/.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from page_checks import assert_no_error_output
from playwright.sync_api import Page, expect

from throne_lib.games.pin.hexes import parse_cell
from throne_lib.games.pin.ui.widget import HEIGHT, WIDTH, centre

pytestmark = pytest.mark.browser

STATE = "const e = document.querySelector('.pin-state'); const s = e ? {...e.dataset} : null;"


class Player:
    def __init__(self, page: Page) -> None:
        self.page = page

    def state(self) -> dict[str, str]:
        data = self.page.evaluate(f"(() => {{ {STATE} return s; }})()")
        assert data is not None
        return dict(data)

    def wait(self, predicate: str, timeout: int = 60_000) -> dict[str, str]:
        self.page.wait_for_function(
            f"(() => {{ {STATE} return s && ({predicate}); }})()", timeout=timeout
        )
        return self.state()

    def handled(self, action: Callable[[], None]) -> dict[str, str]:
        seq = int(self.state()["seq"])
        action()
        return self.wait(f"+s.seq > {seq}")

    def click_cell(self, name: str) -> dict[str, str]:
        box = self.page.locator(".pin-canvas").first.bounding_box()
        assert box is not None
        x, y = centre(parse_cell(name), 0)
        kx, ky = box["width"] / WIDTH, box["height"] / HEIGHT  # CSS may scale the canvas
        return self.handled(lambda: self.page.mouse.click(box["x"] + x * kx, box["y"] + y * ky))

    def press_last(self) -> dict[str, str]:
        return self.handled(lambda: self.page.locator("button.pin-btn").last.click())


def test_pin_match_by_mouse(voila_url, page: Page, artifacts_dir: Path) -> None:  # type: ignore[no-untyped-def]
    """PIN-UI-1 … PIN-UI-7 in Chromium: a quick match played with the mouse to the end."""
    page.goto(voila_url("notebooks/pin.ipynb"))
    page.locator(".pin-start").wait_for(timeout=120_000)
    page.get_by_text("快速对局（3轮）").click()
    page.locator(".pin-start").click()
    p = Player(page)
    p.wait("true", timeout=60_000)
    page.screenshot(path=str(artifacts_dir / "pin_opening.png"))
    deployed = 0
    for step in range(300):
        s = p.wait("s.mine === '1' || s.over === '1'", timeout=120_000)
        if s["over"] == "1":
            break
        if s["pending"] == "" and s["phase"] == "action" and deployed < 3 * (step + 1):
            cards = page.locator("button.pin-card")
            for i in range(cards.count()):
                s = p.handled(lambda i=i, cards=cards: cards.nth(i).click())
                marks = json.loads(s["marks"])
                if marks["deploy"]:
                    s = p.click_cell(marks["deploy"][0])
                    deployed += 1
                    break
                p.handled(lambda i=i, cards=cards: cards.nth(i).click())  # unselect
            if deployed == 2:
                page.screenshot(path=str(artifacts_dir / "pin_midgame.png"))
            s = p.state()
            if s["mine"] != "1" or s["over"] == "1":
                continue
        if s["pending"] == "retreat":
            marks = json.loads(s["marks"])
            if marks["retreat"]:
                p.click_cell(marks["retreat"][0])
                continue
        p.press_last()
    s = p.wait("s.over === '1'", timeout=120_000)
    page.screenshot(path=str(artifacts_dir / "pin_result.png"))
    assert deployed > 0
    assert page.get_by_text("对局结束").count() >= 1
    page.locator(".pin-replay-btn").click()  # the match just played, step by step
    title = page.locator(".pin-replay .replay-title")
    expect(title).to_contain_text("步 0/", timeout=60_000)
    page.locator(".pin-replay .replay-last").click()
    expect(title).to_contain_text("对局结束")
    page.screenshot(path=str(artifacts_dir / "pin_result_replay.png"), full_page=True)
    assert_no_error_output(page)
