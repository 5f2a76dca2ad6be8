"""The scripted 城池战 player (CW-AI): the castle's scripted agent with teams for
identities (CW-AI-7: every opponent a known enemy, every ally a known friend) and the
city choices of :mod:`.ai` (attack plan, block, abandon, 南皮, capture choices).

It reads only ``observation(seat)`` and the legal actions; the city position in the
observation is public, so it rebuilds a :class:`CityWar` from it to ask :mod:`.ai`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from throne_lib.games.castle.actions import Act
from throne_lib.games.castle.agents import Obs, ScriptedAgent
from throne_lib.games.cities import ai
from throne_lib.games.cities.engine import CITY, city_profile, is_city, soldier_reaches
from throne_lib.games.cities.rules import CitiesRules
from throne_lib.games.cities.war import CityWar

CARD_VALUE = {"sword": 6, "heal": 5, "exploding_fireball": 4}


def war_from_view(obs: Obs, rules: CitiesRules | None = None) -> CityWar:
    """The public city position of an observation as a CityWar (for the AI's questions)."""
    from throne_lib.games.cities.match import default_table

    cv = obs["cities"]
    seat = obs["seat"]
    stacks = [[c["id"] for c in st] for st in cv["stacks"]]
    grain = {c["id"]: c["grain"] for st in cv["stacks"] for c in st}
    grain.update({c["id"]: c["grain"] for c in cv["empty"]})
    banned = {seat: {c["id"] for c in cv["empty"] if c.get("banned")}} if seat is not None else {}
    return CityWar(
        table=default_table(),
        rules=rules or CitiesRules(),
        teams=list(cv["teams"]),
        starting=list(cv["starting"]),
        stacks=stacks,
        empty=[c["id"] for c in cv["empty"]],
        grain=grain,
        out=list(cv["out"]),
        banned=banned,
    )


class CitiesAgent(ScriptedAgent):
    """CW-AI-1..7 over the seat's view; deterministic (ties by action text).

    Where a plan needs what a soldier can reach and deal, it asks the engine on a copy
    the match redraws from the seat's view (``resample``), so mounts, 疾风迅行 and every
    other reach rule count exactly as the rules count them (CW-SIEGE-4)."""

    _match: Any = None

    def choose(self, match: Any) -> Act:
        self._match = match
        try:
            return super().choose(match)
        finally:
            self._match = None

    def _view_copy(self, obs: Obs) -> Any:
        """The match as this seat may know it (hidden cards redrawn, seeded), or None
        when the agent was asked through ``decide`` without a match."""
        if self._match is None:
            return None
        rng = random.Random(self.seed * 1009 + int(obs["seat"]))
        return self._match.resample(int(obs["seat"]), rng)

    def hostility(self, obs: Obs) -> dict[int, float]:
        cv = obs["cities"]
        teams, out = cv["teams"], cv["out"]
        me = self.seat
        return {
            q: (10.0 if teams[q] != teams[me] else -10.0)
            for q in range(len(teams))
            if q != me and not out[q]
        }

    def _threat(self, obs: Obs, war: CityWar) -> dict[int, int]:
        """CW-AI-5's estimate: a hero attack + one per soldier, each 1 + siege bonus."""
        per = 1 + war.rules.siege_bonus
        return {
            p["seat"]: per * (1 + len(p["soldiers"]))
            for p in obs["players"]
            if not war.out[p["seat"]] and not war.allies(self.seat, p["seat"])
        }

    def _cw_prep(self, obs: Obs, legal: Sequence[Act]) -> Act:
        war = war_from_view(obs)
        return (
            Act("abandon")
            if ai.should_abandon(war, self.seat, self._threat(obs, war))
            else Act("keep")
        )

    def _city_attacks(self, obs: Obs, legal: Sequence[Act]) -> dict[str, list[Act]]:
        out: dict[str, list[Act]] = {}
        for a in legal:
            if a.kind == "attack" and is_city(a.args[0]) and a.args[1] == 0:
                out.setdefault(str(a.args[0]).removeprefix(CITY), []).append(a)
        return out

    def _play(self, obs: Obs, legal: Sequence[Act]) -> Act | None:
        war = war_from_view(obs)
        me = obs["players"][self.seat]
        for a in legal:  # CW-AI-6: 南皮 only while it keeps half its grain
            if a.kind == "nanpi" and ai.should_pay_nanpi(war, self.seat):
                return a
        for a in legal:  # CW-AI-6: 爆裂火球 on a city only to break it
            if a.kind == "magic" and len(a.args) > 1 and is_city(a.args[1]):
                city = str(a.args[1]).removeprefix(CITY)
                if war.grain[city] <= war.rules.fireball_city_damage:
                    return a
        castle = super()._play(obs, legal)
        if castle is not None and castle.kind not in ("attack",):
            return castle
        by_city = self._city_attacks(obs, legal)
        if by_city:  # CW-AI-1..3: the hero's 剑 attack joins the plan
            attacks = [ai.CityAttack("hero", "sword", self._hero_base(obs), frozenset(by_city))]
            sim = self._view_copy(obs) if me["soldiers"] else None
            attacks += [self._soldier_attack(obs, war, x, sim) for x in me["soldiers"]]
            plan = ai.plan_attacks(war, self.seat, attacks)
            for aid, city in plan:
                if aid == "hero" and city in by_city:
                    pay = [a for a in by_city[city] if a.args[2] == "sword"] or by_city[city]
                    return pay[0]
        return castle

    def _hero_base(self, obs: Obs) -> int:
        """The hero's attack before the siege bonus: 2 with its weapon's mastery."""
        me = obs["players"][self.seat]
        w = me["equip"].get("weapon", "")
        kind = self.cards[w].weapon_type if w else ""
        hero = self.cards[me["hero"]] if me["hero"] else None
        mastered = hero is not None and (
            (kind == "axe" and hero.has("axe_mastery"))
            or (kind == "sword" and hero.has("sword_mastery"))
        )
        return 2 if mastered else 1

    def _soldier_attack(self, obs: Obs, war: CityWar, x: Obs, sim: Any = None) -> ai.CityAttack:
        """A soldier's attack for the plan: the cities the engine says it reaches
        (CW-SIEGE-4: seat distance with both sides' mounts, 疾风迅行, its range) and the
        damage its profile deals, asked of ``sim`` (a copy from the seat's view)."""
        legal = set(war.attack_targets(self.seat))
        sol = sim.state.unit(x["ref"]) if sim is not None else None
        if sol is None:  # no match to ask: every empty city, no opponent's city
            c = self.cards[x["card"]]
            base = int(c.num("charge")) if c.has("charge") else 1
            return ai.CityAttack(x["ref"], "soldier", base, frozenset(set(war.empty) & legal))
        s = sim.state
        reach = {city for city in legal if soldier_reaches(s, self.seat, sol, city)}
        base = city_profile(s, self.seat, sol)[1]
        return ai.CityAttack(x["ref"], "soldier", base, frozenset(reach))

    def _command_pick(self, obs: Obs, legal: Sequence[Act]) -> Act | None:
        war = war_from_view(obs)
        cities = []
        for a in legal:
            if a.kind != "command":
                continue
            g = str(a.args[0])
            city = g.removeprefix(CITY) if is_city(g) else war.current(int(g[1:]))
            if city and city in war.attack_targets(self.seat):
                cities.append((ai._priority(war, self.seat, city), war.grain[city], a.text(), a))
        if cities:
            return min(cities, key=lambda t: t[:3])[3]
        return super()._command_pick(obs, legal)

    def _order(self, obs: Obs, legal: Sequence[Act]) -> Act | None:
        city = [a for a in legal if a.kind == "order" and is_city(a.args[1])]
        if city:
            return min(city, key=lambda a: a.text())
        return super()._order(obs, legal)

    def _block(self, obs: Obs, legal: Sequence[Act]) -> Act:
        d = (obs.get("prompt") or {}).get("detail") or {}
        target = str(d.get("target", ""))
        if is_city(target):  # CW-AI-4
            war = war_from_view(obs)
            est = 1 + war.rules.siege_bonus
            return Act("block") if ai.should_block(war, self.seat, est) else Act("no_block")
        return Act("block")

    def _cw_retrieve(self, obs: Obs, legal: Sequence[Act]) -> Act:
        return max(legal, key=lambda a: (CARD_VALUE.get(str(a.args[0]), 1), a.text()))

    def _cw_deploy(self, obs: Obs, legal: Sequence[Act]) -> Act:
        return max(legal, key=lambda a: (self.cards[str(a.args[0])].value, a.text()))

    def _cw_order(self, obs: Obs, legal: Sequence[Act]) -> Act:
        """CW-AI-7: name the lowest-weight city first, so the highest ends on top."""
        by_id = {str(a.args[0]).removeprefix("c:"): a for a in legal}
        return by_id[ai.order_captures(war_from_view(obs), list(by_id))[0]]

    def _cw_strike(self, obs: Obs, legal: Sequence[Act]) -> Act:
        def hp(a: Act) -> tuple[int, str]:
            return (self._unit_info(obs, str(a.args[0]))[1], a.text())

        return min(legal, key=hp)
