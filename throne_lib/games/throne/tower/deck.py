"""The tower's deck rules (R-TOWER-4, R-TOWER-5) and its starter deck.

A run's deck holds 10–40 normal cards (R-TOWER-4), with no minimum of barracks or
production camps (opening barracks are chosen separately, R-OPEN-3). The vice
generals are not counted: they travel with the main general from the start
(R-TOWER-5), are shuffled into every battle deck and give their race quota
(R-DECK-5). The other deck rules still hold (R-DECK-2 copies, R-DECK-3 barracks,
R-DECK-4 spells, R-DECK-5 race quota); rewards and shops only offer cards that
keep the deck legal.
"""

from __future__ import annotations

from collections.abc import Sequence

from throne_lib.games.throne.cards import CardDB
from throne_lib.games.throne.decks import DeckProblem, validate_deck
from throne_lib.games.throne.match import SideSetup

REWARD_KINDS = frozenset({"minion", "spell", "barracks"})


def battle_setup(general: str, vices: Sequence[str], deck: Sequence[str]) -> SideSetup:
    """The side a run brings to a battle: vice generals shuffled in with the deck."""
    return SideSetup(general, tuple(vices) + tuple(deck))


def deck_problems(
    db: CardDB,
    general: str,
    vices: Sequence[str],
    deck: Sequence[str],
    size: tuple[int, int] = (10, 40),
) -> list[DeckProblem]:
    """Every broken deck rule of a run's deck (R-TOWER-4 replaces R-DECK-1's size)."""
    out = [p for p in validate_deck(db, battle_setup(general, vices, deck)) if p.rule != "R-DECK-1"]
    if any(db[c].kind == "general" for c in deck if c in db):
        out.append(DeckProblem("R-TOWER-5", "vice generals travel beside the deck, not in it"))
    lo, hi = size
    if not lo <= len(deck) <= hi:
        out.append(DeckProblem("R-TOWER-4", f"{len(deck)} cards, the tower allows {lo}-{hi}"))
    return out


def rewardable(db: CardDB, general: str) -> list[str]:
    """Cards a reward or a shop may offer: minions and spells of any race, barracks of
    the main general's race only (R-DECK-3, R-BARRACKS-12), in table order."""
    race = db[general].race
    return [
        c.id
        for c in db.values()
        if c.kind in REWARD_KINDS and (c.kind != "barracks" or c.race == race)
    ]


def can_add(
    db: CardDB,
    general: str,
    vices: Sequence[str],
    deck: Sequence[str],
    card: str,
    size: tuple[int, int] = (10, 40),
) -> bool:
    """Whether ``card`` may join the deck without breaking a deck rule."""
    lo, hi = size
    if len(deck) + 1 > hi:
        return False
    new = [*deck, card]
    return not deck_problems(db, general, vices, new, (min(lo, len(new)), hi))


def starter_deck(db: CardDB, general: str, size: int = 10) -> list[str]:
    """R-TOWER-4: the run's first 10 cards, from the main general's race: its cheapest
    minions (up to 5), spells of its race then neutral ones (up to 9 cards in all),
    one military barracks, then anything left, up to 3 copies each."""
    race = db[general].race
    minions = sorted(db.of("minion", race), key=lambda c: (c.cost, c.row))
    spells = sorted(db.of("spell", race), key=lambda c: (c.cost, c.row)) + sorted(
        db.of("spell", "neutral"), key=lambda c: (c.cost, c.row)
    )
    military = [c for c in db.of("barracks", race) if not c.is_production]
    deck: list[str] = []

    def fill(cards: list[str], upto: int) -> None:
        for copies in (1, 2, 3):
            for cid in cards:
                if len(deck) >= upto:
                    return
                if deck.count(cid) < copies and can_add(db, general, (), deck, cid, (0, size)):
                    deck.append(cid)

    fill([c.id for c in minions], 5)
    fill([c.id for c in spells], size - 1)
    fill([c.id for c in military[:1]], size)
    fill(rewardable(db, general), size)
    if len(deck) < size:
        raise ValueError(f"the card table cannot make a {size}-card starter deck for {general}")
    return deck
