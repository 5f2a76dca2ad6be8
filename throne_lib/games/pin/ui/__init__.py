"""The PIN dashboard: a controller (plain Python, testable without a browser) and an
ipycanvas widget that draws what :mod:`throne_lib.games.pin.ui_model` describes."""
