"""PIN 架空战争 as the kit's registry sees it (one :class:`~throne_lib.kit.registry.Game`).

Imports are lazy: registering loads neither the engine nor pandas. A setup is a
:class:`~throne_lib.games.pin.decks.PinDeck`; ``resolve_setup`` accepts a deck file or a
starter deck name (``anvil`` 铁砧联邦, ``aurora`` 辉穹圣约). Options: ``cards`` (a
:class:`~throne_lib.games.pin.cards.PinCardDB`) and ``rules`` (a
:class:`~throne_lib.games.pin.rules.Rules`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from throne_lib.kit.registry import Dashboard, Game

if TYPE_CHECKING:
    from throne_lib.games.pin.cards import PinCardDB
    from throne_lib.games.pin.decks import PinDeck
    from throne_lib.games.pin.match import PinMatch

ROOT = Path(__file__).resolve().parents[3]


def _cards(options: Mapping[str, Any]) -> PinCardDB:
    from throne_lib.games.pin.cards import load_pin_cards

    db = options.get("cards")
    return db if db is not None else load_pin_cards()


def new_match(setups: Sequence[PinDeck], seed: int, options: Mapping[str, Any]) -> PinMatch:
    """Seat 0 plays side 甲 (HQ 003), seat 1 side 乙 (HQ 020); decks are checked first."""
    from throne_lib.games.pin.decks import check_deck
    from throne_lib.games.pin.match import PinMatch
    from throne_lib.games.pin.rules import PIN_RULES

    db = _cards(options)
    rules = options.get("rules", PIN_RULES)
    a, b = (check_deck(db, d, rules) for d in setups)
    return PinMatch.new(db, (a.hq, b.hq), (a.cards, b.cards), seed, rules)


def default_setups(n: int, options: Mapping[str, Any] | None = None) -> list[PinDeck]:
    """The rulebook's starter decks, 铁砧联邦 against 辉穹圣约 (PIN-START-3)."""
    from throne_lib.games.pin.decks import starter_decks

    decks = starter_decks()
    return [decks["anvil"], decks["aurora"]][:n]


def resolve_setup(word: str, options: Mapping[str, Any] | None = None) -> PinDeck:
    """A deck file, or the name of a starter deck under ``decks/pin/``."""
    from throne_lib.games.pin.decks import DECK_DIR, load_deck

    path = Path(word)
    if path.is_file():
        return load_deck(path)
    starter = DECK_DIR / f"{word}.deck"
    if starter.is_file():
        return load_deck(starter)
    known = ", ".join(sorted(p.stem for p in DECK_DIR.glob("*.deck")))
    raise ValueError(f"no PIN deck {word!r}: give a deck file or one of {known}")


def _standard(seed: int = 0, **params: Any) -> Any:
    from throne_lib.games.pin.agents import ScriptedAgent

    return ScriptedAgent(seed, **params)


GAME = Game(
    name="pin",
    title="PIN 架空战争",
    title_en="PIN Fictional War",
    rule_prefix="PIN-",
    module="throne_lib.games.pin",
    seats=(2, 2),
    new_match=new_match,
    card_tables=(ROOT / "cards-pin.csv",),
    default_setups=default_setups,
    resolve_setup=resolve_setup,
    seat_names=("甲", "乙"),
    agents={"standard": _standard},
    default_agent="standard",
    rulebook="RULES-PIN.md",
    dashboards=(
        Dashboard(
            "pin.ipynb",
            "PIN 对战",
            "PIN match",
            "22格六边形棋盘：部署、激活、移动与攻击，与 AI 对战。",
            "The 22-hex war game against the scripted AI, with the mouse.",
        ),
        Dashboard(
            "pin_cards.ipynb",
            "PIN 卡牌设计",
            "PIN card designer",
            "在 cards-pin.csv 上设计你自己的国家：表格编辑、保存前校验、卡牌一览。",
            "Design your own nation: edit cards-pin.csv, validated on save, with a gallery.",
        ),
    ),
    controller="throne_lib.games.pin.ui.widget:pin_app",
)
