"""CW-DECK-1's other reading, ``deck_mode="shared"``: one draw pile and one discard pile
for all, as in the base game (CH-SETUP-7, CH-DECK-6); the reset of CW-DECK-3 strikes the
player who must draw more than the shared pile holds. Property tests for both modes."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.cities.match_helpers import give_city, touch, war
from throne_lib.cli import main as throne_main
from throne_lib.games.castle.actions import Act
from throne_lib.games.cities import CitiesMatch, CitiesRules
from throne_lib.games.cities.agents import CitiesAgent
from throne_lib.kit.agents import RandomAgent
from throne_lib.kit.log import read_log

SHARED = CitiesRules(deck_mode="shared")


def shared_play(seed: int = 0) -> CitiesMatch:
    m = CitiesMatch(players=3, seed=seed, rules=SHARED)
    agent = CitiesAgent(seed)
    while m.prompt_kind != "play":
        m.apply(agent.choose(m))
    for p in m.state.players:
        p.hand = []
    touch(m)
    return m


def test_shared_mode_deals_from_one_pile_of_the_base_game() -> None:
    """CW-DECK-1 (shared) / CH-SETUP-7: one pile of 100 for all, no per-player piles."""
    m = CitiesMatch(players=4, seed=1, rules=SHARED)
    s = m.state
    assert s.decks is None and s.discards is None
    agent = CitiesAgent(1)
    while m.prompt_kind != "play":
        m.apply(agent.choose(m))
    held = sum(len([c for c in p.hand if c != "conjured_mana"]) for p in s.players)
    assert len(s.deck) + held + len(s.discard) == 100
    obs = m.observation(0)
    assert {p["deck"] for p in obs["piles"]} == {len(s.deck)}
    assert obs["cities"]["deck_mode"] == "shared"
    with pytest.raises(ValueError, match="CW-DECK-1"):
        CitiesMatch(players=3, seed=1, rules=CitiesRules(deck_mode="mixed"))


def test_a_card_goes_to_the_one_discard_pile() -> None:
    """CW-DECK-1 (shared) / CH-DECK-6: whoever plays it, a card goes to the shared pile."""
    m = shared_play()
    s = m.state
    seat = s.turn_seat
    s.players[seat].hand = ["sword"]
    touch(m)
    m.apply(Act("attack", ("c:" + war(m).empty[0], 0, "sword")))
    assert s.discard == ["sword"]


def test_shared_reset_strikes_the_player_who_draws() -> None:
    """CW-DECK-1 (shared) / CW-DECK-2 / CW-DECK-3 / CW-DECK-5: 丰饶号角 with 1 card left in
    the shared pile: the drawer draws it, gives up every city but its starting city, the
    shared discard pile (without the resolving horn) is the new shared pile, the second
    card is not drawn; the other players keep their cities."""
    m = shared_play()
    s = m.state
    seat = s.turn_seat
    w = war(m)
    extra = give_city(m, seat)
    other = (seat + 1) % 3
    theirs = give_city(m, other)
    s.deck = ["heal"]
    s.discard = ["sword", "mana", "sword"]
    s.players[seat].hand = ["horn_of_plenty"]
    touch(m)
    m.apply(Act("magic", ("horn_of_plenty",)))
    while m.prompt_kind == "counter":
        m.apply("decline")
    assert s.players[seat].hand == ["heal"]
    assert sorted(s.deck) == ["mana", "sword", "sword"]
    assert s.discard == ["horn_of_plenty"]
    assert w.stacks[seat] == [w.starting[seat]] and extra in w.empty
    assert w.stacks[other][-1] == theirs  # the reset strikes only the drawer
    assert any("公共墓地洗成新的卡组" in e.text for e in s.log)


def _play_out(m: CitiesMatch, agents: list[object]) -> None:
    steps = 0
    while not m.is_over and steps < 50_000:
        m.apply(agents[m.current_seat].choose(m))  # type: ignore[attr-defined]
        assert m.city_invariants() == []  # CW-CITY-2: every city in one place
        w = war(m)
        assert min(w.grain.values()) >= 0  # never negative
        steps += 1
    assert m.is_over, "the match never ended"
    assert m.end_reason in ("CW-WIN-1", "CW-WIN-2", "CW-WIN-6")


@pytest.mark.parametrize("deck_mode", ["personal", "shared"])
@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("agent", ["random", "scripted"])
def test_matches_terminate_and_keep_cities_and_grain_sound(
    deck_mode: str, players: int, agent: str
) -> None:
    """CW-DECK-1 (both readings) / CW-CITY-2 / CW-GRAIN-1 / CW-WIN-6: seeded random and
    scripted matches of 3–6 players end; after every action every city is owned by
    exactly one player or the empty area and no grain is negative."""
    seed = players * 7 + (deck_mode == "shared")
    m = CitiesMatch(players=players, seed=seed, rules=CitiesRules(deck_mode=deck_mode))
    make = RandomAgent if agent == "random" else CitiesAgent
    _play_out(m, [make(seed * 10 + q) for q in range(players)])


def test_cli_plays_and_replays_a_shared_deck_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``throne play --game cities --deck-mode shared``: the log keeps the rule, replay
    checks every hash; ``simulate --deck-mode shared`` runs."""
    log = tmp_path / "shared.jsonl"
    assert throne_main(["play", "--game", "cities", "--players", "3", "--seed", "3",
                        "--deck-mode", "shared", "--log", str(log)]) == 0  # fmt: skip
    assert read_log(log).header.options["rules"] == {"deck_mode": "shared"}
    assert throne_main(["replay", str(log), "--check"]) == 0
    out = tmp_path / "r.parquet"
    assert throne_main(["simulate", "--game", "cities", "--players", "3", "--deck-mode",
                        "shared", "-n", "1", "--backend", "serial", "--no-progress",
                        "--out", str(out)]) == 0  # fmt: skip
    assert "check: OK" in capsys.readouterr().out


def test_shared_resample_redeals_only_what_the_seat_cannot_see() -> None:
    """CW-DECK-1 (shared) with hidden information: a seat's resample keeps its own hand
    and the public discard pile, and redeals the others' hands from the same cards."""

    m = shared_play(seed=3)
    s = m.state
    s.players[0].hand, s.players[1].hand = ["sword", "heal"], ["mana", "mana", "sword"]
    s.discard = ["heal"]
    touch(m)
    r = m.resample(0, random.Random(5)).state
    assert r.players[0].hand == ["sword", "heal"] and r.discard == ["heal"]
    assert len(r.players[1].hand) == 3
    unseen = sorted(s.deck + s.players[1].hand + s.players[2].hand)
    assert sorted(r.deck + r.players[1].hand + r.players[2].hand) == unseen
