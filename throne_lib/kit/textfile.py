"""Text files of any game (decks, scenarios, logs, card tables): UTF-8, read with a location.

A file that is not UTF-8 is reported at the line and column of its first bad byte
(``deck.txt:3:7: not UTF-8 text (byte 0xff)``), never at line 1 and never as a bare
``UnicodeDecodeError``. A UTF-8 byte-order mark, as some Windows editors write one, is
accepted and dropped.

:func:`write_atomic` writes a file so that a reader sees the old one or the new one, never
half of one (card tables, saves, balance reports).
"""

from __future__ import annotations

import codecs
import os
import tempfile
from pathlib import Path


class TextFileError(ValueError):
    """A file that is not UTF-8 text: ``FILE:LINE:COLUMN: problem``."""

    def __init__(self, source: str, line: int, column: int, problem: str) -> None:
        self.source, self.line, self.column, self.problem = source, line, column, problem
        super().__init__(f"{source}:{line}:{column}: {problem}")


def decode_utf8(raw: bytes, source: str) -> str:
    """``raw`` as text (a leading BOM dropped); :class:`TextFileError` at the first bad byte."""
    if raw.startswith(codecs.BOM_UTF8):
        raw = raw[len(codecs.BOM_UTF8) :]
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, column = byte_location(raw, exc.start)
        raise TextFileError(
            source, line, column, f"not UTF-8 text (byte 0x{raw[exc.start]:02x}: {exc.reason})"
        ) from None


def byte_location(raw: bytes, offset: int) -> tuple[int, int]:
    """1-based (line, column in characters) of byte ``offset``; lines end at ``\\n``."""
    start = raw.rfind(b"\n", 0, offset) + 1
    line = raw.count(b"\n", 0, offset) + 1
    column = len(raw[start:offset].decode("utf-8", errors="replace")) + 1
    return line, column


def read_text(path: str | Path, source: str | None = None) -> str:
    """The text of ``path`` (see :func:`decode_utf8`); ``source`` names it in errors."""
    p = Path(path)
    return decode_utf8(p.read_bytes(), source or str(p))


def text_lines(text: str) -> list[str]:
    """The lines of ``text`` as an editor numbers them: split at ``\\n`` (``\\r\\n`` too),
    not at the other breaks ``str.splitlines`` knows (form feed, U+2028 …), a leading BOM
    dropped, so a reported line number is the one the designer sees."""
    lines = text.removeprefix("\ufeff").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [ln.removesuffix("\r") for ln in lines]


def write_atomic(path: str | Path, text: str, parents: bool = False) -> Path:
    """Write ``text`` to ``path`` via a temporary file in the same folder, fsync'd, and
    ``os.replace``: a reader sees the old file or the new one, never half of one. The
    temporary file is ``.NAME.pidN.….tmp`` (N: this process), so a clean-up can tell one
    a killed writer left (the tower's saves). ``parents``: create the folder first.
    Returns the path written."""
    p = Path(path)
    if parents:
        p.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.pid{os.getpid()}.", suffix=".tmp", dir=p.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        if p.exists():
            os.chmod(tmp, p.stat().st_mode & 0o7777)
        os.replace(tmp, p)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return p
