"""The 城堡之心 dashboard: a round table on an ipycanvas, driven by ``legal_actions()``.

Imported only by the notebook (never at registration), so the engine stays UI-free.
"""

from throne_lib.games.castle.ui.app import CastleApp, castle_app

__all__ = ["CastleApp", "castle_app"]
