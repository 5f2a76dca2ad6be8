"""The 城池战 dashboard: the 城堡之心 round table with cities (CW-UI), driven by
``legal_actions()``. Imported only by the notebook, so the engine stays UI-free."""

from throne_lib.games.cities.ui.app import CitiesApp, cities_app

__all__ = ["CitiesApp", "cities_app"]
