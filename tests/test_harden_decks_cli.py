"""Deck files and the command line under bad input (issue 15, "Decks" and "The command line").

A deck file is UTF-8 (a byte-order mark accepted), its counts are bounded, and every
problem names ``FILE:LINE``; the deck rules themselves are R-DECK-*. ``throne`` never
shows a traceback for bad input: one line on stderr; ``--debug`` shows the traceback.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from fuzzing import fuzz
from hypothesis import given
from hypothesis import strategies as st

from throne_lib import CardDB, load_cards
from throne_lib import cli as cli_module
from throne_lib.cli import main, one_line
from throne_lib.games.throne.decks import MAX_COUNT, load_deck, parse_deck, validate_deck
from throne_lib.kit.textfile import TextFileError, decode_utf8, text_lines

DB: CardDB = load_cards()
ROOT = Path(__file__).resolve().parent.parent


def deck_file(tmp_path: Path, raw: bytes, name: str = "x.deck") -> Path:
    p = tmp_path / name
    p.write_bytes(raw)
    return p


# --- decks: the examples ---------------------------------------------------------


def test_a_billion_copies_is_an_error_not_memory_error(tmp_path: Path) -> None:
    p = deck_file(tmp_path, b"general: lionheart\n1000000000 shield_wall\n")
    with pytest.raises(ValueError, match=r"^x\.deck:2: count 1000000000 is too large"):
        load_deck(p)


def test_ten_to_the_thirty_is_an_error_not_overflow(tmp_path: Path) -> None:
    p = deck_file(tmp_path, b"general: lionheart\n" + str(10**30).encode() + b" shield_wall\n")
    with pytest.raises(ValueError, match=r"^x\.deck:2: count"):
        load_deck(p)


def test_many_lines_adding_up_beyond_the_bound(tmp_path: Path) -> None:
    lines = b"".join(b"999 shield_wall\n" for _ in range(3))
    with pytest.raises(ValueError, match=rf"x\.deck:3: more than {MAX_COUNT} cards"):
        load_deck(deck_file(tmp_path, b"general: lionheart\n" + lines))


def test_non_utf8_names_file_line_and_column(tmp_path: Path) -> None:
    p = deck_file(tmp_path, b"general: lionheart\n# ok\n2 shield_\xffwall\n")
    with pytest.raises(TextFileError) as info:
        load_deck(p)
    assert str(info.value).startswith("x.deck:3:10: not UTF-8 text (byte 0xff")


def test_a_utf8_bom_is_accepted(tmp_path: Path) -> None:
    p = deck_file(tmp_path, b"\xef\xbb\xbfgeneral: lionheart\r\n2 shield_wall\r\n")
    setup = load_deck(p)
    assert setup.general == "lionheart" and setup.deck == ("shield_wall", "shield_wall")


def test_unicode_digits_are_not_counts() -> None:
    with pytest.raises(ValueError, match="deck:2: expected 'COUNT CARD_ID'"):
        parse_deck("general: lionheart\n²² shield_wall\n")


def test_line_numbers_are_the_editors() -> None:
    """A form feed or U+2028 inside a line does not shift the count (str.splitlines did)."""
    assert text_lines("a\x0cb\nc\u2028d\r\ne\n") == ["a\x0cb", "c\u2028d", "e"]
    with pytest.raises(ValueError, match=r"^deck:3:"):
        parse_deck("general: lionheart\n# \x0c comment\nbad line here\n")


def test_decode_utf8_location_counts_characters() -> None:
    with pytest.raises(TextFileError) as info:
        decode_utf8("第一行\n王座\n".encode() + b"\xc3(", "t.txt")
    assert (info.value.line, info.value.column) == (3, 1)
    with pytest.raises(TextFileError) as info:
        decode_utf8("王座 ".encode() + b"\xff", "t.txt")
    assert (info.value.line, info.value.column) == (1, 4)


# --- decks: fuzz -------------------------------------------------------------------------

WORDS = [
    "general:", "vice:", "lionheart", "beast_king", "shield_wall", "militia_camp", "1", "3",
    "0", "-1", "30", "999", "1001", "1000000000", "#", " ", "\t", "²", "１", "\ufeff", "\x00",
]  # fmt: skip
deck_lines = st.lists(
    st.lists(st.one_of(st.sampled_from(WORDS), st.text(max_size=5)), max_size=4).map(" ".join),
    max_size=12,
)


@fuzz(150)
@given(lines=deck_lines, junk=st.binary(max_size=3), at=st.integers(0, 10_000))
def test_fuzz_deck_files(tmp_path: Path, lines: list[str], junk: bytes, at: int) -> None:
    """A deck file gives a SideSetup the deck rules can judge, or an error with FILE:LINE."""
    raw = "\n".join(lines).encode("utf-8")
    i = at % (len(raw) + 1)
    raw = raw[:i] + junk + raw[i:]
    p = deck_file(tmp_path, raw)
    try:
        setup = load_deck(p)
    except ValueError as exc:
        assert re.match(r"^x\.deck(:\d+(:\d+)?)?: ", str(exc)), exc
        return
    assert len(setup.deck) <= MAX_COUNT
    validate_deck(DB, setup)  # judging an odd deck never crashes


# --- the command line --------------------------------------------------------------------


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out, err


def test_an_unexpected_error_is_one_line_exit_2(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only ValueError and OSError were caught: any other exception was a traceback."""

    def broken(args: object) -> int:
        raise KeyError("surprise\nsecond line")

    monkeypatch.setattr(cli_module, "cmd_cards_check", broken)
    code, out, err = run(capsys, "cards", "check")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("throne: error: KeyError: ")
    assert "--debug" in err


def test_debug_shows_the_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(args: object) -> int:
        raise KeyError("surprise")

    monkeypatch.setattr(cli_module, "cmd_cards_check", broken)
    with pytest.raises(KeyError):
        main(["--debug", "cards", "check"])
    with pytest.raises(KeyError):
        main(["cards", "check", "--debug"])


def test_pandas_multi_line_messages_print_on_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A pandas ParserError ends in a newline: the message printed a stray ')' line."""
    p = tmp_path / "t.csv"
    header = (ROOT / "cards.csv").read_text(encoding="utf-8").splitlines()[0]
    p.write_text(header + "\n" + "a," * 40 + "\n", encoding="utf-8")
    code, _, err = run(capsys, "cards", "check", str(p))
    assert code == 1
    lines = err.splitlines()
    assert lines and all(line.startswith("t.csv:") for line in lines), lines
    assert one_line("a\nb )\n\n)") == "a b ) )"


def test_bad_deck_files_on_the_command_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    p = deck_file(tmp_path, b"general: lionheart\n\xff\xfe 2 x\n", "bad.deck")
    code, _, err = run(capsys, "deck", "check", str(p))
    assert code == 1 and err.startswith("throne: error: bad.deck:2:1: not UTF-8")
    code, _, err = run(capsys, "play", "--blue-deck", str(p))
    assert code == 1 and len(err.splitlines()) == 1


def test_bad_logs_on_the_command_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    for raw in (b"\xff\xfe\x00", b"[" * 100_000, b'{"format": 5}\n', b""):
        p = tmp_path / "m.jsonl"
        p.write_bytes(raw)
        code, _, err = run(capsys, "replay", str(p), "--check")
        assert code in (1, 2) and len(err.splitlines()) == 1, err


def test_console_script_never_prints_a_traceback(tmp_path: Path) -> None:
    p = tmp_path / "m.jsonl"
    p.write_bytes(b"[" * 100_000)
    out = subprocess.run(
        [sys.executable, "-m", "throne_lib.cli", "replay", str(p), "--check"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert out.returncode in (1, 2) and "Traceback" not in out.stderr
    assert len(out.stderr.splitlines()) == 1
