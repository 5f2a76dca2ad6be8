"""Match logs under bad input (issue 15, "Logs"; R-TURN-12: same seed + actions = same match).

``throne replay --check`` reports every broken log as ``FILE:LINE: problem`` on one line
(never a traceback), and a replay compares the events as well as the state hashes, so a
log that disagrees with itself fails the check.
"""

from __future__ import annotations

import copy
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from fuzzing import fuzz
from hypothesis import given
from hypothesis import strategies as st

from throne_lib import Match, load_cards
from throne_lib.cli import main
from throne_lib.games.throne.decks import signature_deck
from throne_lib.kit.agents import RandomAgent
from throne_lib.kit.log import LogError, log_lines, read_log, replay

DB = load_cards()


def _lines(seed: int, plies: int) -> list[dict[str, Any]]:
    m = Match.new(DB, signature_deck(DB, "human"), signature_deck(DB, "undead"), seed)
    agent = RandomAgent(seed)
    for _ in range(plies):
        if m.is_over:
            break
        m.apply(agent.choose(m))
    return log_lines(m)


LOG = _lines(7, 60)


def dump(lines: list[Any]) -> bytes:
    return b"".join(
        (x if isinstance(x, bytes) else json.dumps(x, ensure_ascii=False).encode()) + b"\n"
        for x in lines
    )


def check_cli(capsys: pytest.CaptureFixture[str], path: Path) -> str:
    code = main(["replay", str(path), "--check"])
    _, err = capsys.readouterr()
    assert code == 1, err
    assert "Traceback" not in err and len(err.splitlines()) == 1, err
    return err


def bad_at(tmp_path: Path, capsys: pytest.CaptureFixture[str], raw: bytes, line: int) -> str:
    p = tmp_path / "m.jsonl"
    p.write_bytes(raw)
    with pytest.raises(LogError) as info:
        replay(read_log(p))
    assert info.value.line == line, info.value
    err = check_cli(capsys, p)
    assert err.startswith(f"throne: error: {p}:{line}: ")
    return err


def test_the_log_replays(tmp_path: Path) -> None:
    p = tmp_path / "m.jsonl"
    p.write_bytes(dump(LOG))
    assert replay(read_log(p)).hash() == LOG[-1]["hash"] or "result" in LOG[-1]


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("columns", 0),
        ("columns", "7"),
        ("hand_limit", None),
        ("shuffle_costs", []),
        ("round_limit", 10**30),
        ("rows", True),
    ],
)
def test_edited_header_rules(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], key: str, value: Any
) -> None:
    lines = copy.deepcopy(LOG)
    lines[0]["rules"][key] = value
    err = bad_at(tmp_path, capsys, dump(lines), 1)
    assert key in err


def test_100k_nested_brackets(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines: list[Any] = copy.deepcopy(LOG)
    lines[3] = b"[" * 100_000 + b"]" * 100_000
    bad_at(tmp_path, capsys, dump(lines), 4)


def test_an_i_of_5000_digits(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    raw = dump(LOG).replace(b'{"i": 2,', b'{"i": ' + b"9" * 5000 + b",", 1)
    err = bad_at(tmp_path, capsys, raw, 3)
    assert len(err) < 400


def test_an_i_of_4000_digits_is_shortened(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    raw = dump(LOG).replace(b'{"i": 2,', b'{"i": ' + b"9" * 4000 + b",", 1)
    err = bad_at(tmp_path, capsys, raw, 3)
    assert len(err) < 400


def test_invalid_utf8_names_its_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    raw = dump(LOG)
    lines = raw.split(b"\n")
    lines[4] = lines[4].replace(b'"action": "', b'"action": "\xff', 1)
    bad_at(tmp_path, capsys, b"\n".join(lines), 5)


def test_edited_events_fail_the_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Events were never compared: a log whose events were edited still passed --check."""
    lines = copy.deepcopy(LOG)
    n = next(k for k, rec in enumerate(lines) if k > 0 and rec.get("events"))
    lines[n]["events"][0]["amount"] = 999
    err = bad_at(tmp_path, capsys, dump(lines), n + 1)
    assert "events" in err and "999" in err
    lines = copy.deepcopy(LOG)
    lines[n]["events"].append({"kind": "draw", "round": 1, "side": 0})
    assert "events" in bad_at(tmp_path, capsys, dump(lines), n + 1)


# --- fuzz: edits of a real log -----------------------------------------------------------

json_values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**6), 10**6),
    st.integers(),
    st.text(max_size=6),
    st.lists(st.integers(0, 9), max_size=3),
    st.sampled_from(["end", "keep", "blue", "red", "move a1 a2", "draw", 0, 1, -1]),
)


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix] if prefix else []
    if isinstance(node, dict):
        for k, v in node.items():
            if k != "cards_csv":  # the card-table fuzz covers the table itself
                out += _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node[:3]):
            out += _paths(v, (*prefix, i))
    return out


@fuzz(100)
@given(
    line=st.integers(0, 10_000),
    pick=st.integers(0, 10_000),
    op=st.sampled_from(["set", "delete", "bytes", "swap_lines"]),
    value=json_values,
    junk=st.binary(min_size=1, max_size=3),
)
def test_fuzz_logs(tmp_path: Path, line: int, pick: int, op: str, value: Any, junk: bytes) -> None:
    """An edited log is a LogError naming FILE:LINE, or it replays exactly (hashes, events,
    result): the edit did not touch anything that matters."""
    lines: list[Any] = copy.deepcopy(LOG)
    k = line % len(lines)
    if op == "bytes":
        raw = dump(lines)
        at = pick % len(raw)
        raw = raw[:at] + junk + raw[at:]
    elif op == "swap_lines":
        j = pick % len(lines)
        lines[k], lines[j] = lines[j], lines[k]
        raw = dump(lines)
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
    p = tmp_path / "m.jsonl"
    p.write_bytes(raw)
    try:
        replay(read_log(p))
    except LogError as exc:
        assert re.match(rf"^{re.escape(str(p))}:\d+: ", str(exc)), exc
        return
    assert p.read_bytes() == raw


def test_fuzz_logs_random_matches(tmp_path: Path) -> None:
    """Logs of a few other matches replay with their events."""
    rng = random.Random(1)
    for seed in (rng.randrange(10_000) for _ in range(3)):
        p = tmp_path / f"{seed}.jsonl"
        p.write_bytes(dump(_lines(seed, 400)))
        replay(read_log(p))
