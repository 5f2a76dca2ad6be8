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
    m = CastleMatch.from_scenario("\n".join(lines), rules=rules)
    settle(m)  # ``at="turn"``: a turn start that can't declare passes on (CH-UI-3)
    return m


def do(m: CastleMatch, *actions: str) -> list[str]:
    """Apply actions by text, each followed by the passes no one may refuse (a turn start
    that can't declare, a window seat with nothing to answer: CH-UI-3 asks them all);
    return the 战报 lines they produced."""
    out: list[str] = []
    for a in actions:
        out.extend(e.text for e in m.apply(a))
        out.extend(settle(m))
    return out


def settle(m: CastleMatch) -> list[str]:
    """Give every forced pass (``CastleMatch.forced_pass``) until a real choice is asked."""
    out: list[str] = []
    while not m.is_over and (act := m.forced_pass()) is not None:
        out.extend(e.text for e in m.apply(act))
    return out


def texts(m: CastleMatch) -> list[str]:
    return [a.text() for a in m.legal_actions()]


def P(m: CastleMatch, seat: int):  # noqa: N802 - short accessor used everywhere
    return m.state.players[seat]
