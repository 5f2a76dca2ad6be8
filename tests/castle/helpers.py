"""Shared helpers for the 城堡之心 tests: build positions from scenario notation."""

from __future__ import annotations

from throne_lib.games.castle import CastleMatch, CastleRules

DECK = ",".join(["sword"] * 10 + ["heal"] * 5 + ["mana"] * 5)


def scen(
    *seats: str,
    turn: int = 0,
    deck: str = DECK,
    discard: str = "",
    rules: CastleRules | None = None,
    at: str = "play",
) -> CastleMatch:
    """``seats`` like ``"lord li_wei hand=sword"``: seat numbers are added in order."""
    lines = [f"castle players={len(seats)} seed=1 round=1 turn={turn} at={at}"]
    lines += [f"seat {i} {line}" for i, line in enumerate(seats)]
    lines += [f"deck={deck}", f"discard={discard}"]
    return CastleMatch.from_scenario("\n".join(lines), rules=rules)


def do(m: CastleMatch, *actions: str) -> list[str]:
    """Apply actions by text; return the 战报 lines they produced."""
    out: list[str] = []
    for a in actions:
        out.extend(e.text for e in m.apply(a))
    return out


def texts(m: CastleMatch) -> list[str]:
    return [a.text() for a in m.legal_actions()]


def P(m: CastleMatch, seat: int):  # noqa: N802 - short accessor used everywhere
    return m.state.players[seat]
