"""Tower saves are validated field by field at load (issue 15, "Tower saves"; R-TOWER-8).

A save that ``load_run`` accepts is a run reached by legal choices could be in: types,
ranges and cross-field consistency are checked at load, and a problem is a
:class:`SaveError` naming the path and the field, with the file left as it was.
Temporary files of a killed save are removed on start.
"""

from __future__ import annotations

import copy
import json
import os
import random
import time
from pathlib import Path
from typing import Any

import pytest
from fuzzing import fuzz
from hypothesis import given
from hypothesis import strategies as st

from throne_lib.games.throne.tower.autopilot import choose
from throne_lib.games.throne.tower.battle import decide
from throne_lib.games.throne.tower.run import Run, Tables
from throne_lib.games.throne.tower.save import (
    SaveError,
    load_run,
    remove_stale_temps,
    run_to_dict,
    save_run,
)

TABLES = Tables.load()


def _map_save() -> dict[str, Any]:
    return run_to_dict(Run.new(12, tables=TABLES))


def _battle_save() -> dict[str, Any]:
    run = Run.new(12, tables=TABLES)
    run.apply(run.choices()[0])
    assert run.battle is not None
    m = run.battle.match
    for _ in range(30):
        if run.battle.enemy_to_act():
            run.battle.step_enemy()
        else:
            m.apply(decide(m, "random", 5))
    return run_to_dict(run)


def _later_save() -> dict[str, Any]:
    """A run a few nodes in (rewards, shops, events …), played by the autopilot."""
    run = Run.new(4, tables=TABLES)
    rng = random.Random(4)
    for _ in range(12):
        if run.over:
            break
        if run.screen == "battle":
            assert run.battle is not None
            run.battle.play_out("standard", 1)
            run.apply("finish")
        else:
            run.apply(choose(run, rng))
    return run_to_dict(run)


SAVES = {"map": _map_save(), "battle": _battle_save(), "later": _later_save()}


def write(tmp_path: Path, data: Any) -> Path:
    p = tmp_path / "tower.json"
    p.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return p


def refused(tmp_path: Path, data: Any, field: str) -> SaveError:
    p = write(tmp_path, data)
    before = p.read_bytes()
    with pytest.raises(SaveError) as info:
        load_run(p, TABLES)
    assert str(p) in str(info.value)
    assert field in str(info.value), info.value
    assert p.read_bytes() == before  # reported, never replaced
    return info.value


def edited(which: str, path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    data = copy.deepcopy(SAVES[which])
    node = data
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return data


def test_the_saves_load(tmp_path: Path) -> None:
    for data in SAVES.values():
        run = load_run(write(tmp_path, data), TABLES)
        assert run_to_dict(run)["run"] == data["run"]


# --- the examples ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "value", "field"),
    [
        (("run", "deck"), 5, "run.deck"),
        (("run", "relics"), None, "run.relics"),
        (("run", "general"), ["lionheart"], "run.general"),
        (("run", "hp"), -5, "run.hp"),
        (("run", "status"), "zombie", "run.status"),
        (("run", "deck"), [], "run.deck"),
        (("run", "gold"), -100, "run.gold"),
        (("run", "max_hp"), 0, "run.max_hp"),
        (("run", "floor"), 7, "run.floor"),
        (("run", "hp"), "40", "run.hp"),
        (("run", "gold"), None, "run.gold"),
        (("run", "hp"), True, "run.hp"),
        (("run", "hp"), 41.0, "run.hp"),
        (("run", "seed"), 10**30, "run.seed"),
        (("run", "steps"), [{"floor": "x"}], "run.steps[0].floor"),
        (("run", "rules"), {"start_gold": "lots"}, "start_gold"),
        (("run", "rules"), {"deck_min": 50}, "deck_min"),
        (("run", "shop"), {"cards": {"militia": "free"}}, "run.shop.cards"),
        (("run", "event"), "no_such_event", "event"),
    ],
)
def test_bad_run_fields_are_save_errors(
    tmp_path: Path, path: tuple[str, ...], value: Any, field: str
) -> None:
    refused(tmp_path, edited("map", path, value), field)


def test_hp_above_max_hp(tmp_path: Path) -> None:
    refused(tmp_path, edited("map", ("run", "hp"), 41), "run.hp")


def test_status_must_fit_the_screen(tmp_path: Path) -> None:
    refused(tmp_path, edited("map", ("run", "status"), "dead"), "run.status")


def test_short_setup_mods(tmp_path: Path) -> None:
    data = copy.deepcopy(SAVES["battle"])
    data["battle"]["setup"]["mods"] = data["battle"]["setup"]["mods"][:1]
    refused(tmp_path, data, "mods")


def test_setup_rules_columns_0(tmp_path: Path) -> None:
    refused(tmp_path, edited("battle", ("battle", "setup", "rules"), {"columns": 0}), "columns")


@pytest.mark.parametrize(
    ("key", "value"),
    [("hp", "40"), ("hp", -3), ("barracks", [1]), ("speed", 1)],
)
def test_bad_side_mods(tmp_path: Path, key: str, value: Any) -> None:
    data = copy.deepcopy(SAVES["battle"])
    data["battle"]["setup"]["mods"][0][key] = value
    refused(tmp_path, data, "mods")


def test_bad_battle_player(tmp_path: Path) -> None:
    data = copy.deepcopy(SAVES["battle"])
    data["battle"]["setup"]["player"]["general"] = ["lionheart"]
    refused(tmp_path, data, "general")
    data["battle"]["setup"]["player"] = {"general": "lionheart", "deck": 5}
    refused(tmp_path, data, "deck")


def test_deep_nesting(tmp_path: Path) -> None:
    text = json.dumps(SAVES["map"], separators=(",", ":"))
    assert '"notes":[]' in text
    text = text.replace('"notes":[]', '"notes":' + "[" * 100_000 + "]" * 100_000)
    refused(tmp_path, text, "nested")


def test_stale_temp_files_are_removed_on_start(tmp_path: Path) -> None:
    """16 of 60 killed saves left a .tower.json.*.tmp behind."""
    p = write(tmp_path, SAVES["map"])
    stale = tmp_path / ".tower.json.abc123.tmp"
    fresh = tmp_path / ".tower.json.def456.tmp"  # a save in progress elsewhere: kept
    other = tmp_path / ".other.json.abc.tmp"
    for f in (stale, fresh, other):
        f.write_text("{", encoding="utf-8")
    old = time.time() - 3600
    os.utime(stale, (old, old))
    os.utime(other, (old, old))
    load_run(p, TABLES)
    assert not stale.exists() and fresh.exists() and other.exists()
    # also when there is no save to resume
    os.utime(fresh, (old, old))
    with pytest.raises(FileNotFoundError):
        load_run(tmp_path / "tower.json.missing", TABLES)
    assert remove_stale_temps(p) == [fresh]


def test_a_valid_save_still_round_trips(tmp_path: Path) -> None:
    run = load_run(write(tmp_path, SAVES["later"]), TABLES)
    p = save_run(run, tmp_path / "again.json")
    assert load_run(p, TABLES).hp == run.hp


# --- fuzz: any edit of a real save -------------------------------------------------------

json_values = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(10**20), 10**20),
        st.sampled_from([-1, 0, 1, 2, 7, 40, 41, 99]),
        st.floats(allow_nan=False, allow_infinity=False),
        st.text(max_size=8),
        st.sampled_from(["lionheart", "militia", "map", "over", "dead", "won", "playing"]),
    ),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=4), children, max_size=3)
    ),
    max_leaves=6,
)


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix] if prefix else []
    if isinstance(node, dict):
        for k, v in node.items():
            if k != "cards_csv":  # the embedded table is the card-table fuzz's job
                out += _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node[:4]):
            out += _paths(v, (*prefix, i))
    return out


PATHS = {name: _paths(data) for name, data in SAVES.items()}


@fuzz(150)
@given(
    which=st.sampled_from(sorted(SAVES)),
    pick=st.integers(0, 10_000),
    op=st.sampled_from(["set", "delete"]),
    value=json_values,
)
def test_fuzz_tower_saves(tmp_path: Path, which: str, pick: int, op: str, value: Any) -> None:
    """An edited save is a SaveError naming the file (left unchanged), or a run that
    works: its choices list, one choice applies, and it saves again."""
    data = copy.deepcopy(SAVES[which])
    path = PATHS[which][pick % len(PATHS[which])]
    node = data
    for key in path[:-1]:
        node = node[key]
    if op == "delete" and isinstance(node, dict):
        del node[path[-1]]
    elif op == "delete":
        node.pop(path[-1])
    else:
        node[path[-1]] = value
    p = write(tmp_path, data)
    before = p.read_bytes()
    try:
        run = load_run(p, TABLES)
    except SaveError as exc:
        assert str(exc).startswith(str(p) + ": ")
        assert p.read_bytes() == before
        return
    assert p.read_bytes() == before
    rng = random.Random(pick)
    if run.screen == "battle":
        assert run.battle is not None
        m = run.battle.match
        if not m.is_over:
            m.apply(decide(m, "random", pick))
    elif run.choices():
        run.apply(choose(run, rng))
    save_run(run, tmp_path / "again.json")
