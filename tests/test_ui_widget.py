"""The match widget driven by its mouse handlers, without a browser (R-UI-1..3).

Clicks go through ``_on_mouse_down``/``_on_mouse_up`` at the pixel centre of a
cell, chip or hand card (``MatchWidget.click_cell`` etc.); the assertions read the
match state. Highlights must equal what ``legal_actions()`` allows.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest

from throne_lib import Action, CardDB, Match, SideSetup
from throne_lib.games.throne.ui.widget import MatchWidget
from throne_lib.kit.agents import RandomAgent
from throne_lib.kit.ui.canvas import safe_hold

Scenario = Callable[..., Match]

HEAD = """
seed 5
side blue general=lionheart mana=10
side red general=beast_king
round {round}
"""


def widget(m: Match, **kw: object) -> MatchWidget:
    kw.setdefault("ai_mode", "manual")
    kw.setdefault("log_dir", Path(tempfile.mkdtemp()))  # ends of turn save the log
    return MatchWidget(m, RandomAgent(1), **kw)  # type: ignore[arg-type]


def hl(w: MatchWidget) -> dict[str, str]:
    g = w.match.geo
    return {g.name(c): s for c, s in w.ctrl.highlights().items()}


def last(m: Match) -> str:
    return m.history[-1].text(m.geo)


@pytest.fixture
def pos(scenario: Scenario) -> Callable[..., Match]:
    def build(body: str, round: int = 1) -> Match:
        return scenario(HEAD.format(round=round) + body)

    return build


def test_select_unit_highlights_moves_and_attacks_from_legal_actions(
    pos: Callable[..., Match],
) -> None:
    m = pos("unit c3 blue knight\nunit c4 red wolf\n")
    w = widget(m)
    w.click_cell("c3")
    assert w.ctrl.selected_cell == m.geo.parse("c3")
    legal = [a for a in m.legal_actions() if a.cell == m.geo.parse("c3")]
    moves = {m.geo.name(a.target) for a in legal if a.kind == "move"}
    attacks = {
        m.geo.name(a.target) for a in legal if a.kind == "attack" and m.unit_at(a.target).side == 1
    }  # type: ignore[union-attr]
    assert {c for c, s in hl(w).items() if s == "move"} == moves
    assert {c for c, s in hl(w).items() if s == "attack"} == attacks == {"c4"}


def test_click_move_then_attack(pos: Callable[..., Match]) -> None:
    m = pos("unit c3 blue knight\nunit d4 red wolf hp=9/9\n")
    w = widget(m)
    w.click_cell("c3")
    w.click_cell("c4")
    assert last(m) == "move c3 c4"
    assert w.ctrl.selected_cell == m.geo.parse("c4")  # still selected: it may attack
    w.click_cell("d4")
    assert last(m) == "attack c4 d4"
    assert any("攻击" in line for line in [w.battle_log.value])


def test_illegal_click_changes_nothing_and_names_the_rule(pos: Callable[..., Match]) -> None:
    m = pos("unit c3 blue knight\n")
    w = widget(m)
    before = m.hash()
    w.click_cell("c3")
    w.click_cell("c6")  # too far
    assert m.hash() == before and not m.history
    assert "R-UNIT-2" in w.ctrl.status and w.ctrl.status_error
    assert "R-UNIT-2" in w.status.value


# R-UI-2: click the card, then the target.
def test_cast_spell_by_click(pos: Callable[..., Match]) -> None:
    m = pos("hand blue holy_light\nunit c2 blue knight hp=1/4\n")
    w = widget(m)
    w.click_hand(0)
    assert w.ctrl.selected_hand == 0
    assert hl(w)["c2"] == "target"
    w.click_cell("c2")
    assert last(m) == "play holy_light c2"
    assert m.unit_at("c2").hp == 4  # type: ignore[union-attr]


# R-UI-2: drag the card onto a cell and release; legal targets lit while dragging.
def test_cast_spell_by_drag_with_highlights_while_dragging(pos: Callable[..., Match]) -> None:
    m = pos("hand blue holy_light\nunit c2 blue knight hp=1/4\n")
    w = widget(m)
    w._on_client_ready()
    x0, y0 = w.px.hand.center(0)
    w._on_mouse_down(x0, y0)
    w._on_mouse_move(x0 + 20, y0 - 20)
    assert w._dragging
    _, overlay = w.view_ops()
    assert overlay[0] != ("fill_rect",)
    assert "c2:target" in w.status.value
    x1, y1 = w.px.cell_center(m.geo.parse("c2"))
    w._on_mouse_up(x1, y1)
    assert last(m) == "play holy_light c2"


def test_drag_redraws_only_when_the_hovered_cell_changes(pos: Callable[..., Match]) -> None:
    m = pos("hand blue holy_light\nunit c2 blue knight hp=1/4\n")
    w = widget(m)
    w._on_client_ready()
    x0, y0 = w.px.hand.center(0)
    w._on_mouse_down(x0, y0)
    w._on_mouse_move(x0 + 20, y0 - 20)
    cx, cy = w.px.cell_center(m.geo.parse("c2"))
    w._on_mouse_move(cx, cy)
    draws = w.draws
    for k in range(30):  # 30 moves inside the same cell: coalesced
        w._on_mouse_move(cx - 15 + k, cy + 10 - k / 2)
    assert w.draws == draws
    w._on_mouse_move(*w.px.cell_center(m.geo.parse("d2")))
    assert w.draws == draws + 1


def test_illegal_drop_explains_and_keeps_the_card(pos: Callable[..., Match]) -> None:
    m = pos("hand blue holy_light\nunit c2 blue knight hp=1/4\nunit c5 red wolf\n")
    w = widget(m)
    w.drag_hand_to(0, "c5")  # heal an enemy: not a legal target
    assert not m.history and m.state.sides[0].hand == ["holy_light"]
    assert "R-UNIT-5" in w.ctrl.status


def test_untargeted_spell_casts_on_second_click_or_drag(pos: Callable[..., Match]) -> None:
    m = pos(
        "hand blue urgent_orders urgent_orders\ndeck blue militia_camp militia_camp militia_camp\n"
    )
    w = widget(m)
    w.click_hand(0)
    assert [c.key for c in w.ctrl.chips()] == ["cast"]
    w.click_hand(0)
    assert last(m) == "play urgent_orders"
    w.drag_hand_to(0, "e5")
    assert [a.kind for a in m.history] == ["play", "play"]


def test_unaffordable_card_is_dimmed_and_refused(pos: Callable[..., Match]) -> None:
    m = pos("hand blue siege_ballista holy_light\n")
    m.state.sides[0].mana = 2
    w = widget(m)
    assert w.ctrl.playable() == {1}  # the ballista costs 4; holy light (2) is fine
    w.click_hand(0)
    assert not m.history and "R-TURN-1" in w.ctrl.status
    units, _ = w.view_ops()
    assert ("set", "global_alpha", 0.42) in units


def test_summon_from_barracks(pos: Callable[..., Match]) -> None:
    m = pos("unit b2 blue militia_camp\n")
    w = widget(m)
    w.click_cell("b2")
    keys = [c.key for c in w.ctrl.chips()]
    assert keys[:3] == ["tier:militia", "tier:spearman", "tier:knight"]
    assert [c.enabled for c in w.ctrl.chips()[:3]] == [True, False, False]  # level 1
    assert set(hl(w).values()) == {"summon"}
    w.click_cell("b3")
    assert last(m) == "summon b2 militia b3"
    assert m.unit_at("b3").card == "militia"  # type: ignore[union-attr]


def test_captain_offer_pick_one_of_three(pos: Callable[..., Match]) -> None:
    m = pos("unit b2 blue militia_camp\n", round=3)
    w = widget(m)
    w.click_cell("b2")
    keys = [c.key for c in w.ctrl.chips()]
    w.click_chip(keys.index("captain"))
    assert m.phase == "captain"
    picks = [c for c in w.ctrl.chips() if c.key.startswith("pick:")]
    assert 1 <= len(picks) <= 3 and w.ctrl.chips()[-1].key == "cancel"
    w.click_chip(0)
    target = sorted(hl(w))[0]
    w.click_cell(target)
    assert m.phase == "main" and last(m).startswith("pick ")
    assert m.unit_at(target).kind == "captain"  # type: ignore[union-attr]


def test_extra_summon_when_loaded(pos: Callable[..., Match]) -> None:
    m = pos("unit b2 blue militia_camp used=2 loaded\n")
    w = widget(m)
    w.click_cell("b2")
    keys = [c.key for c in w.ctrl.chips()]
    w.click_chip(keys.index("extra"))
    assert last(m) == "extra b2"


# R-UI-3, R-THRONE-6: clicking the throne casts the skill; then it cools down.
def test_throne_skill_by_click_then_cooldown(pos: Callable[..., Match]) -> None:
    m = pos("unit c2 blue knight\n")
    w = widget(m)
    armor = m.unit_at("c2").armor  # type: ignore[union-attr]
    w.click_cell("d1")
    assert w.ctrl.choice == "skill" and hl(w)["c2"] == "skill"
    w.click_cell("c2")
    assert last(m) == "skill d1 c2"
    assert m.unit_at("c2").armor == armor + 3  # type: ignore[union-attr]
    w.click_cell("d1")
    skill = [c for c in w.ctrl.chips() if c.key == "skill"]
    assert skill and not skill[0].enabled


def test_end_turn_runs_the_ai_until_it_is_our_turn_again(pos: Callable[..., Match]) -> None:
    m = pos("unit b2 blue militia_camp\nunit f5 red militia_camp\n")
    w = widget(m, ai_mode="sync")
    w.end_btn.click()
    assert m.turn == 0 and m.round == 2
    assert any(a.kind == "end" for a in m.history[1:])
    assert "第 2 回合" in w.battle_log.value


def test_opening_replace_keep_and_found_by_clicks(db: CardDB) -> None:
    blue, red = SideSetup.signature(db, "human"), SideSetup.signature(db, "beast")
    m = next(
        m for s in range(20) if (m := Match.new(db, blue, red, s)).turn == 0
    )  # blue opens first
    w = widget(m, ai_mode="sync")
    hand = list(m.state.sides[0].hand)
    idx = next(i for i, c in enumerate(hand) if db[c].kind != "barracks")
    w.click_hand(idx)
    assert m.history[-1].kind == "replace"
    w.click_chip(0)  # 确定手牌
    assert m.phase == "found"
    for cell in ("b2", "d2", "f2"):
        w.click_cell(cell)
    assert [a.kind for a in m.history[:5]] == ["replace", "keep", "found", "found", "found"]
    assert m.phase == "main" and m.turn == 0 and m.round == 1  # the AI opened too
    assert sum(1 for u in m.state.units(1) if u.kind == "barracks") == 3


def test_clicks_during_the_ai_turn_do_nothing(pos: Callable[..., Match]) -> None:
    m = pos("turn red\nunit c3 blue knight\n")
    w = widget(m)
    before = m.hash()
    w.click_cell("c3")
    w.click_hand(0)
    w.end_btn.click()
    assert m.hash() == before and "对手" in w.ctrl.status


def test_ai_step_flashes_its_unit_and_target(pos: Callable[..., Match]) -> None:
    m = pos("turn red\nunit c3 blue knight\nunit c4 red wolf\n")
    w = widget(m)
    a = w.ai_step()
    assert w.flash == tuple(c for c in (a.cell, a.target) if c >= 0)


def test_nothing_is_drawn_before_the_client_is_ready(pos: Callable[..., Match]) -> None:
    m = pos("unit c3 blue knight\n")
    w = widget(m)
    w.click_cell("c3")
    assert w.draws == 0
    w._on_client_ready()
    assert w.draws == 4  # board, pieces, tray + hand, overlay


def test_an_exception_cannot_leave_hold_canvas_open() -> None:
    from ipycanvas import canvas as cv

    with pytest.raises(RuntimeError), safe_hold():
        raise RuntimeError("boom")
    assert cv._CANVAS_MANAGER._caching is False


def test_every_batch_names_its_canvas(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each batch starts with its "switch canvas", even on the canvas the last batch drew:
    a browser that missed the earlier switch would otherwise run it on no canvas and stop
    drawing for good (safe_hold's docstring; the castle table once stayed blank)."""
    from ipycanvas import Canvas
    from ipycanvas import canvas as cv

    sent: list[list[list[object]]] = []
    monkeypatch.setattr(
        cv._CANVAS_MANAGER, "_send_custom", lambda command, buffers=(): sent.append(command)
    )
    canvas = Canvas(width=10, height=10)
    for _ in range(3):
        with safe_hold():
            canvas.fill_rect(0, 0, 5, 5)
    switch, fill = cv.COMMANDS["switchCanvas"], cv.COMMANDS["fillRect"]
    assert [[command[0] for command in batch] for batch in sent] == [[switch, fill]] * 3


def test_handler_errors_show_in_the_status_line(
    pos: Callable[..., Match], monkeypatch: pytest.MonkeyPatch
) -> None:
    m = pos("unit c3 blue knight\n")
    w = widget(m)

    def boom(cell: int) -> list[object]:
        raise KeyError("x")

    monkeypatch.setattr(w.ctrl, "click_cell", boom)
    handler = w._guard(w._on_mouse_up)
    w._on_mouse_down(*w.px.cell_center(m.geo.parse("c3")))
    handler(*w.px.cell_center(m.geo.parse("c3")))
    assert "界面错误" in w.ctrl.status


def test_match_end_shows_result_and_saves_the_log(db: CardDB, tmp_path: Path) -> None:
    import dataclasses

    from throne_lib.games.throne.rules import DEFAULT_RULES

    rules = dataclasses.replace(DEFAULT_RULES, round_limit=1)
    blue, red = SideSetup.signature(db, "human"), SideSetup.signature(db, "beast")
    m = Match.new(db, blue, red, 4, rules)
    w = widget(m, ai_mode="sync", log_dir=tmp_path)
    while not m.is_over:
        if m.turn == 0:
            legal = m.legal_actions()
            a = (
                Action("keep")
                if Action("keep") in legal
                else legal[0]
                if m.phase != "main"
                else Action("end")
            )
            w.ctrl.apply(a)
        w._maybe_start_ai()
    assert w.result_box.layout.display == "flex"
    assert "回合上限" in w.result.value or "王座被摧毁" in w.result.value
    assert w.saved_log is not None and w.saved_log.parent == tmp_path
    assert w.saved_log.read_text(encoding="utf-8").count("\n") > 3


def test_a_select_click_redraws_only_the_layers_that_changed(pos: Callable[..., Match]) -> None:
    """Issue 17 speed: selecting one unit after another changes the highlights (the
    overlay), not the units and the hand, so only the overlay goes to the browser; a
    browser that (re)connects gets every layer again."""
    m = pos("unit c2 blue knight\nunit e2 blue knight\n")
    w = widget(m)
    w._on_client_ready()
    w.click_cell("c2")
    draws = w.draws
    w.click_cell("e2")
    assert hl(w) and w.ctrl.view(w.flash, -1, -1).selected_cell == m.geo.parse("e2")
    assert w.draws == draws + 1  # the overlay
    w.click_cell("c2")
    assert w.draws == draws + 2
    w._on_client_ready()
    assert w.draws == draws + 6  # board, pieces, tray + hand, overlay


def test_a_click_sends_the_board_first_in_one_batch_then_the_prompt_then_the_inspector(
    pos: Callable[..., Match], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 17 click -> highlight: a select click sends one canvas message for every
    layer that changed, then the prompt line, and the inspector's card (the slowest HTML
    to render) last."""
    import ipywidgets as W

    m = pos("unit c2 blue knight\nunit e2 blue knight\nunit e5 red wolf\n")
    w = widget(m)
    w._on_client_ready()
    w.click_cell("c2")
    sent: list[object] = []
    send = W.Widget._send

    def spy(self: W.Widget, msg: dict[str, object], buffers: object = None) -> None:
        sent.append(self)
        send(self, msg, buffers)  # type: ignore[arg-type]

    monkeypatch.setattr(W.Widget, "_send", spy)
    w.click_cell("e2")
    assert w.inspector in sent and w.status in sent
    canvas = [x for x in sent if type(x).__name__ == "_CanvasManager"]
    assert len(canvas) == 1
    assert sent.index(canvas[0]) < sent.index(w.status) < sent.index(w.inspector)
