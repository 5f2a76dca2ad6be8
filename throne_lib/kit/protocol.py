"""The protocol every game of the kit implements (OpenSpiel / boardgame.io style).

A *match* is one game in progress, for N seats numbered 0..N-1 (a two-player game is
N = 2). The kit's agents, logs, simulator, analytics and UI shell speak only this
protocol; they never import a game.

- ``legal_actions()`` is the one source of legality: it enumerates every legal action
  (targets included). The UI highlights from it, the AI picks from it, tests count it.
- ``apply(action)`` carries out a legal action and returns its events; for anything else
  it raises :class:`IllegalAction` naming the rule and leaves the match unchanged.
- ``observation(seat)`` is what that seat may see. Agents and the UI of a seat read only
  this; a perfect-information game returns the whole state. ``resample(seat, rng)`` is the
  game's determinization: a copy of the match in which everything hidden from ``seat`` is
  redrawn (consistently with what ``seat`` has seen) from ``rng`` — what a search agent
  plays out instead of the true hidden state.
- The match owns its RNG (``random.Random(seed)``) and copies it with the state, so the
  same (card table, setup, seed, actions) replays to the same states and hashes.
- The match names its game and keeps what rebuilds it (:data:`IDENTITY`): ``game`` (its
  registry name), ``seed``, ``setups`` (one per seat, as given) and ``history`` (the
  actions applied, oldest first). Logs, the simulator and the command line read them;
  ``Game.new`` checks them and raises :class:`ContractError` naming what is missing.
  ``options`` (JSON-able match options) is read by the kit's default log codec when present.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, Self, runtime_checkable

#: The winner label of a drawn match, in every game (``Game.winner``, result tables)
DRAW = "draw"


class IllegalAction(ValueError):
    """An action the rules do not allow now; ``rule`` is the rulebook ID it breaks."""

    def __init__(self, action: str, rule: str, reason: str) -> None:
        self.action = action
        self.rule = rule
        self.reason = reason
        super().__init__(f"illegal action {action!r}: {reason} ({rule})")


def check_seat(seat: object, num_seats: int, game: str = "") -> int:
    """``seat`` as an int in ``0..num_seats-1``, or a ``TypeError``/``ValueError`` naming
    that range. Every seat argument of a match (``observation``, ``resample`` …) passes
    through this first: a negative index would otherwise read another seat's private view
    (``hands[-1]``), ``True`` would be seat 1, ``None`` or ``'0'`` would fall through to
    some default. Integer types with ``__index__`` (numpy's) are taken; ``bool`` is not.
    """
    if type(seat) is int and 0 <= seat < num_seats:
        return seat  # the common case, without building the messages below
    where = f"{game} seats are" if game else "seats are"
    valid = f"{where} 0..{num_seats - 1}"
    if isinstance(seat, bool) or type(seat).__name__ == "bool_":
        raise TypeError(f"{valid}, not the bool {seat!r}")
    try:
        index = operator.index(seat)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"{valid}, not {type(seat).__name__} {seat!r}") from None
    if not 0 <= index < num_seats:
        raise ValueError(f"{valid}, not {index}")
    return index


class ContractError(TypeError):
    """A game's match breaks the kit protocol (e.g. lacks an attribute of :data:`IDENTITY`)."""


#: What a match keeps so that a log can rebuild it (see the module's docstring).
IDENTITY = ("game", "seed", "setups", "history")


def check_identity(match: object, game: str | None = None) -> None:
    """Raise :class:`ContractError` when ``match`` lacks an attribute of :data:`IDENTITY`
    or (given ``game``) names another game."""
    missing = [name for name in IDENTITY if not hasattr(match, name)]
    kind = type(match).__name__
    if missing:
        where = f"{game}'s " if game else ""
        raise ContractError(
            f"{where}match ({kind}) has no {', '.join(missing)}: a match names its game "
            '(e.g. game = "NAME" on the class) and keeps seed, setups and history '
            "(docs/kit.md, 'The match')"
        )
    named = getattr(match, "game")  # noqa: B009 - checked above, any object
    if not isinstance(named, str) or (game is not None and named != game):
        raise ContractError(f"match ({kind}) says its game is {named!r}, registered as {game!r}")


@runtime_checkable
class ActionLike(Protocol):
    """A game's action: a small frozen (hashable) value with a text and a dict form."""

    def text(self) -> str: ...

    def to_dict(self) -> dict[str, Any]: ...


@runtime_checkable
class EventLike(Protocol):
    """Something that happened; logs store ``to_dict()``, the 战报 reads the game's text."""

    def to_dict(self) -> dict[str, Any]: ...


@runtime_checkable
class GameMatch(Protocol):
    """One match of any game of the kit."""

    @property
    def game(self) -> str:
        """The registry name of the match's game (a class attribute is enough)."""
        ...

    @property
    def seed(self) -> int: ...

    @property
    def setups(self) -> Sequence[Any]:
        """One setup per seat, as ``Game.new`` was given them."""
        ...

    @property
    def history(self) -> Sequence[Any]:
        """The actions applied so far, oldest first."""
        ...

    @property
    def num_seats(self) -> int: ...

    @property
    def current_seat(self) -> int:
        """The seat to act; meaningless once ``is_over``."""
        ...

    @property
    def is_over(self) -> bool: ...

    def legal_actions(self) -> Sequence[Any]: ...

    def apply(self, action: Any) -> list[Any]:
        """Apply a legal action (or its text form); raise IllegalAction otherwise."""
        ...

    def parse(self, text: str) -> Any:
        """The action named by ``text`` (its ``text()`` form); ValueError if malformed."""
        ...

    def copy(self) -> Self: ...

    def hash(self) -> str:
        """A digest of the full state (hidden parts included) for replay checks."""
        ...

    def returns(self) -> list[float]:
        """One number per seat: +1 win, -1 loss, 0 draw/undecided (team games: per seat)."""
        ...

    def observation(self, seat: int) -> Mapping[str, Any]:
        """What ``seat`` may see, as plain data (JSON-able)."""
        ...

    def resample(self, seat: int, rng: random.Random) -> Self:
        """A copy with everything hidden from ``seat`` redrawn from ``rng``."""
        ...
