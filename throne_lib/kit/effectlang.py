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
from collections.abc import Collection, Iterable, Iterator
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


def keyword_items(
    text: str, example: str, amount: int, max_number: int = MAX_NUMBER
) -> Iterator[tuple[str, int, bool]]:
    """The items of a keywords cell, one at a time (so the first bad one is reported):
    ``(name, amount, written with a number)``, 1 for a bare name. ``example`` names
    keywords for an error (``"taunt or armor(2)"``), ``amount`` a typical number. Which
    names exist and which take a number is the game's to check."""
    for node in elements(text):
        if isinstance(node, ast.Name):
            yield node.id, 1, False
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            name = node.func.id
            if len(node.args) != 1 or node.keywords:
                raise LangError(f"keyword {name} takes one whole number, e.g. {name}({amount})")
            yield name, whole_number(node.args[0], name, max_number), True
        else:
            raise LangError(f"expected a keyword such as {example}, got {src(node)!r}")


def effect_call(
    node: ast.expr, known: Collection[str], example: str, sort: bool = True
) -> tuple[str, ast.Call]:
    """``node`` as an effect call and its name (``damage`` of ``damage(3, enemy)``),
    which must be one of ``known`` (listed, ``sort`` ed or in their order, when it is
    not); ``example`` is a call the error shows."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
        raise LangError(f"expected an effect call such as {example}, got {src(node)!r}")
    name = node.func.id
    if name not in known:
        names = sorted(known) if sort else list(known)
        raise LangError(f"unknown effect {name!r}; known: {', '.join(names)}")
    return name, node


def chosen(calls: Iterable[Call], selectors: Collection[str]) -> list[str]:
    """Every argument of ``calls`` that is one of ``selectors`` (those that ask the
    player for a target), in order."""
    return [a for c in calls for a in c.args if isinstance(a, str) and a in selectors]


def clause_text(head: str, calls: Iterable[Call]) -> str:
    """A clause written back: ``head: call, call``."""
    return f"{head}: {', '.join(c.text() for c in calls)}"


@dataclass(frozen=True, slots=True)
class Call:
    """One effect call: ``name(args...)`` with arguments already checked (a game may
    subclass it to add its own rendering)."""

    name: str
    args: tuple[int | str, ...]

    def text(self) -> str:
        return f"{self.name}({', '.join(str(a) for a in self.args)})"


@dataclass(frozen=True, slots=True)
class Number:
    """A whole-number literal of an effects cell, and where it stands: clause
    ``clause`` (0-based) whose trigger is ``trigger``; ``param`` the trigger's keyword
    (``mana`` of ``skill(mana=2)``) or None; else ``call`` / ``occurrence`` (1 for the
    first call of that name in the clause) and ``arg`` (0-based argument position) of an
    effect call. ``start``/``end``: the literal's span in the cell's text."""

    clause: int
    trigger: str
    param: str | None
    call: str | None
    occurrence: int
    arg: int
    value: int
    start: int
    end: int


def numbers(text: str) -> list[Number]:
    """Every non-negative whole-number literal of an effects cell, in reading order, with
    its span: what a balance search may move (:mod:`throne_lib.kit.balance`). The cell
    must parse under the grammar (a game's parser has checked it); a part that does not
    is skipped, not an error. Negative literals are left out: their sign is meaning."""
    out: list[Number] = []
    offset = 0
    index = 0
    for part in text.split(";"):
        at, offset = offset, offset + len(part) + 1
        head, sep, body = part.partition(":")
        if not sep or not head.strip() or "\n" in part:  # ast offsets are per line
            continue
        try:
            hnode = ast.parse(f"({head})", mode="eval").body
            elts = ast.parse(f"({body},)", mode="eval").body
        except (SyntaxError, RecursionError, MemoryError):
            continue
        func = hnode.func if isinstance(hnode, ast.Call) else hnode
        trigger = func.id if isinstance(func, ast.Name) else ""
        if isinstance(hnode, ast.Call):
            for kw in hnode.keywords:
                if kw.arg is not None and (v := _literal(kw.value)) is not None:
                    s, e = _span(head, kw.value, at)
                    out.append(Number(index, trigger, kw.arg, None, 0, 0, v, s, e))
        seen: dict[str, int] = {}
        body_at = at + len(head) + 1
        for call in getattr(elts, "elts", []):
            if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)):
                continue
            name = call.func.id
            seen[name] = seen.get(name, 0) + 1
            for i, arg in enumerate(call.args):
                if (v := _literal(arg)) is not None:
                    s, e = _span(body, arg, body_at)
                    out.append(Number(index, trigger, None, name, seen[name], i, v, s, e))
        index += 1
    return out


def _literal(node: ast.expr) -> int | None:
    """The value of a non-negative whole-number literal, else None."""
    if isinstance(node, ast.Constant) and type(node.value) is int and node.value >= 0:
        return node.value
    return None


def _span(part: str, node: ast.expr, at: int) -> tuple[int, int]:
    """``node``'s character span in the cell, given it was parsed from ``(part…`` and
    ``part`` starts at ``at``. (``ast`` counts UTF-8 bytes; a cell may hold Chinese.)"""
    raw = f"({part}".encode()
    assert node.end_col_offset is not None
    start = len(raw[: node.col_offset].decode()) - 1
    end = len(raw[: node.end_col_offset].decode()) - 1
    return at + start, at + end
