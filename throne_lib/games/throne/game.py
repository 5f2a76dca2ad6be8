"""Throne & Phalanx as the kit's registry sees it: one :class:`~throne_lib.kit.registry.Game`.

Everything here is imported lazily, so registering the game (on ``import
throne_lib.games.throne``) loads neither the engine nor a UI library.

Options of :func:`new_match` (and of ``default_setups``/``resolve_setup``): ``cards`` (a
:class:`~throne_lib.games.throne.cards.CardDB`, default the repository's ``cards.csv``)
and ``rules`` (a :class:`~throne_lib.games.throne.rules.Rules`, default ``DEFAULT_RULES``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from throne_lib.kit.registry import Dashboard, Lazy, declare, option

if TYPE_CHECKING:
    from throne_lib.games.throne.cards import CardDB
    from throne_lib.games.throne.match import Match, SideSetup


def _cards(options: Mapping[str, Any]) -> CardDB:
    """The card table of ``options`` (a log's, a test's), else the repository's."""
    db: CardDB = option(options, "cards", Lazy("throne_lib.games.throne.cards:load_cards"))
    return db


def new_match(setups: Sequence[SideSetup], seed: int, options: Mapping[str, Any]) -> Match:
    """A match of the two setups (blue, red); see the module docstring for ``options``."""
    from throne_lib.games.throne.match import Match
    from throne_lib.games.throne.rules import DEFAULT_RULES

    blue, red = setups
    return Match.new(_cards(options), blue, red, seed, options.get("rules", DEFAULT_RULES))


def default_setups(n: int, options: Mapping[str, Any] | None = None) -> list[SideSetup]:
    """The signature decks of the humans (blue) and the beasts (red)."""
    from throne_lib.games.throne.decks import signature_deck

    db = _cards(options or {})
    return [signature_deck(db, race) for race in ("human", "beast")][:n]


def resolve_setup(word: str, options: Mapping[str, Any] | None = None) -> SideSetup:
    """A deck file, a general id or a race (its signature deck, R-DECK-7)."""
    from throne_lib.games.throne.decks import resolve_setup as resolve

    return resolve(_cards(options or {}), word)


def parse_table(text: str, filename: str = "cards.csv") -> CardDB:
    """The card table of a CSV text (``CardTableError`` naming ``filename``:row:column)."""
    from throne_lib.games.throne.cards import parse_cards

    return parse_cards(text, filename)


DASHBOARDS = (
    Dashboard(
        "play.ipynb",
        "对战",
        "Play",
        "选将领与牌组，在棋盘上用鼠标与 AI 打一局。",
        "Play a match against the AI with the mouse.",
    ),
    Dashboard(
        "tower.ipynb",
        "王座之塔",
        "Tower",
        "爬塔模式：三层塔图，战斗、商店、篝火与遗物，进度自动保存。",
        "The roguelike run: battles, shops, campfires, relics; saved as you go.",
    ),
    Dashboard(
        "cards.ipynb",
        "卡牌编辑",
        "Card editor",
        "在表格里改卡牌，保存前校验，运行中的页面即时生效。",
        "Edit cards.csv in a grid; validated on save, picked up live.",
    ),
    Dashboard(
        "replay.ipynb",
        "对局回放",
        "Replay",
        "逐步回看任一对局记录：棋盘、战报、血量与伤害图表。",
        "Step through any match log: board, battle log, charts.",
    ),
    Dashboard(
        "balance.ipynb",
        "平衡分析",
        "Balance",
        "批量模拟对局，看胜率热图、对局长度与单卡表现。",
        "Run seeded sweeps and read win rates, lengths and card stats.",
    ),
)

GAME = declare(
    __package__,
    title="王座与方阵",
    title_en="Throne & Phalanx",
    rule_prefix="R-",
    rulebook="RULES.md",
    seats=(2, 2),
    new_match=new_match,
    tables=("cards.csv", "relics.csv", "events.csv"),
    default_setups=default_setups,
    resolve_setup=resolve_setup,
    seat_names=("blue", "red"),
    seat_titles=("蓝方", "红方"),
    agents={"standard": ".ai.standard:StandardAgent", "search": ".ai.search:SearchAgent"},
    dashboards=DASHBOARDS,
    ismcts=".ismcts:HOOKS",
    log_codec=".log:CODEC",
    cli=".cli:CLI",
    sim_hooks=".sim:HOOKS",
    review=".review:REVIEW",
    balance=".balance:BALANCE",
    parse_table=parse_table,
    table_parsers={
        "relics.csv": ".tower.relics:parse_relics",
        "events.csv": ".tower.events:parse_events",
    },
    rules=".rules:DEFAULT_RULES",
)
