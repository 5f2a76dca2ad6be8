"""The winner of a finished match as result tables name it (``Game.winner``, the kit's
contract): every registered game labels a real draw "draw" and a win by its winner — a
seat or side, 城堡之心's winning role, 城池战's team — and ``throne simulate`` writes and
counts that label (issue 33, item 10)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pandas as pd
import pytest

from throne_lib.kit import registry
from throne_lib.kit.agents import make_agent
from throne_lib.kit.analytics import first_seat_edge, report_text, seat_scores
from throne_lib.kit.protocol import DRAW
from throne_lib.kit.sim import MatchSpec, play_spec, simulate_main


def play_out(game: registry.Game, match: Any, seed: int) -> Any:
    agents = [
        make_agent(game.default_agent, seed * 10 + s, game.name) for s in range(match.num_seats)
    ]
    for _ in range(20_000):
        if match.is_over:
            return match
        match.apply(agents[match.current_seat].choose(match))
    raise AssertionError(f"{game.name} seed {seed} did not end")


# --- a real draw of each game, reached by its own rules --------------------------------


def throne_draw(game: registry.Game) -> Any:
    m = game.new(seed=1)
    m.eng.finish(None, "throne")  # R-THRONE-1: both thrones fall in the same event
    return m


def castle_draw(game: registry.Game) -> Any:
    m = game.new(game.default_setups(5), 3, rules={"max_rounds": 1})  # CH-TURN-11
    return play_out(game, m, 3)


def cities_draw(game: registry.Game) -> Any:
    from throne_lib.games.cities.engine import sync, war_of

    m = game.new(["a", "b", "c"], 4)
    war_of(m.state).end_by_rounds()  # CW-WIN-6 with every team at 1 city and 30 grain
    sync(m.state)
    return m


def pin_draw(game: registry.Game) -> Any:
    from throne_lib.games.pin import combat

    m = game.new(seed=2)
    m.state.units[0].hp = m.state.units[1].hp = 0
    combat.check_win(m)  # PIN-HQ-4: both HQs fall at once
    return m


def goofspiel_draw(game: registry.Game) -> Any:
    m = game.new(seed=5)
    while not m.is_over:  # seat 1 always matches seat 0's bid: every prize tied (GS-END-1)
        bid = m.legal_actions()[0]
        m.apply(bid)
        m.apply(bid)
    return m


DRAWS: dict[str, Callable[[registry.Game], Any]] = {
    "throne": throne_draw,
    "castle": castle_draw,
    "cities": cities_draw,
    "pin": pin_draw,
    "goofspiel": goofspiel_draw,
}

# --- who won, worked out from each game's own state -------------------------------------


def castle_side(match: Any) -> str:
    roles = {p.role for p, r in zip(match.state.players, match.returns(), strict=True) if r > 0}
    return "城主" if "lord" in roles else "敌军" if "enemy" in roles else "中立"


def cities_team(match: Any) -> str:
    won = {match.setups[q] for q, r in enumerate(match.returns()) if r > 0}
    assert len(won) == 1, won
    return won.pop()


def seat_of_best(game: registry.Game) -> Callable[[Any], str]:
    def name(match: Any) -> str:
        r = match.returns()
        return game.seat_name(r.index(max(r)))

    return name


WINS: dict[str, tuple[list[Any] | None, Callable[[Any], str] | None]] = {
    "castle": (None, castle_side),  # 5 seats: 城主, 敌军 … (the default setups)
    "cities": (["a", "b", "a", "b"], cities_team),  # 2 v 2: the team's label
}


def test_every_registered_game_has_a_draw_case() -> None:
    assert {g.name for g in registry.games()} <= set(DRAWS), "add the new game's real draw"


@pytest.mark.parametrize("game", registry.games(), ids=lambda g: g.name)
def test_a_real_draw_says_draw(game: registry.Game) -> None:
    m = DRAWS[game.name](game)
    assert m.is_over
    assert game.winner(m) == DRAW


@pytest.mark.parametrize("game", registry.games(), ids=lambda g: g.name)
def test_a_win_names_the_winner(game: registry.Game) -> None:
    setups, expected = WINS.get(game.name, (None, None))
    if setups is None:
        setups = game.default_setups(5 if game.name == "castle" else game.seats[0])
    agents = (game.default_agent,) * len(setups)
    for seed in range(7, 17):  # the first decisive match from seed 7
        match, row = play_spec(MatchSpec(0, seed, tuple(setups), agents, game=game.name))
        if registry.winning_seats(match.returns()):
            break
    else:
        raise AssertionError(f"{game.name}: no decisive match in seeds 7-16")
    want = (expected or seat_of_best(game))(match)
    assert game.winner(match) == want == row["winner"] != DRAW
    assert not game.winner(game.new(list(setups), seed))  # not over: no label yet


def test_castle_labels_every_winning_side() -> None:
    """CH-WIN-2 / CH-WIN-3: the lord's side as 城主 (援军 with it), the enemies as 敌军, a
    last neutral as 中立 — end_game names the side, not the seats."""
    from throne_lib.games.castle.death import _win_check

    game = registry.get("castle")
    seen = {}
    for case in ("enemy", "lord", "neutral"):
        m = game.new(game.default_setups(6), 11)  # 城主, 援军, 3 敌军, 中立
        s = m.state
        for p in s.players:
            if case == "enemy":
                p.alive = p.role != "lord"
            elif case == "lord":
                p.alive = p.role not in ("enemy", "neutral")
            else:
                p.alive = p.role == "neutral"
        if case == "neutral":
            s.players[[p.role for p in s.players].index("neutral")].defected = False
        _win_check(s)
        seen[case] = game.winner(m)
    assert seen == {"enemy": "敌军", "lord": "城主", "neutral": "中立"}


def test_simulate_writes_and_counts_the_label(tmp_path: Any, capsys: Any) -> None:
    """``throne simulate --game castle`` printed ``winners: {'draw': N}`` for team wins."""
    out = tmp_path / "c.parquet"
    assert simulate_main(["--game", "castle", "-n", "3", "--seed", "7", "--workers", "1",
                          "--no-progress", "--out", str(out)]) == 0  # fmt: skip
    df = pd.read_parquet(out)
    assert set(df["winner"]) <= {"城主", "敌军", "中立", DRAW}
    assert (df["winner"] != DRAW).sum() == sum(
        bool(registry.winning_seats(r)) for r in df.filter(like="_return").to_numpy()
    )
    counts = df["winner"].value_counts().to_dict()
    assert f"winners: {counts}" in capsys.readouterr().out


def _frame(returns: list[list[float]], first: list[str] | None = None) -> pd.DataFrame:
    rows = []
    for i, r in enumerate(returns):
        row: dict[str, Any] = {"match": i, "winner": "?", "actions": 10}
        for s, v in enumerate(r):
            row[f"s{s}_agent"], row[f"s{s}_return"] = "a", v
        if first is not None:
            row["first"] = first[i]
        rows.append(row)
    return pd.DataFrame(rows)


def test_seat_scores_come_from_the_returns_not_the_label() -> None:
    """A team win scores 1 for each winning seat; a draw 1/N; a tie of K seats that
    beats the rest 1/K (城池战's CW-WIN-6)."""
    df = _frame([[1, -1, 1, -1], [0, 0, 0, 0], [0, 0, -1, -1]])
    assert seat_scores(df).to_numpy().tolist() == [
        [1, 0, 1, 0],
        [0.25, 0.25, 0.25, 0.25],
        [0.5, 0.5, 0, 0],
    ]


def test_report_names_the_first_player_and_seat_zero_apart() -> None:
    """PIN: the reveal decides who moves first, so "first seat" (seat 甲) is not the first
    player: the report gives both, each named."""
    df = _frame([[1, -1], [1, -1], [-1, 1], [-1, 1]], first=["s1", "s1", "s1", "s0"])
    assert first_seat_edge(df)["first_win_rate"] == 0.25  # the first player won 1 of 4
    assert first_seat_edge(df, "s0")["first_win_rate"] == 0.5  # seat s0 won 2 of 4
    text = report_text(df)
    assert "== first player (whoever moved first) ==" in text
    assert "== seat s0 (seat 0) ==" in text and "first seat" not in text
    assert "first player" not in report_text(df.drop(columns="first"))


def test_pin_rows_name_the_first_player() -> None:
    game = registry.get("pin")
    spec = MatchSpec(0, 3, tuple(game.default_setups(2)), ("standard", "standard"), game="pin")
    match, row = play_spec(spec)
    assert row["first"] == game.seat_name(match.state.first)


def test_kit_label_joins_the_winning_seats() -> None:
    names = ["s0", "s1", "s2"].__getitem__
    assert registry.seat_winner([1, -1, 1], names) == "s0+s2"
    assert registry.seat_winner([0, 0, 0], names) == DRAW
    assert registry.seat_winner([0, -1, -1], names) == "s0"
