"""What one seat of a Throne & Phalanx match may see (:meth:`Match.observation`).

Seen: the board (every unit with all its stats), round, turn, phase, who moves first,
the pending captain offer, the result; per side its general, race, mana, counters,
graveyard and removed cards, and the sizes of its hand and deck; the seat's own hand.
Not seen: the opponent's hand, the order of either deck, the match RNG.

:func:`public_view` is what a playtest's spectator sees: the same without either hand.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from throne_lib.games.throne.state import UNIT_FIELDS, SideState, Unit
from throne_lib.kit.protocol import check_seat

if TYPE_CHECKING:
    from throne_lib.games.throne.match import Match


def _unit(u: Unit) -> dict[str, Any]:
    d = {name: getattr(u, name) for name in UNIT_FIELDS}
    d["offer"] = list(u.offer)
    return d


def _side(s: SideState, own: bool) -> dict[str, Any]:
    return {
        "general": s.general,
        "race": s.race,
        "mana": s.mana,
        "shuffles": s.shuffles,
        "name_uses": dict(s.name_uses),
        "skill_cooldown": s.skill_cooldown,
        "replaced": s.replaced,
        "founded": list(s.founded),
        "opening_pool": list(s.opening_pool),
        "grave": list(s.grave),
        "removed": list(s.removed),
        "hand_size": len(s.hand),
        "deck_size": len(s.deck),
        "hand": list(s.hand) if own else None,
    }


def observation(match: Match, seat: object) -> dict[str, Any]:
    """``seat``'s view of ``match`` as JSON-able data (see the module docstring)."""
    me = check_seat(seat, 2, "throne")
    st = match.state
    return {
        "seat": me,
        "round": st.round,
        "turn": st.turn,
        "first": st.first,
        "phase": st.phase,
        "pending": st.pending,
        "marched": st.marched,
        "winner": st.winner,
        "end_reason": st.end_reason,
        "board": [None if u is None else _unit(u) for u in st.board],
        "sides": [_side(s, own=i == me) for i, s in enumerate(st.sides)],
        "setups": [s.to_dict() for s in match.setups],
        "cards": match.db.hash,
    }


def public_view(match: Match) -> dict[str, Any]:
    """What someone at neither seat may see (a playtest's spectator): the observation
    without either side's hand (``seat`` None)."""
    view = observation(match, 0)
    view["seat"] = None
    for side in view["sides"]:
        side["hand"] = None
    return view
