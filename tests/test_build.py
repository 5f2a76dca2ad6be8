"""The compiled and the pure-Python engine (issue 16): which one runs, and that both give
the same results.

``setup.py`` compiles the modules of ``throne_lib.compiled.COMPILED_MODULES`` with mypyc;
``THRONE_PURE=1`` runs their ``.py`` sources instead. CI runs the whole suite on the
compiled build and the engine tests again with ``THRONE_PURE=1`` (``dev.py test``), and
sets ``THRONE_EXPECT_BUILD`` for each pass: a build that silently fell back to pure Python
fails here instead of passing for compiled. Rules cited: R-TURN-12 (a seed decides the
match: the same seed gives the same positions in either build).
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import itertools
import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from throne_lib import Match, SideSetup, compiled, load_cards
from throne_lib.games.throne.actions import Action, Event
from throne_lib.games.throne.ai.evaluate import Weights
from throne_lib.games.throne.board import geometry
from throne_lib.games.throne.rules import DEFAULT_CARD_LIMITS, DEFAULT_RULES
from throne_lib.games.throne.state import UNIT_FIELDS, Unit
from throne_lib.kit.agents import RandomAgent, make_agent

ROOT = Path(__file__).resolve().parents[1]
RACES = ("human", "goblin", "demon", "undead", "beast", "elf")


def test_the_build_running_is_the_one_chosen_and_the_one_expected() -> None:
    loaded = compiled.loaded_build()  # raises on a mix of compiled and pure modules
    assert loaded == compiled.build, compiled.reason
    if os.environ.get(compiled.PURE_ENV, "") not in ("", "0"):
        assert loaded == "pure"
    expected = os.environ.get("THRONE_EXPECT_BUILD")
    if expected:
        assert loaded == expected, f"expected the {expected} build: {compiled.reason}"


def _run(code: str, pure: bool) -> str:
    env = {k: v for k, v in os.environ.items() if k != compiled.PURE_ENV}
    if pure:
        env[compiled.PURE_ENV] = "1"
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_throne_pure_loads_every_engine_module_from_its_source() -> None:
    code = "from throne_lib import compiled; print(compiled.loaded_build(), compiled.reason)"
    assert _run(code, pure=True).split()[0] == "pure"


def workload() -> str:
    """Seeded matches of both builds' engines: random playouts and standard-vs-standard
    matches, hashing every position; the digest of all of it and the builds' name."""
    db = load_cards()
    pairs = [(a, b) for a, b in itertools.product(RACES, RACES) if a != b]
    digest = hashlib.sha256()
    for seed in range(10):
        blue, red = pairs[(7 * seed) % len(pairs)]
        m = Match.new(db, SideSetup.signature(db, blue), SideSetup.signature(db, red), seed)
        random_agents = (RandomAgent(2 * seed), RandomAgent(2 * seed + 1))
        standard = (make_agent("standard", 2 * seed), make_agent("standard", 2 * seed + 1))
        agents = standard if seed < 2 else random_agents
        while not m.is_over:
            action = agents[m.turn].choose(m)
            digest.update(f"{action}|".encode())
            m.apply(action)
            digest.update(m.hash().encode())
        digest.update(f"{m.state.winner}{m.state.end_reason}{m.state.round}".encode())
    return json.dumps({"build": compiled.loaded_build(), "digest": digest.hexdigest()})


def newer_games_workload() -> str:
    """Seeded 城堡之心 and 城池战 matches (scripted agents, 3-8 seats; CH-AI-5) and ISMCTS
    decisions, hashing every action and position; the digest and the build's name."""
    from throne_lib.kit import registry
    from throne_lib.kit.ismcts import IsmctsAgent

    digest = hashlib.sha256()
    for name, seats in (("castle", (3, 5, 6, 8)), ("cities", (3, 4))):
        game = registry.get(name)
        assert game.default_setups is not None
        for seed, n in enumerate(seats):
            m = game.new(game.default_setups(n), seed=seed)
            agents = [make_agent(game.default_agent, seed * 31 + q, name) for q in range(n)]
            while not m.is_over:
                if len(m.history) in (12, 40):  # a decision of the search, too
                    searched = IsmctsAgent(seed, game=name, iterations=8).choose(m)
                    digest.update(f"ismcts {searched}|".encode())
                action = agents[m.current_seat].choose(m)
                digest.update(f"{action}|".encode())
                m.apply(action)
                digest.update(m.hash().encode())
            digest.update(repr(m.returns()).encode())
    return json.dumps({"build": compiled.loaded_build(), "digest": digest.hexdigest()})


@pytest.mark.parametrize("workload_fn", ["workload", "newer_games_workload"])
def test_seeded_matches_are_identical_in_the_pure_and_the_installed_build(
    workload_fn: str,
) -> None:
    """R-TURN-12, CH-AI-5: the pure sources and the installed build play every position
    alike (Throne's engine; 城堡之心's and 城池战's with their agents and the search)."""
    code = f"from tests.test_build import {workload_fn}; print({workload_fn}())"
    pure = json.loads(_run(code, pure=True))
    installed = json.loads(_run(code, pure=False))
    assert pure["build"] == "pure"
    if installed["build"] == "pure":
        pytest.skip("no compiled build installed here: pure against pure proves nothing")
    assert installed["build"] == "compiled"
    assert installed["digest"] == pure["digest"]


def _fake_build(root: Path) -> None:
    """A package tree with a source, an 'extension' and the recorded digests per module."""
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    for module in compiled.COMPILED_MODULES:
        source = compiled.source_path(module, root)
        source.parent.mkdir(parents=True, exist_ok=True)
        source.write_text(f"# {module}\n")
        source.with_name(source.stem + suffix).write_bytes(b"")
    group = compiled.source_path(compiled.group_module(), root)
    group.with_name(group.stem + suffix).write_bytes(b"")
    (root / "throne_lib" / compiled.DIGESTS_FILE).write_text(
        json.dumps(compiled.source_digests(root))
    )


def test_a_stale_or_incomplete_compiled_build_runs_pure_with_a_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(compiled.PURE_ENV, raising=False)
    _fake_build(tmp_path)
    assert compiled.decide(tmp_path) == ("compiled", compiled.decide(tmp_path)[1], False)

    monkeypatch.setenv(compiled.PURE_ENV, "1")
    assert compiled.decide(tmp_path)[::2] == ("pure", False)
    monkeypatch.delenv(compiled.PURE_ENV)

    legal = compiled.source_path("throne_lib.games.throne.legal", tmp_path)
    legal.write_text("# edited since the build\n")
    build, reason, warn = compiled.decide(tmp_path)
    assert (build, warn) == ("pure", True)
    assert "throne_lib.games.throne.legal" in reason and "state" not in reason

    _fake_build(tmp_path)
    state = compiled.compiled_path("throne_lib.games.throne.state", tmp_path)
    assert state is not None
    state.unlink()
    build, reason, warn = compiled.decide(tmp_path)
    assert (build, warn) == ("pure", True)
    assert "incomplete" in reason and "throne_lib.games.throne.state" in reason

    _fake_build(tmp_path)  # the modules' extensions without the group's shared library
    group = compiled.compiled_path(compiled.group_module(), tmp_path)
    assert group is not None
    group.unlink()
    build, reason, warn = compiled.decide(tmp_path)
    assert (build, warn) == ("pure", True)
    assert "incomplete" in reason and compiled.group_module() in reason

    for module in compiled.COMPILED_MODULES:
        path = compiled.compiled_path(module, tmp_path)
        if path is not None:
            path.unlink()
    assert compiled.decide(tmp_path) == ("pure", "no compiled modules installed", False)


def test_unit_fields_are_what_copy_and_key_carry() -> None:
    """UNIT_FIELDS replaces ``Unit.__slots__`` for its readers (a compiled class does not
    expose it): every field is copied, and the key is every field but the uid, in order."""
    u = Unit(7, "剑士", 1, 12, "minion")
    values: dict[str, object] = {}
    for i, name in enumerate(UNIT_FIELDS):
        current = getattr(u, name)  # every field is set by __init__
        if isinstance(current, bool):
            value: object = not current
        elif isinstance(current, int):
            value = current + 100 + i
        elif isinstance(current, str):
            value = f"{current}-{i}"
        else:
            value = (f"captain-{i}",)
        setattr(u, name, value)
        values[name] = value
    c = u.copy()
    assert c is not u
    assert {name: getattr(c, name) for name in UNIT_FIELDS} == values
    assert u.key() == tuple(values[name] for name in UNIT_FIELDS[1:])
    if compiled.loaded_build() == "pure":
        assert Unit.__slots__ == UNIT_FIELDS  # no attribute outside the tuple


def test_engine_values_pickle_for_worker_processes() -> None:
    """Simulations send setups, rules and agent weights to worker processes, and get
    actions and events back: every frozen value class of the compiled modules pickles
    (compiled, its default state protocol would set the frozen fields one by one)."""
    db = load_cards()
    clause = next(c for card in db.values() for c in card.effects)
    values = [
        SideSetup.signature(db, "human"),
        DEFAULT_RULES,
        DEFAULT_CARD_LIMITS,
        Weights(),
        Action("attack", 3, 10),
        Event("damage", 4, 1, actor="x", cell=3, amount=2),
        geometry(),
        clause,
    ]
    from throne_lib.games.castle import CastleMatch
    from throne_lib.games.castle.actions import Act
    from throne_lib.games.castle.combat import Atk
    from throne_lib.games.castle.events import Event as CastleEvent
    from throne_lib.games.castle.state import Prompt

    values += [
        Act("skill", ("fireball", "h1", "s3")),
        CastleEvent("draw", "唐纳 摸2张牌", 1, "唐纳 摸到 剑、魔"),
        Atk("h0", "s4", 0, "melee", 2, True, weapon="sword"),
        Prompt("rescue", 2, ("h1", 3)),
    ]
    for value in values:
        assert pickle.loads(pickle.dumps(value)) == value
    m = CastleMatch(players=5, seed=3)  # a whole match, as a playtest page or worker copies it
    for _ in range(30):
        m.apply(m.legal_actions()[0])
    assert pickle.loads(pickle.dumps(m)).hash() == m.hash()
