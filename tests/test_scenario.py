"""Scenario notation: round trips, line-numbered errors, and the examples of
docs/scenarios.md (executed here so the page never drifts from the engine)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from throne_lib import CardDB, Match
from throne_lib.games.throne.decks import signature_deck
from throne_lib.games.throne.scenario import ScenarioError, load_scenario, to_text
from throne_lib.kit.agents import RandomAgent

DOC = Path(__file__).resolve().parents[1] / "docs" / "scenarios.md"
BLOCK = re.compile(r"```scenario\n(.*?)```", re.S)


def doc_examples() -> list[str]:
    return BLOCK.findall(DOC.read_text(encoding="utf-8"))


def actions_text(m: Match) -> list[str]:
    return [a.text(m.geo) for a in m.legal_actions()]


def assert_round_trip(m: Match, db: CardDB) -> None:
    """to_text -> load -> to_text is a fixed point with the same legal actions."""
    text = to_text(m)
    again = load_scenario(text, db)
    assert to_text(again) == text
    assert actions_text(again) == actions_text(m)
    assert (again.phase, again.round, again.turn) == (m.phase, m.round, m.turn)


# --- the documentation --------------------------------------------------------------


def test_doc_has_examples() -> None:
    assert len(doc_examples()) >= 2


@pytest.mark.parametrize("index", range(len(doc_examples())))
def test_doc_examples(db: CardDB, index: int) -> None:
    """Each example of docs/scenarios.md loads, round trips, and its '# play:' actions
    are legal with the '# expect:' results."""
    text = doc_examples()[index]
    m = load_scenario(text, db)
    assert_round_trip(m, db)
    first = load_scenario(to_text(m), db)
    assert first.hash() == m.hash()  # same seed, same position: same state hash
    for line in text.splitlines():
        play = re.match(r"#\s*play:\s*(.+)", line)
        expect = re.match(r"#\s*expect:\s*(.+)", line)
        if play:
            m.apply(play.group(1).strip())
        elif expect:
            check_expectation(m, expect.group(1).split())


def check_expectation(m: Match, words: list[str]) -> None:
    if words[0] == "throne":
        assert m.throne_hp(["blue", "red"].index(words[1])) == int(words[2]), words
    elif words[0] == "gone":
        assert m.unit_at(words[1]) is None, words
    elif words[0] == "hp":
        u = m.unit_at(words[1])
        assert u is not None and u.hp == int(words[2]), words
    else:
        raise AssertionError(f"unknown expectation {words}")


# --- round trips of real positions ----------------------------------------------------


@pytest.mark.parametrize(
    ("seed", "blue", "red"), [(1, "human", "beast"), (2, "goblin", "undead"), (3, "demon", "elf")]
)
def test_positions_of_random_matches_round_trip(db: CardDB, seed: int, blue: str, red: str) -> None:
    """Every phase a match passes through (replace, found, main, captain, over) writes
    and reads back to the same text and the same legal actions."""
    m = Match.new(db, signature_deck(db, blue), signature_deck(db, red), seed=seed)
    agents = (RandomAgent(seed), RandomAgent(seed + 100))
    phases = set()
    step = 0
    while True:
        if step % 7 == 0 or m.phase != "main":
            assert_round_trip(m, db)
            phases.add(m.phase)
        if m.is_over:
            break
        m.apply(agents[m.turn].choose(m))
        step += 1
    assert {"replace", "found", "main", "over"} <= phases


def test_per_turn_name_uses_survive_the_round_trip_R_TURN_9(db: CardDB) -> None:
    """R-TURN-9: after 6 血之契约 this turn, the written position still forbids a 7th."""
    m = load_scenario(
        SIDES.replace("lionheart", "lionheart mana=0") + "hand blue " + "blood_pact " * 7 + "\n",
        db,
    )
    for _ in range(6):
        m.apply("play blood_pact")
    assert "uses=血之契约:6" in to_text(m)
    assert_round_trip(m, db)
    again = load_scenario(to_text(m), db)
    assert not again.legal_actions().of_kind("play")


def test_minimal_scenario_fills_defaults(db: CardDB) -> None:
    """Only the two side lines are required; thrones are placed with 40 HP."""
    m = load_scenario("side blue general=lionheart\nside red general=beast_king\n", db)
    assert (m.round, m.turn, m.phase) == (1, 0, "main")
    assert m.throne_hp(0) == m.throne_hp(1) == 40
    text = to_text(m)
    assert "unit d1 blue lionheart throne" in text and "unit d6 red beast_king throne" in text


def test_deck_order_bottom_first(db: CardDB) -> None:
    """The last id of a deck line is drawn next."""
    m = load_scenario(
        "round 2\nfirst blue\nturn red\nside blue general=lionheart\nside red general=beast_king\n"
        "deck blue militia_camp holy_light shield_wall\n",
        db,
    )
    m.apply("end")
    assert m.state.sides[0].hand == ["shield_wall", "holy_light"]


# --- errors name the line ------------------------------------------------------------

SIDES = "side blue general=lionheart\nside red general=beast_king\n"


@pytest.mark.parametrize(
    ("text", "where", "fragment"),
    [
        (SIDES + "unit d9 blue militia\n", "scenario:3:", "bad cell name"),
        (SIDES + "unit c3 blue wolff\n", "scenario:3:", "unknown card id 'wolff'"),
        (SIDES + "unit c3 blue militia\nunit c3 red wolf\n", "scenario:4:", "already occupied"),
        (SIDES + "unit c3 blue militia speed=3\n", "scenario:3:", "unknown unit attribute"),
        (SIDES + "unit c3 blue militia hp=x\n", "scenario:3:", "hp is written CUR/MAX"),
        (SIDES + "unit c3 purple militia\n", "scenario:3:", "expected blue or red"),
        (SIDES + "hand blue holy_light fireballz\n", "scenario:3:", "unknown card id"),
        (SIDES + "wall c3\n", "scenario:3:", "unknown line 'wall'"),
        ("seed 1 2\n" + SIDES, "scenario:1:", "takes one value"),
        ("side blue lionheart\n", "scenario:1:", "key=value"),
        (SIDES + "unit d1 blue militia\n", "scenario:3:", "d1"),
        ("# a comment\n\nseed x\n" + SIDES, "scenario:3:", "whole number"),
        ("phase lunch\n" + SIDES, "scenario:1:", "phase must be one of"),
        ("turn green\n" + SIDES, "scenario:1:", "expected blue or red"),
        (SIDES.replace("lionheart", "militia"), "scenario:1:", "is not a general"),
        (
            SIDES.replace("side blue general=lionheart", "side blue general=lionheart mana=x"),
            "scenario:1:",
            "mana",
        ),
        (SIDES + "unit d6 red lionheart throne\n", "scenario:3:", "throne carries"),
        ("pending z9\n" + SIDES, "scenario:1:", "bad cell name"),
    ],
)
def test_errors_name_the_line(db: CardDB, text: str, where: str, fragment: str) -> None:
    """A ScenarioError starts with scenario:LINE: and says what is wrong."""
    with pytest.raises(ScenarioError) as info:
        load_scenario(text, db)
    message = str(info.value)
    assert message.startswith(where), message
    assert fragment in message, message


def test_missing_side_is_reported(db: CardDB) -> None:
    with pytest.raises(ScenarioError, match="side red general="):
        load_scenario("side blue general=lionheart\n", db)
