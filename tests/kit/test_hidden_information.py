"""Hidden information stays hidden, in every registered game (CH-UI-3, PIN-COUNTER-5,
DESIGN.md "Hidden information stays hidden").

What a seat sees — its observation, which seat is awaited, which step it is — must not
depend on what that seat cannot see. From random positions (seeded random play), a
position resampled from seat ``s``'s view (``resample(s, rng)``: another deal of what ``s``
cannot see) must show ``s`` the same observation and the same seat to act as the real
one, and keep doing so after each public action applied to both.

Chance is held equal: the resampled copy gets the real match's RNG state (every game of
the kit keeps it as ``match.state.rng``), so a 50% roll comes out the same in both. What
may still differ is what ``s`` legitimately learns: its own draws from a pile whose order
it cannot see, a hand shown by a rule, an identity revealed at a death. Those show as
different *content* — a 战报 line that reads differently (games with a log in the
observation), or different card names in the same shape. A wait the other deal doesn't
have, a different seat to act, a different step, count or prompt is a leak: the walk
fails there, naming the game, seed, seat and what differs.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

import pytest

from throne_lib.kit import registry

POSITIONS = 12  # positions checked per game
WALK = 40  # public actions applied to both after each resample
SEATS = 6  # seats per match where the game allows (城堡之心: a 中立 is dealt from 6)


def _share_chance(real: Any, twin: Any) -> None:
    a = getattr(getattr(real, "state", None), "rng", None)
    b = getattr(getattr(twin, "state", None), "rng", None)
    if isinstance(a, random.Random) and isinstance(b, random.Random):
        b.setstate(a.getstate())


def _plain(obs: Mapping[str, Any]) -> Any:
    return json.loads(json.dumps(obs, sort_keys=True, default=str))


def _shape(x: Any) -> Any:
    """The observation with every name masked: keys, counts, numbers and list lengths
    stay (what a rule may not make depend on hidden things), strings go (what a reveal
    or a draw may legitimately change)."""
    if isinstance(x, dict):
        return {k: _shape(v) for k, v in sorted(x.items())}
    if isinstance(x, list):
        return [_shape(v) for v in x]
    if isinstance(x, str):
        return "·"
    return x


def _verdict(real: Any, twin: Any, seat: int) -> str:
    """'same', 'learned' (s learned something the two deals differ on) or a leak report."""
    a, b = _plain(real.observation(seat)), _plain(twin.observation(seat))
    turn_a, turn_b = real.current_seat, twin.current_seat
    if turn_a == turn_b and a == b:
        return "same"
    la, lb = a.get("log"), b.get("log")
    if isinstance(la, list) and isinstance(lb, list):
        n = min(len(la), len(lb))
        if la[:n] != lb[:n]:
            return "learned"  # a line that reads differently: a draw, a reveal, a named card
    if turn_a == turn_b and _shape(a) == _shape(b):
        return "learned"  # the same shape, other names: its own draw, a revealed card
    keys = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
    small = {k: (a.get(k), b.get(k)) for k in keys if len(json.dumps(a.get(k), default=str)) < 200}
    if isinstance(la, list) and isinstance(lb, list):
        small["log (last 3)"] = (la[-3:], lb[-3:])
    return f"seat to act {turn_a} vs {turn_b}; differs in {keys}: {small}"


def _walk(game: Any, real: Any, seat: int, rng: random.Random, where: str) -> int:
    twin = real.resample(seat, random.Random(rng.getrandbits(32)))
    _share_chance(real, twin)
    real = real.copy()
    verdict = _verdict(real, twin, seat)
    assert verdict == "same", f"{where}: the resample itself differs for seat {seat}: {verdict}"
    steps = 0
    for steps in range(1, WALK + 1):
        if real.is_over or twin.is_over:
            assert real.is_over == twin.is_over, f"{where}: one deal ended, the other didn't"
            break
        theirs = {a.text() for a in twin.legal_actions()}
        common = [a.text() for a in real.legal_actions() if a.text() in theirs]
        if not common:
            break  # the actor holds other cards in the two deals: nothing public to apply
        act = rng.choice(common)
        real.apply(act)
        twin.apply(act)
        if real.is_over or twin.is_over:
            # The end reveals every role and hand (CH-WIN-*): nothing is hidden to leak.
            assert real.is_over == twin.is_over, f"{where}: one deal ended, the other didn't"
            break
        verdict = _verdict(real, twin, seat)
        if verdict == "learned":
            break
        assert verdict == "same", (
            f"{where}: after {steps} public action(s) (last {act!r}), seat {seat} can tell "
            f"the real deal from another one: {verdict}"
        )
    return steps


def _seats(game: Any) -> int:
    lo, hi = game.seats
    return max(lo, min(hi, SEATS))


@pytest.mark.parametrize("name", [g.name for g in registry.games()])
def test_a_seat_cannot_tell_its_deal_from_another(name: str) -> None:
    """CH-UI-3 / PIN-COUNTER-5 (and every game): the same view and seat to act after each
    public action, in the real match and in one resampled from the watching seat's view."""
    game = registry.get(name)
    n = _seats(game)
    rng = random.Random(3300 + n)
    checked = walked = 0
    seed = 0
    while checked < POSITIONS:
        seed += 1
        setups = game.default_setups(n) if game.default_setups else None
        m = game.new(setups, seed=seed)
        horizon = rng.randrange(20, 400)
        played: list[Any] = []
        for _ in range(horizon):
            if m.is_over:
                break
            act = rng.choice(list(m.legal_actions()))
            m.apply(act)
            played.append(act)
        if m.is_over:
            # A short game (Goofspiel: 26 actions) ends before most horizons: check the
            # position just before its last action instead of drawing horizons forever.
            m = game.new(setups, seed=seed)
            for act in played[:-1]:
                m.apply(act)
            if m.is_over or not played:
                continue
        seat = rng.randrange(n)
        walked += _walk(game, m, seat, rng, f"{name} seed={seed} after {horizon} actions")
        checked += 1
    assert walked >= POSITIONS  # the walks went somewhere


PIN_WINDOW = """\
turn 3
active 甲
first 甲
cp 甲 20/16
cp 乙 20/16
hq 甲 anv_hq
hq 乙 aur_hq
unit u2 甲 anv_tanks 008
unit u3 乙 aur_templars 013
hand 乙 aur_mirror aur_golems
deck 乙 aur_golems aur_golems aur_sentinel aur_sentinel aur_templars aur_templars
deck 甲 anv_rifles anv_rifles anv_rifles
"""


def test_pin_counter_window_does_not_tell_the_hand() -> None:
    """PIN-COUNTER-5, where random walks seldom pass: 乙 holds 镜像屏障 (a counter to 甲's
    attack) in the real deal and not in most deals resampled from 甲's view; through the
    attack and its window 甲 sees the same view and the same seat to act in all of them."""
    from throne_lib.games.pin.cards import load_pin_cards
    from throne_lib.games.pin.scenario import load_scenario

    real = load_scenario(PIN_WINDOW, load_pin_cards())
    real.apply("activate u2")
    without = 0
    for k in range(8):
        twin = real.resample(0, random.Random(k))
        _share_chance(real, twin)
        without += "aur_mirror" not in twin.state.hands[1]
        a = real.copy()
        for act in ("attack u2 u3 动能", "pass"):
            a.apply(act)
            twin.apply(act)
            verdict = _verdict(a, twin, 0)
            assert verdict == "same", f"resample {k}, after {act!r}: {verdict}"
    assert without > 0  # some deals hold no counter there: the check can tell
