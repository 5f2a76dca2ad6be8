"""Save and resume (R-TOWER-8): atomic, versioned saves; a battle saved mid-way is
rebuilt in a new process and continues to the identical result; a corrupt save
raises the documented SaveError and stays where it is."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from throne_lib.games.throne.tower.battle import decide
from throne_lib.games.throne.tower.run import Run, Tables
from throne_lib.games.throne.tower.save import (
    SCHEMA,
    SaveError,
    load_run,
    quarantine,
    run_to_dict,
    save_run,
)

ROOT = Path(__file__).resolve().parent.parent

# Continue a run the same way in this process and in a fresh one: finish the
# battle with the standard AI, then 6 autopilot choices; print the final state.
CONTINUE = """
import json, random, sys
from throne_lib.games.throne.tower.autopilot import choose
from throne_lib.games.throne.tower.save import load_run, run_to_dict

def go_on(run):
    rng = random.Random(0)
    run.battle.play_out("standard", 3)
    result = [run.battle.match.hash(), run.battle.match.result_text()]
    run.apply("finish")
    for _ in range(6):
        if run.over or run.screen == "battle":
            break
        run.apply(choose(run, rng))
    data = run_to_dict(run)
    data.pop("saved")
    return {"battle": result, "run": data}

if __name__ == "__main__":
    print(json.dumps(go_on(load_run(sys.argv[1]))))
"""


@pytest.fixture(scope="module")
def tables() -> Tables:
    return Tables.load()


def mid_battle(tables: Tables, actions: int = 60) -> Run:
    run = Run.new(12, tables=tables)
    run.apply(run.choices()[0])
    assert run.battle is not None
    m = run.battle.match
    for _ in range(actions):
        if run.battle.enemy_to_act():
            run.battle.step_enemy()
        else:
            m.apply(decide(m, "random", 5))
    assert not m.is_over and m.round >= 1
    return run


def test_save_is_versioned_json_written_atomically(tables: Tables, tmp_path: Path) -> None:
    """R-TOWER-8: JSON with a schema; no temporary file is left behind."""
    run = mid_battle(tables)
    path = save_run(run, tmp_path / "tower.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["schema"] == SCHEMA == 1 and data["format"] == "throne-tower-save"
    assert data["battle"]["actions"] == [
        a.text(run.battle.match.geo) for a in run.battle.match.history
    ]  # type: ignore[union-attr]
    assert os.listdir(tmp_path) == ["tower.json"]


def test_a_failed_write_keeps_the_old_save(
    tables: Tables, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = Run.new(1, tables=tables)
    path = save_run(run, tmp_path / "tower.json")
    old = path.read_bytes()
    run.apply(run.choices()[0])

    def boom(src: str, dst: str) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError, match="disk full"):
        save_run(run, path)
    assert path.read_bytes() == old and os.listdir(tmp_path) == ["tower.json"]


def test_resume_mid_battle_in_a_new_process_gives_the_identical_result(
    tables: Tables, tmp_path: Path
) -> None:
    """R-TOWER-8: rebuild everything from the save file in a new process and continue."""
    run = mid_battle(tables)
    path = save_run(run, tmp_path / "tower.json")
    script = tmp_path / "go_on.py"
    script.write_text(CONTINUE, encoding="utf-8")
    out = subprocess.run(
        [sys.executable, str(script), str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    there = json.loads(out.stdout)
    namespace: dict[str, object] = {}
    exec(compile(CONTINUE, "go_on", "exec"), namespace)
    here = namespace["go_on"](run)  # type: ignore[operator]
    assert there == json.loads(json.dumps(here, ensure_ascii=False))
    assert "finish" in there["run"]["run"]["history"] and there["run"]["battle"] is None


def test_resume_restores_every_screen(tables: Tables, tmp_path: Path) -> None:
    """R-TOWER-8: after every step, a reload gives the same run (map, reward, shop …)."""
    import random

    from throne_lib.games.throne.tower.autopilot import choose

    run = Run.new(30, tables=tables)
    rng = random.Random(1)
    path = tmp_path / "tower.json"
    screens = set()
    for _ in range(12):
        if run.over:
            break
        if run.screen == "battle":
            assert run.battle is not None
            run.battle.play_out("standard", 0)
            run.apply("finish")
        else:
            run.apply(choose(run, rng))
        save_run(run, path)
        back = load_run(path, tables)
        a, b = run_to_dict(run), run_to_dict(back)
        a.pop("saved"), b.pop("saved")
        assert a == b and back.choices() == run.choices()
        screens.add(run.screen)
    assert {"map", "reward"} <= screens


@pytest.mark.parametrize(
    "mangle, message",
    [
        (lambda t: t[: len(t) // 2], "not valid JSON"),
        (lambda t: "\udcff", "not UTF-8 text"),
        (lambda t: t.replace('"schema":1', '"schema":99'), "unknown save schema 99"),
        (lambda t: t.replace('"format":"throne-tower-save"', '"format":"x"'), "not a tower save"),
        (lambda t: t.replace('"hp":', '"h_p":', 1), "the run lacks field(s): hp"),
        (
            lambda t: t.replace('"deck":["', '"deck":["no_such_card","', 1),
            "cards not in the card table: no_such_card",
        ),
        (
            lambda t: t.replace('"actions":["', '"actions":["move a1 a2","', 1),
            "battle action 1 'move a1 a2' does not replay",
        ),
        (lambda t: t.replace('"hash":"', '"hash":"0', 1), "battle state hash mismatch"),
    ],
    ids=["truncated", "garbage", "schema", "format", "field", "card", "action", "hash"],
)
def test_a_corrupt_save_is_reported_and_left_in_place(
    tables: Tables, tmp_path: Path, mangle: object, message: str
) -> None:
    """R-TOWER-8: a corrupt save raises SaveError naming the file; the file stays."""
    run = mid_battle(tables, 20)
    path = save_run(run, tmp_path / "tower.json")
    text = mangle(path.read_text(encoding="utf-8"))  # type: ignore[operator]
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    before = path.read_bytes()
    with pytest.raises(SaveError) as err:
        load_run(path, tables)
    assert str(err.value).startswith(f"{path}: ") and message in str(err.value)
    assert err.value.path == str(path)
    assert path.read_bytes() == before and os.listdir(tmp_path) == ["tower.json"]


def test_quarantine_moves_a_corrupt_save_aside_only_when_asked(tmp_path: Path) -> None:
    path = tmp_path / "tower.json"
    path.write_text("{", encoding="utf-8")
    with pytest.raises(SaveError):
        load_run(path)
    assert path.exists()
    aside = quarantine(path)
    assert not path.exists() and aside.read_text(encoding="utf-8") == "{"
    assert aside.name.startswith("tower.json.corrupt-")
    path.write_text("[", encoding="utf-8")
    assert quarantine(path) != aside  # a second one does not overwrite the first


def test_a_missing_save_is_not_an_error_of_the_save(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        load_run(tmp_path / "none.json")


def test_a_battle_resumes_after_the_card_table_changed(tables: Tables, tmp_path: Path) -> None:
    """The battle's card table is embedded: a save outlives an edit of cards.csv."""
    run = mid_battle(tables, 30)
    path = save_run(run, tmp_path / "tower.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    data["battle"]["cards_hash"] = "changed"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    back = load_run(path, tables)
    assert back.battle is not None and back.battle.match.hash() == run.battle.match.hash()  # type: ignore[union-attr]
