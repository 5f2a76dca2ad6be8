"""PIN 架空战争's SimHooks for the kit's simulator: who moved first (the reveal decides it,
PIN-SETUP-4/-5, so seat 甲 is not always the first player), the turns played and why
the match ended, added to the kit's row. ``throne report --game pin`` then gives the
first player's win rate beside seat 甲's."""

from __future__ import annotations

from typing import Any

from throne_lib.games.pin.hexes import SIDE_NAMES
from throne_lib.kit.sim import KitSimHooks, MatchSpec


class PinSimHooks(KitSimHooks):
    def row(self, spec: MatchSpec, match: Any, state: Any, base: dict[str, Any]) -> dict[str, Any]:
        st = match.state
        row = dict(base)
        row["first"] = SIDE_NAMES[st.first] if st.first >= 0 else ""
        row["turns"] = st.turn
        row["end_reason"] = st.end_reason
        return row


HOOKS = PinSimHooks()
