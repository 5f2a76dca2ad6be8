"""Capture effects carried out on a 城堡之心 position (CW-CITY-6)."""

from __future__ import annotations

import pytest

from tests.cities.helpers import TABLE, cid, war
from throne_lib.games.castle.match import default_cards
from throne_lib.games.castle.scenario import from_text
from throne_lib.games.cities import CitiesRules
from throne_lib.games.cities.effects import castle_resolver

POSITION = """castle players=3 seed=1 round=1 turn=0 at=play
seat 0 lord li_wei hp=1/4
seat 1 enemy tang_na hp=5/5 hand=sword,heal,mana soldiers=archer
seat 2 enemy bai_pa hp=5/5
deck=sword,heal,mana,sword
discard=
"""


def test_capture_effects_draw_heal_and_hit_the_previous_owner() -> None:
    """CW-CITY-6 / CW-CITY-5: 洛阳 draws 2 from the draw pile; 南平 draws 1 and heals 1;
    邺城 makes the previous owner discard 1 at random; 下邳 damages its soldiers."""
    s = from_text(POSITION, default_cards())
    more = CitiesRules(city_table={3: (6, 9)})  # no count victory midway
    w = war([["许昌"], ["建业", "下邳", "邺城"], ["成都"]], empty=["洛阳", "南平"], rules=more)
    resolve = castle_resolver(s)
    w.damage(0, cid("洛阳"), 15, resolve)
    assert len(s.players[0].hand) == 2 and len(s.deck) == 2
    w.damage(0, cid("南平"), 15, resolve)
    assert len(s.players[0].hand) == 3 and s.players[0].hp == 2
    w.damage(0, cid("邺城"), 15, resolve)
    assert len(s.players[1].hand) == 2 and len(s.discard) == 1
    archer_hp = s.players[1].soldiers[0].hp
    assert w.current(1) == cid("下邳")
    w.damage(0, cid("下邳"), 15, resolve)
    assert s.players[1].soldiers[0].hp == archer_hp - 1
    assert w.current(0) == cid("下邳") and w.current(1) == cid("建业")


def test_choice_effects_are_not_chosen_silently() -> None:
    """CW-CITY-8: 长安's card of your choice needs a prompt the engine hookup adds."""
    s = from_text(POSITION, default_cards())
    w = war([["许昌"], ["建业"], ["成都"]], empty=["长安"])
    with pytest.raises(NotImplementedError):
        w.damage(0, cid("长安"), 15, castle_resolver(s))
    assert TABLE["长安"].capture[0][0] == "take_from_discard"
