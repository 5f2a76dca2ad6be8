"""PIN fixtures: the card table, starter decks, positions in scenario notation."""

from __future__ import annotations

import textwrap
from collections.abc import Callable

import pytest

from throne_lib.games.pin.actions import PinAction, PinEvent
from throne_lib.games.pin.cards import PinCardDB, load_pin_cards
from throne_lib.games.pin.decks import PinDeck, starter_decks
from throne_lib.games.pin.match import PinMatch
from throne_lib.games.pin.rules import PIN_RULES, Rules
from throne_lib.games.pin.scenario import load_scenario
from throne_lib.kit.protocol import IllegalAction

HEAD = """\
turn {turn}
active {active}
first 甲
cp 甲 {cp}
cp 乙 {cp}
hq 甲 anv_hq
hq 乙 aur_hq
"""


@pytest.fixture(scope="session")
def pdb() -> PinCardDB:
    return load_pin_cards()


@pytest.fixture(scope="session")
def decks() -> dict[str, PinDeck]:
    return starter_decks()


@pytest.fixture
def new_match(pdb: PinCardDB, decks: dict[str, PinDeck]) -> Callable[..., PinMatch]:
    def build(seed: int = 1, rules: Rules = PIN_RULES) -> PinMatch:
        a, b = decks["anvil"], decks["aurora"]
        return PinMatch.new(pdb, (a.hq, b.hq), (a.cards, b.cards), seed, rules)

    return build


PosFn = Callable[..., PinMatch]


@pytest.fixture
def pos(pdb: PinCardDB) -> PosFn:
    """``pos(lines, active="甲", cp="20/16", turn=3, rules=...)``: a position in the
    action phase; ``lines`` (units, hands …) follow a standard head (HQs 铁砧/辉穹)."""

    def build(
        lines: str = "",
        active: str = "甲",
        cp: str = "20/16",
        turn: int | None = None,
        rules: Rules = PIN_RULES,
        db: PinCardDB | None = None,
    ) -> PinMatch:
        t = turn if turn is not None else (3 if active == "甲" else 4)
        text = HEAD.format(turn=t, active=active, cp=cp) + textwrap.dedent(lines)
        return load_scenario(text, db or pdb, rules)

    return build


def illegal(m: PinMatch, action: str, rule: str) -> IllegalAction:
    """Assert ``action`` is refused naming ``rule`` and the match is unchanged."""
    before = m.hash()
    with pytest.raises(IllegalAction) as info:
        m.apply(action)
    assert info.value.rule == rule, info.value
    assert m.hash() == before
    return info.value


def texts(m: PinMatch, kind: str | None = None) -> set[str]:
    return {a.text() for a in m.legal_actions() if kind is None or a.kind == kind}


def event_kinds(events: list) -> list[str]:  # type: ignore[type-arg]
    return [e.kind for e in events]


def act(m: PinMatch, action: str | PinAction) -> list[PinEvent]:
    """Apply ``action``, then give every forced pass: a counter window opens at each
    trigger whatever its side holds (PIN-COUNTER-5), and a side with nothing it can play
    there passes at once, as the agents and the dashboard do. The events of all of them."""
    events = list(m.apply(action))
    while (p := m.forced_pass()) is not None:
        events += m.apply(p)
    return events
