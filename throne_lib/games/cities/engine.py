"""城池战 driven by the 城堡之心 engine: set-up, turns, attacks on cities, captures.

The castle engine runs the match (its ops, prompts, cards and rules); this module is the
mode layered on it (``State.mode``, a :class:`CitiesMode`): it replaces a few castle ops
by name (:data:`CW_OPS`: set-up without roles, the preparation step, deaths and revival,
turn order, attacks whose target is a city, the command phase with city groups),
extends a few prompts (:data:`CW_PROMPTS`: the 出牌阶段's attacks on cities, 南皮's
payment and 爆裂火球 on a city; the command phase; the prep step's 弃守; the capture
choices of 长安, 南皮 and 合肥) and keeps the city position in a
:class:`~throne_lib.games.cities.war.CityWar`. Every city rule lives in ``CityWar``;
every unit rule stays the castle engine's.

A city as a target is named ``c:<id>`` (``c:luoyang``) in actions and attacks; a unit
keeps the castle's ``h3``/``s12``.

The mode is in four modules, each registering its ops and prompts when imported:
:mod:`~throne_lib.games.cities.mode` (the registries, ``CitiesMode``, the piles, ``sync``),
:mod:`~throne_lib.games.cities.turns` (set-up, turns, deaths, 认输),
:mod:`~throne_lib.games.cities.siege` (attacks on cities, the 出牌阶段 and 指挥阶段) and
:mod:`~throne_lib.games.cities.capture` (breaks and captures). This module imports them
all and is what the match and the agents import.
"""

from __future__ import annotations

from throne_lib.games.castle import command, death, magic, play, setup, skills, turn  # noqa: F401
from throne_lib.games.cities.capture import hit, strike_cities
from throne_lib.games.cities.mode import (
    CITY,
    CW_OPS,
    CW_PROMPTS,
    CitiesMode,
    city_name,
    cw_op,
    cw_prompt,
    defence,
    deploy,
    draw_pile,
    is_city,
    mode,
    prompt_entry,
    ref_name,
    set_piles,
    sweep_fallen,
    sync,
    war_of,
)
from throne_lib.games.cities.siege import (
    city_atk,
    city_groups,
    city_play_actions,
    city_profile,
    in_reach,
    soldier_reaches,
)
from throne_lib.games.cities.turns import concede, new_state, round_leader

__all__ = [
    "CITY",
    "CW_OPS",
    "CW_PROMPTS",
    "CitiesMode",
    "city_atk",
    "city_groups",
    "city_name",
    "city_play_actions",
    "city_profile",
    "concede",
    "cw_op",
    "cw_prompt",
    "defence",
    "deploy",
    "draw_pile",
    "hit",
    "in_reach",
    "is_city",
    "mode",
    "new_state",
    "prompt_entry",
    "ref_name",
    "round_leader",
    "set_piles",
    "soldier_reaches",
    "strike_cities",
    "sweep_fallen",
    "sync",
    "war_of",
]
