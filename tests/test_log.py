"""Match logs: write, read, replay and check (R-TURN-12: a match is determined by
its seed and its actions), error reporting with line numbers, and the golden replay.

Regenerate the golden file after an intended change of the engine's behaviour::

    .venv/bin/python -m throne_lib.cli play --seed 7 --log tests/golden/match_seed7.jsonl
"""

from __future__ import annotations

import csv
import difflib
import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from throne_lib import Match, SideSetup, load_cards
from throne_lib.games.throne.cards import DEFAULT_PATH, CardDB
from throne_lib.games.throne.cli import run_match
from throne_lib.kit.agents import RandomAgent
from throne_lib.kit.log import (
    LogError,
    LogFile,
    MatchRecorder,
    log_lines,
    parse_log,
    read_log,
    replay,
    write_log,
)

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden" / "match_seed7.jsonl"


@pytest.fixture(scope="module")
def db() -> CardDB:
    return load_cards()


def play_recorded(
    db: CardDB, seed: int, blue: str = "human", red: str = "undead"
) -> tuple[Match, str, list[str]]:
    """Play a random match with a recorder; return it, its log text and the hashes seen."""
    m = Match.new(db, SideSetup.signature(db, blue), SideSetup.signature(db, red), seed)
    out = io.StringIO()
    rec = MatchRecorder(m, out)
    agents = (RandomAgent(seed), RandomAgent(seed + 1))
    hashes = []
    while not m.is_over:
        rec.apply(agents[m.turn].choose(m))
        hashes.append(m.hash())
    return m, out.getvalue(), hashes


def test_replay_reproduces_every_hash_r_turn_12(db: CardDB) -> None:
    """R-TURN-12: the seed decides the first side, the deals and every draw; the
    same actions from the same seed reproduce the same state after every action."""
    m, text, hashes = play_recorded(db, seed=11)
    log = parse_log(text, "fresh.jsonl")
    assert [r.hash for r in log.records] == hashes
    assert log.actions == [a.text(m.geo) for a in m.history]
    again = replay(log, check=True)
    assert again.hash() == m.hash()
    assert [a.text() for a in again.history] == log.actions
    assert log.result is not None and again.is_over
    assert (log.result.reason, log.result.round) == (m.end_reason, m.round)
    # the first side is chosen by the seed, and the seed alone (R-TURN-12)
    firsts = {Match.new(db, m.setups[0], m.setups[1], 11).state.first for _ in range(3)}
    assert firsts == {m.state.first}


def test_log_from_history_equals_incremental_log(db: CardDB, tmp_path: Path) -> None:
    m, text, _ = play_recorded(db, seed=5, blue="elf", red="goblin")
    path = write_log(m, tmp_path / "m.jsonl")
    written = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    recorded = [json.loads(line) for line in text.splitlines()]
    for a, b in zip(written, recorded, strict=True):
        a.pop("created", None)
        b.pop("created", None)
        assert a == b
    assert written[0]["cards_csv"] == db.source
    assert written[0]["sides"][0] == m.setups[0].to_dict()
    assert replay(path).hash() == m.hash()


def test_recorder_flushes_each_line(db: CardDB, tmp_path: Path) -> None:
    m = Match.new(db, SideSetup.signature(db, "demon"), SideSetup.signature(db, "beast"), 2)
    path = tmp_path / "live.jsonl"
    agent = RandomAgent(2)
    with MatchRecorder(m, path) as rec:
        for n in range(1, 6):
            rec.apply(agent.choose(m))
            assert len(path.read_text(encoding="utf-8").splitlines()) == n + 1
    assert len(read_log(path).records) == 5  # an unfinished match is a valid log


def test_recorder_catches_up_on_a_match_with_history(db: CardDB) -> None:
    m = Match.new(db, SideSetup.signature(db, "demon"), SideSetup.signature(db, "beast"), 4)
    agent = RandomAgent(4)
    for _ in range(7):
        m.apply(agent.choose(m))
    out = io.StringIO()
    rec = MatchRecorder(m, out)
    rec.apply(agent.choose(m))
    log = parse_log(out.getvalue())
    assert [r.i for r in log.records] == list(range(1, 9))
    assert replay(log).hash() == m.hash()
    assert log.header.start_hash == Match.new(db, *m.setups, 4).hash()


SCENARIO = """seed 5
round 12
turn blue
side blue general=lionheart mana=6
side red general=beast_king
hand blue holy_light
deck blue militia_camp holy_light
deck red tide
unit c5 red wolf hp=1/2 moved
"""


def test_log_of_a_scenario_match(db: CardDB) -> None:
    """A match built from scenario text logs the text and replays from it."""
    from throne_lib.games.throne.scenario import load_scenario

    m = load_scenario(SCENARIO, db)
    out = io.StringIO()
    rec = MatchRecorder(m, out)
    agent = RandomAgent(5)
    for _ in range(30):
        if m.is_over:
            break
        rec.apply(agent.choose(m))
    log = parse_log(out.getvalue())
    assert log.header.scenario == SCENARIO
    assert log.header.start_hash == load_scenario(SCENARIO, db).hash()
    assert replay(log).hash() == m.hash()
    assert "".join(json.dumps(x) for x in log_lines(m)[1:]) == "".join(
        json.dumps(json.loads(x)) for x in out.getvalue().splitlines()[1:]
    )


def edit_table(text: str, stronger: int = 0, **changes: dict[str, str]) -> str:
    """A card table with ``changes`` (card id -> {column: value}) applied and every
    soldier, captain and minion ``stronger`` in attack and HP."""
    rows = list(csv.DictReader(io.StringIO(text)))
    for r in rows:
        r.update(changes.get(r["id"], {}))
        if stronger and r["kind"] in ("soldier", "captain", "minion"):
            r["attack"] = str(int(r["attack"] or 0) + stronger)
            r["hp"] = str(int(r["hp"]) + stronger)
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


def test_old_log_replays_after_the_table_changes(tmp_path: Path) -> None:
    """The log embeds the table: editing cards.csv afterwards changes nothing."""
    table = tmp_path / "cards.csv"
    shutil.copy(DEFAULT_PATH, table)
    db = load_cards(table)
    m, text, _ = play_recorded(db, seed=3)
    log_path = tmp_path / "old.jsonl"
    log_path.write_text(text, encoding="utf-8")
    # make every soldier, captain and minion much stronger in the on-disk table
    edited = edit_table(table.read_text("utf-8"), stronger=5)
    table.write_text(edited, encoding="utf-8")
    new_db = load_cards(table)
    assert new_db.hash != db.hash
    assert replay(log_path).hash() == m.hash()
    # …while the same actions against the edited table go somewhere else
    other = Match.new(new_db, m.setups[0], m.setups[1], 3)
    diverged = False
    for rec in read_log(log_path).records:
        try:
            other.apply(rec.action)
        except ValueError:
            diverged = True
            break
        if other.hash() != rec.hash:
            diverged = True
            break
    assert diverged


def test_hashes_are_stable_across_processes() -> None:
    """State.hash() uses no per-process salt: replay the golden file under other
    PYTHONHASHSEEDs (every action's hash is checked)."""
    for hash_seed in ("0", "12345"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        code = (
            "from throne_lib.kit.log import replay; import sys; print(replay(sys.argv[1]).hash())"
        )
        out = subprocess.run(
            [sys.executable, "-c", code, str(GOLDEN)],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        assert out.stdout.strip() == read_log(GOLDEN).records[-1].hash


# --- errors with line numbers ------------------------------------------------------------


def small_log(db: CardDB, n: int = 6) -> str:
    m = Match.new(db, SideSetup.signature(db, "human"), SideSetup.signature(db, "elf"), 9)
    agent = RandomAgent(9)
    for _ in range(n):
        m.apply(agent.choose(m))
    return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in log_lines(m))


def error_of(text: str, tmp_path: Path, name: str = "bad.jsonl") -> LogError:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(LogError) as info:
        replay(path)
    assert str(info.value).startswith(f"{path}:{info.value.line}: ")
    return info.value


def edit_line(text: str, line: int, **changes: object) -> str:
    lines = text.splitlines()
    data = json.loads(lines[line - 1])
    for key, value in changes.items():
        if value is None:
            data.pop(key)
        else:
            data[key] = value
    lines[line - 1] = json.dumps(data, ensure_ascii=False)
    return "\n".join(lines) + "\n"


def test_empty_file(tmp_path: Path) -> None:
    err = error_of("", tmp_path)
    assert err.line == 1 and "empty" in err.message
    assert error_of("\n\n", tmp_path).line == 1


def test_truncated_last_line(db: CardDB, tmp_path: Path) -> None:
    text = small_log(db)
    n = len(text.splitlines())
    err = error_of(text[:-20], tmp_path)
    assert err.line == n
    assert "bad JSON" in err.message and "truncated" in err.message


def test_bad_json_in_the_middle(db: CardDB, tmp_path: Path) -> None:
    lines = small_log(db).splitlines()
    lines[3] = lines[3][:-1] + ",}"
    err = error_of("\n".join(lines) + "\n", tmp_path)
    assert err.line == 4 and "bad JSON" in err.message


def test_not_an_object(db: CardDB, tmp_path: Path) -> None:
    lines = small_log(db).splitlines()
    lines[2] = "[1, 2]"
    assert error_of("\n".join(lines) + "\n", tmp_path).line == 3


def test_wrong_format_and_unknown_version(db: CardDB, tmp_path: Path) -> None:
    text = small_log(db)
    err = error_of(edit_line(text, 1, version=2), tmp_path)
    assert err.line == 1 and "unknown log version 2" in err.message
    err = error_of(edit_line(text, 1, format="chess-pgn"), tmp_path)
    assert err.line == 1 and "not a throne log" in err.message


def test_missing_fields(db: CardDB, tmp_path: Path) -> None:
    text = small_log(db)
    err = error_of(edit_line(text, 1, seed=None), tmp_path)
    assert err.line == 1 and "'seed'" in err.message
    err = error_of(edit_line(text, 4, hash=None), tmp_path)
    assert err.line == 4 and "'hash'" in err.message
    err = error_of(edit_line(text, 5, i=9), tmp_path)
    assert err.line == 5 and "expected 4" in err.message
    err = error_of(edit_line(text, 1, seed="seven"), tmp_path)
    assert err.line == 1 and "'seed'" in err.message


def test_embedded_table_that_does_not_load(db: CardDB, tmp_path: Path) -> None:
    text = small_log(db)
    header = json.loads(text.splitlines()[0])
    broken = edit_table(header["cards_csv"], militia={"cost": "x"})
    err = error_of(edit_line(text, 1, cards_csv=broken, cards_hash=header["cards_hash"]), tmp_path)
    assert err.line == 1
    row = db["militia"].row
    assert f"cards.csv:{row}:cost: expected a whole number, got 'x'" in err.message
    # a table edited inside the log no longer matches its hash
    edited = edit_table(header["cards_csv"], militia={"text": "改过"})
    err = error_of(edit_line(text, 1, cards_csv=edited), tmp_path)
    assert err.line == 1 and "cards_hash" in err.message


def test_hash_mismatch_names_the_line(db: CardDB, tmp_path: Path) -> None:
    text = small_log(db)
    err = error_of(edit_line(text, 5, hash="0123456789abcdef"), tmp_path)
    assert err.line == 5 and "hash mismatch after action 4" in err.message
    # without check the same log replays
    path = tmp_path / "bad.jsonl"
    assert replay(read_log(path), check=False).history


def test_illegal_and_garbled_actions(db: CardDB, tmp_path: Path) -> None:
    text = small_log(db, n=30)
    err = error_of(edit_line(text, 20, action="attack a1 g6"), tmp_path)
    assert err.line == 20 and "action 19" in err.message and "R-" in err.message
    err = error_of(edit_line(text, 7, action="teleport a1"), tmp_path)
    assert err.line == 7 and "unknown action" in err.message


def test_lines_after_the_result(db: CardDB, tmp_path: Path) -> None:
    text = GOLDEN.read_text(encoding="utf-8")
    n = len(text.splitlines())
    err = error_of(text + '{"i": 9999}\n', tmp_path)
    assert err.line == n + 1 and "after the result" in err.message
    err = error_of(
        edit_line(text, n, result={"winner": "blue", "reason": "throne", "round": 17}), tmp_path
    )
    assert err.line == n and "result" in err.message


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(LogError, match="cannot read"):
        read_log(tmp_path / "nope.jsonl")


# --- the golden replay --------------------------------------------------------------------


def record_lines(log: LogFile) -> list[str]:
    lines = [f"start {log.header.start_hash}"]
    lines += [f"{r.i} {r.action} -> {r.hash}" for r in log.records]
    if log.result is not None:
        res = log.result
        lines.append(f"result {res.winner} {res.reason} round {res.round}")
    return lines


def test_golden_replay_checks_every_hash() -> None:
    log = read_log(GOLDEN)
    assert GOLDEN.stat().st_size < 1_000_000
    assert len(log.records) > 100 and log.result is not None
    m = replay(log, check=True)
    assert m.is_over and m.hash() == log.records[-1].hash


def test_golden_regenerates_identically(tmp_path: Path) -> None:
    """Play the golden match again from its seed and agents (on its embedded table)
    and diff action texts and hashes line by line: any change of the engine's
    behaviour shows up here as a readable diff."""
    golden = read_log(GOLDEN)
    h = golden.header
    assert [a.name for a in h.agents] == ["random", "random"]
    fresh = tmp_path / "again.jsonl"
    run_match(h.db, h.sides[0], h.sides[1], h.seed, ("random", "random"), fresh, h.rules)
    again = read_log(fresh)
    assert again.header.agents == h.agents
    diff = list(
        difflib.unified_diff(
            record_lines(golden), record_lines(again), "golden", "regenerated", lineterm="", n=2
        )
    )
    assert not diff, (
        "engine behaviour changed (regenerate the golden file if intended):\n"
        + "\n".join(diff[:60])
    )
    events_golden = [r.events for r in golden.records]
    events_again = [r.events for r in again.records]
    assert events_golden == events_again
