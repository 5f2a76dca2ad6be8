"""暗标夺宝 (Goofspiel), the kit's example game: its rules (GS-…), its hidden bid and its
dashboard. The kit's guarantees (copies, logs, determinism, golden files, bad input,
hidden information) come from the conformance suite in tests/kit/ — nothing here."""

from __future__ import annotations

import random

import pytest

from throne_lib.games.goofspiel import Bid, GoofMatch
from throne_lib.kit import registry
from throne_lib.kit.protocol import IllegalAction


def new(seed: int = 1, cards: int = 8) -> GoofMatch:
    m = registry.get("goofspiel").new(seed=seed, cards=cards)
    assert isinstance(m, GoofMatch)
    return m


def test_setup_hands_and_seeded_prizes() -> None:
    """GS-SETUP-1: hands 1..N; the prizes are the same cards, shuffled by the seed."""
    m = new(2, cards=5)
    assert m.hands == [[1, 2, 3, 4, 5]] * 2 and sorted(m.prizes) == [1, 2, 3, 4, 5]
    assert m.prizes == new(2, cards=5).prizes
    assert {tuple(new(s).prizes) for s in range(6)} != {tuple(m.prizes)}
    with pytest.raises(ValueError, match="GS-SETUP-1"):
        new(cards=14)


def test_higher_bid_scores_the_prize_and_a_tie_scores_nothing() -> None:
    """GS-BID-1, GS-BID-2: seat 0 then seat 1; the higher card takes the prize."""
    m = new(3, cards=3)
    first, second = m.prizes[0], m.prizes[1]
    assert m.current_seat == 0
    m.apply("bid 1")
    assert m.current_seat == 1
    events = m.apply(Bid(2))
    assert events[-1].to_dict() == {"kind": "win", "seat": 1, "prize": first, "bids": [1, 2]}
    assert m.scores == [0, first]
    m.apply("bid 3")
    assert m.apply("bid 3")[-1].kind == "tie" and m.scores == [0, first]
    assert m.shown[1] == (second, 3, 3)


def test_a_bid_not_in_hand_is_illegal_and_changes_nothing() -> None:
    m = new()
    m.apply("bid 4")
    before = m.hash()
    with pytest.raises(IllegalAction, match="GS-BID-1"):
        m.apply(Bid(9))
    with pytest.raises(TypeError):
        Bid(True)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="expected 'bid N'"):
        m.parse("pass")
    assert m.hash() == before


def test_the_end_and_the_returns() -> None:
    """GS-END-1: after N rounds the higher score wins; equal scores draw."""
    m = new(5, cards=4)
    while not m.is_over:
        m.apply(m.legal_actions()[0])  # both bid their lowest card: every round a tie
    assert m.scores == [0, 0] and m.returns() == [0.0, 0.0] and m.legal_actions() == []
    with pytest.raises(IllegalAction, match="GS-END-1"):
        m.apply(Bid(1))


def test_seat_1_never_sees_the_pending_bid() -> None:
    """GS-BID-1: the bid is face down; seat 1's observation and its resampled worlds do
    not depend on it, and resampling keeps what seat 1 sees and who is to bid."""
    views = set()
    for card in (2, 7):
        m = new(8)
        m.apply(Bid(card))
        assert m.observation(0)["my_bid"] == card
        obs = m.observation(1)
        assert obs["my_bid"] is None and obs["bid_placed"] and obs["to_bid"] == 1
        views.add(repr(obs))
        r = m.resample(1, random.Random(4))
        assert r.observation(1) == obs and r.current_seat == 1
    assert len(views) == 1


def test_the_dashboard_plays_only_legal_bids() -> None:
    pytest.importorskip("ipywidgets")
    from throne_lib.games.goofspiel.ui import GoofApp

    app = GoofApp(seed=3, cards=4)
    assert [b.description for b in app.hand.children] == ["1", "2", "3", "4"]
    while app.hand.children:
        app.hand.children[-1].click()  # always bid the highest card left
    assert app.match.is_over and "4" not in app.rounds.value.split("<tr>")[0]
    assert ("获胜" in app.status.value) or ("平局" in app.status.value)
    assert len(app.match.shown) == 4
