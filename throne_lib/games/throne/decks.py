"""Decks: what a side brings (:class:`SideSetup`), validation (R-DECK-*), signature decks
(R-DECK-7) and the deck file format.

Deck file format (UTF-8 text, ``#`` starts a comment)::

    general: lionheart          # main general, sits on the throne (R-SETUP-1)
    vice: tinker_king           # up to 2 vice generals (R-SETUP-2), one line each
    3 shield_wall               # COUNT CARD_ID
    2 holy_light
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from throne_lib.compiled import reduce_dataclass
from throne_lib.games.throne.cards import DECK_KINDS, RACES, Card, CardDB
from throne_lib.kit.decks import DeckError as DeckError
from throne_lib.kit.decks import DeckProblem as DeckProblem
from throne_lib.kit.textfile import read_text, text_lines

MAX_COUNT = 1000  # far above any deck rule (R-DECK-1); a sanity bound for a deck file


@dataclass(frozen=True)
class SideSetup:
    """What a side brings: its main general (the throne) and its deck of card ids."""

    general: str
    deck: tuple[str, ...] = field(default=())

    def to_dict(self) -> dict[str, object]:
        return {"general": self.general, "deck": list(self.deck)}

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> SideSetup:
        if not isinstance(data, dict):
            raise ValueError(f"a side setup is an object, got {type(data).__name__}")
        general, deck = data.get("general"), data.get("deck", [])
        if not isinstance(general, str):
            raise ValueError(f"a side setup's general is a card id, got {general!r:.40}")
        if not isinstance(deck, list) or not all(isinstance(c, str) for c in deck):
            raise ValueError(f"a side setup's deck is a list of card ids, got {deck!r:.40}")
        return cls(general, tuple(deck))

    @classmethod
    def signature(cls, db: CardDB, race_or_general: str) -> SideSetup:
        """The signature deck of a general (or of a race's first general)."""
        return signature_deck(db, race_or_general)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return reduce_dataclass(self)  # pickled as a constructor call (compiled.py)


def validate_deck(db: CardDB, setup: SideSetup) -> list[DeckProblem]:
    """Every violated deck rule, never a silent trim (R-DECK-8)."""
    out: list[DeckProblem] = []
    main_race: str | None = None
    if setup.general in db and db[setup.general].kind == "general":
        main_race = db[setup.general].race
    else:
        out.append(DeckProblem("R-SETUP-1", f"{setup.general!r} is not a general"))
    unknown = sorted({c for c in setup.deck if c not in db})
    if unknown:  # reported, and the known cards are still checked (R-DECK-8)
        out.append(DeckProblem("R-DECK-1", "unknown card ids", tuple(unknown)))
    cards = [db[c] for c in setup.deck if c in db]
    banned = sorted({c.id for c in cards if c.kind not in DECK_KINDS})
    if banned:
        out.append(
            DeckProblem(
                "R-SETUP-3",
                "captains, soldiers, tokens and buildings never go in a deck",
                tuple(banned),
            )
        )
    if setup.general in setup.deck:
        out.append(
            DeckProblem(
                "R-SETUP-1",
                "the main general sits on the throne, not in the deck",
                (setup.general,),
            )
        )
    vices = [c for c in cards if c.kind == "general"]
    if len(vices) > 2:
        out.append(
            DeckProblem(
                "R-SETUP-2", f"{len(vices)} vice generals, at most 2", tuple(c.id for c in vices)
            )
        )
    n_normal = len(setup.deck) - len(vices)
    if len(setup.deck) < 10 or n_normal > 40:
        out.append(
            DeckProblem(
                "R-DECK-1",
                f"{len(setup.deck)} cards ({n_normal} normal): 10-42, at most 40 normal",
            )
        )
    counts = Counter(c.id for c in cards)  # names are unique in the table
    over = sorted(c for c, k in counts.items() if k > 3)
    if over:
        out.append(DeckProblem("R-DECK-2", "more than 3 copies", tuple(over)))
    out.extend(_over_cap(cards, "barracks", 10, "R-DECK-3", "barracks cards"))
    # barracks are never neutral: each must be of the main general's race
    foreign = sorted({c.id for c in cards if c.kind == "barracks" and c.race != main_race})
    if foreign and main_race is not None:
        out.append(
            DeckProblem(
                "R-DECK-3",
                f"barracks must be of the main general's race ({main_race})",
                tuple(foreign),
            )
        )
    out.extend(_over_cap(cards, "spell", 16, "R-DECK-4", "spells"))
    generals = Counter(([main_race] if main_race else []) + [v.race for v in vices])
    by_race = Counter(c.race for c in cards if c.race != "neutral" and c.kind != "general")
    for race, n in sorted(by_race.items()):
        quota = 10 * generals.get(race, 0)
        if n > quota:
            ids = tuple(sorted({c.id for c in cards if c.race == race and c.kind != "general"}))
            out.append(
                DeckProblem(
                    "R-DECK-5", f"{n} {race} cards, quota {quota} (10 per {race} general)", ids
                )
            )
    return out


def _over_cap(cards: list[Card], kind: str, cap: int, rule: str, noun: str) -> list[DeckProblem]:
    """A deck holds at most ``cap`` cards of ``kind`` (R-DECK-3 barracks, R-DECK-4 spells):
    the problem naming them, or none."""
    of_kind = [c for c in cards if c.kind == kind]
    if len(of_kind) <= cap:
        return []
    return [
        DeckProblem(
            rule, f"{len(of_kind)} {noun}, at most {cap}", tuple(sorted({c.id for c in of_kind}))
        )
    ]


def check_deck(db: CardDB, setup: SideSetup) -> SideSetup:
    problems = validate_deck(db, setup)
    if problems:
        raise DeckError(problems)
    return setup


def _general_for(db: CardDB, race_or_general: str) -> str:
    if race_or_general in db and db[race_or_general].kind == "general":
        return race_or_general
    generals = db.of("general", race_or_general)
    if not generals:
        raise ValueError(f"no general or race named {race_or_general!r}")
    return generals[0].id


def signature_deck(db: CardDB, race_or_general: str, size: int = 30) -> SideSetup:
    """R-DECK-7: the race's production camp, exactly 8 minions, then barracks and
    spells up to ``size`` cards, within R-DECK-1..5. Built deterministically from the
    table: the race's next general as vice (its quota makes room: neutral cards are
    only spells, R-BARRACKS-12), cheaper cards first, military barracks twice, up to 3
    copies, race cards within the race quota."""
    general = _general_for(db, race_or_general)
    stored = stored_signature_deck(db, general) if size == 30 else None
    if stored is not None:
        return stored
    race = db[general].race
    deck: list[str] = []
    peers = [g.id for g in db.of("general", race)]
    if len(peers) > 1:
        deck.append(peers[(peers.index(general) + 1) % len(peers)])
    camps = [c for c in db.of("barracks", race) if c.is_production]
    deck += [camps[0].id] if camps else []
    minions = sorted(db.of("minion", race), key=lambda c: (c.cost, c.row))
    for i in range(3 * len(minions)):
        if sum(1 for c in deck if db[c].kind == "minion") >= 8:
            break
        card = minions[i % len(minions)]
        deck.append(card.id)
    quota = 10 * sum(1 for c in [general, *deck] if db[c].kind == "general")
    race_left = quota - sum(1 for c in deck if db[c].race == race and db[c].kind != "general")
    military = [c for c in db.of("barracks", race) if not c.is_production]
    for card in military + military:
        if race_left > 0 and len(deck) < size:
            deck.append(card.id)
            race_left -= 1
    spells = sorted(db.of("spell", race), key=lambda c: (c.cost, c.row)) + sorted(
        db.of("spell", "neutral"), key=lambda c: (c.cost, c.row)
    )
    for copies in (1, 2, 3):
        for card in spells:
            if len(deck) >= size or sum(1 for c in deck if db[c].kind == "spell") >= 16:
                break
            if deck.count(card.id) >= copies:
                continue
            if card.race == race:
                if race_left <= 0:
                    continue
                race_left -= 1
            deck.append(card.id)
    barracks = db.of("barracks", race)  # what is left of the quota: more barracks
    for copies in (1, 2, 3):
        for card in barracks:
            n_barracks = sum(1 for c in deck if db[c].kind == "barracks")
            room = len(deck) < size and race_left > 0 and n_barracks < 10
            if room and deck.count(card.id) < copies:
                deck.append(card.id)
                race_left -= 1
    return SideSetup(general, tuple(deck))


DECKS_DIR = Path(__file__).resolve().parents[3] / "decks"


def stored_signature_deck(db: CardDB, general: str) -> SideSetup | None:
    """The hand-made signature deck ``decks/<general>.deck``, if there is one and it
    is legal with this table (R-DECK-7); ``None`` sends the caller to the algorithm."""
    path = DECKS_DIR / f"{general}.deck"
    if not path.is_file():
        return None
    try:
        setup = load_deck(path)
    except ValueError:  # a malformed file: tests/test_cards_pool.py names it
        return None
    if setup.general != general or validate_deck(db, setup):
        return None
    return setup


def parse_deck(text: str, source: str = "deck") -> SideSetup:
    general = ""
    vices: list[str] = []
    cards: list[str] = []
    for n, raw in enumerate(text_lines(text), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("general:"):
            general = line.split(":", 1)[1].strip()
        elif line.startswith("vice:"):
            vices.append(line.split(":", 1)[1].strip())
        else:
            parts = line.split()
            if len(parts) != 2 or not parts[0].isascii() or not parts[0].isdigit():
                raise ValueError(
                    f"{source}:{n}: expected 'COUNT CARD_ID', 'general: ID' or 'vice: ID', got {raw[:80]!r}"
                )
            # a count is a few copies: a typo such as 1000000000 must not build a huge list
            if len(parts[0]) > 4 or int(parts[0]) > MAX_COUNT:
                raise ValueError(
                    f"{source}:{n}: count {parts[0][:20]} is too large (at most {MAX_COUNT})"
                )
            cards += [parts[1]] * int(parts[0])
            if len(cards) > MAX_COUNT:
                raise ValueError(f"{source}:{n}: more than {MAX_COUNT} cards in the deck")
    if not general:
        raise ValueError(f"{source}: missing 'general: ID' line")
    return SideSetup(general, tuple(vices + cards))


def load_deck(path: str | Path) -> SideSetup:
    p = Path(path)
    return parse_deck(read_text(p, p.name), p.name)


def deck_text(db: CardDB, setup: SideSetup) -> str:
    lines = [f"general: {setup.general}  # {db[setup.general].name}"]
    counts = Counter(setup.deck)
    for cid in counts:
        if db[cid].kind == "general":
            lines.append(f"vice: {cid}  # {db[cid].name}")
    for cid, n in counts.items():
        if db[cid].kind != "general":
            lines.append(f"{n} {cid}  # {db[cid].name}")
    return "\n".join(lines) + "\n"


def resolve_setup(db: CardDB, spec: str) -> SideSetup:
    """A deck file, a general id or a race (its signature deck, R-DECK-7)."""
    p = Path(spec)
    if p.is_file():
        return check_deck(db, load_deck(p))
    if (spec in db and db[spec].kind == "general") or spec in RACES:
        return signature_deck(db, spec)
    raise ValueError(f"{spec!r} is not a deck file, a general id or a race")
