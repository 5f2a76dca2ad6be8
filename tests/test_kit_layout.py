"""The kit/game split (issue 13): the kit never imports a game; games register themselves;
Throne & Phalanx's Match speaks the kit protocol."""

from __future__ import annotations

import ast
import json
import random
from pathlib import Path

import pytest

from throne_lib.kit import registry
from throne_lib.kit.protocol import GameMatch, IllegalAction

KIT = Path(__file__).resolve().parents[1] / "throne_lib" / "kit"


def _package(path: Path) -> str:
    return ".".join(path.relative_to(KIT.parents[1]).with_suffix("").parts[:-1])


def _imports(path: Path, package: str) -> list[str]:
    """Every module an ``import``/``from … import`` statement of ``path`` names
    (relative imports resolved against ``package``, the file's package)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    out: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                mod = f"{base}.{node.module}" if node.module else base
            else:
                mod = node.module or ""
            out.append(mod)
            out += [f"{mod}.{a.name}" for a in node.names]
    return out


def test_the_kit_imports_no_game() -> None:
    files = sorted(KIT.rglob("*.py"))
    assert len(files) >= 3
    bad = {
        str(f.relative_to(KIT)): m
        for f in files
        for m in _imports(f, _package(f))
        if m == "throne_lib.games" or m.startswith("throne_lib.games.")
    }
    assert not bad, f"kit modules importing a game: {bad}"


def test_import_reader_sees_a_game_import(tmp_path: Path) -> None:
    """The check above can fail: the reader finds plain, from- and relative imports."""
    fake = tmp_path / "probe.py"
    fake.write_text("import throne_lib.games.throne\nfrom ..games import castle\n", "utf-8")
    found = _imports(fake, "throne_lib.kit")
    assert "throne_lib.games.throne" in found
    assert "throne_lib.games.castle" in found


def test_throne_registers_itself() -> None:
    g = registry.get("throne")
    assert g.seats == (2, 2) and g.rule_prefix == "R-" and g.title == "王座与方阵"
    assert "throne" in registry.names()
    assert [d.notebook for d in g.dashboards][0] == "play.ipynb"
    assert all(p.is_file() for p in g.card_tables)
    with pytest.raises(ValueError, match="unknown game 'nope'"):
        registry.get("nope")


def test_throne_match_speaks_the_protocol() -> None:
    m = registry.get("throne").new(seed=5)
    assert isinstance(m, GameMatch)
    assert m.num_seats == 2 and m.current_seat == m.turn and m.returns() == [0.0, 0.0]
    before = m.hash()
    with pytest.raises(IllegalAction):
        m.apply("attack a1 a2")
    assert m.hash() == before
    from throne_lib import IllegalAction as Public

    assert Public is IllegalAction


def test_throne_observation_hides_the_opponents_hand_and_deck_order() -> None:
    m = registry.get("throne").new(seed=2)
    for seat in (0, 1):
        obs = m.observation(seat)
        json.dumps(obs)
        mine, theirs = obs["sides"][seat], obs["sides"][1 - seat]
        assert mine["hand"] == m.state.sides[seat].hand
        assert theirs["hand"] is None and theirs["hand_size"] == len(m.state.sides[1 - seat].hand)
        assert "deck" not in mine and mine["deck_size"] == len(m.state.sides[seat].deck)


def test_resample_redraws_only_what_the_seat_cannot_see() -> None:
    m = registry.get("throne").new(seed=4)
    seat = m.current_seat
    r = m.resample(seat, random.Random(1))
    assert r.observation(seat) == m.observation(seat)  # the seat's view is unchanged
    s, t = m.state.sides, r.state.sides
    assert sorted(s[1 - seat].hand + s[1 - seat].deck) == sorted(
        t[1 - seat].hand + t[1 - seat].deck
    )
    assert sorted(s[seat].deck) == sorted(t[seat].deck)
    assert r.hash() != m.hash()  # something hidden did change
    assert m.resample(seat, random.Random(1)).hash() == r.hash()  # and deterministically
