"""Logs and the command line of 城堡之心, 城池战 and PIN under bad input (issue 34, items
9-10; Throne's tower temp files, item 11).

A log whose header is edited is a ``FILE:LINE`` error at the line that is wrong — line 1
for the header's options and rules (an edited rule changes the start hash, so it is
caught there, not where the match first diverges). A bad command line exits non-zero
with one clear line, never a ``MemoryError`` or an empty success.
"""

from __future__ import annotations

import copy
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from fuzzing import fuzz
from hypothesis import given
from hypothesis import strategies as st

from throne_lib.cli import main
from throne_lib.games.throne.tower.save import remove_stale_temps, write_atomic
from throne_lib.kit import registry
from throne_lib.kit.agents import RandomAgent
from throne_lib.kit.log import LogError, log_lines, read_log, replay

NEWER = ["castle", "cities", "pin"]


def lines_of(game: str, seed: int = 3, plies: int = 60) -> list[dict[str, Any]]:
    m = registry.get(game).new(seed=seed)
    agent = RandomAgent(seed)
    for _ in range(plies):
        if m.is_over:
            break
        m.apply(agent.choose(m))
    return log_lines(m)


LOGS = {g: lines_of(g) for g in NEWER}


def dump(lines: list[Any]) -> bytes:
    return b"".join(
        (x if isinstance(x, bytes) else json.dumps(x, ensure_ascii=False).encode()) + b"\n"
        for x in lines
    )


def refused_at(tmp_path: Path, capsys: pytest.CaptureFixture[str], lines: list[Any]) -> int:
    """The line ``throne replay --check`` names for this log (one line on stderr)."""
    p = tmp_path / "m.jsonl"
    p.write_bytes(dump(lines))
    with pytest.raises(LogError) as info:
        replay(read_log(p))
    code = main(["replay", str(p), "--check"])
    _, err = capsys.readouterr()
    assert code == 1 and len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert err.startswith(f"throne: error: {p}:{info.value.line}: "), err
    return info.value.line


# --- 9. bad log headers: FILE:1 ------------------------------------------------------------


@pytest.mark.parametrize("game", NEWER)
@pytest.mark.parametrize(
    "edit",
    [
        ("options", [1, 2]),
        ("options", "rules"),
        ("rules", "a string"),
        ("rules", [["max_rounds", 3]]),
        ("rules", {"no_such_rule": 1}),
        ("rules", {"max_rounds": "x"}),
        ("rules", {"max_rounds": True}),
        ("rules", {"max_rounds": 2}),
    ],
    ids=lambda e: f"{e[0]}={json.dumps(e[1])}",
)
def test_a_bad_header_is_reported_at_line_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str, edit: tuple[str, Any]
) -> None:
    """An options list was `TypeError: cannot convert dictionary update sequence`; rules
    as a string or an unknown PIN rule key the same; a castle max_rounds override was
    reported at line 48, where the replay first diverged."""
    lines = copy.deepcopy(LOGS[game])
    field, value = edit
    if field == "options":
        lines[0]["options"] = value
    else:
        lines[0].setdefault("options", {})["rules"] = value
    assert refused_at(tmp_path, capsys, lines) == 1


@pytest.mark.parametrize("game", ["castle", "cities"])
def test_a_rule_override_in_the_header_still_replays(tmp_path: Path, game: str) -> None:
    """The rules are part of the hash only when they differ from the rulebook's: a match
    played under an override logs and replays."""
    g = registry.get(game)
    m = g.new(seed=4, rules={"max_rounds": 2} if game == "castle" else {"max_rounds": 3})
    agent = RandomAgent(4)
    while not m.is_over:
        m.apply(agent.choose(m))
    p = tmp_path / "m.jsonl"
    p.write_bytes(dump(log_lines(m)))
    assert replay(read_log(p)).hash() == m.hash()
    plain = g.new(seed=4)
    assert plain.hash() != g.new(seed=4, rules=dict(m.options["rules"])).hash()  # type: ignore[attr-defined]


json_values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**6), 10**6),
    st.floats(allow_nan=False),
    st.text(max_size=6),
    st.lists(st.integers(0, 9), max_size=3),
    st.dictionaries(
        st.sampled_from(["max_rounds", "x", "base", "deck_mode"]), st.integers(-3, 99), max_size=2
    ),
    st.sampled_from(["pass", "end", "seat0", "t0", 0, 1, -1, "attack h0 0.0 sword"]),
)


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix] if prefix else []
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node[:3]):
            out += _paths(v, (*prefix, i))
    return out


@pytest.mark.parametrize("game", NEWER)
@fuzz(40)
@given(
    line=st.integers(0, 10_000),
    pick=st.integers(0, 10_000),
    op=st.sampled_from(["set", "delete", "bytes", "header"]),
    value=json_values,
    junk=st.binary(min_size=1, max_size=3),
)
def test_fuzz_logs_of_the_newer_games(
    tmp_path_factory: pytest.TempPathFactory,
    game: str,
    line: int,
    pick: int,
    op: str,
    value: Any,
    junk: bytes,
) -> None:
    """An edited log is a LogError naming FILE:LINE (a line of the file), or it replays."""
    lines: list[Any] = copy.deepcopy(LOGS[game])
    k = 0 if op == "header" else line % len(lines)
    if op == "bytes":
        raw = dump(lines)
        at = pick % len(raw)
        raw = raw[:at] + junk + raw[at:]
    else:
        paths = _paths(lines[k])
        path = paths[pick % len(paths)]
        node = lines[k]
        for key in path[:-1]:
            node = node[key]
        if op == "delete":
            node.pop(path[-1])
        else:
            node[path[-1]] = value
        raw = dump(lines)
    p = tmp_path_factory.mktemp("log") / "m.jsonl"
    p.write_bytes(raw)
    try:
        replay(read_log(p))
    except LogError as exc:
        m = re.match(rf"^{re.escape(str(p))}:(\d+): ", str(exc))
        assert m and 0 <= int(m.group(1)) <= raw.count(b"\n") + 1, exc


# --- 10. the command line ------------------------------------------------------------------


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, err


@pytest.mark.parametrize("game", ["castle", "cities"])
@pytest.mark.parametrize("players", ["99999999999", "-1", "0", "9", "2"])
def test_play_with_a_player_count_out_of_range(
    capsys: pytest.CaptureFixture[str], game: str, players: str
) -> None:
    """`--players 99999999999` was a MemoryError; `--players -1` said "not 0"."""
    code, err = run(capsys, "--game", game, "play", "--players", players)
    assert code == 1
    assert err.strip() == f"throne: error: {game} is played by 3..8 seats, not {players}"


@pytest.mark.parametrize(
    "argv",
    [
        ["--game", "pin", "-n", "-1"],
        ["--game", "castle", "-n", "0"],
        ["--game", "cities", "--teams", ""],
        ["--game", "cities", "--teams", "a,,b,c"],
        ["--game", ""],
    ],
    ids=["pin-n-1", "castle-n0", "teams-empty", "teams-blank-label", "game-empty"],
)
def test_simulate_refuses_bad_arguments(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    """`-n -1`, `--teams ''` and `--game ''` exited 0 (and wrote an empty or a Throne file)."""
    out = tmp_path / "x.parquet"
    code, err = run(capsys, "simulate", *argv, "--out", str(out), "--backend", "serial")
    assert code in (1, 2) and err.strip(), err
    assert not out.exists()
    assert any(w in err for w in ("≥ 1", "--teams", "unknown game ''")), err


def test_an_empty_game_name_is_not_the_default_game(capsys: pytest.CaptureFixture[str]) -> None:
    code, err = run(capsys, "--game", "", "cards", "check")
    assert code == 2 and "unknown game ''" in err


# --- 11. the tower's temp files after kill -9 ------------------------------------------------


def _dead_pid() -> int:
    proc = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)  # fmt: skip
    return int(proc.stdout)


def test_a_killed_saves_temp_file_is_removed_by_the_next_save(tmp_path: Path) -> None:
    """26 of 60 kill -9 left a `.tower.json.*.tmp`: one younger than a minute survived the
    next load. A temp file names its writer; once that process is gone, the next save
    or load removes it at once."""
    from throne_lib.games.throne.tower.run import Run, Tables
    from throne_lib.games.throne.tower.save import load_run, save_run

    save = tmp_path / "tower.json"
    orphan = tmp_path / f".tower.json.pid{_dead_pid()}.x1y2.tmp"
    orphan.write_text("{", encoding="utf-8")  # fresh: written a moment ago
    live = tmp_path / f".tower.json.pid{os.getpid()}.abc.tmp"  # this process, mid-save
    live.write_text("{", encoding="utf-8")
    legacy = tmp_path / ".tower.json.zz9.tmp"  # an older name without a pid: by age
    legacy.write_text("{", encoding="utf-8")
    tables = Tables.load()
    save_run(Run.new(12, tables=tables), save)
    assert not orphan.exists() and live.exists() and legacy.exists()
    orphan.write_text("{", encoding="utf-8")
    load_run(save, tables)
    assert not orphan.exists()
    old = time.time() - 3600
    os.utime(legacy, (old, old))
    assert remove_stale_temps(save) == [legacy]
    assert live.exists()
    live.unlink()


def test_write_atomic_names_its_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[str] = []
    real = os.replace
    monkeypatch.setattr(os, "replace", lambda a, b: (seen.append(Path(a).name), real(a, b)))
    write_atomic(tmp_path / "tower.json", "{}")
    assert re.fullmatch(rf"\.tower\.json\.pid{os.getpid()}\..+\.tmp", seen[0]), seen
