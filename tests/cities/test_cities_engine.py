"""城池战 on the 城堡之心 engine: set-up, turns, attacks on cities, captures, deaths."""

from __future__ import annotations

import pytest

from tests.cities.match_helpers import (
    add_soldier,
    city_acts,
    first_play,
    first_prep,
    give_city,
    lines,
    put_empty,
    to_prep,
    touch,
    war,
)
from throne_lib.games.castle.actions import Act
from throne_lib.games.cities import CitiesMatch
from throne_lib.games.cities.agents import CitiesAgent
from throne_lib.games.cities.engine import CITY
from throne_lib.kit.protocol import IllegalAction


def test_setup_deals_no_identities_and_gives_every_player_its_own_piles() -> None:
    """CW-TEAM-1 / CW-TEAM-2 / CW-TEAM-3 / CW-DECK-1 / CW-SETUP-4 / CW-SETUP-7: no roles;
    leadership 2 for all; each player its own 100-card pile (opening hand drawn from it);
    the seat at position 0 plays first."""
    m = first_prep(4, seed=2)
    s = m.state
    assert {p.role for p in s.players} == {"player"}
    assert all(p.leadership in (2, -1) for p in s.players)
    assert s.decks is not None and s.discards is not None
    first = s.turn_seat
    assert s.pos[first] == 0 and s.mode.first == first
    for q, p in enumerate(s.players):  # the opening hand came from the player's own pile
        assert len(s.decks[q]) + len([c for c in p.hand if c != "conjured_mana"]) == 100
    assert len(s.deck) == 0  # no shared deck
    obs = m.observation(0)
    assert all(p["role_zh"] == "" for p in obs["players"])
    assert obs["cities"]["teams"] == [0, 1, 2, 3]


def test_turns_follow_the_seats_from_the_first_player_and_skip_players_out() -> None:
    """CW-TURN-1 / CW-WIN-5: turns go clockwise from the first player; a player who
    conceded is skipped; the round advances at the round leader's turn."""
    m = first_prep(4, seed=1)
    s = m.state
    first = s.turn_seat
    order = s.clockwise_from(first, include=True)
    skipped = order[2]
    m.apply(f"concede {skipped}")
    seen: list[int] = [first]
    rounds = [s.round]
    agent = CitiesAgent(1)
    turns = s.turn_no
    while len(seen) < 7 and not m.is_over:
        m.apply(agent.choose(m))
        if s.turn_no != turns:
            turns = s.turn_no
            seen.append(s.turn_seat)
            rounds.append(s.round)
    expect = [q for q in order if q != skipped]
    assert seen == (expect * 3)[:7]
    assert rounds == [1, 1, 1, 2, 2, 2, 3]
    assert skipped not in s.living()


def test_prep_step_revives_a_dead_hero_then_city_effect_then_abandon_question() -> None:
    """CW-TURN-2 / CW-TEAM-5: at its preparation step a dead hero returns at its printed
    HP with no cards; the current city's start effect follows; then 弃守 is asked."""
    m = first_play(3, seed=0)
    s = m.state
    seat = s.turn_seat
    nxt = s.clockwise_from(seat)[0]
    p = s.players[nxt]
    p.alive, p.hp, p.hand = False, -1, []
    touch(m)
    assert nxt in s.living()  # CW-TEAM-6: the seat stays in the circle
    give_city(m, nxt)
    to_prep(m, nxt)
    assert s.turn_seat == nxt and p.alive and p.hp == p.max_hp == s.cards[p.hero].hp
    assert any("重返战场" in t for t in lines(m))
    assert m.legal_actions() == [Act("keep"), Act("abandon")]


def test_hero_and_soldier_attacks_on_an_empty_city_deal_the_siege_bonus() -> None:
    """CW-SIEGE-2 / CW-SIEGE-3 / CW-SIEGE-4: a hero's 剑 attack on an empty city (in reach
    of everyone) deals 1 + 2."""
    m = first_play(3, seed=0)
    seat = m.state.turn_seat
    city = war(m).empty[0]
    m.state.players[seat].hand = ["sword"]
    touch(m)
    m.apply(Act("attack", (CITY + city, 0, "sword")))
    assert war(m).grain[city] == 12


def test_owner_blocks_an_attack_on_its_current_city() -> None:
    """CW-SIEGE-7 / CW-SIEGE-1: the owner's hero blocks with 剑 as for itself; a blocked
    attack deals nothing; a rear city is never a target."""
    m = first_play(3, seed=0)
    s = m.state
    seat = s.turn_seat
    q = s.clockwise_from(seat)[0]
    target = war(m).current(q)
    s.players[seat].hand = ["sword", "sword"]
    s.players[q].hand = ["sword"]
    touch(m)
    m.apply(Act("attack", (CITY + target, 0, "sword")))
    assert m.prompt_kind == "block" and m.current_seat == q
    m.apply("block")
    assert war(m).grain[target] == 30 and s.players[q].hand == []
    # the one 剑 attack is spent; no more attacks this turn
    assert not city_acts(m, "attack")


def test_unblocked_attack_on_an_opponents_city_and_no_attack_on_allies() -> None:
    """CW-SIEGE-1 / CW-SIEGE-4: an opponent's current city at distance 1 is in reach of a
    hero (range 1); an ally's city is never a target."""
    m = first_play(4, seed=0, teams=["a", "b", "a", "b"])
    s = m.state
    seat = s.turn_seat
    s.players[seat].hand = ["sword"]
    touch(m)
    w = war(m)
    targets = {str(a.args[0])[2:] for a in city_acts(m, "attack")}
    for q in range(4):
        c = w.current(q)
        if w.allies(seat, q):
            assert c not in targets
        elif s.seat_distance(seat, q) <= 1:
            assert c in targets
    assert set(w.empty) <= targets


def test_command_phase_names_an_empty_city_and_stops_when_it_breaks() -> None:
    """CW-SIEGE-5 / CW-SIEGE-6: an empty city is a group of its own; when the city a
    指挥阶段 attacks is broken, the soldiers that have not attacked are done."""
    m = first_play(3, seed=0)
    s = m.state
    seat = s.turn_seat
    s.players[seat].soldiers = []
    for _ in range(2):
        add_soldier(m, seat, "spearman")
    city = put_empty(m, war(m).empty[0], 3)
    m.apply("end_play")
    assert m.prompt_kind == "command_pick"
    m.apply(Act("command", (CITY + city,)))
    orders = city_acts(m, "order")
    assert len(orders) == 2
    start = len(s.log)
    m.apply(orders[0])
    assert war(m).owner(city) == seat
    assert any("视为攻击完毕" in t for t in lines(m, start))
    assert m.prompt_kind != "order"


def test_hit_effects_on_the_target_do_nothing_to_a_city_and_no_kill_reward() -> None:
    """CW-SIEGE-11 / CW-SIEGE-10 / CW-TEAM-4: a poisoned dagger's hit poisons no city;
    breaking a city is no kill (nobody draws the reward); skills never name a city."""
    m = first_play(3, seed=0)
    s = m.state
    seat = s.turn_seat
    p = s.players[seat]
    p.equip["weapon"] = "poisoned_dagger"
    p.hand = ["sword", "mana", "mana", "mana"]
    city = put_empty(m, war(m).empty[0], 3)
    before = len(p.hand)
    m.apply(Act("attack", (CITY + city, 0, "sword")))
    assert war(m).owner(city) == seat
    draws = sum(1 for e in s.log if e.kind == "reward")
    assert draws == 0
    assert len(p.hand) >= before - 1
    for a in m.legal_actions():
        if a.kind == "skill":
            assert not any(str(x).startswith("c:") for x in a.args)


def test_fireball_hits_an_opponents_current_city_for_three_without_bonus() -> None:
    """CW-SIEGE-9: 爆裂火球 may target an opponent's current city (never an empty one):
    after the counter window, 3 to its grain, no siege bonus."""
    m = first_play(3, seed=0)
    s = m.state
    seat = s.turn_seat
    s.players[seat].hand = ["exploding_fireball"]
    touch(m)
    acts = city_acts(m, "magic")
    targets = {str(a.args[1])[2:] for a in acts}
    assert targets and not targets & set(war(m).empty)
    a = acts[0]
    city = str(a.args[1])[2:]
    m.apply(a)
    while m.prompt_kind == "counter":
        m.apply("decline")
    assert war(m).grain[city] == 27


def test_scripted_player_with_only_cities_to_fireball_still_chooses() -> None:
    """CW-SIEGE-9 / CW-AI-6: when every opposing hero is dead, 爆裂火球's only targets are
    cities; the scripted player (also ISMCTS's rollout policy) must still choose — it used
    to read the city as a seat number and stop ``throne ladder --game cities``. (Seed 1:
    the player holds neither 南皮 nor a skill to use first.)"""
    m = first_play(3, seed=1)
    s = m.state
    seat = s.turn_seat
    for q in s.clockwise_from(seat)[:2]:
        s.players[q].hp = 0
        s.players[q].alive = False
    s.players[seat].hand = ["exploding_fireball"]
    touch(m)
    magic = city_acts(m, "magic")
    assert magic and all(str(a.args[1]).startswith(CITY) for a in magic)
    assert CitiesAgent(seat).choose(m) in m.legal_actions()


@pytest.mark.parametrize(
    ("city", "prompt", "setup_kind"),
    [("changan", "cw_retrieve", "discard"), ("nanpi", "cw_deploy", ""), ("hefei", "cw_strike", "")],
)
def test_capture_choices_are_prompts_of_the_breaker(
    city: str, prompt: str, setup_kind: str
) -> None:
    """CW-CITY-8 / CW-CAPTURE-4 / CW-CAPTURE-5 / CW-CITY-7: 长安, 南皮 and 合肥's capture
    effects are the breaker's choices, asked while the city is nobody's; then it owns it."""
    for seed in range(20):
        m = first_play(3, seed=seed)
        if all(city not in st for st in war(m).stacks):
            break
    s = m.state
    seat = s.turn_seat
    assert s.discards is not None
    if setup_kind == "discard":
        s.discards[seat].extend(["heal", "sword"])
    s.players[seat].hand = ["sword"]
    put_empty(m, city, 3)
    m.apply(Act("attack", (CITY + city, 0, "sword")))
    assert m.prompt_kind == prompt and m.current_seat == seat
    assert war(m).owner(city) is None  # nobody's while the effect resolves
    choice = m.legal_actions()[0]
    if prompt == "cw_strike":
        assert all(
            not str(a.args[0]).endswith(str(seat)) or a.args[0][0] == "s" for a in m.legal_actions()
        )
    n_soldiers = len(s.players[seat].soldiers)
    m.apply(choice)
    assert war(m).owner(city) == seat and war(m).current(seat) == city
    if prompt == "cw_retrieve":
        assert str(choice.args[0]) in s.players[seat].hand
    if prompt == "cw_deploy":
        assert len(s.players[seat].soldiers) == n_soldiers + 1


def test_dead_soldiers_return_to_the_shared_supply() -> None:
    """CW-CITY-7: a soldier that dies goes back to the supply, for free deployments."""
    m = first_play(3, seed=0)
    s = m.state
    seat = s.turn_seat
    q = s.clockwise_from(seat)[0]
    sol = add_soldier(m, q, "goblin")
    n_goblins = s.supply.count("goblin")
    s.players[seat].hand = ["sword"]
    touch(m)
    m.apply(Act("attack", (sol.ref, 0, "sword")))
    assert sol not in s.players[q].soldiers
    assert s.supply.count("goblin") == n_goblins + 1 and "goblin" not in s.fallen


def test_kill_reward_by_team_and_the_dead_hero_keeps_its_seat() -> None:
    """CW-TEAM-4 / CW-TEAM-5 / CW-TEAM-6: killing an opponent's hero draws 3; the dead
    hero's cards go to its own discard pile, its soldiers stay, its seat keeps counting."""
    m = first_play(3, seed=0)
    s = m.state
    seat = s.turn_seat
    q = s.clockwise_from(seat)[0]
    victim = s.players[q]
    victim.hp = 1
    victim.hand = ["mana"]
    add_soldier(m, q, "spearman")
    s.players[seat].hand = ["sword"]
    dist_before = {r: s.seat_distance(seat, r) for r in range(3)}
    touch(m)
    m.apply(Act("attack", (victim.ref, 0, "sword")))
    while m.prompt_kind in ("block", "rescue", "hold", "throes"):
        m.apply(m.legal_actions()[-1])
    m.apply("end_play")
    while s.turn_seat == seat and not m.is_over:
        m.apply(m.legal_actions()[-1])
    assert any(e.kind == "death" and s.hero_name(q) in e.text for e in s.log)
    reward = [e.text for e in s.log if e.kind == "reward"]
    assert reward and "摸3张牌" in reward[0]
    assert s.discards is not None and "mana" in s.discards[q]
    assert {r: s.seat_distance(seat, r) for r in range(3)} == dist_before


def test_ally_kill_gives_nothing() -> None:
    """CW-TEAM-4: killing an ally's hero gives and costs nothing."""
    m = first_play(4, seed=0, teams=["a", "a", "b", "b"])
    s = m.state
    seat = s.turn_seat
    w = war(m)
    ally = next(q for q in range(4) if q != seat and w.allies(seat, q))
    s.players[ally].hp = 1
    s.players[seat].hand = ["sword"]
    s.players[seat].swift = True  # reach the ally wherever it sits
    touch(m)
    if Act("attack", (f"h{ally}", 0, "sword")) not in m.legal_actions():
        pytest.fail("the ally's hero should be attackable with 疾风")
    m.apply(Act("attack", (f"h{ally}", 0, "sword")))
    while m.prompt_kind in ("block", "rescue", "hold", "throes"):
        m.apply(m.legal_actions()[-1])
    m.apply("end_play")
    while s.turn_seat == seat and not m.is_over:
        m.apply(m.legal_actions()[-1])
    assert not s.players[ally].alive or s.players[ally].hp > 0
    assert not [e for e in s.log if e.kind == "reward"]


def test_a_card_goes_to_its_owners_discard_pile() -> None:
    """CW-DECK-1: each player its own discard pile."""
    m = first_play(3, seed=0)
    s = m.state
    assert s.discards is not None
    seat = s.turn_seat
    s.players[seat].hand = ["sword"]
    city = war(m).empty[0]
    touch(m)
    m.apply(Act("attack", (CITY + city, 0, "sword")))
    assert s.discards[seat] == ["sword"]
    assert all(s.discards[q] == [] for q in range(3) if q != seat)


def test_horn_of_plenty_reset_keeps_the_horn_out_of_the_new_pile() -> None:
    """CW-DECK-5 / CW-DECK-6 / CW-DECK-2: 丰饶号角 with 1 card left: draw it, give up every
    city but the first, the discard pile (without the resolving horn) becomes the new
    pile, the second card is not drawn, and the horn goes to the discard pile after."""
    m = first_play(3, seed=0)
    s = m.state
    assert s.decks is not None and s.discards is not None
    seat = s.turn_seat
    w = war(m)
    extra = give_city(m, seat)
    s.decks[seat] = ["heal"]
    s.discards[seat] = ["sword", "mana", "sword"]
    s.players[seat].hand = ["horn_of_plenty"]
    touch(m)
    m.apply(Act("magic", ("horn_of_plenty",)))
    while m.prompt_kind == "counter":
        m.apply("decline")
    assert s.players[seat].hand == ["heal"]
    assert sorted(s.decks[seat]) == ["mana", "sword", "sword"]
    assert s.discards[seat] == ["horn_of_plenty"]
    assert w.stacks[seat] == [w.starting[seat]] and extra in w.empty
    assert w.grain[w.starting[seat]] == 30


def test_concession_any_time_and_out_of_turn() -> None:
    """CW-WIN-4 / CW-WIN-5: any player still in may concede, also in another's turn;
    its cities go empty with 15; a player out cannot concede again."""
    m = first_play(3, seed=0)
    s = m.state
    other = s.clockwise_from(s.turn_seat)[0]
    cities = list(war(m).stacks[other])
    m.apply(f"concede {other}")
    assert war(m).out[other] and all(c in war(m).empty for c in cities)
    assert all(war(m).grain[c] == 15 for c in cities)
    with pytest.raises(IllegalAction) as err:
        m.apply(f"concede {other}")
    assert err.value.rule == "CW-WIN-4"
    assert not m.is_over  # two players still in


def test_abandon_in_the_prep_step() -> None:
    """CW-ABANDON-1 / CW-ABANDON-3 / CW-TURN-3: abandoning the current city puts it into
    the empty area; the abandoner may not attack it. With only its starting city a player
    is not asked (abandoning it is 认输: its cities empty, out — CW-WIN-4)."""
    m = first_play(3, seed=0)
    s = m.state
    seat = s.clockwise_from(s.turn_seat)[0]
    w = war(m)
    extra = give_city(m, seat)
    to_prep(m, seat)
    m.apply("abandon")
    assert extra in w.empty and w.current(seat) == w.starting[seat]
    s.players[seat].hand = ["sword"]
    touch(m)
    assert Act("attack", (CITY + extra, 0, "sword")) not in m.legal_actions()
    with pytest.raises(IllegalAction) as err:
        m.apply(Act("attack", (CITY + extra, 0, "sword")))
    assert err.value.rule == "CH-TURN-5"
    # back to its starting city only: the next prep step asks nothing
    m.apply("end_play")
    for _ in range(2000):
        if s.turn_seat != seat:
            break
        m.apply(m.legal_actions()[-1])
    while s.turn_seat != seat or s.step in ("", "end"):
        assert not (m.prompt_kind == "cw_prep" and m.current_seat == seat)
        m.apply(m.legal_actions()[-1])
    assert not (m.prompt_kind == "cw_prep" and m.current_seat == seat)


def test_illegal_city_action_leaves_the_match_unchanged() -> None:
    """An illegal action raises IllegalAction naming a rule and changes nothing."""
    m = first_play(3, seed=0)
    h = m.hash()
    w = war(m)
    rear_or_own = w.current(m.state.turn_seat)
    with pytest.raises(IllegalAction):
        m.apply(Act("attack", (CITY + str(rear_or_own), 0, "sword")))
    assert m.hash() == h


def test_same_seed_same_match() -> None:
    """Deterministic: a seed decides every random choice."""
    a, b = CitiesMatch(players=5, seed=9), CitiesMatch(players=5, seed=9)
    assert a.hash() == b.hash()
    assert a.observation(0) == b.observation(0)


def _soldier_reach(m: CitiesMatch, seat: int, ref: str) -> frozenset[str]:
    agent = CitiesAgent(0)
    agent.seat = seat
    obs = m.observation(seat)
    x = next(x for x in obs["players"][seat]["soldiers"] if x["ref"] == ref)
    agent._match = m
    sim = agent._view_copy(obs)
    return agent._soldier_attack(obs, war(m), x, sim).reach


def test_scripted_soldier_reach_counts_both_sides_mounts() -> None:
    """CW-SIEGE-4 / CH-EQUIP-19 / CW-AI-1: the scripted player's plan asks the engine what
    a soldier reaches, so its commander's attack mount brings an opponent's city at seat
    distance 2 into a range-1 soldier's reach, and the owner's defence mount takes one at
    distance 1 out of it."""
    m = first_play(5, seed=0)
    s = m.state
    seat = s.turn_seat
    sol = add_soldier(m, seat, "goblin")
    ref = sol.ref
    near, far = (next(q for q in range(5) if s.seat_distance(seat, q) == d) for d in (1, 2))
    near_city, far_city = war(m).current(near), war(m).current(far)
    assert near_city in _soldier_reach(m, seat, ref)
    assert far_city not in _soldier_reach(m, seat, ref)
    s.players[seat].equip["mount"] = "hell_nightmare"
    touch(m)
    assert far_city in _soldier_reach(m, seat, ref)
    s.players[seat].equip.pop("mount")
    s.players[near].equip["mount"] = "silver_pegasus"
    touch(m)
    assert near_city not in _soldier_reach(m, seat, ref)
