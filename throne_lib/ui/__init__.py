"""Game-independent dashboard pages: the home page and the public demo's page helpers.

Each game's own UI lives in its package (Throne & Phalanx: ``throne_lib.games.throne.ui``).
"""
