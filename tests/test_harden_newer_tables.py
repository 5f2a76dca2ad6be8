"""The tables of 城堡之心 and 城池战 under bad input (issue 34, items 4-8; Throne's item 11).

Same bar as Throne's ``cards.csv`` (tests/test_harden_tables.py): a table loads, or every
problem is ``FILE:ROW:COLUMN: message`` naming the file that was read; a table missing
what the rules need (cards the engine names, enough cities for CW-SETUP-3) is refused;
a file cut short or still being written is never adopted; numbers lie within bounds.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from fuzzing import fuzz
from hypothesis import given
from hypothesis import strategies as st

from throne_lib.cli import main
from throne_lib.games.castle.cards import DEFAULT_PATH as CASTLE_CSV
from throne_lib.games.castle.cards import REQUIRED, load_castle_cards, parse_castle_cards
from throne_lib.games.castle.live import CastleTableWatcher
from throne_lib.games.cities.live import CityTableWatcher
from throne_lib.games.cities.table import DEFAULT_PATH as CITIES_CSV
from throne_lib.games.cities.table import MIN_CITIES, load_city_table, parse_city_table
from throne_lib.games.throne.cards import DEFAULT_PATH as THRONE_CSV
from throne_lib.games.throne.cards import load_cards
from throne_lib.kit.csvtable import table_file_text
from throne_lib.kit.tables import TableError

CASTLE = CASTLE_CSV.read_text(encoding="utf-8")
CITIES = CITIES_CSV.read_text(encoding="utf-8")


def problems_of(parse: object, text: str) -> list[str]:
    with pytest.raises(TableError) as info:
        parse(text)  # type: ignore[operator]
    return list(info.value.problems)


def head(text: str, n: int) -> str:
    """``head -n N``: the first N lines, each with its line break."""
    return "".join(text.splitlines(keepends=True)[:n])


def cards_check(capsys: pytest.CaptureFixture[str], game: str, path: Path) -> tuple[int, str]:
    code = main(["--game", game, "cards", "check", str(path)])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out + err


# --- 4. castle: cards the rules need -------------------------------------------------------


def test_a_truncated_castle_table_names_the_missing_cards_ch_prep_5() -> None:
    """`head -53 cards-castle.csv` checked "OK, 52 rows", then a match raised
    KeyError: 'conjured_mana'."""
    got = problems_of(parse_castle_cards, head(CASTLE, 53))
    assert got[0].startswith("cards-castle.csv:54:id: missing card 'conjured_mana'")
    assert "CH-PREP-5" in got[0]
    missing = {re.search(r"missing card '(\w+)'", p).group(1) for p in got}  # type: ignore[union-attr]
    assert missing == {"conjured_mana", "alchemy_archer", "alchemy_crusader"}


def test_every_required_card_is_checked_ch_soldier_17() -> None:
    lines = CASTLE.splitlines(keepends=True)
    for cid, (kind, rule) in REQUIRED.items():
        text = "".join(ln for ln in lines if not ln.startswith(f"{cid},"))
        got = problems_of(parse_castle_cards, text)
        assert any(f"missing card {cid!r} ({kind}): {rule}" in p for p in got), (cid, got)


def test_a_required_card_of_the_wrong_kind_is_refused() -> None:
    text = CASTLE.replace("conjured_mana,法力魔,,token:basic", "conjured_mana,法力魔,,magic")
    got = problems_of(parse_castle_cards, text)
    assert any(":kind: card 'conjured_mana' must be a token:basic" in p for p in got), got


# --- 5. cities: a table too small for the rules --------------------------------------------


@pytest.mark.parametrize("lines", [1, 2, 4, 6, 11, 12])
def test_a_city_table_smaller_than_cw_setup_3_needs_is_refused(lines: int) -> None:
    """`head -4 cities.csv` checked "OK, 3 rows", a header-only file "OK, 0 rows"; then
    matches failed with ValueError (CW-SETUP-3)."""
    got = problems_of(parse_city_table, head(CITIES, lines))
    assert len(got) == 1 and got[0].startswith("cities.csv:"), got
    assert "no rows" in got[0] or f"up to {MIN_CITIES} in play (CW-SETUP-3)" in got[0]


def test_the_full_city_table_and_a_smaller_minimum_load() -> None:
    assert len(parse_city_table(CITIES)) == MIN_CITIES == 12
    assert len(parse_city_table(head(CITIES, 7), min_cities=6)) == 6


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.parametrize("game", ["castle", "cities"])
@pytest.mark.parametrize("pause", [0.3, 5.0])
@pytest.mark.parametrize("by", ["line", "97 bytes"])
def test_a_table_rewritten_slowly_is_never_adopted_half_way(
    tmp_path: Path, game: str, pause: float, by: str
) -> None:
    """Cities adopted 6 of 20 live rewrites half-written (a prefix is a smaller valid
    table); castle held 0/20. Now neither adopts a prefix — even from a writer that
    pauses longer than the watcher's settle time between chunks."""
    text = CASTLE if game == "castle" else CITIES
    p = tmp_path / ("cards-castle.csv" if game == "castle" else "cities.csv")
    p.write_text(text, encoding="utf-8")
    clock = Clock()
    w = (
        CastleTableWatcher(p, settle=1.0, clock=clock)
        if game == "castle"
        else CityTableWatcher(p, settle=1.0, clock=clock)
    )
    start = (len(w.db), w.db.hash)
    adopted: list[int] = []
    w.subscribe(lambda u: adopted.append(len(u.db)) if u.changed else None)
    data = text.replace("5", "4", 1).encode("utf-8")  # the new version differs
    if by == "line":  # every prefix is whole rows: a smaller valid table before the fix
        chunks = data.splitlines(keepends=True)
    else:  # cuts rows, cells and multi-byte characters
        chunks = [data[i : i + 97] for i in range(0, len(data), 97)]
    written = 0
    with p.open("wb") as f:
        for i, piece in enumerate(chunks):
            f.write(piece)
            written += len(piece)
            f.flush()
            os.utime(p, ns=(i + 1, 10**18 + i))
            w.check()  # sees the change …
            clock.now += pause
            w.check()  # … and reads the file if the writer paused past the settle time
            if written < len(data):
                assert (len(w.db), w.db.hash) == start, f"adopted a prefix of {written} bytes"
    clock.now += 2.0
    w.check()
    clock.now += 2.0
    w.check()
    assert adopted == [len(w.db)] and len(w.db) == start[0] and w.errors == []


# --- 6. cards check names the file it read --------------------------------------------------


@pytest.mark.parametrize(
    ("game", "source", "edit"),
    [
        ("castle", CASTLE_CSV, (",hero,4,", ",hero,x,")),
        ("cities", CITIES_CSV, (",draw(2),5", ",draw(2),x")),
        ("pin", Path(CASTLE_CSV).with_name("cards-pin.csv"), None),
    ],
)
def test_cards_check_names_the_file_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str, source: Path, edit: object
) -> None:
    """`throne --game castle cards check x.csv` reported `cards-castle.csv:2:hp:`."""
    text = source.read_text(encoding="utf-8")
    if edit is not None:
        old, new = edit  # type: ignore[misc]
        text = text.replace(old, new, 1)
    else:  # PIN: an empty required cell in the first row
        lines = text.splitlines(keepends=True)
        cells = lines[1].split(",")
        cells[0] = "Bad Id"
        lines[1] = ",".join(cells)
        text = "".join(lines)
    bad = tmp_path / "x.csv"
    bad.write_text(text, encoding="utf-8")
    code, out = cards_check(capsys, game, bad)
    assert code == 1
    assert all(line.startswith("x.csv:2:") for line in out.splitlines()), out


# --- 7. encodings -------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["castle", "cities"])
@pytest.mark.parametrize("damage", ["gbk", "broken"])
def test_a_table_not_in_utf8_is_file_row_not_unicode_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str, damage: str
) -> None:
    text = CASTLE if game == "castle" else CITIES
    raw = text.encode("gbk") if damage == "gbk" else text.encode().replace(b"\xe6", b"\xc2", 1)
    p = tmp_path / "t.csv"
    p.write_bytes(raw)
    code, out = cards_check(capsys, game, p)
    assert code == 1 and re.match(r"^t\.csv:2:-: column \d+: not UTF-8 text", out), out
    load = load_castle_cards if game == "castle" else load_city_table
    with pytest.raises(TableError) as info:
        load(p)
    assert info.value.problems[0].startswith("t.csv:2:-:")


# --- 8. bounds per column ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "where"),
    [
        ("draw(2)", "draw(-5)", ":traits: trait draw takes a whole number 0..99"),
        (
            "heal_all_heroes(1)",
            "heal_all_heroes(" + "1" + "0" * 30 + ")",
            ":traits: trait heal_all",
        ),
        (",hero,4,", ",hero," + "1" + "0" * 400 + ",", ":hp: expected a whole number 0..99"),
        ("cowardly(0.5)", "cowardly(5)", ":traits: trait cowardly takes a chance 0..1"),
        ("aim(3)", "aim(2.5)", ":traits: trait aim takes a whole number"),
        (',1,"fireball', ',99,"fireball', ":range: expected a whole number 1..20"),
        (",hero,4,", ",hero,٣,", ":hp: expected a whole number"),
    ],
)
def test_castle_numbers_are_bounded(old: str, new: str, where: str) -> None:
    assert old in CASTLE
    got = problems_of(parse_castle_cards, CASTLE.replace(old, new, 1))
    assert any(where in p for p in got), got


@pytest.mark.parametrize(
    ("old", "new", "where"),
    [
        (",draw(2),5", ",draw(2),-5", ":ai_weight: expected a whole number 0..99"),
        (",draw(2),5", ",draw(2),1_000", ":ai_weight: expected a whole number 0..99"),
        (",draw(2),5", ",draw(2),100", ":ai_weight: expected a whole number 0..99"),
        ("draw(2)", "draw(" + "9" * 30 + ")", ":capture: effect draw takes a whole number 1..99"),
        ("draw(2)", "draw(0)", ":capture: effect draw takes a whole number 1..99"),
    ],
)
def test_city_numbers_are_bounded(old: str, new: str, where: str) -> None:
    got = problems_of(parse_city_table, CITIES.replace(old, new, 1))
    assert len(got) == 1 and got[0].startswith("cities.csv:2:") and where in got[0], got


def test_a_short_city_row_is_an_error_not_padded() -> None:
    lines = CITIES.splitlines(keepends=True)
    lines[3] = lines[3].rsplit(",", 1)[0] + "\n"
    got = problems_of(parse_city_table, "".join(lines))
    assert got == [
        "cities.csv:4:-: expected 5 cells like the header, got 4 "
        "(missing: a lost comma, or a file cut short?)"
    ]


# --- 11. Throne: a cards.csv cut at its end --------------------------------------------------


def test_throne_cards_cut_inside_the_last_row_are_refused(tmp_path: Path) -> None:
    """12 cuts inside the last row's text cell were accepted (a shorter text is valid):
    a table file that does not end with its line break is a file cut short."""
    raw = THRONE_CSV.read_bytes()
    cuts = [len(raw) - k for k in (1, 3, 6, 9, 12, 20, 40)]
    for cut in cuts:
        p = tmp_path / "cards.csv"
        p.write_bytes(raw[:cut])
        with pytest.raises(TableError) as info:
            load_cards(p)
        assert re.match(r"^cards\.csv:\d+:-: ", info.value.problems[0]), info.value.problems
    (tmp_path / "cards.csv").write_bytes(raw)
    assert len(load_cards(tmp_path / "cards.csv")) == len(load_cards())


# --- fuzz: a table cut at any byte is never taken for another table -----------------------


@pytest.mark.parametrize(
    ("name", "parse"),
    [("cards-castle.csv", parse_castle_cards), ("cities.csv", parse_city_table)],
)
@fuzz(60)
@given(fraction=st.floats(0, 1, exclude_max=True))
def test_fuzz_a_cut_table_is_refused(name: str, parse: object, fraction: float) -> None:
    """A file cut at any byte (as a watcher or a loader reads it mid-write) is refused
    with FILE:ROW problems — never adopted as a smaller table."""
    raw = (CASTLE if name == "cards-castle.csv" else CITIES).encode("utf-8")
    cut = raw[: int(len(raw) * fraction)]
    text, found = table_file_text(cut, name)
    if text is not None:
        with pytest.raises(TableError) as info:
            parse(text, name)  # type: ignore[operator]
        found = info.value.problems
    assert found and all(re.match(rf"^{re.escape(name)}:\d+:[^:]+: \S", p) for p in found), found
