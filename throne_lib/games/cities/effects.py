"""Capture effects (破城效果) carried out in 城堡之心's terms (CW-CITY-6), reusing the
base game's own helpers: ``core.draw``, ``core.heal_hero``, ``combat.deal``.

:func:`castle_resolver` makes the ``resolve`` callback :meth:`CityWar.capture` calls.
Effects that need the breaker's choice (长安's card from the discard pile, 南皮's
soldier, 合肥's target) are handed to ``choose(effect, number)``: the match engine
(:mod:`.engine`) turns them into prompts; without ``choose`` they raise
``NotImplementedError`` rather than choosing silently.
"""

from __future__ import annotations

from collections.abc import Callable

from throne_lib.games.castle.combat import deal
from throne_lib.games.castle.core import discard_card, draw, heal_hero, log
from throne_lib.games.castle.state import State
from throne_lib.games.cities.table import City
from throne_lib.games.cities.war import Resolver

GRAIN_ONLY = frozenset({"arrive_grain"})  # resolved by CityWar itself
NEEDS_CHOICE = frozenset({"take_from_discard", "deploy_free_soldier", "damage_any"})


def resolve_capture(
    s: State,
    breaker: int,
    city: City,
    previous: int | None,
    choose: Callable[[str, int], None] | None = None,
) -> None:
    """CW-CITY-4 / CW-CITY-5 / CW-CITY-6: the effect works for the breaker; parts about
    the previous owner do nothing without one."""
    log(s, "capture_effect", f"{s.hero_name(breaker)} 击破{city.name}，发动破城效果")
    for name, value in city.capture:
        n = value or 0
        if name in GRAIN_ONLY:
            continue
        if name in NEEDS_CHOICE:
            if choose is None:
                raise NotImplementedError(f"{city.name}'s {name} needs the breaker's choice")
            choose(name, n)
        if name == "draw":
            draw(s, breaker, n, f"{city.name}破城效果")
        elif name == "heal_hero":
            heal_hero(s, breaker, n)
        elif name == "heal_hero_full":
            p = s.players[breaker]
            heal_hero(s, breaker, p.max_hp)
        elif name == "heal_soldiers_full":
            for sol in s.players[breaker].soldiers:
                sol.hp = max(sol.hp, sol.max_hp)
        elif name == "previous_discards" and previous is not None:
            hand = s.players[previous].hand
            for _ in range(min(n, len(hand))):
                discard_card(s, previous, hand[s.rng.randrange(len(hand))])
        elif name == "previous_soldiers_damage" and previous is not None:
            for sol in list(s.players[previous].soldiers):
                deal(s, sol.ref, n, breaker, "other")


def castle_resolver(s: State) -> Resolver:
    def resolve(breaker: int, city: City, previous: int | None) -> None:
        resolve_capture(s, breaker, city, previous)

    return resolve
