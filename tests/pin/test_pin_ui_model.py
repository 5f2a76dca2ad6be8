"""The data a PIN board UI draws (PIN-UI-1…7), checked against the engine's legal
actions and observations. (The pixels themselves are the renderer's; see the report.)"""

from __future__ import annotations

import math

from conftest import PosFn

from throne_lib.games.pin import ui_model as ui
from throne_lib.games.pin.actions import PinAction
from throne_lib.games.pin.hexes import BOARD, CELLS


def test_hex_centres_and_half_turn() -> None:
    """PIN-UI-1: centres at (x·√3/2·s, (3 − r)·1.5·s); 乙 sees the half turn; clicks map back."""
    s = 30.0
    x, r = BOARD.coords[12]
    assert ui.hex_centre(12, s) == (x * math.sqrt(3) / 2 * s, (3 - r) * 1.5 * s)
    assert ui.hex_centre(3, s)[1] > ui.hex_centre(20, s)[1]  # 甲's line at the bottom
    assert ui.hex_centre(20, s, viewer=1) == ui.hex_centre(3, s, viewer=0)
    for c in CELLS:
        cx, cy = ui.hex_centre(c, s, viewer=1)
        assert ui.cell_at(cx + 3, cy - 2, s, viewer=1) == c
    assert ui.cell_at(-100, -100, s) is None
    assert len(ui.hex_corners(5, s)) == 6 and len(ui.board_cells(0, s)) == 22


def test_tints_and_hq_badge(pos: PosFn) -> None:
    """PIN-UI-2: support lines tinted by side, the front neutral; HQ badge HP/160 and keywords."""
    assert ui.cell_tint(2) == ui.SIDE_COLOURS[0] and ui.cell_tint(21) == ui.SIDE_COLOURS[1]
    assert ui.cell_tint(9) == ui.NEUTRAL
    m = pos("hq 乙 aur_hq hp=120 mshield=7\n")
    badge = ui.hq_badge(m.observation(0), 1)
    assert badge["bar"] == 0.75 and badge["keywords"] == ["魔法护盾 7"]


def test_unit_cards_and_stacks(pos: PosFn) -> None:
    """PIN-UI-3: two slots per cell in order; a unit card's badges, actions and markers."""
    m = pos("""
        unit u2 甲 anv_1starm 003 hp=50 ads=0 activated act=1 stopped
        unit u3 乙 aur_lions 014 chaos=9
    """)
    stacks = ui.cell_stacks(m, m.observation(0))
    assert stacks["003"][0] == {"hq": 0}
    card = stacks["003"][1]
    assert card["badges"] == ["ADS 0/1", "反应", "装甲 15"] and card["actions"] == 1
    assert card["hp"] == "50/70" and "停止移动" in card["markers"] and card["icon"] == "甲"
    lions = stacks["014"][0]
    assert (
        "混乱至第9回合" in lions["markers"] and "制空" in lions["markers"] and lions["attack"] == 0
    )


def test_top_bar(pos: PosFn) -> None:
    """PIN-UI-4: turn, round, phase, CP, counts; 结束回合 only when legal, 花费2抽牌 in the draw phase."""
    m = pos("deck 乙 aur_templars aur_golems\nhand 甲 anv_rifles\n", cp="6/8")
    bar = ui.top_bar(m, 0)
    assert bar["turn"] == 3 and bar["round"] == 2 and bar["cp"] == ["6/8", "6/8"]
    assert bar["buttons"] == {"花费2抽牌": False, "结束回合": True}
    m.apply("end")
    assert ui.top_bar(m, 1)["buttons"] == {"花费2抽牌": True, "结束回合": False}
    assert ui.top_bar(m, 0)["buttons"] == {"花费2抽牌": False, "结束回合": False}


def test_unit_menu_highlights_and_preview(pos: PosFn) -> None:
    """PIN-UI-5: 激活 with its cost, then moves and targets exactly from legal_actions;
    the preview shows each layer and HP left on both sides."""
    m = pos("unit u2 甲 anv_tanks 008\nunit u3 乙 aur_templars 013\n")
    menu = ui.unit_menu(m, "u2")
    assert menu["activate"]["label"] == "激活（2）" and menu["moves"] == []
    m.apply(menu["activate"]["action"])
    menu = ui.unit_menu(m, "u2")
    legal = {a.args[1] for a in m.legal_actions() if a.kind == "move"}
    assert set(menu["moves"]) == legal and menu["targets"] == ["u3"]
    preview = ui.attack_preview(m, menu["attacks"][0])
    assert preview["target_hp_left"] == 30 - 38 and preview["attacker_hp_left"] == 43
    assert any("装甲吸收10" in line for line in preview["lines"])


def test_hand_view(pos: PosFn) -> None:
    """PIN-UI-6: deploy cells (full ones 将撤退), command targets, dimmed cards, card backs."""
    m = pos(
        """
        unit u4 甲 anv_rifles 001
        unit u5 甲 anv_rifles 001
        unit u3 乙 aur_templars 013
        hand 甲 anv_rifles anv_barrage anv_1starm
        hand 乙 aur_mirror aur_ley
        """,
        cp="3/16",
    )
    view = ui.hand_view(m, 0)
    cards = {c["card"]: c for c in view["cards"]}
    assert {"cell": "001", "note": "将撤退"} in cards["anv_rifles"]["deploy"]
    assert cards["anv_barrage"]["targets"] == ["u3"]
    assert cards["anv_1starm"]["dimmed"] and not cards["anv_1starm"]["actions"]
    assert view["opponent_backs"] == 2


def test_prompts_show_exactly_the_legal_choices(pos: PosFn) -> None:
    """PIN-UI-7: a decision prompt lists exactly the legal actions, in Chinese."""
    m = pos("unit u2 甲 anv_rifles 009\nhand 乙 aur_banish\n", active="乙")
    assert ui.prompt(m) is None
    m.apply("play aur_banish u2")
    # 【敌方指令】: 甲 is asked though it holds no counter (PIN-COUNTER-5): only 放弃
    p = ui.prompt(m)
    assert p is not None and p["seat"] == 0 and p["title"].startswith("反制时机")
    assert [o["action"] for o in p["options"]] == m.legal_actions() == [m.forced_pass()]
    assert [o["label"] for o in p["options"]] == ["放弃"]
    m.apply("pass")
    p = ui.prompt(m)
    assert p is not None and p["seat"] == 0 and p["title"].startswith("撤退")
    assert [o["action"] for o in p["options"]] == m.legal_actions()
    assert p["cells"] == ["003", "004", "008", "010", "014", "015"]
    assert all(o["label"].startswith("铁砧步兵旅") for o in p["options"])
    assert PinAction("end") not in [o["action"] for o in p["options"]]
