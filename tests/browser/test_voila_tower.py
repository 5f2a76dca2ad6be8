"""王座之塔 in a real browser (R-TOWER-8, R-TOWER-1, R-TOWER-4): Voilà serves
tower.ipynb; Chromium starts a run, clicks a node on the map canvas, clears the
first battle with 自动战斗 at the fast tempo (designer cheat: the first enemy's
throne has 1 HP, ``THRONE_TOWER_WEAK_FIRST=1``), sees the offered cards drawn as card
faces, picks a card, reloads the page and sees the run resumed. Screenshots: tower_map.png, tower_battle.png,
tower_battle_resumed.png, tower_reward.png, tower_resumed.png in tests/artifacts/."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from throne_lib.games.throne.tower.mapview import centre
from throne_lib.games.throne.tower.run import Run, Tables
from throne_lib.games.throne.tower.save import load_run
from throne_lib.games.throne.ui.card_row import card_xy

pytestmark = pytest.mark.browser

RENDER_TIMEOUT_MS = 90_000
BATTLE_TIMEOUT_MS = 180_000
SEED = 7
# the map canvas is drawn: the pixel at (x, y) is opaque (ipycanvas draws on <canvas>)
DRAWN = """([x, y]) => { const c = document.querySelector('.tp-tower canvas');
  if (!c) return false; const d = c.getContext('2d').getImageData(x, y, 1, 1).data;
  return d[3] > 0; }"""
REWARD_DRAWN = """([x, y]) => { const e = document.querySelector('.tp-tower-reward-cards');
  const c = e && (e.tagName === 'CANVAS' ? e : e.querySelector('canvas'));
  if (!c) return false; const d = c.getContext('2d').getImageData(x + 20, y + 20, 1, 1).data;
  return d[3] > 0; }"""


def test_tower_run_survives_a_reload(
    voila_url: Callable[[str], str],
    page: Page,
    artifacts_dir: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    save = tmp_path / "tower-save.json"
    monkeypatch.setenv("THRONE_TOWER_SAVE", str(save))
    monkeypatch.setenv("THRONE_TOWER_WEAK_FIRST", "1")
    url = voila_url("notebooks/tower.ipynb")
    page.goto(url)
    start = page.locator(".tp-tower-start")
    expect(start).to_be_visible(timeout=RENDER_TIMEOUT_MS)
    seed_input = page.locator(".widget-inline-hbox:has-text('种子') input")
    seed_input.fill(str(SEED))
    seed_input.press("Enter")
    start.click()
    # the map: click the first reachable node on the canvas (R-TOWER-1)
    expect(page.locator(".tp-tower-go").first).to_be_visible(timeout=RENDER_TIMEOUT_MS)
    run = Run.new(SEED, tables=Tables.load())
    x, y = centre(run, run.reachable()[0])
    page.wait_for_function(DRAWN, arg=[x, y], timeout=RENDER_TIMEOUT_MS)
    page.screenshot(path=str(artifacts_dir / "tower_map.png"))
    box = page.locator(".tp-tower canvas").first.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + x, box["y"] + y)  # the node's tooltip (issue 17 item 12)
    expect(page.locator(".tp-tower-tip")).to_contain_text(
        "可前往，点击进入", timeout=RENDER_TIMEOUT_MS
    )
    page.mouse.click(box["x"] + x, box["y"] + y)
    # the battle, played by the AI for us at the fast tempo
    auto = page.locator(".tp-tower-auto")
    expect(auto).to_be_visible(timeout=RENDER_TIMEOUT_MS)
    assert load_run(save).screen == "battle"
    # reloading mid-battle comes back to the same battle (R-TOWER-8)
    page.reload(timeout=RENDER_TIMEOUT_MS)
    expect(auto).to_be_visible(timeout=RENDER_TIMEOUT_MS)
    expect(page.locator(".tp-match")).to_be_visible(timeout=RENDER_TIMEOUT_MS)
    page.wait_for_timeout(1000)
    page.screenshot(path=str(artifacts_dir / "tower_battle_resumed.png"))
    auto.click()
    finish = page.locator(".tp-tower-finish")
    expect(finish).to_be_visible(timeout=BATTLE_TIMEOUT_MS)
    page.screenshot(path=str(artifacts_dir / "tower_battle.png"))
    finish.click()
    # the reward: 1 of 3 cards (R-TOWER-4)
    picks = page.locator(".tp-tower-pick")
    expect(picks).to_have_count(3, timeout=RENDER_TIMEOUT_MS)
    # the offered cards are drawn as card faces on their canvas (not left blank)
    page.wait_for_function(REWARD_DRAWN, arg=[*card_xy(1)], timeout=RENDER_TIMEOUT_MS)
    page.screenshot(path=str(artifacts_dir / "tower_reward.png"))
    picks.first.click()
    expect(page.locator(".tp-tower-go").first).to_be_visible(timeout=RENDER_TIMEOUT_MS)
    expect(page.locator(".tp-tower-header")).to_contain_text("牌组 11 张")
    saved = load_run(save)
    assert saved.screen == "map" and len(saved.deck) == 11
    # closing and reopening the page resumes the run (R-TOWER-8)
    page.reload(timeout=RENDER_TIMEOUT_MS)
    expect(page.locator(".tp-tower-go").first).to_be_visible(timeout=RENDER_TIMEOUT_MS)
    expect(page.locator(".tp-tower-header")).to_contain_text("牌组 11 张")
    expect(page.locator(".tp-tower-start")).to_have_count(0)
    page.wait_for_function(DRAWN, arg=[x, y], timeout=RENDER_TIMEOUT_MS)
    page.screenshot(path=str(artifacts_dir / "tower_resumed.png"))
    assert load_run(save).history == saved.history
