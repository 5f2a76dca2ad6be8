"""The scripted AI's city decisions (RULES-CITIES.md, CW-AI-1 to CW-AI-7).

Pure functions over the public city position (:class:`CityWar` holds nothing hidden:
cities, grain and stacks are face up) and the attacks the engine says are legal: an
attack is ``(attack_id, kind, base_damage, reachable_cities)``. They choose; the engine
carries out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from throne_lib.games.cities.war import EMPTY, CityWar


@dataclass(frozen=True)
class CityAttack:
    id: str  # the engine's name for the attack (the hero's 剑 attack, a soldier)
    kind: str  # sword / soldier / fireball
    base: int  # damage before the siege bonus (CH-ATTACK-4)
    reach: frozenset[str]  # cities it may legally hit


def _priority(war: CityWar, seat: int, city: str) -> tuple[int, int, int]:
    """CW-AI-2: lower is better: opponent's starting city; a break reaching the victory
    count; another opponent's current city; an empty city (lowest grain, highest weight)."""
    owner = war.owner(city)
    team = war.teams[seat]
    reaches = war.team_cities(team) + 1 >= war.victory_count(team)
    if owner is not None and owner >= 0 and war.starting[owner] == city:
        return (0, 0, 0)
    if reaches:
        return (1, 0, 0)
    if owner is not None and owner >= 0:
        return (2, 0, 0)
    return (3, war.grain[city], -war.table[city].ai_weight)


def plan_attacks(war: CityWar, seat: int, attacks: Sequence[CityAttack]) -> list[tuple[str, str]]:
    """CW-AI-1 / CW-AI-2 / CW-AI-3: ``[(attack_id, city), …]`` in order. A break is
    planned with as few attacks as possible, the last one dealing the 破城伤害; without
    a break, every attack goes to the reachable empty city with the lowest grain (none:
    the opponent's current city with the lowest grain)."""
    legal = set(war.attack_targets(seat))
    best: tuple[tuple[int, int, int], list[CityAttack], str] | None = None
    for city in sorted(legal):
        able = [a for a in attacks if city in a.reach]
        dmg = {a.id: war.attack_damage(seat, city, a.base, a.kind, peek=True) for a in able}
        able.sort(key=lambda a: -dmg[a.id])
        total, used = 0, []
        for a in able:
            if total >= war.grain[city]:
                break
            if dmg[a.id] > 0:
                used.append(a)
                total += dmg[a.id]
        if total >= war.grain[city] and used:
            key = _priority(war, seat, city)
            if best is None or (key, len(used)) < (best[0], len(best[1])):
                best = (key, used, city)
    if best is not None:
        _, used, city = best
        # the smallest blow last: the break lands with the final planned attack
        used = sorted(used, key=lambda a: -war.attack_damage(seat, city, a.base, a.kind, peek=True))
        return [(a.id, city) for a in used]
    plan: list[tuple[str, str]] = []
    for a in attacks:
        reach = [c for c in a.reach if c in legal]
        empties = [c for c in reach if war.owner(c) == EMPTY]
        pool = empties or reach
        if pool:
            target = min(pool, key=lambda c: (war.grain[c], -war.table[c].ai_weight, c))
            plan.append((a.id, target))
    return plan


def should_block(war: CityWar, seat: int, damage: int) -> bool:
    """CW-AI-4: block an attack on the current city if it would break it or the city is
    the starting city."""
    city = war.current(seat)
    return city is not None and (damage >= war.grain[city] or city == war.starting[seat])


def should_abandon(war: CityWar, seat: int, threat: Mapping[int, int]) -> bool:
    """CW-AI-5: never the starting city; abandon at ≤ ``ai_abandon_grain`` grain, or when
    an opponent one city short of victory could break it in a turn (``threat``: opponent
    seat -> its estimated damage per turn: a hero attack + one per soldier in reach)."""
    city = war.current(seat)
    if city is None or city == war.starting[seat]:
        return False
    g = war.grain[city]
    if g <= war.rules.ai_abandon_grain:
        return True
    for opp, dmg in threat.items():
        if war.out[opp] or war.allies(seat, opp):
            continue
        rival = war.teams[opp]
        if war.team_cities(rival) == war.victory_count(rival) - 1 and dmg >= g:
            return True
    return False


def should_pay_nanpi(war: CityWar, seat: int, cost: int = 8) -> bool:
    """CW-AI-6: use 南皮's payment only if 南皮 keeps at least half its full grain."""
    city = war.current(seat)
    if city is None:
        return False
    full = war.full_grain(seat, city)
    return war.grain[city] - cost >= full / 2


def order_captures(war: CityWar, cities: Sequence[str]) -> list[str]:
    """CW-AI-7: simultaneous captures ordered so the highest AI weight ends on top."""
    return sorted(cities, key=lambda c: (war.table[c].ai_weight, c))
