"""The tower dashboard without a browser (R-TOWER-8, R-TOWER-1): start, map click,
battle with 自动战斗, reward, and a resumed dashboard from the save."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from throne_lib.games.throne.tower import nodes
from throne_lib.games.throne.tower.config import DEFAULT_TOWER
from throne_lib.games.throne.tower.map import KIND_ZH
from throne_lib.games.throne.tower.mapview import KIND_TIP, centre, map_ops, node_at, node_under
from throne_lib.games.throne.tower.run import Tables
from throne_lib.games.throne.tower.save import load_run
from throne_lib.games.throne.ui.card_row import DIM_ALPHA, FACE_H, FACE_W, GAP, card_xy, row_at
from throne_lib.games.throne.ui.tower_widget import SHOP_H, SHOP_W, TowerApp

WEAK_FIRST = dataclasses.replace(DEFAULT_TOWER, weak_first_enemy_hp=1)


@pytest.fixture(scope="module")
def tables() -> Tables:
    return Tables.load()


def buttons(app: TowerApp, cls: str) -> list:  # type: ignore[type-arg]
    found = []

    def walk(w: object) -> None:
        if cls in getattr(w, "_dom_classes", ()):
            found.append(w)
        for child in getattr(w, "children", ()):
            walk(child)

    walk(app)
    return found


def test_dashboard_plays_saves_and_resumes(tables: Tables, tmp_path: Path) -> None:
    path = tmp_path / "tower.json"
    app = TowerApp(path, tables, WEAK_FIRST, ai_mode="sync")
    assert app.run is None and buttons(app, "tp-tower-start")
    buttons(app, "tp-tower-start")[0].click()
    run = app.run
    assert run is not None and run.screen == "map" and path.exists()
    # the map: reachable nodes ringed, a click on one goes there (R-TOWER-1)
    assert len(buttons(app, "tp-tower-go")) == len(run.reachable())
    target = run.reachable()[0]
    assert ("stroke_circle", *centre(run, target), 27) in map_ops(run)
    app.click_map(*centre(run, target))
    assert run.screen == "battle" and app.match_widget is not None
    assert load_run(path, tables).screen == "battle"
    app.auto.value = True  # 自动战斗: the AI plays our side (sync in tests)
    m = app.match_widget.match
    assert m.is_over and m.winner == 0
    saved = load_run(path, tables)  # saved after every action, mid-battle included
    assert saved.battle is not None and saved.battle.match.hash() == m.hash()
    buttons(app, "tp-tower-finish")[0].click()
    assert run.screen == "reward" and len(buttons(app, "tp-tower-pick")) == 3
    buttons(app, "tp-tower-pick")[0].click()
    assert run.screen == "map" and len(run.deck) == 11
    # a new dashboard (a reloaded page) resumes exactly where the run was (R-TOWER-8)
    again = TowerApp(path, tables, ai_mode="sync")
    assert again.run is not None and again.run.history == run.history
    assert again.run.deck == run.deck and len(buttons(again, "tp-tower-go")) == len(run.reachable())


def test_dashboard_resumes_mid_battle(tables: Tables, tmp_path: Path) -> None:
    path = tmp_path / "tower.json"
    app = TowerApp(path, tables, ai_mode="manual")
    buttons(app, "tp-tower-start")[0].click()
    assert app.run is not None
    app.run.apply(app.run.choices()[0])
    app.save()
    app.show()
    mw = app.match_widget
    assert mw is not None
    mw.ctrl.apply(
        mw.match.legal_actions().of_kind("keep")[0]
    ) if mw.match.turn == 0 else mw.ai_step()
    again = TowerApp(path, tables, ai_mode="manual")
    assert again.match_widget is not None
    assert again.match_widget.match.hash() == mw.match.hash()


def test_dashboard_reports_a_corrupt_save_and_keeps_it(tables: Tables, tmp_path: Path) -> None:
    """R-TOWER-8: a corrupt save is reported and kept aside only on request."""
    path = tmp_path / "tower.json"
    path.write_text('{"format": "throne-tower-save", "schema": 7}', encoding="utf-8")
    app = TowerApp(path, tables, ai_mode="sync")
    assert "unknown save schema 7" in app.message.value and path.exists()
    buttons(app, "tp-tower-quarantine")[0].click()
    assert not path.exists() and buttons(app, "tp-tower-start")
    assert [p.name.startswith("tower.json.corrupt-") for p in tmp_path.iterdir()] == [True]


def test_node_at_only_hits_reachable_nodes(tables: Tables, tmp_path: Path) -> None:
    app = TowerApp(tmp_path / "t.json", tables, ai_mode="sync")
    app.start(3, "lionheart", ())
    run = app.run
    assert run is not None
    boss = run.tmap.boss(0)
    assert node_at(run, *centre(run, boss)) is None
    assert node_at(run, 0, 0) is None


def test_every_map_node_has_a_tooltip(tables: Tables, tmp_path: Path) -> None:
    """Issue 17 item 12: hovering a node of the map names it, says what it holds and
    whether the player can go there, on a line under the map."""
    app = TowerApp(tmp_path / "t.json", tables, ai_mode="sync")
    app.start(3, "lionheart", ())
    run, tip = app.run, app.map_tip
    assert run is not None and tip is not None
    first = run.reachable()[0]
    app.hover_map(*centre(run, first))
    where = f"第 1 行 · {'abcdefghij'[first.col]} 列"
    said = f"{KIND_ZH[first.kind]}（{where}）：{KIND_TIP[first.kind]} · 可前往，点击进入"
    assert tip.value == f"<b>{said}</b>"
    boss = run.tmap.boss(0)
    app.hover_map(*centre(run, boss))
    assert tip.value.startswith("<b>首领（第 8 行") and tip.value.endswith("现在到不了</b>")
    app.hover_map(0, 0)  # off the nodes: the last description stays
    assert tip.value.startswith("<b>首领")
    floor = [n for n in run.tmap if n.floor == run.floor]
    assert all(node_under(run, *centre(run, n)) == n for n in floor)


# --- card faces on the reward and shop screens (the gallery's faces, R-TOWER-4) ---------


def _reward_screen(tables: Tables, tmp_path: Path) -> TowerApp:
    app = TowerApp(tmp_path / "t.json", tables, WEAK_FIRST, ai_mode="manual")
    app.start(5, "lionheart", ())
    run = app.run
    assert run is not None
    app.choose(f"go {run.reachable()[0].id}")
    assert run.battle is not None
    run.battle.play_out()  # the AI wins against the 1-HP throne
    app.choose("finish")
    return app


def test_reward_cards_are_drawn_and_a_click_picks_the_card_under_it(
    tables: Tables, tmp_path: Path
) -> None:
    """R-TOWER-4: the offered cards as card faces; a click on one adds it to the deck."""
    app = _reward_screen(tables, tmp_path)
    run, row = app.run, app.reward_row
    assert run is not None and row is not None and run.screen == "reward"
    offer = list(run.offer)
    assert [c.id for c in row.cards] == offer and len(offer) == 3
    drawn = [str(op[1]) for op in row.ops() if op[0] == "fill_text"]
    assert all(tables.cards[c].name in drawn for c in offer)
    assert len(buttons(app, "tp-tower-pick")) == 3  # the accessible fallback stays
    # gaps and margins pick nothing; the middle card's centre picks the middle card
    x, y = card_xy(1)
    row.click(x - GAP / 2, y + 20)
    row.click(x + 20, 2)
    assert run.screen == "reward" and len(run.deck) == 10
    assert row_at(x + FACE_W / 2, y + FACE_H / 2, 3) == 1
    row.click(x + FACE_W / 2, y + FACE_H / 2)
    assert run.screen == "map" and run.deck.count(offer[1]) > 0 and len(run.deck) == 11
    assert run.history[-1] == f"pick {offer[1]}"


def test_a_card_that_cannot_be_added_is_dimmed_and_ignores_clicks(
    tables: Tables, tmp_path: Path
) -> None:
    app = _reward_screen(tables, tmp_path)
    run, row = app.run, app.reward_row
    assert run is not None and row is not None
    row.enabled[0] = False  # as when the deck could not take it
    assert ("set", "global_alpha", DIM_ALPHA) in row.ops()
    x, y = card_xy(0)
    row.click(x + 10, y + 10)
    assert run.screen == "reward"


def test_shop_cards_show_prices_and_a_click_buys(tables: Tables, tmp_path: Path) -> None:
    app = TowerApp(tmp_path / "t.json", tables, ai_mode="sync")
    app.start(5, "lionheart", ())
    run = app.run
    assert run is not None
    shop = next(n for n in run.tmap if n.kind == "shop")
    run.gold = 999
    nodes.enter(run, shop)
    app.show()
    row = app.shop_row
    assert row is not None and run.screen == "shop"
    stock = dict(run.shop["cards"])
    drawn = [str(op[1]) for op in row.ops() if op[0] == "fill_text"]
    assert all(f"{p} 金" in drawn for p in stock.values())
    first = next(iter(stock))
    x, y = card_xy(0, SHOP_W)
    row.click(x + SHOP_W / 2, y + SHOP_H / 2)
    assert first in run.deck and run.gold == 999 - stock[first]
    assert app.shop_row is not row and first not in run.shop["cards"]  # redrawn without it
