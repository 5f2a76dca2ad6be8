"""The agents (PIN-AI-1…6): random and the scripted standard AI."""

from __future__ import annotations

import inspect

from conftest import PosFn, act

from throne_lib.games.pin import agents as agents_module
from throne_lib.games.pin.actions import PinAction
from throne_lib.games.pin.agents import RandomAgent, ScriptedAgent, play_pin


def test_ai_legal_deterministic_count_budgeted(new_match) -> None:  # type: ignore[no-untyped-def]
    """PIN-AI-1: only legal actions (apply would raise), same seed → same choices, no
    clock in the agents."""
    runs = []
    for _ in range(2):
        m = new_match(seed=4)
        play_pin(m, (ScriptedAgent(1), ScriptedAgent(2)))
        runs.append(m.hash())
    assert runs[0] == runs[1]
    source = inspect.getsource(agents_module)
    assert "import time" not in source and "perf_counter" not in source


def test_random_agent_ends_rarely(pos: PosFn) -> None:
    """PIN-AI-2: with end chance 0 it never ends while something else is legal."""
    m = pos("unit u2 甲 anv_rifles 008 activated act=2\n")
    agent = RandomAgent(3, end_chance=0.0)
    assert all(agent.choose(m).kind != "end" for _ in range(30))
    only_end = pos("")
    assert RandomAgent(3).choose(only_end) == PinAction("end")


def test_scripted_mulligan_and_reveal(new_match, pdb) -> None:  # type: ignore[no-untyped-def]
    """PIN-AI-3: mulligan away cards costing more than 4; reveal the highest cost."""
    m = new_match(seed=12)
    hand = m.state.hands[0]
    choice = ScriptedAgent().choose(m)
    away = sorted(c for c in hand if pdb[c].cost > 4)
    assert choice.args[0] == ("+".join(away) or "-")
    m.apply(choice)
    m.apply("mulligan -")
    reveal = ScriptedAgent().choose(m)
    assert pdb[reveal.args[0]].cost == max(pdb[c].cost for c in m.state.hands[0])


def test_scripted_counter_only_when_worth_it(pos: PosFn) -> None:
    """PIN-AI-3: play a counter that prevents ≥ 15 damage; pass otherwise."""
    lines = """
        unit u2 乙 {att} 013 activated act=2
        unit u3 甲 anv_rifles 008
        hand 甲 aur_mirror
    """
    m = pos(lines.format(att="aur_mithril"), active="乙")
    m.apply("attack u2 u3 电浆")
    assert ScriptedAgent().choose(m) == PinAction("counter", ("aur_mirror", "-"))
    m = pos(lines.format(att="aur_pilgrims"), active="乙")
    m.apply("attack u2 u3 普通")
    assert ScriptedAgent().choose(m) == PinAction("pass")


def test_scripted_retreat_choice(pos: PosFn) -> None:
    """PIN-AI-3: back to hand from the support line when half its HP is lost, else the
    safe end nearest its own HQ."""
    m = pos("unit u2 甲 anv_rifles 002 hp=15\nhand 乙 aur_banish\n", active="乙")
    act(m, "play aur_banish u2")  # 甲's 【敌方指令】 window, nothing to play: passed
    assert ScriptedAgent().choose(m) == PinAction("retreat", ("u2", "hand"))
    m = pos("unit u2 甲 anv_rifles 009\nhand 乙 aur_banish\n", active="乙")
    act(m, "play aur_banish u2")
    assert ScriptedAgent().choose(m) == PinAction("retreat", ("u2", "003"))


def test_scripted_lethal_first(pos: PosFn) -> None:
    """PIN-AI-4: when this turn's attacks bring the enemy HQ down, it attacks the HQ."""
    m = pos("""
        hq 乙 aur_hq hp=40 mshield=0
        unit u2 甲 anv_tanks 015 activated act=2
        unit u3 乙 aur_templars 016
    """)
    choice = ScriptedAgent().choose(m)
    assert choice.kind == "attack" and choice.args[1] == "hq1"


def test_scripted_paid_draw_and_reserve(pos: PosFn) -> None:
    """PIN-AI-4: paid draw with hand ≤ 6 and CP ≥ 6; ends keeping its cheapest counter's cost."""
    m = pos("deck 乙 aur_templars aur_golems\n", active="甲", cp="8/8")
    m.apply("end")
    assert ScriptedAgent().choose(m) == PinAction("draw")
    m = pos("hand 甲 anv_rifles anv_ambush\n", cp="2/16")
    assert ScriptedAgent().choose(m) == PinAction("end")  # 2 CP kept for the ambush


def test_scripted_artillery_first_and_attack_score(pos: PosFn) -> None:
    """PIN-AI-4 / PIN-AI-5: artillery acts first; the best positive attack is chosen."""
    m = pos("""
        unit u2 甲 anv_rifles 008
        unit u3 甲 anv_howitzer 002
        unit u4 乙 aur_starguns 013
    """)
    assert ScriptedAgent().choose(m) == PinAction("activate", ("u3",))
    m.apply("activate u3")
    assert ScriptedAgent().choose(m) == PinAction("attack", ("u3", "u4", "爆炸"))


def test_scripted_avoids_losing_attack(pos: PosFn) -> None:
    """PIN-AI-5: an attack scoring below 0 (the attacker dies for little) is not made."""
    m = pos("""
        unit u2 甲 anv_militia 008 activated act=1
        unit u3 乙 aur_dragons 013
    """)
    assert ScriptedAgent().choose(m).kind != "attack"


def test_scripted_moves_and_deploys(pos: PosFn) -> None:
    """PIN-AI-6: moves toward the enemy HQ; deploys its most expensive affordable unit
    nearest the front; a 守护 unit into the HQ cell when an enemy comes within 2."""
    m = pos("unit u2 甲 anv_rifles 003 activated act=2\n")
    choice = ScriptedAgent().choose(m)
    assert choice.kind == "move" and choice.args[1] in ("008", "009")
    m = pos("hand 甲 anv_rifles anv_tanks\n", cp="4/16")
    assert ScriptedAgent().choose(m) == PinAction(
        "deploy", ("anv_tanks", "002")
    )  # 3 from 020, first
    m = pos("unit u9 乙 aur_templars 008\nhand 甲 anv_rifles anv_militia\n", cp="4/16")
    assert ScriptedAgent().choose(m) == PinAction("deploy", ("anv_militia", "003"))


def test_scripted_uses_special_when_it_pays(pos: PosFn) -> None:
    """PIN-KW-5 / PIN-CHAOS-1 / PIN-AI-4: the standard AI tries a unit's 特殊 action on a
    copy like a command: 突击工兵营 blows up the enemy in its cell (no counter, unlike its
    attack); 战斗法师团 throws an enemy tank at distance 2 (out of its attack range) into
    chaos; chaos on a unit already in chaos gains nothing and is not used."""
    m = pos("""
        unit u2 甲 anv_sappers 013 activated act=2
        unit u3 乙 aur_starguns 013
    """)
    assert PinAction("attack", ("u2", "u3", "爆炸")) in m.legal_actions()
    assert ScriptedAgent().choose(m) == PinAction("special", ("u2", "u3"))
    m = pos(
        """
        unit u2 乙 aur_battlemages 013 activated act=2
        unit u3 甲 anv_tanks 009
    """,
        active="乙",
    )
    assert not [a for a in m.legal_actions() if a.kind == "attack"]
    assert ScriptedAgent().choose(m) == PinAction("special", ("u2", "u3"))
    m = pos(
        """
        unit u2 乙 aur_battlemages 013 activated act=2
        unit u3 甲 anv_tanks 009 chaos=6
    """,
        active="乙",
    )
    assert PinAction("special", ("u2", "u3")) in m.legal_actions()
    assert ScriptedAgent().choose(m).kind != "special"
