"""城池战 as the kit's registry sees it: one :class:`~throne_lib.kit.registry.Game`.

A setup per seat is its team label (CW-SETUP-2): ``["a", "b", "a"]`` puts seats 0 and 2
together; ``default_setups(n)`` seats everyone alone (1 v 1 v 1 …). Options: ``rules``
(a :class:`CitiesRules`, a dict of overrides or a tuple of pairs: the CLI's
``--deck-mode``), ``cards`` and ``table``, or their texts ``cards_csv`` and ``cities_csv``
(as a log header carries tables other than the repository's).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from throne_lib.kit.registry import Dashboard, declare


def new_match(setups: Sequence[Any], seed: int, options: Mapping[str, Any]) -> Any:
    from throne_lib.games.castle.cards import parse_castle_cards
    from throne_lib.games.cities.match import CitiesMatch, rules_from
    from throne_lib.games.cities.table import CityTable, parse_city_table

    cards, table = options.get("cards"), options.get("table")
    if isinstance(cards, CityTable):  # the kit hands the game's main table (cities.csv)
        cards, table = None, table or cards
    if cards is None and options.get("cards_csv") is not None:  # a log's own tables
        cards = parse_castle_cards(str(options["cards_csv"]), "cards_csv (log header)")
    if table is None and options.get("cities_csv") is not None:
        table = parse_city_table(str(options["cities_csv"]), "cities_csv (log header)")
    return CitiesMatch(
        players=len(setups),
        seed=seed,
        rules=rules_from(dict(r) if isinstance(r := options.get("rules"), tuple) else r),
        cards=cards,
        table=table,
        teams=list(setups),
    )


GAME = declare(
    __package__,
    title="城池战",
    title_en="City War",
    rule_prefix="CW-",
    rulebook="RULES-CITIES.md",
    seats=(3, 8),
    new_match=new_match,
    word_setups="t{}",
    tables=("cities.csv",),
    agents={"scripted": ".agents:CitiesAgent"},
    dashboards=(
        Dashboard(
            "cities.ipynb",
            "城池战",
            "City War",
            "城堡之心上的城池争夺：自由组队，攻城、破城、占据，先达到城池数者胜。",
            "Capture cities on the 城堡之心 table: free teams, break and hold cities.",
        ),
        Dashboard(
            "cities_replay.ipynb",
            "城池战 · 复盘",
            "City War · replay",
            "逐步回看城池战的对局记录：选择座位视角，或全部公开。",
            "Step through a City War log from any seat's view, or with everything revealed.",
        ),
    ),
    ismcts=".ismcts:HOOKS",
    sim_hooks=".sim:HOOKS",
    winner_label=".match:winner_label",
    cli=".sim:CLI",
    # city-table text (and its file name) -> CityTable; a TableError lists FILE:ROW:COLUMN
    parse_table=".table:parse_city_table",
    rules=".rules:CitiesRules",
)
