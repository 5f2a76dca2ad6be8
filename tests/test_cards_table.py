"""The card table loader: every problem reported at once, as ``cards.csv:ROW:COLUMN:``."""

from __future__ import annotations

import re

import pytest

from throne_lib import CardDB, CardTableError, load_cards, parse_cards
from throne_lib.games.throne.effects import DEFAULTS, SPECS
from throne_lib.games.throne.lang import KEYWORDS, parse_effects, parse_keywords

HEADER = "id,name,race,kind,cost,attack,hp,move,range,keywords,effects,tiers,captains,text\n"

# Row numbers are spreadsheet rows: the header is row 1.
BROKEN_ROWS = [
    ("ok_unit,好兵,human,minion,1,1,1,,,,,,,fine", None),
    ("bad_cost,坏费,human,minion,x,1,1,,,,,,,", ("cost", "whole number")),
    ("bad_kw,坏词,human,minion,1,1,1,,,taunty,,,,", ("keywords", "unknown keyword 'taunty'")),
    (
        'bad_effect,坏效果,human,spell,1,,,,,,"play: zap(3, enemy)",,,',
        ("effects", "unknown effect 'zap'"),
    ),
    ('bad_count,坏个数,human,spell,1,,,,,,"play: damage(3)",,,', ("effects", "got 1 arguments")),
    (
        'bad_type,坏类型,human,spell,1,,,,,,"play: damage(three, enemy)",,,',
        ("effects", "must be a whole number"),
    ),
    (
        'bad_selector,坏目标,human,spell,1,,,,,,"play: damage(3, foes)",,,',
        ("effects", "unknown target 'foes'"),
    ),
    ("ok_unit,重复编号,human,minion,1,1,1,,,,,,,", ("id", "duplicate id 'ok_unit'")),
    ("other_unit,好兵,human,minion,1,1,1,,,,,,,", ("name", "duplicate name '好兵'")),
    ("bad_race,坏种族,martian,minion,1,1,1,,,,,,,", ("race", "got 'martian'")),
    ("bad_kind,坏类别,human,wizard,1,1,1,,,,,,,", ("kind", "got 'wizard'")),
    (
        'bad_target,坏指向,human,spell,1,,,,,,"play: heal(2, target)",,,',
        ("effects", "'target' needs a chosen target"),
    ),
    ("bad_armor,坏护甲,human,minion,1,1,1,,,armor,,,,", ("keywords", "armor(N)")),
    ("bad_hp,坏血,human,minion,1,1,0,,,,,,,", ("hp", "≥ 1")),
]
PROBLEM = re.compile(r"^cards\.csv:(\d+):([a-z_-]+): (.+)$")


def test_a_broken_table_reports_every_problem_in_one_error() -> None:
    """One CardTableError lists each problem as cards.csv:ROW:COLUMN: message, in row
    order, one per broken row, none for the good row."""
    text = HEADER + "\n".join(row for row, _ in BROKEN_ROWS) + "\n"
    with pytest.raises(CardTableError) as info:
        parse_cards(text)
    problems = info.value.problems
    expected = [(n, want) for n, (_, want) in enumerate(BROKEN_ROWS, start=2) if want is not None]
    assert len(problems) == len(expected), "\n".join(problems)
    for line, (row, (column, fragment)) in zip(problems, expected, strict=True):
        match = PROBLEM.match(line)
        assert match is not None, line
        assert (int(match.group(1)), match.group(2)) == (row, column), line
        assert fragment in match.group(3), line
    for line in problems:
        assert line in str(info.value)


def test_a_missing_column_is_named() -> None:
    """A table without the 'range' column is refused naming the column on row 1."""
    header = HEADER.replace(",range", "")
    with pytest.raises(CardTableError) as info:
        parse_cards(header + "ok_unit,好兵,human,minion,1,1,1,,,,,,\n")
    assert len(info.value.problems) == 1
    assert info.value.problems[0].startswith("cards.csv:1:range: missing column")


def test_cross_references_are_checked() -> None:
    """Tier soldiers and summoned tokens must name existing cards of the right kind."""
    text = HEADER + (
        "camp,营,human,barracks,2,0,8,,,,,ghost militia militia,,\n"
        "militia,民兵,human,soldier,1,1,2,,,,,,,\n"
        'caller,召唤师,human,minion,1,1,1,,,,"play: summon(nobody, adjacent)",,,\n'
    )
    with pytest.raises(CardTableError) as info:
        parse_cards(text)
    assert [p.split(": ")[0] for p in info.value.problems] == [
        "cards.csv:2:tiers",
        "cards.csv:4:effects",
    ]


def test_the_real_table_loads(db: CardDB) -> None:
    """cards.csv loads without a problem: every kind and race is present."""
    assert len(db) >= 100
    assert {c.kind for c in db.values()} >= {
        "general",
        "barracks",
        "soldier",
        "captain",
        "minion",
        "spell",
    }
    assert {c.race for c in db.values()} >= {"human", "goblin", "demon", "undead", "beast", "elf"}
    assert load_cards().hash == db.hash


def keywords_text(keywords: tuple[tuple[str, int], ...]) -> str:
    return ", ".join(f"{k}({v})" if KEYWORDS[k] else k for k, v in keywords)


def test_every_rows_keywords_and_effects_round_trip(db: CardDB) -> None:
    """Parsing the text form of each row's parsed keywords/effects gives them back."""
    for card in db.values():
        assert parse_keywords(keywords_text(card.keywords)) == card.keywords, card.id
        text = "; ".join(clause.text() for clause in card.effects)
        assert parse_effects(text, SPECS, DEFAULTS) == card.effects, card.id


def test_each_row_loads_alone_as_its_own_table(db: CardDB) -> None:
    """Row numbers in the real table match the spreadsheet (header = row 1)."""
    lines = db.source.splitlines()
    assert lines[0].startswith("id,name,race,kind")
    for card in db.values():
        assert lines[card.row - 1].startswith(card.id + ","), card.id
