"""Card tables under bad input, for every registered game (issue 15, "Card tables").

A table loads, or it is refused with problems named ``FILE:ROW:COLUMN`` where ROW is the
line the row starts on; a row with the wrong number of cells and a table without rows
are errors; numbers lie within the game's limits (Throne: ``CardLimits``); effect cells
are bounded. The live watcher adopts a changed file only once it has stopped changing,
and the card editor's own save is atomic.
"""

from __future__ import annotations

import csv
import io
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fuzzing import fuzz
from hypothesis import given
from hypothesis import strategies as st

from throne_lib.cli import main
from throne_lib.games.throne.cards import DEFAULT_PATH, CardTableError, load_cards, parse_cards
from throne_lib.games.throne.live import CardTableWatcher
from throne_lib.games.throne.rules import CardLimits
from throne_lib.kit import registry

TEXT = DEFAULT_PATH.read_text(encoding="utf-8")
LINES = TEXT.split("\n")
ROW_OF = {line.split(",", 1)[0]: n for n, line in enumerate(LINES, start=1)}


def problems(text: str, name: str = "cards.csv") -> list[str]:
    with pytest.raises(CardTableError) as info:
        parse_cards(text, name)
    return list(info.value.problems)


def edit_cell(text: str, card: str, col: str, value: str) -> str:
    """``text`` with one cell changed (written back by csv: quoting as needed)."""
    rows = list(csv.reader(io.StringIO(text, newline="")))
    header = rows[0]
    for r in rows:
        if r and r[0] == card:
            r[header.index(col)] = value
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    return buf.getvalue()


# --- the examples ----------------------------------------------------------------


def test_a_short_row_is_an_error_not_padded() -> None:
    """`banner_bearer,掌旗官,human,minion,3,3,4,,` lost its keywords silently."""
    short = "banner_bearer,掌旗官,human,minion,3,3,4,,"
    text = "\n".join(ln if not ln.startswith("banner_bearer,") else short for ln in LINES)
    got = problems(text)
    line = ROW_OF["banner_bearer"]
    assert got == [
        f"cards.csv:{line}:-: expected 14 cells like the header, got 9 "
        "(missing: a lost comma, or a file cut short?)"
    ]


def test_a_long_row_is_an_error() -> None:
    text = TEXT.replace("\n", ",extra\n", 2).replace(",extra\n", "\n", 1)
    assert problems(text)[0].startswith("cards.csv:2:-: expected 14 cells like the header, got 15")


def test_a_file_cut_mid_row_is_an_error() -> None:
    """A cut that leaves a short last row (the common case) is an error at that row."""
    line = ROW_OF["militia"]
    cut = "\n".join(LINES[: line - 1]) + "\n" + LINES[line - 1][:12]
    cells = len(LINES[line - 1][:12].split(","))
    assert problems(cut) == [
        f"cards.csv:{line}:-: expected 14 cells like the header, got {cells} "
        "(missing: a lost comma, or a file cut short?)"
    ]
    quoted = TEXT.index('"', len(TEXT) // 2)  # inside a quoted cell: the quote never closes
    line = TEXT[:quoted].count("\n") + 1
    assert problems(TEXT[: quoted + 3])[0].startswith(f"cards.csv:{line}:-: ")


def test_a_header_only_table_is_an_error() -> None:
    assert problems(LINES[0] + "\n") == ["cards.csv:2:-: the table has no rows (header only)"]
    assert problems("")[0].startswith("cards.csv:1:-: empty file")
    assert problems("\n\n")[0].startswith("cards.csv:1:-: empty file")


def test_rows_are_numbered_by_line_after_a_blank_line() -> None:
    text = edit_cell(TEXT, "militia", "cost", "two")
    lines = text.split("\n")
    lines.insert(2, "")  # a blank line before the 2nd card
    lines.insert(2, "")
    assert problems("\n".join(lines)) == [
        f"cards.csv:{ROW_OF['militia'] + 2}:cost: expected a whole number, got 'two'"
    ]


def test_rows_are_numbered_by_line_after_a_multi_line_cell() -> None:
    first = LINES[1].split(",", 1)[0]
    text = edit_cell(TEXT, first, "text", "第一行\n第二行\n第三行")
    text = edit_cell(text, "militia", "cost", "two")
    assert problems(text) == [
        f"cards.csv:{ROW_OF['militia'] + 2}:cost: expected a whole number, got 'two'"
    ]


def test_a_bad_byte_is_reported_at_its_line(tmp_path: Path) -> None:
    raw = TEXT.encode("utf-8").split(b"\n")
    raw[9] = raw[9][:5] + b"\xff" + raw[9][5:]
    p = tmp_path / "cards.csv"
    p.write_bytes(b"\n".join(raw))
    with pytest.raises(CardTableError) as info:
        load_cards(p)
    assert info.value.problems[0].startswith("cards.csv:10:-: column 6: not UTF-8 text")


def test_a_utf8_bom_is_accepted(tmp_path: Path) -> None:
    p = tmp_path / "cards.csv"
    p.write_bytes(b"\xef\xbb\xbf" + TEXT.encode("utf-8"))
    assert len(load_cards(p)) == len(load_cards())


@pytest.mark.parametrize(
    "effects",
    [
        "play: " + ", ".join(["damage(1, enemy)"] * 20_000),  # 20,000 terms
        "play: damage(" + "-" * 5000 + "1, enemy)",  # 5,000 nested signs
        "play: damage(" + "-" * 1500 + "1, enemy)",  # within the size bound
        "play: damage(" + "(" * 900 + "1" + ")" * 900 + ", enemy)",
        "play: damage(" + "(" * 300 + "1" + ")" * 300 + ", enemy)",
    ],
)
def test_huge_or_deep_effects_are_errors_not_recursion(effects: str) -> None:
    spell = next(ln.split(",", 1)[0] for ln in LINES[1:] if ",spell," in ln)
    text = edit_cell(TEXT, spell, "effects", effects)
    try:
        parse_cards(text)
    except CardTableError as exc:  # the effects cell, or the CSV cell size limit
        assert all(re.match(r"cards\.csv:\d+:(effects|-): ", p) for p in exc.problems), exc
    # (a deep but small, valid cell may load: what matters is no RecursionError)


@pytest.mark.parametrize("col", ["cost", "attack", "hp", "move", "range"])
def test_numbers_beyond_the_limits_are_errors(col: str) -> None:
    """Costs, attack and HP of 10^20 were accepted; `throne log --csv` then overflowed."""
    text = edit_cell(TEXT, "militia", col, str(10**20))
    assert problems(text) == [
        f"cards.csv:{ROW_OF['militia']}:{col}: expected a whole number, got '{10**20}'"
    ]
    text = edit_cell(TEXT, "militia", col, "1000")
    top = getattr(CardLimits(), col)
    assert problems(text) == [
        f"cards.csv:{ROW_OF['militia']}:{col}: expected a whole number ≤ {top} "
        f"(CardLimits.{col}), got 1000"
    ]


def test_limits_are_parameters() -> None:
    text = edit_cell(TEXT, "militia", "hp", "1000")
    db = parse_cards(text, limits=CardLimits(hp=5000))
    assert db["militia"].hp == 1000
    with pytest.raises(ValueError):
        CardLimits(hp=0)


def test_numbers_inside_effects_are_bounded() -> None:
    spell = next(ln.split(",", 1)[0] for ln in LINES[1:] if ",spell," in ln)
    text = edit_cell(TEXT, spell, "effects", f"play: damage({10**20}, enemy)")
    got = problems(text)
    assert re.match(rf"cards\.csv:{ROW_OF[spell]}:effects: .*beyond ±999", got[0]), got


def test_cards_check_of_a_huge_number_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    p = tmp_path / "cards.csv"
    p.write_text(edit_cell(TEXT, "militia", "cost", str(10**20)), encoding="utf-8")
    assert main(["cards", "check", str(p)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"cards.csv:{ROW_OF['militia']}:cost: ") and err.count("\n") == 1


# --- fuzz: every registered game's tables ------------------------------------------------

TABLES = [(g, path) for g in registry.games() for path in g.card_tables]


def table_parser(game: registry.Game, path: Path) -> Callable[[str, str], Any] | None:
    """How ``game`` loads ``path``: its ``table_parsers`` entry, or ``parse_table`` for
    its main (first) card table."""
    if path.name in game.table_parsers:
        return game.table_parsers[path.name]
    main_table = game.parse_table
    if main_table is not None and path == game.card_tables[0]:
        return lambda text, name: main_table(text)
    return None


def test_every_game_registers_a_loader_for_each_table() -> None:
    for g, path in TABLES:
        assert table_parser(g, path) is not None, f"{g.name} has no loader for {path.name}"
    assert TABLES


def _mutations() -> st.SearchStrategy[tuple[str, int, int, str]]:
    return st.tuples(
        st.sampled_from(["cut", "delete_line", "blank_line", "dup_line", "cell", "bytes"]),
        st.integers(0, 10**6),
        st.integers(0, 40),
        st.one_of(
            st.sampled_from(
                ["", "0", "-1", "1000", str(10**20), "x", '"', "a,b", "\n", "٣", "1_000", "taunt"]
            ),
            st.text(max_size=6),
        ),
    )


def _mutate(text: str, op: str, at: int, cell: int, value: str) -> bytes:
    lines = text.split("\n")
    k = at % len(lines)
    if op == "cut":
        return text.encode("utf-8")[: at % (len(text.encode("utf-8")) + 1)]
    if op == "delete_line":
        del lines[k]
    elif op == "blank_line":
        lines.insert(k, "")
    elif op == "dup_line":
        lines.insert(k, lines[k])
    elif op == "cell":
        cells = lines[k].split(",")
        cells[cell % len(cells)] = value
        lines[k] = ",".join(cells)
    else:
        raw = "\n".join(lines).encode("utf-8")
        i = at % (len(raw) + 1)
        return raw[:i] + value.encode("utf-8", "replace")[:2] + b"\xff"[: cell % 2] + raw[i:]
    return "\n".join(lines).encode("utf-8")


@pytest.mark.parametrize(("game", "path"), TABLES, ids=[f"{g.name}-{p.name}" for g, p in TABLES])
@fuzz(60)
@given(mutation=_mutations())
def test_fuzz_tables(game: registry.Game, path: Path, mutation: tuple[str, int, int, str]) -> None:
    """A mutated table loads, or every problem is ``FILE:ROW:COLUMN: message`` with a row
    inside the file; the original file is never touched."""
    parse = table_parser(game, path)
    assert parse is not None
    before = path.read_bytes()
    raw = _mutate(path.read_text(encoding="utf-8"), *mutation)
    try:
        from throne_lib.kit.textfile import decode_utf8

        text = decode_utf8(raw, path.name)
        parse(text, path.name)
    except ValueError as exc:
        lines = getattr(exc, "problems", None) or [str(exc)]
        n_lines = raw.count(b"\n") + 2
        for p in lines:
            m = re.match(rf"^{re.escape(path.name)}:(\d+):([^:]+): \S", p)
            assert m, p
            assert 1 <= int(m.group(1)) <= n_lines, p
    assert path.read_bytes() == before


# --- the live watcher --------------------------------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_table_written_slowly_in_chunks_is_adopted_only_whole(tmp_path: Path) -> None:
    """A valid 8 KiB prefix became a 74-card table: the watcher must wait for the file
    to stop changing."""
    p = tmp_path / "cards.csv"
    p.write_text(edit_cell(TEXT, "militia", "cost", "5"), encoding="utf-8")
    clock = Clock()
    w = CardTableWatcher(p, settle=1.0, clock=clock)
    start = len(w.db)
    seen: list[int] = []
    w.subscribe(lambda u: seen.append(len(u.db)))
    data = TEXT.encode("utf-8")
    chunk = 1024
    with p.open("wb") as f:
        for i in range(0, len(data), chunk):
            f.write(data[i : i + chunk])
            f.flush()
            os.utime(p, ns=(i + 1, 10**18 + i))  # a distinct stamp for every chunk
            clock.now += 0.3  # the writer is slower than the poll
            w.check()
            assert len(w.db) == start, "a half-written table was adopted"
            assert w.errors == [], "a half-written table was even read"
    clock.now += 0.3
    assert not w.check()  # stopped changing only just now
    clock.now += 1.0
    assert w.check()
    assert len(w.db) == len(load_cards()) and w.errors == []
    assert w.db["militia"].cost == load_cards()["militia"].cost != 5
    assert seen == [len(w.db)]  # subscribers never saw a partial table


def test_a_broken_change_also_waits(tmp_path: Path) -> None:
    p = tmp_path / "cards.csv"
    p.write_text(TEXT, encoding="utf-8")
    clock = Clock()
    w = CardTableWatcher(p, clock=clock)
    p.write_text(TEXT.replace("militia,", "militia ,", 1) + "x,y\n", encoding="utf-8")
    assert not w.check() and w.errors == []
    clock.now += 1.5
    assert w.check() and w.errors and len(w.db) == len(load_cards())


def test_the_editors_save_is_atomic_and_applied_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from throne_lib.games.throne.ui import cards_editor

    p = tmp_path / "cards.csv"
    p.write_text(TEXT, encoding="utf-8")
    w = CardTableWatcher(p)
    ed = cards_editor.CardsEditor(p, w)
    calls: list[Any] = []
    real: Callable[..., Any] = os.replace
    monkeypatch.setattr(os, "replace", lambda a, b: (calls.append((a, b)), real(a, b)))
    new = edit_cell(TEXT, "militia", "cost", "4")
    ed.sheet = cards_editor.Sheet.parse(new)
    assert ed.save()
    assert calls and Path(calls[0][1]) == p  # written beside, then renamed over
    assert w.db["militia"].cost == 4  # applied at once, not after the settle time
