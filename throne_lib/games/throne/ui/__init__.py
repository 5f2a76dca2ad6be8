"""Throne & Phalanx's play UI: pure layout/text/render/controller modules and the ipycanvas widget.

``widget`` (and :func:`play_app`) import ipywidgets and ipycanvas;
the other modules do not, so the engine and the renderer stay importable anywhere.
"""

from __future__ import annotations

from typing import Any


def play_app(**kwargs: Any) -> Any:
    """The play dashboard: deck choice, then a match against an AI (see ``app.py``)."""
    from throne_lib.games.throne.ui.app import PlayApp

    return PlayApp(**kwargs)


__all__ = ["play_app"]
