"""PIN 架空战争 as the kit's registry sees it (one :class:`~throne_lib.kit.registry.Game`).

Imports are lazy: registering loads neither the engine nor pandas. A setup is a
:class:`~throne_lib.games.pin.decks.PinDeck`; ``resolve_setup`` accepts a deck file or a
starter deck name (``anvil`` 铁砧联邦, ``aurora`` 辉穹圣约). Options: ``cards`` (a
:class:`~throne_lib.games.pin.cards.PinCardDB`) or ``cards_csv`` (its text, as a log header
carries a table other than the repository's) and ``rules`` (a
:class:`~throne_lib.games.pin.rules.Rules`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from throne_lib.kit.registry import Dashboard, Lazy, declare, option

if TYPE_CHECKING:
    from throne_lib.games.pin.cards import PinCardDB
    from throne_lib.games.pin.decks import PinDeck
    from throne_lib.games.pin.match import PinMatch
    from throne_lib.games.pin.rules import Rules


def _cards(options: Mapping[str, Any], rules: Rules) -> PinCardDB:
    """The card table of ``options`` (a test's, the command line's), else the one a log
    header carries as text (``cards_csv``), else the repository's."""
    if options.get("cards") is None and options.get("cards_csv") is not None:
        from throne_lib.games.pin.cards import parse_pin_cards

        return parse_pin_cards(str(options["cards_csv"]), "cards_csv (log header)", rules=rules)
    db: PinCardDB = option(options, "cards", Lazy("throne_lib.games.pin.cards:load_pin_cards"))
    return db


def _is_repository_table(db: PinCardDB) -> bool:
    """``db`` is ``cards-pin.csv`` as it reads now (an unreadable file counts as another)."""
    from throne_lib.games.pin.cards import DEFAULT_PATH
    from throne_lib.kit.csvtable import file_digest

    return db.hash == file_digest(DEFAULT_PATH)


def new_match(setups: Sequence[Any], seed: int, options: Mapping[str, Any]) -> PinMatch:
    """Seat 0 plays side 甲 (HQ 003), seat 1 side 乙 (HQ 020); decks are checked first.

    A setup is a :class:`PinDeck`, a deck dict (``deck_dict``), a deck file or a starter
    name; ``options["rules"]`` a :class:`Rules` or a dict of overrides. The match keeps
    JSON-able ``setups`` and ``options`` so a log can rebuild it."""
    import dataclasses

    from throne_lib.games.pin.decks import check_deck
    from throne_lib.games.pin.match import PinMatch
    from throne_lib.games.pin.rules import PIN_RULES, Rules

    rules = options.get("rules", PIN_RULES)
    if not isinstance(rules, Rules):  # a log's overrides (any other type: a ValueError)
        rules = rules_from_dict(rules)
    db = _cards(options, rules)
    a, b = (check_deck(db, setup_deck(s), rules) for s in setups)
    m = PinMatch.new(db, (a.hq, b.hq), (a.cards, b.cards), seed, rules)
    m.setups = [deck_dict(a), deck_dict(b)]
    overrides = {k: v for k, v in dataclasses.asdict(rules).items() if v != getattr(PIN_RULES, k)}
    m.options = {"rules": json_safe(overrides)} if overrides else {}
    if not _is_repository_table(db):  # a log must rebuild the match with its own table
        m.options["cards_csv"] = db.source
    return m


def json_safe(value: Any) -> Any:
    """Tuples to lists, recursively (rule fields are tuples)."""
    if isinstance(value, tuple | list):
        return [json_safe(v) for v in value]
    if isinstance(value, dict):
        return {k: json_safe(v) for k, v in value.items()}
    return value


def rules_from_dict(data: object) -> Any:
    """Rules from a dict of overrides (lists back to tuples)."""
    import dataclasses

    from throne_lib.games.pin.rules import PIN_RULES, Rules
    from throne_lib.kit.params import check_overrides

    def tup(v: Any) -> Any:
        return tuple(tup(x) for x in v) if isinstance(v, list) else v

    checked = check_overrides(Rules, data, "PIN rules")
    return dataclasses.replace(PIN_RULES, **{k: tup(v) for k, v in checked.items()})


def deck_dict(deck: PinDeck) -> dict[str, Any]:
    return {
        "name": deck.name,
        "main": deck.main,
        "ally": deck.ally,
        "hq": deck.hq,
        "cards": list(deck.cards),
    }


def setup_deck(setup: Any) -> PinDeck:
    from throne_lib.games.pin.decks import PinDeck

    if isinstance(setup, PinDeck):
        return setup
    if isinstance(setup, str):
        return resolve_setup(setup)
    if isinstance(setup, Mapping):
        return PinDeck(
            str(setup.get("name", "deck")),
            str(setup["main"]),
            str(setup["hq"]),
            tuple(setup["cards"]),
            str(setup.get("ally", "")),
        )
    raise ValueError(f"a PIN setup is a deck, a deck file or a starter name, not {setup!r}")


def default_setups(n: int, options: Mapping[str, Any] | None = None) -> list[str]:
    """The rulebook's starter decks by name, 铁砧联邦 against 辉穹圣约 (PIN-START-3)."""
    return ["anvil", "aurora"][:n]


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


GAME = declare(
    __package__,
    title="PIN 架空战争",
    title_en="PIN Fictional War",
    rule_prefix="PIN-",
    rulebook="RULES-PIN.md",
    seats=(2, 2),
    new_match=new_match,
    tables=("cards-pin.csv",),
    default_setups=default_setups,
    resolve_setup=resolve_setup,
    seat_names=("甲", "乙"),
    agents={"standard": ".agents:ScriptedAgent"},
    ismcts=".ismcts:HOOKS",
    dashboards=(
        Dashboard(
            "pin.ipynb",
            "PIN 对战",
            "PIN match",
            "22格六边形棋盘：部署、激活、移动与攻击，与 AI 对战。",
            "The 22-hex war game against the scripted AI, with the mouse.",
        ),
        Dashboard(
            "pin_replay.ipynb",
            "PIN 复盘",
            "PIN replay",
            "逐步回看 PIN 对局记录：甲方或乙方的视角，或全部公开。",
            "Step through a PIN match log from either side's view, or with both hands shown.",
        ),
        Dashboard(
            "pin_cards.ipynb",
            "PIN 卡牌设计",
            "PIN card designer",
            "在 cards-pin.csv 上设计你自己的国家：表格编辑、保存前校验、卡牌一览。",
            "Design your own nation: edit cards-pin.csv, validated on save, with a gallery.",
        ),
        Dashboard(
            "pin_balance.ipynb",
            "PIN 调平建议",
            "PIN balance suggestions",
            "两套卡组与先手的胜率：搜索最少的卡表改动让对局更均衡，一键写入。",
            "Deck and first-seat win rates: the fewest card changes that even them out.",
        ),
    ),
    # card-table text (and its file name) -> PinCardDB; CardTableError lists FILE:ROW:COLUMN
    parse_table=".cards:parse_pin_cards",
    cli=".cli:CLI",
    sim_hooks=".sim:HOOKS",
    balance=".balance:BALANCE",
    rules=".rules:PIN_RULES",
)
