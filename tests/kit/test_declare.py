"""registry.declare (issue 35): a game's registration states only what is its own; the
kit fills in its conventions. Checked on a throw-away declaration and on the games of
the game packages, whose entries must mean what they meant when spelled out."""

from __future__ import annotations

from pathlib import Path

import pytest

from throne_lib.kit import registry
from throne_lib.kit.registry import Lazy, declare, option

ROOT = Path(__file__).resolve().parents[2]


def _new_match(setups: object, seed: int, options: object) -> object:
    raise AssertionError("not called")


def test_declare_fills_in_the_conventions() -> None:
    g = declare(
        "throne_lib.games.castle",  # a real package, so that the refs resolve
        title="t",
        title_en="T",
        rule_prefix="X-",
        seats=(3, 8),
        new_match=_new_match,
        word_setups="p{}",
        tables=("cards-castle.csv",),
        agents={"a": ".agents:ScriptedAgent", "b": ".agents:RandomAgent"},
        sim_hooks=".sim:HOOKS",
        parse_table=".cards:parse_castle_cards",
        table_parsers={"x.csv": ".cards:parse_castle_cards"},
        rules=".rules:CastleRules",
    )
    assert (g.name, g.module) == ("castle", "throne_lib.games.castle")
    assert g.card_tables == (ROOT / "cards-castle.csv",)
    assert g.agents == {
        "a": Lazy("throne_lib.games.castle.agents:ScriptedAgent"),
        "b": Lazy("throne_lib.games.castle.agents:RandomAgent"),
    }
    assert g.default_agent == "a"  # the first agent
    assert g.sim_hooks == "throne_lib.games.castle.sim:HOOKS"
    assert g.rules == "throne_lib.games.castle.rules:CastleRules"
    assert g.parse_table == Lazy("throne_lib.games.castle.cards:parse_castle_cards")
    assert g.table_parsers == {"x.csv": Lazy("throne_lib.games.castle.cards:parse_castle_cards")}
    assert g.default_setups is not None and g.default_setups(3) == ["p0", "p1", "p2"]
    assert g.resolve_setup is not None and g.resolve_setup("a") == "a"
    from throne_lib.games.castle.sim import HOOKS

    assert g.hook("sim_hooks") is HOOKS


def test_declare_passes_other_fields_and_lets_them_override() -> None:
    g = declare(
        "somewhere.games.mini",
        name="other",
        title="t",
        title_en="T",
        rule_prefix="M-",
        seats=(2, 2),
        new_match=_new_match,
        agents={"x": ".a:X", "y": ".a:Y"},
        default_agent="y",
        seat_names=("n", "s"),
    )
    assert (g.name, g.module, g.default_agent, g.seat_names) == (
        "other",
        "somewhere.games.mini",
        "y",
        ("n", "s"),
    )
    assert g.card_tables == () and g.default_setups is None and g.resolve_setup is None


def test_declare_needs_the_package() -> None:
    with pytest.raises(ValueError, match="__package__"):
        declare(None, title="t", title_en="T", rule_prefix="M-", seats=(2, 2), new_match=_new_match)


def test_the_games_entries_keep_their_meaning() -> None:
    """What each game.py spelled out before declare, read back from the registry."""
    castle, cities, pin, throne = (registry.get(n) for n in ("castle", "cities", "pin", "throne"))
    assert castle.module == "throne_lib.games.castle" and castle.default_agent == "scripted"
    assert castle.default_setups is not None and castle.default_setups(3) == [
        "seat0",
        "seat1",
        "seat2",
    ]
    assert cities.default_setups is not None and cities.default_setups(3) == ["t0", "t1", "t2"]
    assert cities.resolve_setup is not None and cities.resolve_setup("a") == "a"
    assert cities.cli == "throne_lib.games.cities.sim:CLI"
    assert pin.default_agent == "standard" and pin.card_tables == (ROOT / "cards-pin.csv",)
    assert throne.card_tables == tuple(ROOT / t for t in ("cards.csv", "relics.csv", "events.csv"))
    assert list(throne.agents) == ["standard", "search"] and throne.default_agent == "standard"
    assert set(throne.table_parsers) == {"relics.csv", "events.csv"}


def test_option_or_default() -> None:
    assert option({"cards": 1}, "cards", lambda: 2) == 1
    assert option({"cards": None}, "cards", lambda: 2) == 2
    assert option({}, "cards", lambda: 2) == 2
