"""The inspector of 城堡之心 and 城池战 (issue 36, item 1): a chosen hand card shows its
full text from cards-castle.csv, a seat shows its hero's traits and what is true now,
a city its 守城/破城 effects, and the 战报's names open them. Nothing hidden from the
viewing seat is shown (CH-UI-2)."""

from __future__ import annotations

from tests.castle.test_castle_ui import finish
from throne_lib.games.castle.ui.app import CastleApp, source_of
from throne_lib.games.castle.ui.table import seat_centre
from throne_lib.games.cities.ui.app import CitiesApp


def to_play(app: CastleApp) -> None:
    for _ in range(500):
        app.run_ai()
        if app.my_turn() and app.match.prompt_kind == "play":
            return
        app.press(app.shown()[0] if app.shown() else app.legal()[0])
    raise AssertionError("never reached the human's 出牌阶段")


def test_a_chosen_hand_card_shows_its_full_text() -> None:
    app = CastleApp(players=4, seed=3, tempo=0)
    to_play(app)
    cards = app.match.state.cards
    source = next(
        s for s in (source_of(a) for a in app.legal()) if s and not s.startswith("skill:")
    )
    app.select(source)
    card = cards["sword" if source == "attack" else source]
    assert card.name in app.inspector.value and card.text[:12] in app.inspector.value


def test_a_seat_shows_hero_traits_and_now_but_not_its_hidden_hand() -> None:
    app = CastleApp(players=4, seed=3, tempo=0)
    to_play(app)
    other = (app.human + 1) % 4
    p = app.match.state.players[other]
    app.hover_xy(*seat_centre(app.obs(), other))
    hero = app.match.state.cards[p.hero]
    shown = app.inspector.value
    assert hero.name in shown and hero.text[:10] in shown
    assert f"{p.hp}/" in shown and f"<b>{len(p.hand)}</b>" in shown
    # drawn from the viewer's observation only (which holds no other seat's hand)
    from throne_lib.games.castle.ui.inspect import seat_html

    assert shown.endswith(
        seat_html(app.match.observation(app.human), other, app.match.state.cards) + "</div>"
    )
    assert "hand" not in app.match.observation(app.human)["players"][other]
    if app.obs()["players"][other]["role"] == "?":
        assert "未知" in shown


def test_the_log_names_link_to_the_inspector() -> None:
    app = CastleApp(players=4, seed=3, tempo=0)
    to_play(app)
    log = app.log_panel.html.value
    assert 'class="tp-ref" data-ref="seat:' in log and 'data-ref="card:' in log
    app.bridge.send("card:exploding_fireball")
    fireball = app.match.state.cards["exploding_fireball"]
    assert fireball.name in app.inspector.value and fireball.text[:10] in app.inspector.value
    app.bridge.send("seat:99")  # a stale ref changes nothing
    assert fireball.name in app.inspector.value


def test_a_city_shows_its_defence_and_capture_effects_once_face_up() -> None:
    app = CitiesApp(players=3, seed=2, tempo=0)
    cv = app.obs()["cities"]
    city = cv["stacks"][0][-1]
    app.inspect_ref(f"city:{city['id']}")
    assert "背面朝上" in app.inspector.value and city["defence_text"] not in app.inspector.value
    app.reveal_cities()
    app.run_ai()
    app.inspect_ref(f"city:{city['id']}")
    shown = app.inspector.value
    assert city["name"] in shown and "守城效果" in shown and city["defence_text"] in shown
    assert city["capture_text"] in shown
    assert 'data-ref="city:' in app.log_panel.html.value


def test_a_whole_match_with_the_inspector_open() -> None:
    """Every refresh keeps the inspector's links valid to the end (no stale ref raises)."""
    app = CastleApp(players=3, seed=4, tempo=0, max_rounds=3)
    finish(app)
    for ref in ("seat:0", "seat:1", "seat:2", "card:sword"):
        app.inspect_ref(ref)
    assert "剑" in app.inspector.value
