"""The 城池战 dashboard without a browser: drive it through its handlers.

CW-UI-1 (each seat's city stack), CW-UI-2 (empty cities in the middle, clickable),
CW-UI-3 (team cities against the victory count, the round), CW-UI-4 (legal cities
highlighted with the engine's hit preview), CW-UI-5 (弃守 in the prep step, 认输
always), CW-UI-6 (the 战报 names the city events).
"""

from __future__ import annotations

from tests.cities.match_helpers import war
from throne_lib.games.castle.actions import Act
from throne_lib.games.cities.ui.app import CitiesApp, city_args
from throne_lib.games.cities.ui.table import CARD_H, CARD_W, city_at, empty_slots, strip_box


def to_human_play(app: CitiesApp) -> None:
    """Answer every question of the human seat with its first button until its 出牌阶段."""
    for _ in range(500):
        app.run_ai()
        if app.match.prompt_kind == "play" and app.my_turn():
            return
        app.press(app.legal()[0])
    raise AssertionError("never reached the human's 出牌阶段")


def test_status_prep_step_and_concede() -> None:
    """CW-UI-3 / CW-UI-5: teams' cities against the count, the round; 弃守 offered in the
    prep step; 认输 always offered and it puts the human out."""
    app = CitiesApp(players=3, seed=1, tempo=0, max_rounds=5)
    assert "城池 1/4" in app.status.value and "第 0/5 轮" in app.status.value
    assert not app.concede_b.disabled and app.concede_b in app.buttons.children
    w = war(app.match)
    w.stacks[app.human].append(w.empty.pop(0))  # a city above the starting one to abandon
    for _ in range(500):
        app.run_ai()
        if app.match.prompt_kind == "cw_prep" and app.my_turn():
            break
        app.press(app.legal()[0])
    labels = [b.description for b in app.buttons.children]
    assert any("弃守" in t for t in labels)
    app.concede()
    app.run_ai()
    assert war(app.match).out[app.human]
    assert any("认输" in line for line in app.obs()["log"])  # CW-UI-6


def test_aiming_highlights_cities_and_a_click_attacks() -> None:
    """CW-UI-2 / CW-UI-4 / CW-UI-6: with 剑 chosen the legal cities light up with the
    engine's preview; a click on an empty city's card attacks it; the 战报 says so."""
    app = CitiesApp(players=3, seed=1, tempo=0, max_rounds=5)
    to_human_play(app)
    me = app.match.state.players[app.human]
    me.hand = ["sword"]
    app.match._legal_for = None
    app.select("attack")
    obs = app.obs()
    hot = set().union(*(city_args(a) for a in app.shown()))
    assert set(war(app.match).empty) <= hot
    preview = obs["cities"]["preview"]
    assert all(preview[c] == 3 for c in war(app.match).empty)  # 1 + siege bonus 2
    cid, x, y = empty_slots(obs)[0]
    assert city_at(obs, x + CARD_W / 2, y + CARD_H / 2) == cid
    own = war(app.match).current(app.human)
    sx, sy = strip_box(obs, app.human)
    assert city_at(obs, sx + 5, sy + 5) == own  # CW-UI-1: the seat's current city strip
    app.click_xy(x + CARD_W / 2, y + CARD_H / 2)
    assert war(app.match).grain[cid] == 12
    assert any(
        "攻击" in line and war(app.match).table[cid].name in line for line in app.obs()["log"]
    )
    assert Act("concede", (app.human,)) in app.match.concede_actions()
