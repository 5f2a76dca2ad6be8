"""Deck building: the validator (R-SETUP-1..3, R-DECK-1..8), signature decks
(R-DECK-7), the deck file format and ``throne deck check``.

Deck files used here live in ``tests/decks/``; the format is ``docs/decks.md``.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from throne_lib import SideSetup
from throne_lib.cli import main as cli_main
from throne_lib.games.throne import decks as decks_mod
from throne_lib.games.throne.cards import CardDB
from throne_lib.games.throne.decks import (
    DeckError,
    check_deck,
    deck_text,
    load_deck,
    parse_deck,
    signature_deck,
    validate_deck,
)

DECKS = Path(__file__).resolve().parent / "decks"


def rules_of(db: CardDB, setup: SideSetup) -> list[str]:
    return [p.rule for p in validate_deck(db, setup)]


def problem(db: CardDB, setup: SideSetup, rule: str) -> tuple[str, ...]:
    """The cards named by the one problem of ``rule``."""
    found = [p for p in validate_deck(db, setup) if p.rule == rule]
    assert len(found) == 1, found
    return found[0].cards


def with_cards(setup: SideSetup, *add: str, drop: str = "", times: int = 1) -> SideSetup:
    deck = list(setup.deck)
    for _ in range(times if drop else 0):
        deck.remove(drop)
    return SideSetup(setup.general, tuple(deck) + add)


@pytest.fixture
def legal(db: CardDB) -> SideSetup:
    setup = load_deck(DECKS / "human_legal.txt")
    assert validate_deck(db, setup) == []
    return setup


@pytest.fixture
def small(db: CardDB) -> SideSetup:
    setup = load_deck(DECKS / "small_no_camp.txt")
    assert validate_deck(db, setup) == []
    return setup


# --- R-SETUP ---------------------------------------------------------------------------


def test_main_general_sits_on_the_throne_not_in_the_deck_R_SETUP_1(
    db: CardDB, small: SideSetup
) -> None:
    assert problem(db, with_cards(small, "lionheart"), "R-SETUP-1") == ("lionheart",)
    assert rules_of(db, SideSetup("militia_camp", small.deck))[0] == "R-SETUP-1"  # not a general
    assert rules_of(db, with_cards(small, "iron_duke")) == []  # another general is a vice


def test_at_most_2_vice_generals_R_SETUP_2(db: CardDB, small: SideSetup) -> None:
    two = with_cards(small, "iron_duke", "tinker_king")
    assert validate_deck(db, two) == []
    three = with_cards(two, "saint_marshal")
    assert problem(db, three, "R-SETUP-2") == ("iron_duke", "tinker_king", "saint_marshal")


@pytest.mark.parametrize("kind", ["captain", "soldier", "token", "building"])
def test_captains_and_tokens_never_in_a_deck_R_SETUP_3(
    db: CardDB, small: SideSetup, kind: str
) -> None:
    card = next(c for c in db.values() if c.kind == kind and c.race in ("human", "goblin"))
    bad = with_cards(small, card.id)
    assert card.id in problem(db, bad, "R-SETUP-3")
    for c in db.values():  # deck kinds are never refused for their kind
        if c.kind in ("minion", "spell", "barracks", "general"):
            assert "R-SETUP-3" not in rules_of(db, with_cards(small, c.id)), c.id


# --- R-DECK-1 size ---------------------------------------------------------------------


def test_deck_size_10_to_42_R_DECK_1(db: CardDB, small: SideSetup) -> None:
    assert len(small.deck) == 10 and validate_deck(db, small) == []
    nine = with_cards(small, drop="scouting")
    assert rules_of(db, nine) == ["R-DECK-1"]
    full = load_deck(DECKS / "max_size.txt")
    assert len(full.deck) == 42 and validate_deck(db, full) == []
    over = with_cards(full, "field_ration")  # a 41st normal card
    assert rules_of(db, over) == ["R-DECK-1"]
    assert rules_of(db, SideSetup("lionheart")) == ["R-DECK-1"]


def test_vice_generals_do_not_count_against_40_normal_R_DECK_1(db: CardDB) -> None:
    full = load_deck(DECKS / "max_size.txt")
    vices = [c for c in full.deck if db[c].kind == "general"]
    assert len(vices) == 2 and len(full.deck) - len(vices) == 40


def test_unknown_cards_are_named_and_the_rest_still_checked_R_DECK_1(
    db: CardDB, small: SideSetup
) -> None:
    bad = with_cards(small, "no_such_card", "shield_wall")
    assert problem(db, bad, "R-DECK-1") == ("no_such_card",)
    assert problem(db, bad, "R-DECK-2") == ("shield_wall",)


# --- R-DECK-2 copies -------------------------------------------------------------------


def test_at_most_3_copies_R_DECK_2(db: CardDB, small: SideSetup) -> None:
    assert Counter(small.deck)["shield_wall"] == 3
    assert problem(db, with_cards(small, "shield_wall"), "R-DECK-2") == ("shield_wall",)
    two_names = with_cards(small, "shield_wall", "holy_light", "militia_camp")
    assert problem(db, two_names, "R-DECK-2") == ("holy_light", "militia_camp", "shield_wall")


# --- R-DECK-3 barracks -----------------------------------------------------------------


def test_eleventh_barracks_card_is_refused_R_DECK_3(db: CardDB) -> None:
    """The elves own 5 barracks (3 production camps, R-BARRACKS-12): enough for 11."""
    camps = ("elf_farm", "windmill_farm", "supply_camp")
    ten = SideSetup("elf_queen", ("grove_warden", *camps * 3, "elf_glade"))
    assert validate_deck(db, ten) == []
    eleven = with_cards(ten, "moonwell")
    assert rules_of(db, eleven) == ["R-DECK-3"]
    assert "moonwell" in problem(db, eleven, "R-DECK-3")


def test_barracks_only_of_the_main_general_s_race_R_DECK_3(db: CardDB, small: SideSetup) -> None:
    beast = with_cards(small, "wolf_den", "beast_king")  # even with a beast vice general
    assert problem(db, beast, "R-DECK-3") == ("wolf_den",)


def test_no_neutral_barracks_R_DECK_3_R_BARRACKS_12(db: CardDB, small: SideSetup) -> None:
    """风车田庄 and 补给营地 are elf production camps, not neutral ones: a human deck may
    not carry them, not even with an elf vice general; an elf deck may."""
    assert not db.of("barracks", "neutral")
    assert {db[c].race for c in ("windmill_farm", "supply_camp")} == {"elf"}
    camps = with_cards(small, "windmill_farm", "supply_camp", "elf_queen")
    assert problem(db, camps, "R-DECK-3") == ("supply_camp", "windmill_farm")
    elf = SideSetup("wind_ranger", ("elf_farm", "windmill_farm", "supply_camp") * 3 + ("moonfire",))
    assert validate_deck(db, elf) == []


# --- R-DECK-4 spells -------------------------------------------------------------------


def test_at_most_16_spells_R_DECK_4(db: CardDB, legal: SideSetup) -> None:
    sixteen = with_cards(legal, "wholesale")
    assert sum(1 for c in sixteen.deck if db[c].kind == "spell") == 16
    assert validate_deck(db, sixteen) == []
    seventeen = with_cards(sixteen, "wholesale")
    assert rules_of(db, seventeen) == ["R-DECK-4"]
    assert "wholesale" in problem(db, seventeen, "R-DECK-4")


# --- R-DECK-5 race quota ---------------------------------------------------------------


def test_race_quota_is_10_per_general_of_that_race_R_DECK_5(db: CardDB, small: SideSetup) -> None:
    assert sum(1 for c in small.deck if db[c].race == "human") == 9
    ten = with_cards(small, "halberdier")
    assert validate_deck(db, ten) == []
    eleven = with_cards(ten, "squire")
    assert rules_of(db, eleven) == ["R-DECK-5"]
    assert {"squire", "halberdier"} <= set(problem(db, eleven, "R-DECK-5"))
    assert validate_deck(db, with_cards(eleven, "iron_duke")) == []  # a human vice: quota 20


def test_a_race_without_a_general_brings_nothing_R_DECK_5(db: CardDB, small: SideSetup) -> None:
    beast_minion = db.of("minion", "beast")[0].id
    assert problem(db, with_cards(small, beast_minion), "R-DECK-5") == (beast_minion,)
    assert validate_deck(db, with_cards(small, beast_minion, "beast_king")) == []


def test_neutral_cards_count_for_no_race_R_DECK_5(db: CardDB, legal: SideSetup) -> None:
    human = [c for c in legal.deck if db[c].race == "human" and db[c].kind != "general"]
    assert len(human) == 30  # 3 human generals: the quota of 30 is full
    assert validate_deck(db, with_cards(legal, "wholesale")) == []  # neutral still fits


# --- R-DECK-6 production camp optional -----------------------------------------------


def test_production_camp_is_optional_R_DECK_6(db: CardDB, small: SideSetup) -> None:
    assert not any(db[c].is_production for c in small.deck)
    assert validate_deck(db, small) == []
    assert validate_deck(db, with_cards(small, "human_manor", drop="scouting")) == []


# --- R-DECK-7 signature decks ----------------------------------------------------------


def check_signature(db: CardDB, general: str, setup: SideSetup) -> None:
    race = db[general].race
    assert setup.general == general
    assert validate_deck(db, setup) == [], general
    camps = [c for c in setup.deck if db[c].is_production and db[c].race == race]
    assert camps, f"{general}: no {race} production camp"
    assert sum(1 for c in setup.deck if db[c].kind == "minion") == 8, general
    assert len(setup.deck) == 30, general


def test_every_general_has_a_legal_signature_deck_R_DECK_7(db: CardDB) -> None:
    generals = db.of("general")
    assert generals
    for g in generals:
        check_signature(db, g.id, signature_deck(db, g.id))
    race = generals[0].race  # a race names its first general's deck
    assert signature_deck(db, race).general == db.of("general", race)[0].id


def test_signature_algorithm_without_stored_decks_R_DECK_7(
    db: CardDB, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(decks_mod, "DECKS_DIR", tmp_path)  # no hand-made deck files
    for g in db.of("general"):
        check_signature(db, g.id, signature_deck(db, g.id))


# --- R-DECK-8 every problem at once ----------------------------------------------------


def test_illegal_deck_lists_every_violation_R_DECK_8(db: CardDB) -> None:
    setup = load_deck(DECKS / "illegal_many.txt")
    before = setup.deck
    problems = validate_deck(db, setup)
    assert Counter(p.rule for p in problems) == Counter(
        {
            "R-SETUP-2": 1,
            "R-SETUP-3": 1,
            "R-DECK-1": 1,
            "R-DECK-2": 1,
            "R-DECK-3": 2,  # too many, and a foreign one
            "R-DECK-4": 1,
            "R-DECK-5": 3,  # human over quota, beast and elf without a general
        }
    )
    assert setup.deck == before  # never trimmed
    by_rule = {(p.rule, p.cards) for p in problems}
    assert ("R-SETUP-3", ("militia", "shield_captain")) in by_rule
    assert ("R-DECK-3", ("windmill_farm", "wolf_den")) in by_rule
    with pytest.raises(DeckError) as info:
        check_deck(db, setup)
    assert info.value.problems == problems
    for p in problems:
        assert str(p).startswith(p.rule + ": ")


# --- the deck file format and ``throne deck check`` ------------------------------------


def test_deck_file_format_round_trips(db: CardDB) -> None:
    """R-SETUP-2: ``vice:`` lines carry the vice generals, ``COUNT ID`` the cards."""
    setup = load_deck(DECKS / "max_size.txt")
    assert setup.general == "lionheart" and setup.deck[:2] == ("tinker_king", "pain_lord")
    again = parse_deck(deck_text(db, setup))
    assert again.general == setup.general and Counter(again.deck) == Counter(setup.deck)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("general: lionheart\n3 shield_wall\nshield_wall x3\n", "t.txt:3"),
        ("3 shield_wall\n", "missing 'general: ID'"),
        ("general: lionheart\nthree shield_wall\n", "t.txt:2"),
    ],
)
def test_deck_file_errors_name_the_line(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_deck(text, "t.txt")


def test_throne_deck_check_accepts_a_legal_deck_R_DECK_1(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli_main(["deck", "check", str(DECKS / "max_size.txt")]) == 0
    out = capsys.readouterr().out
    assert "OK" in out and "42 cards" in out


def test_throne_deck_check_lists_every_rule_broken_R_DECK_8(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli_main(["deck", "check", str(DECKS / "illegal_many.txt")]) == 1
    err = capsys.readouterr().err
    for rule in ("R-SETUP-2", "R-SETUP-3", "R-DECK-1", "R-DECK-2", "R-DECK-3", "R-DECK-4"):
        assert rule in err
    assert "R-DECK-5" in err and "wolf_den" in err and "10 problem(s)" in err
    assert cli_main(["deck", "check", str(DECKS / "bad_syntax.txt")]) == 1
    assert "bad_syntax.txt:3" in capsys.readouterr().err
