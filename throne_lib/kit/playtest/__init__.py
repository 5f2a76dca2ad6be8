"""Playtests (牌局): several people play one match from their own pages, each seeing only
their seat, with AIs in the empty seats (docs/playtests.md).

- :mod:`.store`: the store (SQLite in WAL mode by default) behind a small interface;
- :mod:`.session`: one page's part (join, follow, act, play the AI seats), UI-free;
- :mod:`.manage`: create a playtest, its links, its export as a kit log.

Game-agnostic: it speaks only the kit protocol and the registry.
"""
