"""PIN decks: the file format and the validator listing every PIN-DECK violation.

Deck file (UTF-8 text, ``#`` starts a comment)::

    main: 铁砧联邦          # main nation (PIN-DECK-2)
    ally: 辉穹圣约          # optional ally nation, ≤ 16 cards (PIN-DECK-3)
    hq: anv_hq              # the HQ card, counts toward the 50 (PIN-DECK-1)
    4 anv_militia           # COUNT CARD_ID
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from throne_lib.games.pin.cards import HQ, PinCardDB
from throne_lib.games.pin.rules import PIN_RULES, Rules
from throne_lib.kit.decks import DeckError as DeckError
from throne_lib.kit.decks import DeckProblem as DeckProblem

DECK_DIR = Path(__file__).resolve().parents[3] / "decks" / "pin"


@dataclass(frozen=True)
class PinDeck:
    name: str
    main: str
    hq: str
    cards: tuple[str, ...]  # the other cards, one entry per copy
    ally: str = ""
    source: str = field(default="", compare=False)

    def __str__(self) -> str:
        return self.name


def parse_deck(text: str, name: str = "deck") -> PinDeck:
    """Read the deck format; syntax errors name ``file:line``."""
    main = ally = hq = ""
    cards: list[str] = []
    errors: list[str] = []
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, sep, value = line.partition(":")
        if sep and key.strip() in ("main", "ally", "hq"):
            value = value.strip()
            if key.strip() == "main":
                main = value
            elif key.strip() == "ally":
                ally = value
            else:
                hq = value
            continue
        parts = line.split()
        if len(parts) != 2 or not parts[0].isdigit():
            errors.append(
                f"{name}:{n}: expected 'COUNT CARD_ID', 'main: NATION', 'ally: NATION' or 'hq: CARD_ID', got {raw.strip()!r}"
            )
            continue
        cards += [parts[1]] * int(parts[0])
    if not main:
        errors.append(f"{name}: missing 'main: NATION' line (PIN-DECK-2)")
    if not hq:
        errors.append(f"{name}: missing 'hq: CARD_ID' line (PIN-DECK-1)")
    if errors:
        raise DeckError(errors)
    return PinDeck(name, main, hq, tuple(cards), ally, text)


def load_deck(path: str | Path) -> PinDeck:
    p = Path(path)
    return parse_deck(p.read_text(encoding="utf-8"), p.name)


def validate_deck(db: PinCardDB, deck: PinDeck, rules: Rules = PIN_RULES) -> list[DeckProblem]:
    """Every violated deck rule, never a silent trim (PIN-DECK-6)."""
    out: list[DeckProblem] = []
    unknown = sorted({c for c in (deck.hq, *deck.cards) if c not in db})
    if unknown:
        out.append(DeckProblem("PIN-DECK-1", "unknown card ids", tuple(unknown)))
    total = 1 + len(deck.cards)
    if total != rules.deck_size:
        out.append(
            DeckProblem(
                "PIN-DECK-1",
                f"a deck has exactly {rules.deck_size} cards with its HQ, this one {total}",
            )
        )
    hq = db.get(deck.hq)
    if hq is not None and hq.kind != HQ:
        out.append(DeckProblem("PIN-DECK-1", f"{deck.hq!r} is not an HQ card"))
    extra_hqs = sorted({c for c in deck.cards if c in db and db[c].kind == HQ})
    if extra_hqs:
        out.append(DeckProblem("PIN-DECK-1", "exactly one HQ card per deck", tuple(extra_hqs)))
    if hq is not None and rules.hq_of_main_nation and hq.nation != deck.main:
        out.append(
            DeckProblem("PIN-DECK-1", f"the HQ card is of the main nation {deck.main}", (deck.hq,))
        )
    known = [db[c] for c in deck.cards if c in db]
    nations = {deck.main, deck.ally} - {""}
    foreign = sorted({c.id for c in known if c.nation not in nations})
    if foreign:
        out.append(
            DeckProblem("PIN-DECK-2", f"only cards of {'/'.join(sorted(nations))}", tuple(foreign))
        )
    if deck.ally and deck.ally == deck.main:
        out.append(DeckProblem("PIN-DECK-2", "the ally nation differs from the main nation"))
    allied = [c for c in known if deck.ally and c.nation == deck.ally]
    if len(allied) > rules.ally_max:
        out.append(
            DeckProblem("PIN-DECK-3", f"at most {rules.ally_max} ally cards, got {len(allied)}")
        )
    elite = sorted({c.id for c in allied if c.rarity == "精锐"})
    if elite:
        out.append(DeckProblem("PIN-DECK-3", "no 精锐 card of the ally nation", tuple(elite)))
    counts = Counter(c.id for c in known)
    for cid, n in sorted(counts.items()):
        limit = rules.rarity_limit(db[cid].rarity)
        if limit is not None and n > limit:
            out.append(
                DeckProblem(
                    "PIN-DECK-4", f"{db[cid].rarity} cards ≤ {limit} copies, {n} of", (cid,)
                )
            )
    derived = sorted({c.id for c in known if c.derived})
    if derived:
        out.append(DeckProblem("PIN-DECK-5", "衍生 cards never go in a deck", tuple(derived)))
    return out


def check_deck(db: PinCardDB, deck: PinDeck, rules: Rules = PIN_RULES) -> PinDeck:
    problems = validate_deck(db, deck, rules)
    if problems:
        raise DeckError(problems)
    return deck


def starter_decks() -> dict[str, PinDeck]:
    """The rulebook's starter decks under ``decks/pin/`` (PIN-START-3)."""
    return {p.stem: load_deck(p) for p in sorted(DECK_DIR.glob("*.deck"))}
