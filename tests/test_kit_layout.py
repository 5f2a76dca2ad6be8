"""The kit/game split (issues 13, 35): the kit never imports a game, not even through
another module; no game imports the command line; games register themselves; Throne &
Phalanx's Match speaks the kit protocol."""

from __future__ import annotations

import ast
import json
import pkgutil
import random
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from throne_lib.kit import registry
from throne_lib.kit.protocol import GameMatch, IllegalAction

KIT = Path(__file__).resolve().parents[1] / "throne_lib" / "kit"
GAMES = KIT.parent / "games"
# what a kit module may not load, directly or through any other module
NOT_KIT = ("throne_lib.games", "throne_lib.review", "throne_lib.cli", "throne_lib.carddiff")
# Throne's names that ``from throne_lib import …`` gives (they load Throne's engine)
THRONE_NAMES = ("Match", "load_cards", "Card", "CardDB", "Rules", "SideSetup", "Action")


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


def _outside_kit(module: str) -> bool:
    return any(module == n or module.startswith(n + ".") for n in NOT_KIT) or (
        module.startswith("throne_lib.") and module.rpartition(".")[2] in THRONE_NAMES
    )


def test_the_kit_imports_no_game() -> None:
    """No import statement of the kit names a game, Throne's review, the command line,
    or one of Throne's names re-exported by ``throne_lib`` (also inside functions)."""
    files = sorted(KIT.rglob("*.py"))
    assert len(files) >= 3
    bad = {
        str(f.relative_to(KIT)): m
        for f in files
        for m in _imports(f, _package(f))
        if _outside_kit(m)
    }
    assert not bad, f"kit modules importing a game: {bad}"


def test_no_game_imports_the_command_line() -> None:
    """A game's commands raise ``kit.cli.CliError``; ``throne_lib/cli.py`` imports games
    (through the registry), never the other way round."""
    bad = {
        str(f.relative_to(GAMES)): m
        for f in sorted(GAMES.rglob("*.py"))
        for m in _imports(f, _package(f))
        if m == "throne_lib.cli" or m.startswith("throne_lib.cli.")
    }
    assert not bad, f"games importing the command line: {bad}"


def _kit_modules() -> list[str]:
    import throne_lib.kit as kit

    names = [i.name for i in pkgutil.walk_packages(kit.__path__, "throne_lib.kit.")]
    return ["throne_lib.kit", *names]


# Run in a fresh interpreter: imports the third-party libraries the kit uses (never a
# throne_lib module), then forks one child per kit module; each child imports its module
# and prints what of NOT_KIT got loaded. A child starts with no throne_lib module loaded,
# exactly like a fresh interpreter, without paying pandas' import again 30 times.
_PROBE = textwrap.dedent(
    """
    import importlib, json, os, sys
    modules, forbidden = json.loads(sys.argv[1])
    for lib in ("numpy", "pandas", "matplotlib", "ipywidgets", "ipycanvas", "IPython"):
        try:
            importlib.import_module(lib)
        except ImportError:
            pass
    assert not [m for m in sys.modules if m.startswith("throne_lib")]
    result = {}
    for name in modules:
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(r)
            importlib.import_module(name)
            got = sorted(m for m in sys.modules if m.startswith(tuple(forbidden)))
            os.write(w, json.dumps(got).encode())
            os._exit(0)
        os.close(w)
        with os.fdopen(r) as f:
            out = f.read()
        _, status = os.waitpid(pid, 0)
        result[name] = json.loads(out) if status == 0 and out else f"import failed ({status})"
    print(json.dumps(result))
    """
)


def _loaded_by(modules: list[str], forbidden: tuple[str, ...]) -> dict[str, object]:
    out = subprocess.run(
        [sys.executable, "-c", _PROBE, json.dumps([modules, forbidden])],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    result: dict[str, object] = json.loads(out.stdout)
    return result


@pytest.mark.skipif(sys.platform == "win32", reason="the probe forks")
def test_no_kit_module_loads_a_game_even_indirectly() -> None:
    """Importing any kit module in a fresh interpreter loads no game, no Throne review,
    no command line (the AST check above sees only direct imports)."""
    modules = _kit_modules()
    assert {"throne_lib.kit.registry", "throne_lib.kit.balance", "throne_lib.kit.ui.shell"} <= set(
        modules
    )
    loaded = _loaded_by(modules, NOT_KIT)
    assert set(loaded) == set(modules)
    bad = {m: got for m, got in loaded.items() if got}
    assert not bad, f"kit modules loading game or CLI modules: {bad}"


@pytest.mark.skipif(sys.platform == "win32", reason="the probe forks")
def test_the_probe_sees_an_indirect_game_import() -> None:
    """The check above can fail: a module that reaches Throne through another is caught."""
    probe = "throne_lib.games.throne.review"  # reaches Throne's match through its imports
    loaded = _loaded_by([probe, "throne_lib.kit.log"], ("throne_lib.games.throne.match",))
    assert loaded == {probe: ["throne_lib.games.throne.match"], "throne_lib.kit.log": []}


def test_throne_names_load_on_first_use() -> None:
    """``import throne_lib`` loads no engine; ``from throne_lib import Match`` still works,
    and the build (compiled or pure) is chosen before the engine loads."""
    code = textwrap.dedent(
        """
        import sys
        import throne_lib
        assert throne_lib.compiled.reason != "not chosen yet", throne_lib.compiled.reason
        assert not [m for m in sys.modules if m.startswith("throne_lib.games")]
        from throne_lib import Match, load_cards, IllegalAction
        from throne_lib.games.throne.match import Match as M
        from throne_lib.kit.protocol import IllegalAction as I
        assert Match is M and IllegalAction is I and callable(load_cards)
        assert "Match" in dir(throne_lib)
        try:
            throne_lib.nope
        except AttributeError as exc:
            assert "nope" in str(exc)
        else:
            raise AssertionError("no AttributeError")
        print("ok")
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout.strip() == "ok", out.stderr


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
