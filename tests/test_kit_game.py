"""The kit protocol is enough (issue 13): a tiny 3-seat game defined here — no kit file
changed for it — runs through the registry, simulate (serial, processes, Dask), the log
writer, ``throne replay --check``, and the kit's random and search agents.

取石子 (take-away): a pile of stones; seats take 1-3 in turn, or once play their hidden
card to take exactly its value; whoever takes the last stone wins. Each seat's card is
dealt from a shuffled deck and hidden from the others until played, so ``resample`` has
something to redraw.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from throne_lib.cli import main as throne_main
from throne_lib.kit import registry
from throne_lib.kit.agents import RandomAgent, SearchAgent, make_agent, play_match
from throne_lib.kit.analytics import first_seat_edge, win_rates
from throne_lib.kit.log import LogError, read_log, replay, write_log
from throne_lib.kit.protocol import GameMatch, IllegalAction
from throne_lib.kit.sim import MatchSpec, save_results, seat_specs, simulate, simulate_main

DECK = (1, 2, 3, 4, 5, 6)


@dataclass(frozen=True)
class Take:
    n: int
    card: bool = False

    def text(self) -> str:
        return f"{'card' if self.card else 'take'} {self.n}"

    def to_dict(self) -> dict[str, Any]:
        return {"n": self.n, "card": self.card}


@dataclass(frozen=True)
class Took:
    seat: int
    n: int
    card: bool

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "n": self.n, "card": self.card}


class TakeAway:
    """One match of 取石子 for len(setups) seats."""

    game = "takeaway"

    def __init__(self, setups: list[Any], seed: int, options: dict[str, Any]) -> None:
        self.setups, self.seed, self.options = list(setups), seed, dict(options)
        self.rng = random.Random(seed)
        deck = list(DECK)
        self.rng.shuffle(deck)
        self.cards: list[int | None] = deck[: len(setups)]  # None once played
        self.played: list[int] = []  # public
        self.pile = int(options.get("stones", 15))
        self.turn, self.winner = 0, -1
        self.history: list[Take] = []

    num_seats = property(lambda self: len(self.setups))
    current_seat = property(lambda self: self.turn)
    is_over = property(lambda self: self.winner >= 0)

    def legal_actions(self) -> list[Take]:
        if self.is_over:
            return []
        out = [Take(n) for n in (1, 2, 3) if n <= self.pile]
        c = self.cards[self.turn]
        return out + ([Take(c, True)] if c is not None and c <= self.pile else [])

    def parse(self, text: str) -> Take:
        kind, n = text.split()
        return Take(int(n), kind == "card")

    def apply(self, action: Take | str) -> list[Took]:
        a = self.parse(action) if isinstance(action, str) else action
        if a not in self.legal_actions():
            raise IllegalAction(a.text(), "TK-1", "take 1-3 stones or your own card's value")
        if a.card:
            self.cards[self.turn] = None
            self.played.append(a.n)
        self.pile -= a.n
        self.history.append(a)
        ev = [Took(self.turn, a.n, a.card)]
        if self.pile == 0:
            self.winner = self.turn
        self.turn = (self.turn + 1) % self.num_seats
        return ev

    def copy(self) -> TakeAway:
        m = TakeAway.__new__(TakeAway)
        m.__dict__.update(self.__dict__)
        m.cards, m.played, m.history = self.cards[:], self.played[:], self.history[:]
        m.rng = random.Random()
        m.rng.setstate(self.rng.getstate())
        return m

    def hash(self) -> str:
        key = (self.pile, self.turn, self.winner, self.cards, self.played, self.rng.getstate())
        return hashlib.sha256(repr(key).encode()).hexdigest()[:16]

    def returns(self) -> list[float]:
        if not self.is_over:
            return [0.0] * self.num_seats
        return [1.0 if s == self.winner else -1.0 for s in range(self.num_seats)]

    def observation(self, seat: int) -> dict[str, Any]:
        held = [c is not None for c in self.cards]
        return {"pile": self.pile, "turn": self.turn, "card": self.cards[seat], "held": held,
                "played": list(self.played), "winner": self.winner}  # fmt: skip

    def resample(self, seat: int, rng: random.Random) -> TakeAway:
        """Other seats' unplayed cards redrawn from the cards ``seat`` has not seen."""
        m = self.copy()
        unseen = [c for c in DECK if c != self.cards[seat] and c not in self.played]
        rng.shuffle(unseen)
        for s in range(self.num_seats):
            if s != seat and m.cards[s] is not None:
                m.cards[s] = unseen.pop()
        m.rng.seed(rng.getrandbits(64))
        return m


# Registered only while this module's (or test_ismcts's) tests run: registering at import
# would add it to every test parametrised over registry.games() collected afterwards.
GAME = registry.Game(
    name="takeaway",
    title="取石子",
    title_en="Take-away",
    rule_prefix="TK-",
    module=__name__,
    seats=(2, 4),
    new_match=lambda setups, seed, options: TakeAway(list(setups), seed, dict(options)),
    default_setups=lambda n: [f"p{i}" for i in range(n)],
)


@pytest.fixture(scope="module", autouse=True)
def _registered() -> Any:
    registry.register(GAME)
    yield
    registry.unregister(GAME.name)


def specs(n: int = 6) -> list[MatchSpec]:
    return seat_specs(
        "takeaway", ["a", "b", "c"], ["search", "random", "random"], n, 3, rotate=True
    )


def test_the_tiny_game_speaks_the_protocol() -> None:
    m = registry.get("takeaway").new(["a", "b", "c"], seed=1)
    assert isinstance(m, GameMatch) and m.num_seats == 3
    before = m.hash()
    with pytest.raises(IllegalAction, match="TK-1"):
        m.apply("take 4")
    assert m.hash() == before
    json.dumps(m.observation(0))


def test_simulate_rows_are_the_same_on_every_backend() -> None:
    serial = simulate(specs(), backend="serial", progress=False)
    procs = simulate(specs(), backend="process", workers=2, progress=False)
    dask = simulate(specs(), backend="dask", workers=2, progress=False)
    pd.testing.assert_frame_equal(serial, procs)
    pd.testing.assert_frame_equal(serial, dask)
    assert list(serial["game"]) == ["takeaway"] * 6
    assert set(serial["winner"]) <= {"seat0", "seat1", "seat2"}
    assert list(serial["seat0_agent"][:3]) == ["search", "random", "random"]  # rotated
    assert (serial[["seat0_return", "seat1_return", "seat2_return"]].sum(axis=1) == -1).all()


def test_logs_replay_and_a_tampered_log_names_its_line(tmp_path: Path) -> None:
    simulate(specs(3), backend="serial", progress=False, log_dir=tmp_path)
    logs = sorted(tmp_path.glob("match_*.jsonl"))
    assert len(logs) == 3
    header = json.loads(logs[0].read_text(encoding="utf-8").splitlines()[0])
    assert header["game"] == "takeaway" and header["setups"] == ["a", "b", "c"]
    m = replay(logs[0])
    assert m.is_over and read_log(logs[0]).result is not None
    assert throne_main(["replay", str(logs[0]), "--check"]) == 0
    lines = logs[1].read_text(encoding="utf-8").splitlines()
    rec = json.loads(lines[2])
    rec["hash"] = "0" * 16
    lines[2] = json.dumps(rec)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(LogError, match=r"bad.jsonl:3: state hash mismatch"):
        replay(bad)
    assert throne_main(["replay", str(bad), "--check"]) == 1


def test_the_log_writer_by_hand_and_the_cli(tmp_path: Path) -> None:
    m = registry.get("takeaway").new(["x", "y", "z"], seed=8, stones=11)
    play_match(m, RandomAgent(1), RandomAgent(2), RandomAgent(3))
    path = write_log(m, tmp_path / "m.jsonl")
    assert replay(path).hash() == m.hash()
    log = tmp_path / "cli.jsonl"
    args = ["--game", "takeaway", "play", "--agents", "random,search,random", "--log", str(log)]
    assert throne_main(args) == 0
    assert throne_main(["replay", str(log), "--check", "--game", "takeaway"]) == 0
    assert throne_main(["replay", str(log), "--game", "throne"]) == 1  # wrong game named
    out = tmp_path / "r.parquet"
    argv = ["--game", "takeaway", "--seats", "4", "-n", "2", "--no-progress", "--out", str(out)]
    assert simulate_main([*argv, "--backend", "serial"]) == 0
    assert len(pd.read_parquet(out)) == 2


def test_kit_analytics_report_the_seats(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    df = simulate(specs(9), backend="serial", progress=False)
    seats = win_rates(df)
    assert sorted(seats["seat"]) == ["seat0", "seat1", "seat2"]
    assert seats["matches"].sum() == 27 and seats["wins"].sum() == 9
    agents = win_rates(df, "agent").set_index("agent")
    assert agents.loc["search", "matches"] == 9 and agents.loc["random", "matches"] == 18
    assert 0 <= first_seat_edge(df)["first_win_rate"] <= 1
    path = save_results(df, tmp_path / "r.parquet")
    assert throne_main(["report", str(path)]) == 0  # the game comes from the frame
    out = capsys.readouterr().out
    assert "win rate per seat" in out and "== seat seat0 (seat 0) ==" in out
    assert "first player" not in out and "match length" in out  # takeaway names no first player


def test_search_reads_only_the_observation() -> None:
    """Two matches alike for seat 0 but with other hidden cards and another match RNG:
    the search agent (same seed) chooses the same, as it may only see the observation."""
    a = registry.get("takeaway").new(["a", "b", "c"], seed=4)
    b = a.copy()
    assert isinstance(a, TakeAway) and isinstance(b, TakeAway)
    others = [c for c in DECK if c not in a.cards]
    b.cards[1], b.cards[2] = others[0], others[1]
    b.rng.seed(12345)
    assert a.observation(0) == b.observation(0) and a.hash() != b.hash()
    picks_a = [SearchAgent(s, iterations=40).choose(a) for s in range(5)]
    picks_b = [SearchAgent(s, iterations=40).choose(b) for s in range(5)]
    assert picks_a == picks_b


def test_search_beats_random_players() -> None:
    """Over 30 seeded matches (seats rotating) the kit's search wins more than its third."""
    wins = 0
    for i in range(30):
        m = registry.get("takeaway").new(["a", "b", "c"], seed=100 + i)
        agents: list[Any] = [make_agent("random", 10 * i + s, "takeaway") for s in range(3)]
        me = i % 3
        agents[me] = make_agent("search", i, "takeaway", iterations=48)
        play_match(m, *agents)
        wins += m.returns()[me] > 0
    assert wins > 10 + 5, wins
