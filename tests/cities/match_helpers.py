"""Build ``CitiesMatch`` positions for engine tests: play the set-up with the scripted
agent, then arrange hands, soldiers and cities by hand (the match is a plain state)."""

from __future__ import annotations

from throne_lib.games.castle.actions import Act
from throne_lib.games.castle.state import Soldier
from throne_lib.games.cities import CitiesMatch
from throne_lib.games.cities.agents import CitiesAgent
from throne_lib.games.cities.war import CityWar


def first_prep(n: int = 3, seed: int = 0, teams: list[str] | None = None) -> CitiesMatch:
    """The match at the first player's first 出牌阶段 (its prep step is behind it: with
    only its starting city it was asked nothing)."""
    m = CitiesMatch(players=n, seed=seed, teams=teams)
    agent = CitiesAgent(seed)
    while m.prompt_kind != "play":
        m.apply(agent.choose(m))
    return m


def first_play(n: int = 3, seed: int = 0, teams: list[str] | None = None) -> CitiesMatch:
    """The match in the first player's first 出牌阶段, hands emptied."""
    m = first_prep(n, seed, teams)
    for p in m.state.players:
        p.hand = []
    touch(m)
    return m


def give_city(m: CitiesMatch, seat: int) -> str:
    """Move an empty city on top of ``seat``'s stack (as if it had captured it)."""
    w = war(m)
    city = w.empty.pop(0)
    if w.stacks[seat]:
        w.grain[w.stacks[seat][-1]] = w.full_grain(seat, w.stacks[seat][-1])
    w.stacks[seat].append(city)
    w.grain[city] = w.rules.city_grain
    touch(m)
    return city


def to_prep(m: CitiesMatch, seat: int) -> None:
    """End turns (last legal action everywhere) until ``seat``'s 弃守 question."""
    for _ in range(2000):
        if m.prompt_kind == "cw_prep" and m.current_seat == seat:
            return
        m.apply(m.legal_actions()[-1])
    raise AssertionError(f"seat {seat} was never asked to abandon")


def war(m: CitiesMatch) -> CityWar:
    w: CityWar = m.state.mode.war
    return w


def touch(m: CitiesMatch) -> None:
    """The state was edited by hand: drop the cached legal actions."""
    m._legal_for = None


def put_empty(m: CitiesMatch, cid: str, grain: int) -> str:
    """Make ``cid`` an empty city with ``grain`` (taking it out of play if it is one of
    the empty ones already; it must not be a player's city)."""
    w = war(m)
    assert all(cid not in st for st in w.stacks), f"{cid} is a player's city"
    if cid not in w.empty:
        w.empty.append(cid)
    w.grain[cid] = grain
    touch(m)
    return cid


def add_soldier(m: CitiesMatch, seat: int, card: str) -> Soldier:
    s = m.state
    c = s.cards[card]
    sol = Soldier(s.next_uid, card, c.hp, c.hp)
    s.next_uid += 1
    s.players[seat].soldiers.append(sol)
    touch(m)
    return sol


def city_acts(m: CitiesMatch, kind: str) -> list[Act]:
    return [
        a
        for a in m.legal_actions()
        if a.kind == kind and any(str(x).startswith("c:") for x in a.args)
    ]


def lines(m: CitiesMatch, start: int = 0) -> list[str]:
    return [e.text for e in m.state.log[start:]]
