"""The city layer of 城池战: stacks, the empty area, grain, breaking and capturing.

:class:`CityWar` holds every city's place and grain and applies the CW- rules that
move them (GRAIN, CAPTURE, STACK, DECK-3/4, ABANDON, WIN). It is UI-free and
engine-free: the base game (城堡之心) calls it with the damage an attack deals and a
``resolve`` callback that carries out a capture effect in base-game terms (draw, heal,
deploy). Grain-only effects (许昌's arrival grain, 屯田) it resolves itself.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from throne_lib.games.cities.rules import CitiesRules
from throne_lib.games.cities.table import City, CityTable
from throne_lib.kit.protocol import IllegalAction

EMPTY = -1  # the empty area, as an owner
# resolve(breaker, city, previous_owner or None): carries out a capture effect (CW-CITY-4)
Resolver = Callable[[int, City, int | None], None]


def _no_effect(breaker: int, city: City, previous: int | None) -> None:
    return None


@dataclass
class CityWar:
    table: CityTable
    rules: CitiesRules
    teams: list[int]
    starting: list[str]
    stacks: list[list[str]]  # per seat, bottom (starting city) .. top (current city)
    empty: list[str]
    grain: dict[str, int]
    out: list[bool]
    banned: dict[int, set[str]] = field(default_factory=dict)  # CW-ABANDON-3
    resolving: list[str] = field(default_factory=list)  # CW-CAPTURE-5: nobody's
    result: list[float] | None = None
    end_rule: str = ""
    log: list[dict[str, Any]] = field(default_factory=list)
    first_hit_taken: set[str] = field(default_factory=set)  # 建业 (reset each turn)

    def copy(self) -> CityWar:
        """An independent copy (the table and rules are immutable and shared)."""
        return CityWar(
            table=self.table,
            rules=self.rules,
            teams=list(self.teams),
            starting=list(self.starting),
            stacks=[list(st) for st in self.stacks],
            empty=list(self.empty),
            grain=dict(self.grain),
            out=list(self.out),
            banned={k: set(v) for k, v in self.banned.items()},
            resolving=list(self.resolving),
            result=list(self.result) if self.result is not None else None,
            end_rule=self.end_rule,
            log=list(self.log),
            first_hit_taken=set(self.first_hit_taken),
        )

    def canonical(self) -> tuple[Any, ...]:
        """An order-stable picture of the city position (for the match hash)."""
        return (
            tuple(self.teams), tuple(self.starting), tuple(tuple(st) for st in self.stacks),
            tuple(self.empty), tuple(sorted(self.grain.items())), tuple(self.out),
            tuple(sorted((k, tuple(sorted(v))) for k, v in self.banned.items())),
            tuple(self.resolving), self.result, self.end_rule, tuple(sorted(self.first_hit_taken)),
        )  # fmt: skip

    # --- set-up ---------------------------------------------------------------------
    @classmethod
    def deal(
        cls,
        table: CityTable,
        rules: CitiesRules,
        teams: Sequence[int],
        rng: random.Random,
        order: Sequence[int] | None = None,
    ) -> CityWar:
        """CW-SETUP-3/5/6: draw the cities in play, each player one in turn order."""
        n = len(teams)
        if len(set(teams)) < 2:
            raise ValueError("城池战 needs at least two teams (CW-SETUP-2)")
        k = rules.cities_in_play(n)
        if k > len(table):
            raise ValueError(f"{k} cities in play but the table holds {len(table)} (CW-SETUP-3)")
        ids = table.ids()
        in_play = rng.sample(ids, k) if rules.city_pick == "random" else ids[:k]
        rng.shuffle(in_play)  # face down
        starting = [""] * n
        for seat in order if order is not None else range(n):
            starting[seat] = in_play.pop(0)
        war = cls(
            table=table,
            rules=rules,
            teams=list(teams),
            starting=starting,
            stacks=[[c] for c in starting],
            empty=list(in_play),
            grain={c: rules.start_grain for c in starting},
            out=[False] * n,
        )
        for c in in_play:
            war.grain[c] = rules.city_grain
        war._note("reveal", starting=[table[c].name for c in starting])
        return war

    # --- queries --------------------------------------------------------------------
    def owner(self, city: str) -> int | None:
        """The seat owning ``city``, EMPTY, or None while its capture resolves."""
        for seat, stack in enumerate(self.stacks):
            if city in stack:
                return seat
        if city in self.empty:
            return EMPTY
        return None

    def current(self, seat: int) -> str | None:
        st = self.stacks[seat]
        return st[-1] if st else None

    def full_grain(self, seat: int, city: str) -> int:
        """CW-GRAIN-1/2: 30 for a player's own starting city, 15 for any other."""
        return self.rules.start_grain if self.starting[seat] == city else self.rules.city_grain

    def active_defence(self, seat: int) -> City | None:
        """CW-CITY-3: only the current city's defence effect works."""
        if self.out[seat]:
            return None
        c = self.current(seat)
        return self.table[c] if c else None

    def allies(self, a: int, b: int) -> bool:
        return self.teams[a] == self.teams[b]

    def team_cities(self, team: int) -> int:
        return sum(len(self.stacks[s]) for s in range(len(self.teams)) if self.teams[s] == team)

    def victory_count(self, team: int) -> int:
        """CW-SETUP-3: the cities ``team`` needs (its members + the table's count − 1)."""
        return self.rules.victory_count(len(self.teams), self.teams.count(team))

    def victory_counts(self) -> dict[int, int]:
        """Every team's victory count (CW-SETUP-3), by team."""
        return {t: self.victory_count(t) for t in sorted(set(self.teams))}

    def attack_targets(self, seat: int) -> list[str]:
        """Cities ``seat`` may attack (CW-SIEGE-1, CW-ABANDON-3); reach is the engine's."""
        if self.out[seat] or self.result is not None:
            return []
        out = [c for c in self.empty if c not in self.banned.get(seat, set())]
        for other, stack in enumerate(self.stacks):
            if other == seat or self.out[other] or not stack:
                continue
            if self.allies(seat, other) and not self.rules.attack_allied_cities:
                continue
            if stack[-1] not in self.banned.get(seat, set()):
                out.append(stack[-1])  # rear cities cannot be attacked
        return out

    def check_target(self, seat: int, city: str) -> None:
        if city in self.attack_targets(seat):
            return
        if self.result is not None:
            raise IllegalAction(f"attack {city}", self.end_rule, "the match is over")
        if self.out[seat]:
            raise IllegalAction(f"attack {city}", "CW-WIN-5", "the player is out")
        owner = self.owner(city)
        if city in self.banned.get(seat, set()):
            rule, why = "CW-ABANDON-3", f"{self._name(city)} was abandoned by this player"
        elif owner is not None and owner >= 0 and self.current(owner) != city:
            rule, why = "CW-SIEGE-1", f"{self._name(city)} is a rear city"
        else:
            rule, why = "CW-SIEGE-1", f"{self._name(city)} is not an opponent's or empty city"
        raise IllegalAction(f"attack {city}", rule, why)

    def view(self, seat: int | None, light: bool = False) -> dict[str, Any]:
        """The city part of an observation, JSON-able. Every city is face up after the
        reveal (CW-SETUP-5), so all seats see the same except their own 弃守 bans.
        ``light`` (an agent's view): each city's id, grain and bans, the teams and who is
        out — the facts; without names, full grain, team counts and attack targets, which
        the engine answers again when asked."""
        if light:
            banned = self.banned.get(seat, ()) if seat is not None else ()
            return {
                "stacks": [[{"id": c, "grain": self.grain[c]} for c in st] for st in self.stacks],
                "empty": [
                    {"id": c, "grain": self.grain[c], "banned": c in banned} for c in self.empty
                ],
                "teams": list(self.teams),
                "out": list(self.out),
                "result": self.result,
                "end_rule": self.end_rule,
            }

        def card(c: str, owner: int) -> dict[str, Any]:
            full = self.full_grain(owner, c) if owner >= 0 else self.rules.city_grain
            return {"id": c, "name": self._name(c), "grain": self.grain[c], "full": full}

        return {
            "stacks": [
                [card(c, s) | {"start": i == 0} for i, c in enumerate(st)]
                for s, st in enumerate(self.stacks)
            ],
            "empty": [
                card(c, EMPTY) | {"banned": seat is not None and c in self.banned.get(seat, ())}
                for c in self.empty
            ],
            "teams": list(self.teams),
            "out": list(self.out),
            "team_cities": {str(t): self.team_cities(t) for t in sorted(set(self.teams))},
            "victory_count": {str(t): k for t, k in self.victory_counts().items()},
            "targets": self.attack_targets(seat) if seat is not None else [],
            "result": self.result,
            "end_rule": self.end_rule,
        }

    # --- damage ---------------------------------------------------------------------
    def attack_damage(
        self, attacker: int, city: str, base: int, kind: str, *, peek: bool = False
    ) -> int:
        """What one attack deals ``city`` (CW-SIEGE-3 + defence effects, CW-CITY-8).

        ``kind``: ``sword`` (a hero's 剑 attack), ``soldier`` or ``fireball`` (magic: no
        siege bonus). ``peek`` estimates without spending 建业's first-attack shield."""
        dmg = base + (self.rules.siege_bonus if kind in ("sword", "soldier") else 0)
        if kind == "sword" and self._defence_has(attacker, "hero_sword_plus"):
            dmg += self._defence_value(attacker, "hero_sword_plus")
        owner = self.owner(city)
        if owner is not None and owner >= 0:
            if kind == "soldier" and self._defence_has(owner, "soldier_attack_minus"):
                dmg -= self._defence_value(owner, "soldier_attack_minus")
            if (
                kind != "fireball"
                and self._defence_has(owner, "first_attack_nullified")
                and city not in self.first_hit_taken
            ):
                if not peek:
                    self.first_hit_taken.add(city)
                dmg = 0
        return max(0, dmg)

    def damage(self, breaker: int, city: str, amount: int, resolve: Resolver = _no_effect) -> bool:
        """One attack or effect deals ``amount`` to ``city`` (CW-CAPTURE-1). Returns
        whether it broke the city (then captured or 失守, CW-CAPTURE-3/4)."""
        if not self.strike(breaker, city, amount):
            return False
        self.capture(breaker, [city], resolve)
        return True

    def strike(self, breaker: int, city: str, amount: int) -> bool:
        """The grain part of :meth:`damage`: returns whether the hit breaks ``city``
        (its grain is then 0; the caller captures it, at once or through its prompts)."""
        self.check_target(breaker, city)
        if amount <= 0 or self._take_grain(city, breaker, amount, "grain"):
            return False
        g = self.grain[city]
        self._note("break_damage", city=city, by=breaker, amount=g, lost=amount - g)
        self.grain[city] = 0
        return True

    def _take_grain(self, city: str, by: int, amount: int, note: str) -> bool:
        """Take ``amount`` from ``city``'s grain when it holds more (noted as ``note``, with
        what is left) and say so; a city holding no more than ``amount`` keeps it all."""
        g = self.grain[city]
        if amount >= g:
            return False
        self.grain[city] = g - amount
        self._note(note, city=city, by=by, amount=amount, left=g - amount)
        return True

    def capture(self, breaker: int, cities: Sequence[str], resolve: Resolver = _no_effect) -> None:
        """CW-CAPTURE-4/6: the broken cities leave at once, their capture effects resolve
        in the breaker's order, then they go on top in that order."""
        pending = self.begin_capture(breaker, cities)
        for city in cities:
            if city in pending:
                resolve(breaker, self.table[city], self.previous_owner(pending[city]))
                self._note("capture_effect", city=city, by=breaker)
        self.finish_capture(breaker, cities)

    def previous_owner(self, prev: int | None) -> int | None:
        """CW-CITY-5: the previous owner, or None (an empty city; a player who is out)."""
        return None if prev is None or self.out[prev] else prev

    def begin_capture(self, breaker: int, cities: Sequence[str]) -> dict[str, int | None]:
        """CW-CAPTURE-4 step (1): the broken cities leave their places (their owners
        occupy the city below or go out) and are nobody's (CW-CAPTURE-5); those of the
        owner itself or of a breaker who is out are 失守 (CW-CAPTURE-3). Returns each city
        still to capture -> its previous owner (None: it was empty)."""
        previous: dict[str, int | None] = {}
        for city in cities:
            owner = self.owner(city)
            previous[city] = owner if owner is not None and owner >= 0 else None
            self._remove(city)
            self.resolving.append(city)
            if owner is not None and owner >= 0:
                self._after_loss(owner, city, "broken")
        for city in cities:
            if self.out[breaker] or previous[city] == breaker:
                self.resolving.remove(city)
                self._to_empty(city, "失守")
                del previous[city]
        return previous

    def finish_capture(self, breaker: int, cities: Sequence[str]) -> None:
        """CW-CAPTURE-4 step (3): the breaker owns and occupies the cities, in order."""
        for city in cities:
            if city not in self.resolving:
                continue
            self.resolving.remove(city)
            if self.out[breaker]:
                self._to_empty(city, "失守")
                continue
            arrive = self.table[city].capture_value("arrive_grain")
            self._push(breaker, city, arrive if arrive is not None else self.rules.city_grain)
            self._note("occupy", city=city, by=breaker)
        self.check_win()

    def pay_grain(self, seat: int, amount: int) -> bool:
        """CW-GRAIN-7: taken from the current city only; short means lost and unpaid."""
        city = self.current(seat)
        if city is None:
            return False
        if self._take_grain(city, seat, amount, "pay"):
            return True
        g = self.grain[city]
        self._note("pay", city=city, by=seat, amount=g, left=0)
        self._remove(city)
        self._to_empty(city, "失守")
        self._after_loss(seat, city, "失守")
        self.check_win()
        return amount == g

    def turn_start(self, seat: int) -> None:
        """The preparation step's grain effect (许昌's 屯田, CW-TURN-2); 建业 resets."""
        self.first_hit_taken.clear()
        city = self.current(seat)
        if city and self._defence_has(seat, "regain_grain"):
            full = self.full_grain(seat, city)
            gained = min(full, self.grain[city] + self._defence_value(seat, "regain_grain"))
            self.grain[city] = max(self.grain[city], gained)  # CW-CITY-8: never lowers it

    # --- losing cities --------------------------------------------------------------
    def abandon(self, seat: int) -> None:
        """CW-ABANDON-1/3: the current city goes empty; the abandoner may not attack it."""
        city = self.current(seat)
        if self.out[seat] or city is None:
            raise IllegalAction("弃守", "CW-ABANDON-1", "the player holds no city")
        self._remove(city)
        self._to_empty(city, "弃守")
        self.banned.setdefault(seat, set()).add(city)
        self._after_loss(seat, city, "弃守")
        self.check_win()

    def deck_reset(self, seat: int) -> None:
        """CW-DECK-3 step (2) and CW-DECK-4: give up every city but the starting city,
        which becomes current with full grain; holding only the starting city, give it
        up too and go out. (Steps 1, 3, 4 — the cards — are the engine's.)"""
        start = self.starting[seat]
        if self.stacks[seat] == [start]:
            self._remove(start)
            self._to_empty(start, "重置墓地")
            self._go_out(seat, "CW-DECK-4")
        else:
            for city in list(reversed(self.stacks[seat])):
                if city != start:
                    self._remove(city)
                    self._to_empty(city, "重置墓地")
            self.grain[start] = self.full_grain(seat, start)
            self._note("reset", seat=seat)
        self.check_win()

    def concede(self, seat: int) -> None:
        """CW-WIN-4: every city into the empty area, no capture effect; out."""
        if self.out[seat]:
            raise IllegalAction("认输", "CW-WIN-4", "the player is already out")
        for city in list(reversed(self.stacks[seat])):
            self._remove(city)
            self._to_empty(city, "认输")
        self._go_out(seat, "CW-WIN-4")
        self.check_win()

    # --- victory --------------------------------------------------------------------
    def check_win(self) -> None:
        """CW-WIN-1 (team city count) and CW-WIN-2 (every opponent out)."""
        if self.result is not None:
            return
        n = len(self.teams)
        for team, goal in self.victory_counts().items():
            members_in = any(not self.out[s] for s in range(n) if self.teams[s] == team)
            if members_in and self.team_cities(team) >= goal:
                self._finish({team}, "CW-WIN-1")
                return
        alive = {self.teams[s] for s in range(n) if not self.out[s]}
        if len(alive) == 1:
            self._finish(alive, "CW-WIN-2")
        elif not alive:
            self._finish(set(), "CW-WIN-2")

    def end_by_rounds(self) -> None:
        """CW-WIN-6: most cities, then most current grain; still tied: those draw."""
        if self.result is not None:
            return
        n = len(self.teams)
        teams = sorted({self.teams[s] for s in range(n) if not self.out[s]})
        best = max(self.team_cities(t) for t in teams)
        top = [t for t in teams if self.team_cities(t) == best]
        if len(top) > 1:
            grain = {
                t: sum(
                    self.grain[c]
                    for s in range(n)
                    if self.teams[s] == t and not self.out[s] and (c := self.current(s))
                )
                for t in top
            }
            most = max(grain.values())
            top = [t for t in top if grain[t] == most]
        self._finish(set(top), "CW-WIN-6", draw=len(top) > 1)

    def invariant_problems(self) -> list[str]:
        """CW-CITY-2: every city in exactly one place; grain never negative."""
        where: dict[str, int] = {}
        for stack in self.stacks:
            for c in stack:
                where[c] = where.get(c, 0) + 1
        for c in self.empty + self.resolving:
            where[c] = where.get(c, 0) + 1
        probs = [f"{c} is in {k} places" for c, k in where.items() if k != 1]
        probs += [f"{c} has {g} grain" for c, g in self.grain.items() if g < 0]
        for seat, stack in enumerate(self.stacks):
            if stack and stack[0] != self.starting[seat]:
                probs.append(f"seat {seat}'s stack does not start with its starting city")
            for c in stack[:-1]:
                if self.grain[c] != self.full_grain(seat, c):
                    probs.append(f"rear city {c} of seat {seat} is not full")
        return probs

    # --- internals ------------------------------------------------------------------
    def _name(self, city: str) -> str:
        return self.table[city].name

    def _defence_has(self, seat: int, effect: str) -> bool:
        c = self.active_defence(seat)
        return c is not None and any(n == effect for n, _ in c.defence)

    def _defence_value(self, seat: int, effect: str) -> int:
        c = self.active_defence(seat)
        assert c is not None
        return next((v or 0) for n, v in c.defence if n == effect)

    def _remove(self, city: str) -> None:
        for stack in self.stacks:
            if city in stack:
                stack.remove(city)
                return
        if city in self.empty:
            self.empty.remove(city)

    def _push(self, seat: int, city: str, grain: int) -> None:
        st = self.stacks[seat]
        if st:
            self.grain[st[-1]] = self.full_grain(seat, st[-1])  # CW-GRAIN-4, CW-STACK-2
        st.append(city)
        self.grain[city] = grain  # CW-GRAIN-3
        for s, ban in self.banned.items():  # CW-ABANDON-3: broken and occupied by another
            if s != seat:
                ban.discard(city)

    def _to_empty(self, city: str, why: str) -> None:
        self.empty.append(city)
        self.grain[city] = self.rules.city_grain  # CW-GRAIN-2
        self._note("to_empty", city=city, why=why)

    def _after_loss(self, seat: int, city: str, why: str) -> None:
        """CW-STACK-3 / CW-WIN-3: the city below becomes current, full; or out."""
        if city == self.starting[seat]:
            for rest in list(self.stacks[seat]):
                self._remove(rest)
                self._to_empty(rest, "出局")
            self._go_out(seat, "CW-WIN-3")
            return
        below = self.current(seat)
        if below is not None:
            self.grain[below] = self.full_grain(seat, below)
            self._note("occupy", city=below, by=seat)

    def _go_out(self, seat: int, rule: str) -> None:
        self.out[seat] = True
        self._note("out", seat=seat, rule=rule)

    def _finish(self, winners: set[int], rule: str, draw: bool = False) -> None:
        res: list[float] = []
        for s, t in enumerate(self.teams):
            if t in winners:
                share = not self.out[s] or self.rules.out_allies_share_win or rule == "CW-WIN-6"
                res.append((0.0 if draw else 1.0) if share else -1.0)
            else:
                res.append(-1.0)
        self.result = res
        self.end_rule = rule
        self._note("end", rule=rule, result=res)

    def _note(self, kind: str, **data: Any) -> None:
        self.log.append({"kind": kind, **data})
