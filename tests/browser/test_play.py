"""A full match in a real browser: Voilà serves play.ipynb, Chromium plays by mouse.

The human (blue) side plays only through the canvas and the buttons: the opening
(keep + three barracks placed by clicks), then every turn summons by clicks, a spell
by drag when one is castable, attacks and moves by clicks, then 结束回合. The match
uses 快速对局 (5-round limit) and the fast tempo so it ends in reasonable time; the
result panel must appear. The test reads what the page shows from the data-*
attributes of the status line (the highlights, the units that can still act, the
hand); ``data-seq`` counts the mouse releases and buttons the kernel has handled, so
the test waits for each of its clicks to be processed.
Screenshots: play_opening.png, play_midgame.png, play_result.png in tests/artifacts/.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from page_checks import ERROR_OUTPUT as ERRORS
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from throne_lib import load_cards
from throne_lib.games.throne.ui.layout import DEFAULT_LAYOUT as L

pytestmark = pytest.mark.browser

RENDER_TIMEOUT_MS = 90_000
STEP_TIMEOUT_MS = 20_000
DB = load_cards()
BARRACKS = ("b2", "d2", "f2")  # where the test founds its three barracks
STATE = "const e = document.querySelector('.tp-state'); const s = e ? {...e.dataset, text: e.textContent} : null;"


def _cell(name: str) -> int:
    return (int(name[1:]) - 1) * 7 + (ord(name[0]) - ord("a"))


def _row(name: str) -> int:
    return int(name[1:])


class Player:
    """Mouse actions on the play canvas, synchronised on the status line's data."""

    def __init__(self, page: Page) -> None:
        self.page = page

    def state(self) -> dict[str, str]:
        data = self.page.evaluate(f"(() => {{ {STATE} return s; }})()")
        assert data is not None
        return dict(data)

    def wait(self, predicate: str, timeout: int = STEP_TIMEOUT_MS) -> dict[str, str]:
        """Wait for a JS predicate over ``s`` (the status line's dataset and text)."""
        try:
            self.page.wait_for_function(
                f"(() => {{ {STATE} return s && ({predicate}); }})()", timeout=timeout
            )
        except PlaywrightTimeout:
            pytest.fail(f"waited for {predicate}; the page shows {self.state()}")
        return self.state()

    def at(self, x: float, y: float) -> tuple[float, float]:
        """Canvas pixel (x, y) on the page: the canvas may move, and on a short window
        the board is zoomed out to keep the hand in view."""
        box = self.page.locator(".tp-match canvas").first.bounding_box()
        assert box is not None
        return box["x"] + x * box["width"] / L.width, box["y"] + y * box["height"] / L.height

    def handled(self, action: Callable[[], None]) -> dict[str, str]:
        """Do a mouse action and wait until the kernel has handled it."""
        seq = int(self.state()["seq"])
        action()
        return self.wait(f"+s.seq > {seq}")

    def click_xy(self, x: float, y: float) -> dict[str, str]:
        return self.handled(lambda: self.page.mouse.click(*self.at(x, y)))

    def click_cell(self, name: str) -> dict[str, str]:
        return self.click_xy(*L.cell_center(_cell(name)))

    def click_chip(self, i: int) -> dict[str, str]:
        return self.click_xy(*L.tray.center(i))

    def highlights(self, style: str) -> list[str]:
        items = (item.split(":") for item in self.state()["hl"].split())
        return [cell for cell, s in items if s == style]

    def drag_card(self, index: int) -> dict[str, str]:
        """Drag hand card ``index`` over the board; drop it on its first highlighted
        target (read while dragging), or back on the hand when it has none."""
        mouse = self.page.mouse
        mouse.move(*self.at(*L.hand.center(index)))
        mouse.down()
        mouse.move(*self.at(*L.cell_center(_cell("d3"))), steps=8)
        self.page.wait_for_timeout(300)  # the drag start reaches the kernel
        targets = self.highlights("target") + self.highlights("place")
        end = L.cell_center(_cell(targets[0])) if targets else L.hand.center(index)

        def drop() -> None:
            mouse.move(*self.at(*end), steps=4)
            mouse.up()

        return self.handled(drop)

    def wait_my_turn_or_over(self) -> bool:
        self.page.wait_for_function(
            f"(() => {{ {STATE} return s && (s.phase === 'over' ||"
            " (s.turn === '0' && s.phase === 'main')); })()",
            timeout=180_000,
        )
        return self.state()["phase"] == "over"


def play_turn(p: Player, summary: dict[str, int]) -> None:
    """One human turn by mouse: summons, a spell by drag, attacks/moves, end turn."""
    for cell in [c for c in p.state()["mine"].split() if c in BARRACKS][:2]:
        s = p.click_cell(cell)
        summon = p.highlights("summon")
        if s["chips"].startswith("tier:") and summon:
            s = p.click_cell(max(summon, key=_row))
            summary["summon"] += s["text"].startswith("已执行：召唤")
    hand = p.state()["hand"].split()
    spells = [i for i, c in enumerate(hand) if DB[c].kind == "spell"]
    if spells:
        s = p.drag_card(spells[0])
        summary["drag"] += s["text"].startswith("已执行：打出")
    units = [c for c in p.state()["mine"].split() if c not in BARRACKS and c != "d1"]
    for cell in units[:4]:
        s = p.click_cell(cell)
        if s["turn"] != "0" or s["phase"] != "main":
            break
        attacks, moves = p.highlights("attack"), p.highlights("move")
        if attacks:
            s = p.click_cell(attacks[0])
            summary["attack"] += s["text"].startswith("已执行：攻击")
        elif moves:
            s = p.click_cell(max(moves, key=_row))
            summary["move"] += s["text"].startswith("已执行：移动")
    if p.state()["phase"] == "captain":
        p.click_chip(len(p.state()["chips"].split()) - 1)  # 取消
    if p.state()["phase"] == "main":
        p.handled(lambda: p.page.locator("button.tp-end").click())
        summary["turns"] += 1


def test_full_match_by_mouse(
    voila_url: Callable[[str], str], page: Page, artifacts_dir: Path
) -> None:
    page.set_viewport_size({"width": 1280, "height": 1150})  # the whole dashboard in view
    page.goto(voila_url("notebooks/play.ipynb"))
    try:
        # The page opens on a board at once (the last settings); 换将领/牌组 opens the panel.
        setup = page.locator("button.tp-setup-btn")
        expect(setup.or_(page.locator(ERRORS)).first).to_be_visible(timeout=RENDER_TIMEOUT_MS)
        expect(page.locator(ERRORS)).to_have_count(0)
        expect(page.locator(".tp-match canvas").first).to_be_visible()
        setup.click()
        start = page.locator("button.tp-start")
        expect(start).to_be_visible()
        page.locator(".tp-rules select").select_option(label="快速对局（5 回合）")
        page.locator(".tp-tempo-setup button", has_text="快速").click()
        page.locator(".tp-seed input").fill("7")
        page.locator(".tp-seed input").press("Enter")
        start.click()
        canvas = page.locator(".tp-match canvas").first
        expect(canvas).to_be_visible(timeout=RENDER_TIMEOUT_MS)
        box = canvas.bounding_box()
        assert box is not None  # fixed pixel size: clicks land where things are drawn
        assert (round(box["width"]), round(box["height"])) == (L.width, L.height)
        p = Player(page)
        # The opening: the AI may open first; we keep our hand and found 3 barracks.
        s = p.wait("s.turn === '0' && s.phase === 'replace'", timeout=60_000)
        assert s["chips"] == "keep"
        s = p.click_chip(0)
        assert s["phase"] == "found"
        page.screenshot(path=str(artifacts_dir / "play_opening.png"))
        for cell in BARRACKS:
            s = p.click_cell(cell)
            assert s["text"].startswith("已执行：建立") or s["turn"] != "0", s
        summary = {"summon": 0, "drag": 0, "attack": 0, "move": 0, "turns": 0}
        while not p.wait_my_turn_or_over():
            play_turn(p, summary)
            if summary["turns"] == 2:
                page.screenshot(path=str(artifacts_dir / "play_midgame.png"))
        result = page.locator(".tp-result")
        expect(result).to_be_visible()
        expect(result).to_contain_text("获胜")
        expect(page.locator(".tp-log")).to_contain_text("对局结束")
        expect(result).to_contain_text("对局记录已保存")
        (artifacts_dir / "play_summary.json").write_text(json.dumps(summary), encoding="utf-8")
        assert summary["summon"] >= 2 and summary["move"] + summary["attack"] >= 1, summary
        assert summary["turns"] >= 3, summary
        page.screenshot(path=str(artifacts_dir / "play_result.png"))
        page.locator("button.tp-again").click()  # 再来一局: the next seed's opening
        p.wait("s.phase === 'replace' || s.phase === 'found'", timeout=60_000)
        expect(result).to_be_hidden()
    except BaseException:
        page.screenshot(path=str(artifacts_dir / "play_result.png"))
        raise


def test_a_short_window_keeps_the_prompt_and_the_hand_in_view(
    voila_url: Callable[[str], str], page: Page, artifacts_dir: Path
) -> None:
    """Issue 17 item 2 at 1280×720: the prompt line and the hand are in view without
    scrolling (the match is zoomed out to fit the window's height), and clicks on the
    zoomed board still land on the cell and chip under the pointer."""
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(voila_url("notebooks/play.ipynb"))
    canvas = page.locator(".tp-match canvas").first
    expect(canvas.or_(page.locator(ERRORS)).first).to_be_visible(timeout=RENDER_TIMEOUT_MS)
    expect(page.locator(ERRORS)).to_have_count(0)
    page.wait_for_function(
        "(() => { const c = document.querySelector('.tp-match canvas');"
        " return c && c.getBoundingClientRect().bottom <= window.innerHeight; })()",
        timeout=STEP_TIMEOUT_MS,
    )
    status = page.locator(".tp-status").bounding_box()
    box = canvas.bounding_box()
    assert status is not None and box is not None
    assert status["y"] >= 0 and box["y"] + box["height"] <= 720
    assert box["width"] < L.width  # zoomed out, not cut off
    page.locator("button.tp-setup-btn").click()  # a known start: 快速对局, seed 7
    page.locator(".tp-rules select").select_option(label="快速对局（5 回合）")
    page.locator(".tp-seed input").fill("7")
    page.locator(".tp-seed input").press("Enter")
    page.locator("button.tp-start").click()
    p = Player(page)
    s = p.wait("s.turn === '0' && s.phase === 'replace'", timeout=60_000)
    page.wait_for_function(
        "(() => { const c = document.querySelector('.tp-match canvas');"
        " return c && c.getBoundingClientRect().bottom <= window.innerHeight; })()",
        timeout=STEP_TIMEOUT_MS,
    )
    s = p.click_chip(0)  # 确定手牌, at its zoomed place
    assert s["phase"] == "found", s
    s = p.click_cell("b2")
    assert s["text"].startswith("已执行：建立") and "b2" in s["text"], s
    page.screenshot(path=str(artifacts_dir / "play_1280x720.png"))


def test_ismcts_opponent_with_a_think_time_thinks_and_answers(
    voila_url: Callable[[str], str], page: Page, artifacts_dir: Path
) -> None:
    """Issue 32 item 6: 对手 信息集搜索 with 思考时间 0.1 s, chosen beside 新对局, plays
    the next match: while it searches the status line says 「AI 思考中」, a click is
    still answered, and the AI's moves come. The page remembers its last settings, so
    the test puts 标准 AI back for the tests after it."""
    page.set_viewport_size({"width": 1280, "height": 1150})
    page.goto(voila_url("notebooks/play.ipynb"))
    kind = page.locator(".tp-opponents-kind select")
    expect(kind.or_(page.locator(ERRORS)).first).to_be_visible(timeout=RENDER_TIMEOUT_MS)
    expect(page.locator(ERRORS)).to_have_count(0)
    p = Player(page)
    try:
        think = page.locator(".tp-opponents-think")
        kind.select_option(label="标准 AI")  # (the last settings may be another AI)
        expect(think).to_be_hidden()  # no think time for 标准 AI
        kind.select_option(label="信息集搜索 AI")
        expect(think).to_be_visible()
        handle = think.locator(".noUi-handle")
        handle.focus()
        for _ in range(4):  # 0.5 s by default, one step of 0.1 s per key
            handle.press("ArrowLeft")
        expect(think).to_contain_text("0.1")
        page.locator(".tp-next-seed input").fill("7")
        page.locator("button.tp-new-match").click()
        expect(page.locator(".tp-seed-now")).to_have_text("本局种子 7")
        expect(page.locator(".tp-match")).to_contain_text("红方（信息集搜索 AI）")
        # seed 7: red opens first, then blue, then red plays the first turn
        s = p.wait("s.turn === '0' && s.phase === 'replace'", timeout=60_000)
        s = p.click_chip(0)  # 确定手牌
        for cell in BARRACKS:
            s = p.click_cell(cell)
            assert s["text"].startswith("已执行：建立") or s["turn"] != "0", s
        s = p.wait("s.thinking === '1'", timeout=60_000)
        assert "AI 思考中" in s["text"] and "0.1 秒" in s["text"], s
        page.screenshot(path=str(artifacts_dir / "play_ismcts_thinking.png"))
        s = p.click_cell("d1")  # the kernel answers while the AI searches
        assert s["turn"] == "0" or "AI 思考中" in s["text"], s
        assert not p.wait_my_turn_or_over()
        s = p.wait("s.thinking === '0' && s.text.startsWith('轮到你了')")
        expect(page.locator(".tp-ai-line")).to_contain_text("红方（信息集搜索 AI）")
        page.screenshot(path=str(artifacts_dir / "play_ismcts_answered.png"))
    finally:
        kind.select_option(label="标准 AI")
        page.locator("button.tp-new-match").click()  # saves 标准 AI as the last setting
        p.wait("s.phase === 'replace' || s.phase === 'found'", timeout=60_000)
