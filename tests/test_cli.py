"""The ``throne`` command line: cards check, deck check (R-DECK-*), play and replay."""

from __future__ import annotations

import csv
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from throne_lib import load_cards
from throne_lib.cli import main
from throne_lib.games.throne.cards import DEFAULT_PATH, CardDB
from throne_lib.games.throne.decks import deck_text, signature_deck
from throne_lib.kit.log import read_log

PROBLEM = re.compile(r"^[\w.]+\.csv:\d+:[a-z_-]+: .+")


@pytest.fixture(scope="module")
def db() -> CardDB:
    return load_cards()


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out, err


# --- cards check ---------------------------------------------------------------------------


def test_cards_check_ok(capsys: pytest.CaptureFixture[str], db: CardDB) -> None:
    code, out, err = run(capsys, "cards", "check")
    assert code == 0 and err == ""
    assert f"OK, {len(db)} cards, hash {db.hash}" in out


def test_cards_check_json_counts(capsys: pytest.CaptureFixture[str], db: CardDB) -> None:
    code, out, _ = run(capsys, "cards", "check", str(DEFAULT_PATH), "--json")
    assert code == 0
    data = json.loads(out)
    assert data["cards"] == len(db) and data["hash"] == db.hash
    assert sum(sum(kinds.values()) for kinds in data["by_race"].values()) == len(db)
    assert data["by_race"]["human"]["general"] == len(db.of("general", "human"))
    assert data["by_race"]["goblin"]["barracks"] == len(db.of("barracks", "goblin"))
    assert data["by_kind"]["spell"] == len(db.of("spell"))


def broken_table() -> tuple[str, list[str]]:
    """A copy of cards.csv with six problems, and the start of each expected line."""
    rows = list(csv.DictReader(io.StringIO(DEFAULT_PATH.read_text(encoding="utf-8"))))
    by_id = {r["id"]: r for r in rows}
    row = {r["id"]: n for n, r in enumerate(rows, start=2)}  # the header is row 1
    spells = [r["id"] for r in rows if r["kind"] == "spell"]
    by_id["militia"]["cost"] = "two"  # bad number
    by_id["spearman"]["keywords"] = "sparkle"  # unknown keyword
    by_id[spells[0]]["effects"] = "play: explode(3, enemy)"  # unknown effect
    by_id[spells[1]]["effects"] = "play: damage(3, enemy, 4)"  # wrong argument count
    rows.append(dict(by_id["bowman"]))  # duplicate id
    rows.append(dict(by_id["crossbowman"], id="crossbowman_two"))  # duplicate name
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    n = len(rows)
    expected = [
        f"broken.csv:{row['militia']}:cost: expected a whole number, got 'two'",
        f"broken.csv:{row['spearman']}:keywords: unknown keyword 'sparkle'",
        f"broken.csv:{row[spells[0]]}:effects: unknown effect 'explode'",
        f"broken.csv:{row[spells[1]]}:effects: damage expects damage(number, target), got 3 arguments",
        f"broken.csv:{n}:id: duplicate id 'bowman' (first on row {row['bowman']})",
        f"broken.csv:{n + 1}:name: duplicate name '{by_id['crossbowman']['name']}' "
        f"(first on row {row['crossbowman']})",
    ]
    return out.getvalue(), expected


def test_cards_check_broken_table(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "broken.csv"
    text, expected = broken_table()
    path.write_text(text, encoding="utf-8")
    code, out, err = run(capsys, "cards", "check", str(path))
    assert code == 1 and out == ""
    lines = err.splitlines()
    assert all(PROBLEM.match(line) for line in lines), lines
    for want in expected:
        assert any(line.startswith(want) for line in lines), (want, lines)


def test_cards_check_missing_column(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    rows = list(csv.reader(io.StringIO(DEFAULT_PATH.read_text(encoding="utf-8"))))
    col = rows[0].index("range")
    path = tmp_path / "narrow.csv"
    with path.open("w", encoding="utf-8", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows([r[:col] + r[col + 1 :] for r in rows])
    code, _, err = run(capsys, "cards", "check", str(path))
    assert code == 1
    assert err.splitlines()[0].startswith("narrow.csv:1:range: missing column")


def test_cards_check_missing_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "cards", "check", str(tmp_path / "none.csv"))
    assert code == 1 and len(err.splitlines()) == 1 and err.startswith("throne: error:")


# --- deck check ----------------------------------------------------------------------------


def test_deck_check_good(capsys: pytest.CaptureFixture[str], db: CardDB, tmp_path: Path) -> None:
    path = tmp_path / "human.deck"
    path.write_text(deck_text(db, signature_deck(db, "human")), encoding="utf-8")
    code, out, err = run(capsys, "deck", "check", str(path))
    assert code == 0 and err == "" and "OK" in out


def test_deck_check_too_many_barracks_r_deck_3(
    capsys: pytest.CaptureFixture[str], db: CardDB, tmp_path: Path
) -> None:
    """R-DECK-3: at most 10 barracks cards (the elves own enough barracks for 11)."""
    elf = [c.id for c in db.of("barracks", "elf")]
    lines = ["general: elf_queen", "vice: grove_warden"] + [f"3 {cid}" for cid in elf[:3]]
    lines += [f"2 {elf[3]}"]
    path = tmp_path / "bad.deck"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = run(capsys, "deck", "check", str(path))
    assert code == 1 and out == ""
    assert "R-DECK-3: 11 barracks cards, at most 10" in err
    assert all(line.startswith("bad.deck: ") for line in err.splitlines())


def test_deck_check_unreadable_deck(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "garbled.deck"
    path.write_text("general: lionheart\nthree militia_camp\n", encoding="utf-8")
    code, _, err = run(capsys, "deck", "check", str(path))
    assert code == 1 and "garbled.deck:2:" in err and len(err.splitlines()) == 1


# --- play and replay -----------------------------------------------------------------------


def test_play_then_replay(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    code, out, _ = run(capsys, "play", "--seed", "3", "--red-deck", "goblin", "--log", str(log))
    assert code == 0
    assert "winner: " in out and "throne HP: blue " in out
    final = re.search(r"final hash: (\w+)", out)
    assert final is not None
    header = read_log(log).header
    assert header.seed == 3 and header.sides[1].general == "tinker_king"
    code, out2, _ = run(capsys, "replay", str(log), "--check")
    assert code == 0 and "check: OK" in out2
    assert f"final hash: {final.group(1)}" in out2
    # the same command plays the same match (R-TURN-12)
    code, out3, _ = run(capsys, "play", "--seed", "3", "--red-deck", "goblin")
    assert f"final hash: {final.group(1)}" in out3


def test_play_with_a_deck_file(
    capsys: pytest.CaptureFixture[str], db: CardDB, tmp_path: Path
) -> None:
    path = tmp_path / "elf.deck"
    path.write_text(deck_text(db, signature_deck(db, "elf")), encoding="utf-8")
    code, out, _ = run(capsys, "play", "--seed", "1", "--blue-deck", str(path))
    assert code == 0 and "blue elf_queen" in out


def test_replay_mismatch_exits_1_with_the_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    log = tmp_path / "m.jsonl"
    assert main(["play", "--seed", "4", "--log", str(log)]) == 0
    lines = log.read_text(encoding="utf-8").splitlines()
    data = json.loads(lines[9])
    data["hash"] = "ffffffffffffffff"
    lines[9] = json.dumps(data, ensure_ascii=False)
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    capsys.readouterr()
    code, _, err = run(capsys, "replay", str(log), "--check")
    assert code == 1
    assert err.startswith(f"throne: error: {log}:10: state hash mismatch after action 9")
    assert len(err.splitlines()) == 1


def test_errors_are_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "play", "--blue", "alphazero")
    assert code == 1 and err.startswith("throne: error: unknown agent 'alphazero'; known: random")
    assert len(err.splitlines()) == 1
    code, _, err = run(capsys, "play", "--red-deck", "dragons")
    assert code == 1 and len(err.splitlines()) == 1 and "'dragons'" in err
    code, _, err = run(capsys, "replay", str(tmp_path / "none.jsonl"))
    assert code == 1 and len(err.splitlines()) == 1 and "cannot read" in err
    code, _, err = run(capsys, "frobnicate")
    assert code == 2 and "invalid choice" in err


def test_console_script_round_trip(tmp_path: Path) -> None:
    """The real entry point in a fresh process."""
    log = tmp_path / "m.jsonl"
    cmd = [sys.executable, "-m", "throne_lib.cli"]
    play = subprocess.run(
        [*cmd, "play", "--seed", "8", "--log", str(log)], capture_output=True, text=True
    )
    assert play.returncode == 0, play.stderr
    rep = subprocess.run([*cmd, "replay", str(log)], capture_output=True, text=True)
    assert rep.returncode == 0, rep.stderr
    final = re.findall(r"final hash: \w+", play.stdout)
    assert final and final == re.findall(r"final hash: \w+", rep.stdout)
