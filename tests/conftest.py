"""Shared fixtures: the card table, scenario positions, illegal-action checks.

Several test files use these; keep this file small and additive.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable

import pytest

from throne_lib import DEFAULT_RULES, CardDB, IllegalAction, Match, Rules, load_cards
from throne_lib.games.throne.scenario import load_scenario


@pytest.fixture(scope="session")
def db() -> CardDB:
    """The repository's card table, loaded once per test session."""
    return load_cards()


ScenarioFn = Callable[..., Match]


@pytest.fixture
def scenario(db: CardDB) -> ScenarioFn:
    """``scenario(text, rules=..., cards=...)`` -> Match built from scenario notation.

    The text is dedented, so tests may indent it inside triple quotes.
    """

    def build(text: str, rules: Rules = DEFAULT_RULES, cards: CardDB | None = None) -> Match:
        return load_scenario(textwrap.dedent(text), cards or db, rules)

    return build


IllegalFn = Callable[..., IllegalAction]


@pytest.fixture
def illegal() -> IllegalFn:
    """``illegal(match, "move a1 a2", rule="R-UNIT-2")``: assert the action is refused
    with :class:`IllegalAction` (naming ``rule`` if given) and the state is unchanged."""

    def check(match: Match, action: str, rule: str | None = None) -> IllegalAction:
        before = match.state.hash()  # from scratch: Match.hash() is cached per position
        history = len(match.history)
        assert match.parse(action) not in match.legal_actions()
        with pytest.raises(IllegalAction) as info:
            match.apply(action)
        assert match.state.hash() == before, "an illegal action changed the state"
        assert len(match.history) == history
        if rule is not None:
            assert info.value.rule == rule, info.value
        return info.value

    return check
