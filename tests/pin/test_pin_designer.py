"""The PIN card designer on a copy of cards-pin.csv: bad edits are refused with
file:row:column and nothing written; good edits and new cards are saved atomically,
untouched rows byte-identical (PIN-CARD-1, PIN-START-1)."""

from __future__ import annotations

import shutil
from pathlib import Path

from throne_lib.games.pin.cards import DEFAULT_PATH, load_pin_cards
from throne_lib.games.pin.ui.designer import PinCardDesigner, gallery_html


def test_designer_refuses_bad_rows_and_saves_good_ones(tmp_path: Path) -> None:
    path = tmp_path / "cards-pin.csv"
    shutil.copy(DEFAULT_PATH, path)
    before = path.read_text(encoding="utf-8")
    d = PinCardDesigner(path)
    d.set_cell(2, "cost", "abc")
    assert d.dirty and not d.save()
    assert any(e.startswith("cards-pin.csv:4:cost:") for e in d.errors)
    assert path.read_text(encoding="utf-8") == before
    d.set_cell(2, "cost", "3")
    d.duplicate(2)
    d.set_cell(3, "attack", "12")
    assert d.save(), d.errors
    after = path.read_text(encoding="utf-8")
    db = load_pin_cards(path)
    assert db["anv_rifles"].cost == 3 and db["anv_rifles_2"].attack == 12
    assert db["anv_rifles_2"].name == "铁砧步兵旅2"
    assert after.splitlines()[5:] == before.splitlines()[4:]  # other rows untouched
    assert "已写入" in d.panel.value and "铁砧步兵旅2" in d.gallery.value


def test_gallery_shows_every_card() -> None:
    db = load_pin_cards()
    html = gallery_html(db)
    assert html.count("pin-face") == len(db) and "生成1张侦察无人机" in html
