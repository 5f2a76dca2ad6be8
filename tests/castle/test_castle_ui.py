"""The 城堡之心 dashboard without a browser: drive it through its handlers.

CH-UI-1 (the table shows each hero), CH-UI-3 (actions from legal_actions, targets
highlighted, the 剑 defence as a prompt), CH-UI-5 (reveal only after the end).
"""

from __future__ import annotations

from tests.castle.helpers import scen
from throne_lib.games.castle.actions import Act
from throne_lib.games.castle.ui.app import CastleApp, source_of, target_seats
from throne_lib.games.castle.ui.table import seat_at, seat_centre


def finish(app: CastleApp) -> None:
    """Play the human seat by always pressing the first offered button."""
    for _ in range(5000):
        if app.match.is_over:
            return
        if app.my_turn():
            shown = app.shown()
            if not shown:  # nothing without a card selected: pick the first source
                src = next(source_of(a) for a in app.legal() if source_of(a) is not None)
                app.select(src)
                shown = app.shown()
            app.press(shown[0])
        else:
            app.run_ai()


def test_play_a_four_seat_match_to_the_end() -> None:
    """A 4-seat match played through the widget ends; reveal unlocks afterwards."""
    app = CastleApp(players=4, seed=5, tempo=0, max_rounds=6)
    assert app.reveal.disabled
    finish(app)
    assert app.match.is_over and not app.reveal.disabled
    assert "游戏结束" in app.status.value
    app.reveal.value = True
    obs = app.obs()
    assert all(p["role"] != "?" for p in obs["players"])


def test_select_card_highlights_legal_targets_and_click_applies() -> None:
    """Selecting 剑 lights the seats legal_actions() allows; clicking one attacks it."""
    app = CastleApp(players=4, seed=2, tempo=0, human=0)
    app.match = scen(
        "lord tang_na hand=sword,sword",
        "enemy bai_pa",
        "enemy di_shi",
        "enemy li_wei soldiers=militia",
    )
    app.refresh()
    assert app.my_turn()
    app.select("attack")
    obs = app.obs()
    want = set().union(*(target_seats(obs, a) for a in app.legal() if a.kind == "attack"))
    assert want and all(app.human not in target_seats(obs, a) for a in app.shown())
    seat = min(want)
    x, y = seat_centre(obs, seat)
    assert seat_at(obs, x, y) == seat
    before = len(app.match.actions)
    app.click_xy(x, y)
    if app.focus is not None:  # several ways to hit that seat: buttons list them
        app.press(app.shown()[0])
    assert len(app.match.actions) > before


def test_block_prompt_is_offered_as_buttons() -> None:
    """The 剑 defence is a prompt the human answers with buttons."""
    app = CastleApp(players=3, seed=1, tempo=0)
    m = app.match
    while not (m.state.stage == "battle" and app.my_turn() and m.prompt_kind == "play"):
        if app.my_turn():
            app.press(app.legal()[0] if m.prompt_kind != "draft" else Act("pass"))
        else:
            app.run_ai()
    from throne_lib.games.castle.combat import Atk
    from throne_lib.games.castle.core import ask

    me = m.state.players[app.human]
    me.hand.append("sword")
    other = next(p.seat for p in m.state.players if p.seat != app.human)
    ask(m.state, "block", app.human, Atk(f"h{other}", f"h{app.human}", other, "melee", 1, True))
    app.refresh()
    labels = [b.description for b in app.buttons.children]
    assert labels == ["打出剑抵挡", "不抵挡"] and "是否打出剑抵挡" in app.status.value
