"""Card table text rows (byte-preserving edits, atomic writes) and the diff of two tables
(`throne cards diff OLD NEW`)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from throne_lib.games.throne.cards import DEFAULT_PATH, parse_cards
from throne_lib.kit.carddiff import Sheet, diff_main, diff_tables
from throne_lib.kit.textfile import write_atomic

TEXT = DEFAULT_PATH.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "text",
    [
        TEXT,
        "",
        "id,name",
        "id,name\n",
        'id,name\r\na,"x\r\ny"\r\n\r\nb,2',
        "id,name\n1,2\n\n\n3,4\n\n",
        "\nid,name\n a , b \n",
        'id,name\n"a","b"\n',  # quoted although not needed: kept as written
    ],
)
def test_unchanged_sheet_renders_byte_identical(text: str) -> None:
    assert Sheet.parse(text).text() == text


def test_edit_one_cell_changes_only_that_line() -> None:
    sheet = Sheet.parse(TEXT)
    index, row = next((i, r) for i, r in enumerate(sheet.rows) if '"' in r.raw)
    quoted = next(v for v in row.values if "," in v)
    col = sheet.header.index("attack")
    row.values[col] = str(int(row.values[col]) + 1)
    new = sheet.text()
    old_lines, new_lines = TEXT.splitlines(keepends=True), new.splitlines(keepends=True)
    assert len(old_lines) == len(new_lines)
    differ = [i for i, (a, b) in enumerate(zip(old_lines, new_lines, strict=True)) if a != b]
    assert differ == [index + 1]
    # a cell with a comma is quoted again (csv quoting rules as in the file)
    assert f'"{quoted}"' in new_lines[index + 1]
    parse_cards(new)  # still a valid table


def test_add_delete_and_reorder_rows() -> None:
    sheet = Sheet.parse("id,name,cost\na,甲,1\nb,乙,2\nc,丙,3")  # no final newline
    sheet.rows.append(sheet.new_row(["d", "丁, 新", "4"]))
    del sheet.rows[1]
    assert sheet.text() == 'id,name,cost\na,甲,1\nc,丙,3\nd,"丁, 新",4\n'
    sheet.rows.reverse()
    assert sheet.text().splitlines()[1] == 'd,"丁, 新",4'


def test_short_rows_are_padded_but_kept() -> None:
    sheet = Sheet.parse("id,name,cost\na,甲\n")
    assert sheet.rows[0].values == ["a", "甲", ""]
    assert sheet.text() == "id,name,cost\na,甲\n"


def test_write_atomic_replaces_the_file(tmp_path: Path) -> None:
    path = tmp_path / "cards.csv"
    path.write_text("old\n", encoding="utf-8")
    inode = path.stat().st_ino
    write_atomic(path, "id,name\r\nx,新\r\n")
    assert path.read_bytes() == "id,name\r\nx,新\r\n".encode()
    assert path.stat().st_ino != inode  # a new file renamed over the old one
    assert sorted(os.listdir(tmp_path)) == ["cards.csv"]  # no temporary left behind


def test_diff_reports_changed_fields_added_removed_and_moved() -> None:
    old = "id,name,cost,attack\na,甲,1,1\nb,乙,2,2\nc,丙,3,3\n"
    new = "id,name,cost,attack\nc,丙,3,3\na,甲,2,1\nd,丁,4,4\n"
    diff = diff_tables(old, new)
    assert diff.summary() == "1 changed, 1 added, 1 removed"
    assert [(c.id, c.status) for c in diff.changes] == [
        ("a", "changed"),
        ("d", "added"),
        ("b", "removed"),
    ]
    assert diff.changes[0].fields == (("cost", "1", "2"),)
    assert diff.moved == ("c",)
    assert diff_tables(old, old).empty


def balance_edit() -> tuple[str, str]:
    """The real table with the first card's HP raised by 4, and the expected diff line."""
    sheet = Sheet.parse(TEXT)
    row, col = sheet.rows[0], sheet.header.index("hp")
    hp = row.values[col]
    row.values[col] = str(int(hp) + 4)
    return sheet.text(), f"~ {row.values[0]} ({row.values[1]}): hp {hp} -> {int(hp) + 4}"


def test_diff_of_the_real_table_after_a_balance_edit() -> None:
    new, line = balance_edit()
    (change,) = diff_tables(TEXT, new).changes
    assert change.text() == line


def test_diff_main_prints_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old, new = tmp_path / "old.csv", tmp_path / "new.csv"
    old.write_text("id,name,cost\na,甲,1\n", encoding="utf-8")
    new.write_text("id,name,cost\na,甲,2\nb,乙,1\n", encoding="utf-8")
    assert diff_main([str(old), str(new)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines() == [
        "1 changed, 1 added, 0 removed",
        "~ a (甲): cost 1 -> 2",
        "+ b (乙)",
    ]
    assert diff_main([str(old), str(new), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["changes"][0]["fields"] == {"cost": {"old": "1", "new": "2"}}
    assert diff_main([str(old), str(tmp_path / "missing.csv")]) == 1
    assert "missing.csv" in capsys.readouterr().err
    assert diff_main([str(old)]) == 2


def test_throne_cards_diff_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from throne_lib.cli import main

    new = tmp_path / "cards.csv"
    text, line = balance_edit()
    new.write_text(text, encoding="utf-8")
    assert main(["cards", "diff", str(DEFAULT_PATH), str(new)]) == 0
    assert capsys.readouterr().out.splitlines()[1] == line
    assert main(["cards", "diff", str(DEFAULT_PATH), str(new), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["summary"] == "1 changed, 0 added, 0 removed"


def test_git_revision_as_a_table(capsys: pytest.CaptureFixture[str]) -> None:
    """``REV:PATH`` reads a table from git, e.g. to review the last commit's balance change."""
    assert diff_main(["HEAD:cards.csv", "HEAD:cards.csv"]) == 0
    assert capsys.readouterr().out.startswith("0 changed, 0 added, 0 removed")
