"""Scenario texts are validated at load, with the line (issue 15, "Decks and scenarios").

Every scenario that loads has legal actions and plays on (R-TURN-12); every one that
does not raises :class:`ScenarioError` naming ``scenario:LINE``. Rules cited: R-BARRACKS-9
(captain offers), R-OPEN-3 (free barracks), R-END-1 (rounds), R-THRONE-5 (march),
R-BARRACKS-3 (levels).
"""

from __future__ import annotations

import random
import re
import textwrap

import pytest
from fuzzing import fuzz
from hypothesis import given
from hypothesis import strategies as st

from throne_lib import CardDB, Match, load_cards
from throne_lib.games.throne.decks import signature_deck
from throne_lib.games.throne.scenario import ScenarioError, load_scenario, to_text
from throne_lib.kit.agents import RandomAgent

DB: CardDB = load_cards()

BASE = """\
seed 1
round 5
turn blue
side blue general=lionheart mana=9
side red general=beast_king
unit b2 blue militia_camp level=2
unit e5 red wolf
"""


def load(text: str) -> Match:
    return load_scenario(textwrap.dedent(text), DB)


def error_line(text: str) -> int:
    with pytest.raises(ScenarioError) as info:
        load(text)
    m = re.match(r"scenario:(\d+): ", str(info.value))
    assert m, f"no line in {info.value}"
    return int(m.group(1))


def test_base_loads_and_plays() -> None:
    m = load(BASE)
    assert len(m.legal_actions()) > 1


@pytest.mark.parametrize(
    ("extra", "line", "words"),
    [
        # phase captain without pending: legal_actions() crashed (R-BARRACKS-9)
        ("phase captain\n", 8, "needs 'pending"),
        # pending on an empty cell
        ("phase captain\npending c3\n", 9, "no barracks"),
        # pending on the other side's barracks
        ("phase captain\npending e5\n", 9, "no barracks"),
        # pending outside the captain phase
        ("pending b2\n", 8, "belongs to phase captain"),
        # round ≤ 0 or beyond the round limit (R-END-1)
        ("round -3\n", 8, "round"),
        ("round 0\n", 8, "round"),
        ("round 999999999999999999999999\n", 8, "round"),
        ("round 41\n", 8, "round"),
        # marched is yes or no (R-THRONE-5)
        ("marched maybe\n", 8, "yes or no"),
        # a spell is not a unit
        ("unit c2 blue holy_light\n", 8, "spell"),
        # barracks levels 1..3 (R-BARRACKS-3)
        ("unit c3 blue militia_camp level=99\n", 8, "level"),
        ("unit c3 blue militia_camp level=0\n", 8, "level"),
        # hp below 1
        ("unit c3 blue militia hp=-5/3\n", 8, "hp"),
        ("unit c3 blue militia hp=0/3\n", 8, "hp"),
        # huge numbers
        ("unit c3 blue militia attack=100000000000000000000\n", 8, "attack"),
        # a repeated side line
        ("side blue general=lionheart\n", 8, "already given on line 4"),
        # an offer names a card that is not a captain of the barracks (R-BARRACKS-9)
        ("unit c3 blue militia_camp offer=holy_light\n", 8, "offer"),
    ],
)
def test_invalid_scenarios_name_their_line(extra: str, line: int, words: str) -> None:
    text = re.sub(r"^round 5\n", "", BASE, flags=re.M) if extra.startswith("round") else BASE
    text += extra
    if extra.startswith("round"):
        line -= 1
    with pytest.raises(ScenarioError, match=re.escape(words)) as info:
        load(text)
    assert str(info.value).startswith(f"scenario:{line}: "), info.value


def test_a_repeated_header_line() -> None:
    with pytest.raises(ScenarioError, match="already given on line 2"):
        load(BASE + "round 6\n")


def test_phase_found_with_an_empty_pool_r_open_3() -> None:
    text = BASE.replace("side blue general=lionheart mana=9", "side blue general=lionheart pool=")
    text = text.replace("round 5", "round 0") + "phase found\n"
    assert error_line(text) == 8


def test_pool_of_non_barracks_is_refused() -> None:
    text = BASE.replace("mana=9", "mana=9 pool=holy_light")
    assert error_line(text) == 4


def test_side_counters_are_bounded() -> None:
    for bad in ("mana=-1", "mana=99999999999999999999", "uses=x", "stats=a:1:2", "bogus=1"):
        assert error_line(BASE.replace("mana=9", bad)) == 4


def test_captain_phase_with_its_barracks_loads() -> None:
    text = BASE + "phase captain\npending b2\n"
    m = load(text.replace("militia_camp level=2", "militia_camp level=2 offer="))
    assert [a.text() for a in m.legal_actions()] == ["cancel"]


def test_opening_round_0_loads() -> None:
    text = BASE.replace("round 5", "round 0") + "phase found\n"
    m = load(text)
    assert m.legal_actions().of_kind("found")


def test_line_numbers_count_blank_lines_and_comments() -> None:
    text = "# a comment\n\n" + BASE + "\n\nmarched maybe\n"
    assert error_line(text) == 12


# --- fuzz: mutations of real positions -----------------------------------------------------

TOKENS = [
    "-1", "0", "1", "3", "41", "99", "10000000000000000000000", "-5/3", "1/0", "yes", "no",
    "maybe", "blue", "red", "green", "a1", "d6", "z9", "captain", "found", "over", "main",
    "holy_light", "militia", "militia_camp", "wolf", "lionheart", "=", "level=99", "offer=holy_light",
    "hp=-1/2", "pool=", "throne", "moved", "shield=maybe", "", "\ufeff", "#",
]  # fmt: skip


def live_text(seed: int, plies: int) -> str:
    rng = random.Random(seed)
    races = ("human", "beast", "goblin", "undead", "elf")
    m = Match.new(
        DB, signature_deck(DB, rng.choice(races)), signature_deck(DB, rng.choice(races)), seed
    )
    agent = RandomAgent(seed)
    for _ in range(plies):
        if m.is_over:
            break
        m.apply(agent.choose(m))
    return to_text(m)


@fuzz(120)
@given(
    seed=st.integers(0, 5000),
    plies=st.integers(0, 150),
    edits=st.lists(
        st.tuples(
            st.sampled_from(["replace", "delete", "duplicate", "insert"]),
            st.integers(0, 400),
            st.integers(0, 20),
            st.one_of(st.sampled_from(TOKENS), st.text(max_size=6)),
        ),
        min_size=1,
        max_size=3,
    ),
)
def test_fuzz_scenarios(seed: int, plies: int, edits: list[tuple[str, int, int, str]]) -> None:
    """A mutated scenario is refused with its line, or it loads and plays on cleanly."""
    lines = live_text(seed, plies).splitlines()
    for op, at, word, token in edits:
        i = at % len(lines)
        if op == "replace":
            words = lines[i].split()
            words[word % len(words)] = token
            lines[i] = " ".join(words)
        elif op == "delete":
            del lines[i]
        elif op == "duplicate":
            lines.insert(i, lines[i])
        else:
            lines.insert(i, token)
        if not lines:
            lines = [token]
    text = "\n".join(lines) + "\n"
    try:
        m = load_scenario(text, DB)
    except ScenarioError as exc:
        assert re.match(r"scenario(:\d+)?: ", str(exc)), exc
        return
    agent = RandomAgent(seed)
    for _ in range(30):  # accepted: it must be a position the engine can play
        if m.is_over:
            break
        legal = m.legal_actions()
        assert len(legal) > 0, "a loaded scenario without a legal action"
        m.apply(agent.choose(m))
