"""城堡之心 as the kit's registry sees it: one :class:`~throne_lib.kit.registry.Game`.

Imported on ``import throne_lib.games.castle``; it loads no UI library. A setup per seat
is just a name (the identities are dealt by the match RNG, CH-SETUP-4), so
``default_setups(n)`` is ``["seat0", …]``. Options: ``rules`` (a :class:`CastleRules`)
and ``cards`` (a :class:`CastleCards`, default ``cards-castle.csv``) or ``cards_csv``
(the table's text, as a log header carries a table other than the repository's).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from throne_lib.kit.registry import Dashboard, declare


def new_match(setups: Sequence[Any], seed: int, options: Mapping[str, Any]) -> Any:
    from throne_lib.games.castle.cards import parse_castle_cards
    from throne_lib.games.castle.match import CastleMatch, rules_from

    cards = options.get("cards")
    if cards is None and options.get("cards_csv") is not None:  # a log's own table
        cards = parse_castle_cards(str(options["cards_csv"]), "cards_csv (log header)")
    return CastleMatch(
        players=len(setups), seed=seed, rules=rules_from(options.get("rules")), cards=cards
    )


GAME = declare(
    __package__,
    title="城堡之心",
    title_en="Heart of the Castle",
    rule_prefix="CH-",
    rulebook="RULES-CASTLE.md",
    seats=(3, 8),
    new_match=new_match,
    word_setups="seat{}",
    tables=("cards-castle.csv",),
    agents={"scripted": ".agents:ScriptedAgent", "castle_random": ".agents:RandomAgent"},
    dashboards=(
        Dashboard(
            "castle.ipynb",
            "城堡之心",
            "Heart of the Castle",
            "圆桌对战：隐藏身份，与 AI 在 3–8 人局中一决胜负。",
            "Hidden roles at a round table: play one seat against the AI.",
        ),
        Dashboard(
            "castle_replay.ipynb",
            "城堡之心 · 复盘",
            "Heart of the Castle · replay",
            "逐步回看对局记录：选择座位视角，或全部公开。",
            "Step through a match log from any seat's view, or with everything revealed.",
        ),
        Dashboard(
            "castle_balance.ipynb",
            "城堡之心 · 平衡分析",
            "Heart of the Castle · balance",
            "4–8 人局各身份与英雄的胜率（95% 区间），可重新模拟。",
            "Role and hero win rates for 4–8 players with 95% intervals; run a new sweep.",
        ),
    ),
    ismcts=".ismcts:HOOKS",
    sim_hooks=".sim:HOOKS",
    winner_label=".match:winner_label",
    balance=".balance_search:BALANCE",
    cli=".cli:HOOKS",
    # card-table text (and its file name) -> CastleCards; a TableError lists FILE:ROW:COLUMN
    parse_table=".cards:parse_castle_cards",
    rules=".rules:CastleRules",
)
