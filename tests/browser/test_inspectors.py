"""The newer games' pages as a designer meets them (issue 36), one page load each:
城堡之心 — the ‹ 首页 line, a 战报 name opens its card's full text in the inspector, a
seat on the table shows its hero; PIN — the ‹ 首页 line, a hand card's text in the
inspector, and every unit's labels measured with the browser's own font fit their box
(canvas ``measureText``, the texts :func:`item_texts` draws)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from throne_lib.games.castle.match import default_cards
from throne_lib.games.castle.ui.table import H as CASTLE_H
from throne_lib.games.castle.ui.table import W as CASTLE_W
from throne_lib.games.castle.ui.table import seat_centre
from throne_lib.games.pin.cards import load_pin_cards
from throne_lib.games.pin.ui.widget import ITEM, item_texts

pytestmark = pytest.mark.browser

RENDER_TIMEOUT_MS = 120_000


def test_castle_inspector_opens_from_the_log_and_the_table(
    voila_url: Callable[[str], str], page: Page, artifacts_dir: Path
) -> None:
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(voila_url("notebooks/castle.ipynb"), timeout=RENDER_TIMEOUT_MS)
    expect(page.locator(".tp-home-link")).to_have_text("‹ 首页", timeout=RENDER_TIMEOUT_MS)
    inspector = page.locator(".castle-inspector")
    expect(inspector).to_be_visible(timeout=RENDER_TIMEOUT_MS)
    name = page.locator('.castle-log .tp-ref[data-ref^="card:"]').first
    expect(name).to_be_visible(timeout=60_000)
    card = default_cards()[str(name.get_attribute("data-ref")).removeprefix("card:")]
    name.click()
    expect(inspector).to_contain_text(card.text[:12])
    canvas = page.locator(".castle-table").first
    box = canvas.bounding_box()
    assert box is not None
    # the seat at the top of the table (opposite the viewer; positions are dealt)
    obs = {"num_seats": 4, "seat": 0, "players": [{"position": i} for i in range(4)]}
    x, y = seat_centre(obs, 2)
    page.mouse.click(
        box["x"] + x * box["width"] / CASTLE_W, box["y"] + y * box["height"] / CASTLE_H
    )
    expect(inspector).to_contain_text("号座位")
    expect(inspector).to_contain_text("生命")
    page.screenshot(path=str(artifacts_dir / "castle_inspector.png"))


def test_pin_inspector_and_unit_labels_fit(
    voila_url: Callable[[str], str], page: Page, artifacts_dir: Path
) -> None:
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(voila_url("notebooks/pin.ipynb"), timeout=RENDER_TIMEOUT_MS)
    expect(page.locator(".tp-home-link")).to_have_text("‹ 首页", timeout=RENDER_TIMEOUT_MS)
    page.locator(".pin-start").click(timeout=RENDER_TIMEOUT_MS)
    first = page.locator("button.pin-card").first
    expect(first).to_be_visible(timeout=60_000)
    first.click()
    inspector = page.locator(".pin-inspector")
    expect(inspector).to_contain_text("费用")
    db = load_pin_cards()
    name = first.inner_text().split("（")[0]
    cid = next(c for c in db if db[c].name == name)
    expect(inspector).to_contain_text(db.text(cid)[:10] or name)
    labels = []
    for c in db:
        card = db[c]
        if card.kind == "单位":
            item = {"name": card.name, "icon": "甲炮", "size": card.size, "attack": 150,
                    "hp": "150/150"}  # fmt: skip
            labels += [(text, font) for text, _, _, font in item_texts(item, 0, 0)]
    widths = page.evaluate(
        """(labels) => { const c = document.createElement("canvas").getContext("2d");
        return labels.map(([t, f]) => { c.font = f; return c.measureText(t).width; }); }""",
        labels,
    )
    too_wide = [(t, w) for (t, _), w in zip(labels, widths, strict=True) if w > ITEM - 2]
    assert not too_wide, too_wide
    page.screenshot(path=str(artifacts_dir / "pin_inspector.png"))
