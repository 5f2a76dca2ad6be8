"""What the ``throne`` command line (:mod:`throne_lib.cli`) shares with the games: the
typed command hooks a game registers as ``Game.cli``, and :class:`CliError`, which a
game's commands raise for a user-facing error without importing the command line.

A game subclasses :class:`KitCliHooks` and overrides what it needs; every hook left
alone keeps the kit's behaviour (a method returning ``None`` means "the kit's default")::

    class GoofCli(KitCliHooks):
        def summary(self, match: Any) -> list[str] | None:
            return [f"score: {match.state.score}"]

The nine hooks: ``add_play_arguments``, ``play_options`` and ``play_setups`` (extra
``play`` options, the match options and the seats' setups they ask for), ``play``, ``cards_check``, ``deck_check`` (whole
commands), ``summary`` (what ``play``/``replay`` print), ``report_text`` (``throne
report``) and ``errors`` (the lines an error of the game prints). With
``seat_options = True`` (the default) ``play`` has the kit's ``--seats``/``--players``
and ``--agents`` options; a game whose seats are not "N seats of agents" (Throne: a deck
and an agent per side) sets it False and adds its own.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from throne_lib.kit.registry import Game


class CliError(Exception):
    """A user-facing error: printed as one line, exit status 1."""


@runtime_checkable
class CliHooks(Protocol):
    """The command hooks of a game (``Game.cli``); see the module's docstring."""

    seat_options: bool

    def add_play_arguments(self, play: argparse.ArgumentParser) -> None:
        """Add the game's own ``play`` options (after the kit's)."""
        ...

    def play_options(self, args: argparse.Namespace) -> dict[str, Any]:
        """The match options (``Game.new(..., **options)``) the ``play`` arguments ask for."""
        ...

    def play_setups(self, args: argparse.Namespace, seats: int) -> list[Any] | None:
        """The setups of ``seats`` seats the game's own ``play`` options ask for (城池战's
        ``--teams``); None: ``--setups`` or the game's default setups."""
        ...

    def play(self, args: argparse.Namespace) -> int | None:
        """The whole ``play`` command (exit status); None: the kit plays the match."""
        ...

    def cards_check(self, args: argparse.Namespace) -> int | None:
        """The whole ``cards check`` command; None: the kit parses the table."""
        ...

    def deck_check(self, args: argparse.Namespace) -> int | None:
        """The whole ``deck check`` command; None: the game has no decks."""
        ...

    def summary(self, match: Any) -> list[str] | None:
        """The lines ``play`` and ``replay`` print about a match; None: the kit's."""
        ...

    def report_text(self, df: Any, top: int = 15) -> str | None:
        """``throne report`` of a results frame; None: the kit's report."""
        ...

    def errors(self, exc: Exception) -> list[str] | None:
        """The lines an error of the game prints; None: the kit's one line."""
        ...


class KitCliHooks:
    """Every hook of :class:`CliHooks` with the kit's behaviour: subclass, override some."""

    seat_options: bool = True

    def add_play_arguments(self, play: argparse.ArgumentParser) -> None:
        return None

    def play_options(self, args: argparse.Namespace) -> dict[str, Any]:
        return {}

    def play_setups(self, args: argparse.Namespace, seats: int) -> list[Any] | None:
        return None

    def play(self, args: argparse.Namespace) -> int | None:
        return None

    def cards_check(self, args: argparse.Namespace) -> int | None:
        return None

    def deck_check(self, args: argparse.Namespace) -> int | None:
        return None

    def summary(self, match: Any) -> list[str] | None:
        return None

    def report_text(self, df: Any, top: int = 15) -> str | None:
        return None

    def errors(self, exc: Exception) -> list[str] | None:
        return None


KIT_CLI = KitCliHooks()


def cli_hooks(game: Game) -> CliHooks:
    """``game``'s command hooks (``Game.cli``, imported when a "module:attr" string), or
    the kit's when it registers none; TypeError naming what is missing otherwise."""
    hooks = game.hook("cli")
    if hooks is None:
        return KIT_CLI
    if not isinstance(hooks, CliHooks):
        names = [n for n in (*CliHooks.__annotations__, *_METHODS) if not hasattr(hooks, n)]
        raise TypeError(
            f"{game.name}: Game.cli is a {type(hooks).__name__} without {', '.join(names)}; "
            "subclass throne_lib.kit.cli.KitCliHooks"
        )
    return hooks


_METHODS = (
    "add_play_arguments",
    "play_options",
    "play_setups",
    "play",
    "cards_check",
    "deck_check",
    "summary",
    "report_text",
    "errors",
)
