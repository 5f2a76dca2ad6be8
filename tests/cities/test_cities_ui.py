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
from throne_lib.games.cities.ui.table import (
    CARD_H,
    CARD_W,
    city_at,
    draw_cities,
    empty_slots,
    strip_box,
    team_colour,
)


def to_human_play(app: CitiesApp) -> None:
    """Answer every question of the human seat with its first button until its 出牌阶段."""
    app.reveal_cities()
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
    app.reveal_cities()
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


class Recorder:
    """A stand-in canvas that keeps every text drawn and every rectangle filled."""

    def __init__(self) -> None:
        self.texts: list[tuple[str, float, float]] = []
        self.rects: list[tuple[str, float, float, float, float]] = []
        self.fill_style = ""

    def fill_text(self, text: str, x: float, y: float) -> None:
        self.texts.append((text, x, y))

    def fill_rect(self, x: float, y: float, w: float, h: float) -> None:
        self.rects.append((self.fill_style, x, y, w, h))

    def __getattr__(self, name: str) -> object:
        return lambda *a, **k: None


def test_the_stack_shows_current_city_rear_cities_and_the_start() -> None:
    """CW-UI-1: current city on top with name, grain/full, 守城效果 and a grain bar; the
    rear cities fanned beneath, newest first, with full bars; the starting city at the
    bottom marked 起始; the team colour on every card."""
    app = CitiesApp(players=3, seed=1, tempo=0, max_rounds=5)
    app.reveal_cities()
    w = war(app.match)
    me = app.human
    gained = [w.empty.pop(0), w.empty.pop(0)]
    w.stacks[me].extend(gained)
    for c in gained:
        w.grain[c] = 15
    w.grain[gained[-1]] = 9
    obs = app.obs()
    rec = Recorder()
    draw_cities(rec, obs)
    sx, sy = strip_box(obs, me)
    mine = [(t, x, y) for t, x, y in rec.texts if sx <= x <= sx + 176 and y >= sy]
    names = w.table
    top, mid, start = names[gained[1]].name, names[gained[0]].name, names[w.starting[me]].name
    texts = [t for t, _, _ in mine]
    assert f"{top} 9/15" in texts  # current: grain / full
    assert any(t.startswith("守城：") for t in texts)
    assert f"{mid} 15/15" in texts and f"{start} 30/30" in texts  # rear: full bars
    ys = {t: y for t, _, y in mine}
    assert ys[f"{top} 9/15"] < ys[f"{mid} 15/15"] < ys[f"{start} 30/30"]  # fanned beneath
    assert "起始" in texts and ys["起始"] > ys[f"{mid} 15/15"]  # the bottom card's mark
    colour = team_colour(obs["cities"]["teams"][me])
    assert sum(1 for r in rec.rects if r[0] == colour and sy <= r[2]) >= 3  # each card


def test_starting_cities_stay_face_down_until_the_reveal() -> None:
    """CW-UI-5 / CW-SETUP-5: before 「翻开城池」 no city name is drawn or in the 战报,
    nobody is asked anything; after it all turn together and the set-up goes on."""
    app = CitiesApp(players=3, seed=1, tempo=0, max_rounds=5)
    w = war(app.match)
    city_names = {c.name for c in w.table}
    assert app.reveal_b in app.buttons.children and app.legal() == []
    rec = Recorder()
    app.canvas = rec  # type: ignore[assignment]
    app.refresh()
    assert not any(n in t for t, _, _ in rec.texts for n in city_names)
    assert not any(n in app.log_panel.html.value for n in city_names if n in "".join(
        w.table[c].name for c in w.starting))  # fmt: skip
    app.run_ai()
    assert app.match.actions == []  # nobody moved before the reveal
    app.reveal_cities()
    rec.texts.clear()
    app.refresh()
    drawn = " ".join(t for t, _, _ in rec.texts)
    assert all(w.table[c].name in drawn for c in w.starting)
    assert app.reveal_b not in app.buttons.children
    app.run_ai()
    assert app.match.actions  # the hero draft went on


def test_simultaneous_captures_are_ordered_in_a_dialog() -> None:
    """CW-UI-5 / CW-CAPTURE-6: the order is asked in a dialog of buttons made from
    ``legal_actions()``; pressing one orders the captures."""
    from throne_lib.games.castle.core import push, run

    app = CitiesApp(players=3, seed=1, tempo=0, max_rounds=5)
    to_human_play(app)
    m = app.match
    s = m.state
    w = war(m)
    a, b = w.empty[0], w.empty[1]
    w.grain[a], w.grain[b] = 2, 2
    s.prompt = None
    push(s, ("cw_hits", app.human, ((a, 5), (b, 5))), ("play_phase", app.human))
    run(s)
    m._legal_for = None
    app.refresh()
    dialog = app.buttons.children[0]
    assert "cities-order-dialog" in dialog._dom_classes
    choices = [c for c in dialog.children if "cities-order-choice" in c._dom_classes]
    assert len(choices) == len(m.legal_actions()) == 2
    assert "同时击破" in app.status.value
    choices[0].click()
    while m.prompt_kind in ("cw_retrieve", "cw_deploy", "cw_strike"):  # capture choices
        app.press(app.legal()[0])
    assert m.prompt_kind == "play" and w.current(app.human) in (a, b)
    assert set(w.stacks[app.human][-2:]) == {a, b}


def test_the_deck_mode_is_a_setting_of_the_dashboard() -> None:
    """CW-DECK-1: 「公共牌组」 starts a match with the base game's shared piles."""
    app = CitiesApp(players=3, seed=1, tempo=0, max_rounds=5)
    assert app.match.state.decks is not None
    app.deck_w.value = "shared"
    app.new_match()
    assert app.match.state.decks is None and len(app.match.state.deck) > 0
    assert not app.revealed  # a new match starts face down again (CW-UI-5)


def test_status_gives_each_team_its_own_count() -> None:
    """CW-UI-3 with CW-SETUP-3: in ``a,a,b`` (3 players, the table's 4) the pair needs
    2 + 3 = 5 cities and the player alone 4; the status shows each against its own."""
    app = CitiesApp(players=3, seed=1, tempo=0, teams="a,a,b")
    assert "队伍1 城池 2/5" in app.status.value and "队伍2 城池 1/4" in app.status.value
