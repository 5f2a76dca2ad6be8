"""What the ``throne`` command line (:mod:`throne_lib.cli`) shares with the games' command
hooks: a game's commands raise :class:`CliError` for a user-facing error, without
importing the command line itself."""

from __future__ import annotations


class CliError(Exception):
    """A user-facing error: printed as one line, exit status 1."""
