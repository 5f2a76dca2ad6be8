"""The page helpers of the public demo (throne_lib/ui/demo.py), in a real browser:
mouse moves over the match canvas are coalesced before they reach the kernel, and a
banner tells the visitor when the kernel connection is gone."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

RENDER_TIMEOUT_MS = 120_000


def test_hover_and_drag_moves_are_throttled(voila_url: Callable[[str], str], page: Page) -> None:
    page.set_viewport_size({"width": 1280, "height": 1150})
    page.goto(voila_url("notebooks/play.ipynb"))
    canvas = page.locator(".tp-match canvas").last  # the board shows at once
    expect(canvas).to_be_visible(timeout=RENDER_TIMEOUT_MS)
    box = canvas.bounding_box()
    assert box is not None
    before = page.evaluate("({...window.__tpMoveGate})")
    x0, y0 = box["x"] + 40, box["y"] + 40
    page.mouse.move(x0, y0)
    t0 = page.evaluate("performance.now()")
    page.mouse.move(x0 + 300, y0 + 300, steps=40)  # hover: the inspector needs only a few
    elapsed = page.evaluate("performance.now()") - t0
    hover = page.evaluate("({...window.__tpMoveGate})")
    sent = hover["forwarded"] - before["forwarded"]
    assert sent + hover["dropped"] - before["dropped"] >= 40
    assert sent <= elapsed / 150 + 1, (sent, elapsed)  # at most one per 150 ms
    page.mouse.down()
    t0 = page.evaluate("performance.now()")
    page.mouse.move(x0, y0, steps=60)  # a fast drag: at most one move per 40 ms goes on
    elapsed = page.evaluate("performance.now()") - t0
    page.mouse.up()
    drag = page.evaluate("({...window.__tpMoveGate})")
    sent = drag["forwarded"] - hover["forwarded"]
    dropped = drag["dropped"] - hover["dropped"]
    # On a loaded machine the 60 steps may take longer than 60 × 40 ms: then every move
    # may pass; the bound is what the gate promises.
    assert sent >= 1 and sent + dropped >= 60, (sent, dropped)
    assert sent <= elapsed / 40 + 1, (sent, elapsed)


def test_banner_when_the_kernel_connection_is_gone(
    page: Page, voila_server: Any, artifacts_dir: Path
) -> None:
    server = voila_server("notebooks/index.ipynb", show_tracebacks=False)
    try:
        server.wait_ready()
        page.goto(server.url)
        expect(page.locator("#tp-link-play")).to_be_visible(timeout=RENDER_TIMEOUT_MS)
        banner = page.locator("#tp-conn")
        expect(banner).to_be_hidden()
    finally:
        server.stop()  # the server and its kernel go away under the open page
    expect(banner).to_be_visible(timeout=20_000)
    expect(banner).to_contain_text("连接已断开")
    page.screenshot(path=str(artifacts_dir / "demo_connection_lost.png"))
