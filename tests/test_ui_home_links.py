"""Every dashboard of every registered game starts with the navigation line (‹ 首页 and
the game's other pages): its first code cell calls ``install_page`` with its own name
(issue 36, item 5; the browser tests see the line on the castle and PIN pages)."""

from __future__ import annotations

import json
from pathlib import Path

from throne_lib.kit import registry
from throne_lib.ui.home import nav_html

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"


def test_every_dashboard_installs_the_home_line() -> None:
    pages = [d.notebook for g in registry.games() for d in g.dashboards]
    assert {
        "castle.ipynb",
        "cities.ipynb",
        "pin.ipynb",
        "castle_replay.ipynb",
        "cities_replay.ipynb",
        "pin_replay.ipynb",
        "goofspiel_replay.ipynb",
    } <= set(pages)
    for notebook in pages:
        cells = json.loads((NOTEBOOKS / notebook).read_text(encoding="utf-8"))["cells"]
        code = ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]
        assert f'install_page("{notebook}")' in code[0], notebook
        assert "tp-home-link" in nav_html(notebook) and "‹ 首页" in nav_html(notebook)


def test_the_readme_starts_at_the_home_page_and_lists_every_dashboard() -> None:
    readme = (NOTEBOOKS.parent / "README.md").read_text(encoding="utf-8")
    head = readme.split("### Building", 1)[0]
    assert "/voila/render/index.ipynb" in head and "mypyc" not in head
    for g in registry.games():
        for d in g.dashboards:
            assert f"`{d.notebook.removesuffix('.ipynb')}`" in head, d.notebook


def test_the_page_heading_names_its_game_and_page_once() -> None:
    """「城堡之心 · 平衡分析」, not 「城堡之心 · 城堡之心 · 平衡分析」; 「王座与方阵 · 对战」; 「PIN 架空战争 · 对战」, not 「PIN 架空战争 · PIN 对战」."""
    for g in registry.games():
        for d in g.dashboards:
            head = nav_html(d.notebook).split("<b>", 1)[1].split("</b>", 1)[0]
            short = g.title.split(" ", 1)[0]  # "PIN" of "PIN 架空战争"
            page = d.title.removeprefix(f"{short} ") if " " in g.title else d.title
            assert head.count(g.title) == 1 and page in head, (d.notebook, head)
            assert head.count(short) == 1, (d.notebook, head)
    assert "<b>王座与方阵 · 对战</b>" in nav_html("play.ipynb")
    assert "<b>城堡之心 · 平衡分析</b>" in nav_html("castle_balance.ipynb")
    assert "<b>PIN 架空战争 · 对战</b>" in nav_html("pin.ipynb")
