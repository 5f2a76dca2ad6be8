"""The grammar every game's card table shares for its ``keywords`` and ``effects`` cells.

A cell is a comma-separated list of names and calls (``taunt, armor(2)``,
``damage(3, enemy), draw(1)``), or clauses ``trigger: call, call`` separated by ``;``.
It is parsed with :mod:`ast` against a whitelist — never ``eval``. This module knows only
the grammar; each game keeps its own words (which keywords, effects, triggers and
selectors exist and what their arguments are): Throne in
:mod:`throne_lib.games.throne.lang`, PIN in :mod:`throne_lib.games.pin.words`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass

# Sanity bounds of one cell: a cell longer than MAX_CHARS, or a number beyond MAX_NUMBER,
# is an error, not a RecursionError or an overflow later.
MAX_CHARS = 2000
MAX_NUMBER = 999


class LangError(ValueError):
    """A problem in one cell of the table; the loader adds file, row and column."""


def check_size(text: str, max_chars: int) -> None:
    """A cell beyond ``max_chars`` characters is an error (before parsing it)."""
    if len(text) > max_chars:
        raise LangError(f"the cell has {len(text)} characters, at most {max_chars}")


def elements(text: str) -> list[ast.expr]:
    """The comma-separated items of ``text`` as expressions."""
    node = expr(f"({text},)")
    assert isinstance(node, ast.Tuple)
    return list(node.elts)


def expr(text: str) -> ast.expr:
    """``text`` parsed as one expression; a syntax error or a too deep nesting is a
    :class:`LangError`."""
    try:
        return ast.parse(text, mode="eval").body
    except SyntaxError as exc:
        raise LangError(f"cannot parse {short(text.strip('(),'))!r}: {exc.msg}") from None
    except (RecursionError, MemoryError):  # thousands of nested brackets or signs
        raise LangError(f"cannot parse {short(text.strip('(),'))!r}: nested too deeply") from None


def whole_number(node: ast.expr, where: str, max_number: int = MAX_NUMBER) -> int:
    """A (possibly negated) integer literal within ±``max_number``."""
    sign = 1
    while isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):  # no recursion
        sign, node = -sign, node.operand
    if isinstance(node, ast.Constant) and type(node.value) is int:
        if abs(node.value) > max_number:
            raise LangError(f"{where}: {short(str(node.value))} is beyond ±{max_number}")
        return sign * node.value
    raise LangError(f"{where} must be a whole number, got {src(node)!r}")


def short(text: str, limit: int = 60) -> str:
    """``text`` cut to ``limit`` characters (with …) for an error message."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def src(node: ast.AST) -> str:
    """The source of ``node``, shortened, for an error message."""
    try:
        return short(ast.unparse(node))
    except (RecursionError, MemoryError, ValueError):
        return "(an expression nested too deeply)"


def clause_parts(text: str) -> Iterator[tuple[str, str]]:
    """The ``trigger: effects`` clauses of an effects cell (``;``-separated, empty ones
    skipped) as ``(trigger text, effects text)``, both stripped."""
    for part in text.split(";"):
        part = part.strip()
        if not part:
            continue
        head, sep, body = part.partition(":")
        if not sep:
            raise LangError(f"expected 'trigger: effect(...)' in {part!r}")
        yield head.strip(), body.strip()


@dataclass(frozen=True, slots=True)
class Call:
    """One effect call: ``name(args...)`` with arguments already checked (a game may
    subclass it to add its own rendering)."""

    name: str
    args: tuple[int | str, ...]

    def text(self) -> str:
        return f"{self.name}({', '.join(str(a) for a in self.args)})"
