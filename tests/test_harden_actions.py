"""Bad actions never touch the match (issue 15, "Actions").

An action is either refused before anything changes — a ``TypeError``/``ValueError``
when it is built (wrong field types, unknown kind), an ``IllegalAction`` naming the rule
when it is applied — or it is legal and applied. The state hash and the history are
unchanged by every refusal, and building the refusal's message never crashes
(R-TURN-12: the engine's ``legal_actions()`` is the one source of legality; R-BOARD-6
names the cells).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from fuzzing import fuzz
from hypothesis import given
from hypothesis import strategies as st

from throne_lib import CardDB, IllegalAction, Match, load_cards
from throne_lib.games.throne.actions import ACTION_FIELDS, Action
from throne_lib.games.throne.decks import signature_deck
from throne_lib.kit.agents import RandomAgent

DB: CardDB = load_cards()  # module level: hypothesis tests cannot take function fixtures
RACES = ("human", "beast", "goblin", "undead", "elf")


def position(seed: int, plies: int) -> Match:
    """A live position: a seeded random match after ``plies`` actions (or its end)."""
    rng = random.Random(seed)
    m = Match.new(
        DB,
        signature_deck(DB, rng.choice(RACES)),
        signature_deck(DB, rng.choice(RACES)),
        seed=seed,
    )
    agent = RandomAgent(seed)
    for _ in range(plies):
        if m.is_over:
            break
        m.apply(agent.choose(m))
    return m


def assert_refused_cleanly(m: Match, attempt: Any) -> None:
    """``attempt(m)`` raises a clean error and leaves ``m`` as it was."""
    before, history = m.hash(), len(m.history)
    with pytest.raises((IllegalAction, TypeError, ValueError)) as info:
        attempt(m)
    assert str(info.value)  # the message was built
    assert m.hash() == before, "a refused action changed the state"
    assert len(m.history) == history


def first_legal(m: Match, kind: str) -> Action:
    return next(a for a in m.legal_actions() if a.kind == kind)


# --- the examples ----------------------------------------------------------------


def test_float_cell_play_is_refused_before_anything_is_spent() -> None:
    """`Action("play", -1, 0.0, "supply_camp")` equalled a legal action, spent the mana,
    removed the card, then raised TypeError: now it cannot even be built."""
    with pytest.raises(TypeError, match="target must be int, got float"):
        Action("play", -1, 0.0, "supply_camp")  # type: ignore[arg-type]
    m = position(3, 0)
    while not any(a.kind == "play" and a.target >= 0 for a in m.legal_actions()):
        m.apply(RandomAgent(3).choose(m))
    legal = next(a for a in m.legal_actions() if a.kind == "play" and a.target >= 0)
    hand = list(m.state.sides[m.turn].hand)
    mana = m.state.sides[m.turn].mana

    def play_float(match: Match) -> None:
        match.apply(Action("play", -1, float(legal.target), legal.card))  # type: ignore[arg-type]

    assert_refused_cleanly(m, play_float)
    assert m.state.sides[m.turn].hand == hand and m.state.sides[m.turn].mana == mana


@pytest.mark.parametrize("kind", ["found", "pick", "summon", "move"])
def test_every_float_cell_kind_is_refused(kind: str) -> None:
    with pytest.raises(TypeError):
        Action(kind, -1, 1.0, "militia_camp")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Action(kind, 2.0, 1, "militia_camp")  # type: ignore[arg-type]


def test_found_with_a_float_cell_leaves_the_opening_untouched() -> None:
    m = position(5, 0)
    while m.phase != "found":
        m.apply(first_legal(m, "keep"))
    legal = first_legal(m, "found")

    def found_float(match: Match) -> None:
        match.apply(Action("found", -1, float(legal.target), legal.card))  # type: ignore[arg-type]

    assert_refused_cleanly(m, found_float)


def test_apply_none_is_a_type_error_not_attribute_error() -> None:
    m = position(1, 10)
    assert_refused_cleanly(m, lambda match: match.apply(None))
    with pytest.raises(TypeError, match="NoneType"):
        m.apply(None)  # type: ignore[arg-type]


def test_unknown_kind_is_a_value_error_not_key_error() -> None:
    with pytest.raises(ValueError, match="unknown action kind 'fly'"):
        Action("fly")
    with pytest.raises(ValueError):
        position(1, 0).apply("fly")


def test_cell_names_in_the_cell_fields_are_a_type_error() -> None:
    with pytest.raises(TypeError, match="cell must be int, got str 'b2'"):
        Action("move", "b2", "b3")  # type: ignore[arg-type]


@pytest.mark.parametrize("cells", [(3, 99), (99, 3), (3, -7), (10**30, 0)])
def test_off_board_cells_are_illegal_r_board_6(cells: tuple[int, int]) -> None:
    """`Action("move", 3, 99)` raised IndexError while building the message."""
    m = position(2, 40)
    before = m.hash()
    with pytest.raises(IllegalAction) as info:
        m.apply(Action("move", *cells))
    assert info.value.rule == "R-BOARD-6"
    assert "off the board" in str(info.value)
    assert m.hash() == before


def test_bool_and_numpy_like_values_are_not_cells() -> None:
    with pytest.raises(TypeError):
        Action("move", True, 3)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Action("play", card=5)  # type: ignore[arg-type]


def test_from_dict_checks_fields() -> None:
    assert Action.from_dict({"kind": "move", "cell": 3, "target": 10}) == Action("move", 3, 10)
    for bad in ({"kind": "play", "target": 0.0}, {"cell": 3}, {"kind": "end", "x": 1}, [1]):
        with pytest.raises((TypeError, ValueError)):
            Action.from_dict(bad)  # type: ignore[arg-type]


def test_text_of_an_off_board_action_prints() -> None:
    assert Action("move", 3, 99).text() == "move d1 #99"


# --- fuzz: any action against a live position ---------------------------------------------

junk_cells = st.one_of(
    st.integers(-3, 60),
    st.integers(),
    st.floats(allow_nan=True),
    st.booleans(),
    st.none(),
    st.text(max_size=4),
)
kinds = st.one_of(st.sampled_from(sorted(ACTION_FIELDS)), st.text(max_size=6))
cards = st.one_of(st.sampled_from(sorted(DB)), st.text(max_size=8), st.integers())


@fuzz(150)
@given(
    seed=st.integers(0, 10_000),
    plies=st.integers(0, 160),
    kind=kinds,
    cell=junk_cells,
    target=junk_cells,
    card=cards,
)
def test_fuzz_actions_against_live_positions(
    seed: int, plies: int, kind: Any, cell: Any, target: Any, card: Any
) -> None:
    """Either a clean refusal (state and history unchanged) or a legal, applied action."""
    m = position(seed, plies)
    try:
        a = Action(kind, cell, target, card)
    except (TypeError, ValueError) as exc:
        assert str(exc)
        return
    before, history = m.hash(), len(m.history)
    if a in m.legal_actions():
        m.apply(a)
        assert m.history[-1] == a
        return
    with pytest.raises(IllegalAction) as info:
        m.apply(a)
    assert info.value.rule.startswith("R-")
    assert m.hash() == before and len(m.history) == history


@fuzz(120)
@given(seed=st.integers(0, 10_000), plies=st.integers(0, 120), text=st.text(max_size=24))
def test_fuzz_action_text_against_live_positions(seed: int, plies: int, text: str) -> None:
    m = position(seed, plies)
    before = m.hash()
    try:
        m.apply(text)
    except (IllegalAction, ValueError) as exc:
        assert str(exc)
        assert m.hash() == before
    else:  # a random text that happens to be legal ("end", "keep" …)
        assert m.history[-1] == m.parse(text)


@fuzz(60)
@given(seed=st.integers(0, 10_000), plies=st.integers(0, 160), shift=st.sampled_from([0.0, 0.5]))
def test_fuzz_float_twins_of_legal_actions(seed: int, plies: int, shift: float) -> None:
    """The float twin of every legal action with a cell is refused at construction."""
    m = position(seed, plies)
    for a in m.legal_actions():
        for field in ("cell", "target"):
            value = getattr(a, field)
            if value >= 0:
                kwargs = {"kind": a.kind, "cell": a.cell, "target": a.target, "card": a.card}
                kwargs[field] = value + shift
                with pytest.raises(TypeError):
                    Action(**kwargs)
