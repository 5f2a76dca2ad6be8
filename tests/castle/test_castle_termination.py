"""CH-TURN-11: a match ends even when position swaps keep the 城主 from ever starting a
turn (found by `throne simulate --game castle --players 4 -n 200 --seed 0`: match 167
swapped 拜帕 with the 城主 by 跳跃 every turn and ran 20,000 actions in round 1)."""

from __future__ import annotations

from throne_lib.kit import registry, sim


def test_match_167_of_the_seed_0_sweep_ends_by_the_turn_limit() -> None:
    game = registry.get("castle")
    ns = sim.build_parser(game).parse_args(["--players", "4", "-n", "200", "--seed", "0"])
    spec = sim.specs_from_args(game, ns, None)[167]
    match, row = sim.play_spec(spec)
    assert match.is_over
    state = match.state
    assert state.turn_no <= state.rules.max_rounds * state.n + 1
