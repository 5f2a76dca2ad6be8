"""Card tables of any game: the error every table loader raises.

A game's table loader (Throne: :func:`throne_lib.games.throne.cards.parse_cards`) reads
CSV text and raises :class:`TableError` listing *every* problem as
``FILE:ROW:COLUMN: message`` (row 1 is the header line; column is the column's name, or
``-`` for the whole row/file), so a designer fixes them all in one pass. The kit's live
watcher (:mod:`throne_lib.kit.live`) and the CLI (one line per problem) rely on it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import TypeVar

T = TypeVar("T")


class TableError(ValueError):
    """Every problem of a table, one ``file:row:column: message`` per line."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__(f"{len(problems)} problem(s) in the card table:\n" + "\n".join(problems))


@dataclass(frozen=True)
class RowTable(Mapping[str, T]):
    """A loaded table's rows by id, read-only, with the digest of its text (relics,
    events … any table a game keys by id)."""

    rows: Mapping[str, T]
    hash: str = ""

    def __getitem__(self, key: str) -> T:
        return self.rows[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.rows)


@dataclass(frozen=True, kw_only=True)
class CardTable(RowTable[T]):
    """A game's loaded card table: a :class:`RowTable` of ``id -> card`` that also keeps
    the table's text (``source``, embedded in match logs) and the file it came from."""

    source: str = field(repr=False)
    path: str = ""

    @property
    def cards(self) -> Mapping[str, T]:
        """The cards by id (the table's ``rows``)."""
        return self.rows
