"""The play dashboard, served by Voilà, renders in a real browser (placeholder for now)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

RENDER_TIMEOUT_MS = 90_000  # the first request starts a kernel and runs every cell
# Outputs a cell writes on failure (a traceback, with show_tracebacks=True in the fixture).
ERROR_OUTPUTS = (
    '[data-mime-type="application/vnd.jupyter.stderr"], '
    '[data-mime-type="application/vnd.jupyter.error"]'
)


def test_play_placeholder_renders(
    voila_url: Callable[[str], str], page: Page, artifacts_dir: Path
) -> None:
    page.goto(voila_url("notebooks/play.ipynb"))
    try:
        expect(page.get_by_text("王座与方阵 · Throne & Phalanx")).to_be_visible(
            timeout=RENDER_TIMEOUT_MS
        )
        # A rendered ipywidgets.HTML: the kernel ran the cells and the widget manager works.
        widget = page.locator(".widget-html-content", has_text="the play board is coming soon")
        errors = page.locator(ERROR_OUTPUTS)
        # Wait for whichever comes first, so a failing cell fails the test at once.
        expect(widget.or_(errors).first).to_be_visible(timeout=RENDER_TIMEOUT_MS)
        expect(errors).to_have_count(0)
        expect(widget).to_be_visible()
    finally:
        page.screenshot(path=str(artifacts_dir / "play_placeholder.png"), full_page=True)
