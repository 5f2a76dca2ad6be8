"""Shared fixtures: the card table, scenario positions, illegal-action checks.

Several test files use these; keep this file small and additive.
"""

from __future__ import annotations

import os
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from throne_lib import DEFAULT_RULES, CardDB, IllegalAction, Match, Rules, load_cards
from throne_lib.games.throne.scenario import load_scenario

LOG_ENVS = (
    "THRONE_LOGS",
    "CASTLE_LOGS",
    "PIN_LOGS",
    "GOOFSPIEL_LOGS",
)  # each game's logs folder (kit logs_dir)


@pytest.fixture(scope="session", autouse=True)
def logs_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Match logs go to a folder of the test session, never the checkout's ``logs/``: a
    page a test opens writes its match there by default (``THRONE_LOGS``, ``CASTLE_LOGS``,
    ``PIN_LOGS``, ``GOOFSPIEL_LOGS``; the Voilà servers of the browser tests inherit them). A test's own
    folder (``monkeypatch.setenv``) still wins. Before, a short Throne log a library test
    left in ``logs/`` was the newest the replay page opened for the browser tests run after."""
    folder = tmp_path_factory.mktemp("logs")
    saved = {k: os.environ.get(k) for k in LOG_ENVS}
    os.environ.update(dict.fromkeys(LOG_ENVS, str(folder)))
    yield folder
    for k, v in saved.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v


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
