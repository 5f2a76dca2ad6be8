"""``throne ladder`` (issue 32 item 4): round robins with seats swapped on paired seeds,
Bradley–Terry Elo with bootstrap intervals, and for multi-seat games the seat win rate
against the reference's on the same seeds, per role. Played on the toy game of
tests/test_kit_game.py so it stays fast."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from tests.test_kit_game import GAME as TAKEAWAY
from throne_lib.cli import main as throne_main
from throne_lib.kit import registry
from throne_lib.kit.ladder import (
    Entrant,
    bradley_terry,
    entrant_pairs,
    focus_table,
    join_ladders,
    ladder_specs,
    ladder_text,
    pair_table,
    parse_entrant,
    run_ladder,
)


@pytest.fixture(scope="module", autouse=True)
def _toy_game() -> Iterator[None]:
    registry.register(TAKEAWAY)
    yield
    registry.unregister(TAKEAWAY.name)


def test_entrants_parse_name_and_parameters() -> None:
    e = parse_entrant("ismcts:iterations=40:c=0.5:x=abc")
    assert e == Entrant("ismcts:iterations=40:c=0.5:x=abc", "ismcts",
                        (("iterations", 40), ("c", 0.5), ("x", "abc")))  # fmt: skip
    with pytest.raises(ValueError, match="name:key=value"):
        parse_entrant("ismcts:40")


def test_bradley_terry_recovers_the_win_ratio() -> None:
    """Two entrants: the strength ratio is the wins ratio (with the half-win prior); equal
    records give equal strengths; a transitive record keeps its order."""
    p = bradley_terry(np.array([[0.0, 30.0], [10.0, 0.0]]))
    assert p[0] / p[1] == pytest.approx(30.5 / 10.5, rel=1e-6)
    q = bradley_terry(np.array([[0.0, 5.0], [5.0, 0.0]]))
    assert q[0] == pytest.approx(q[1])
    r = bradley_terry(np.array([[0, 8, 9], [2, 0, 7], [1, 3, 0]], dtype=float))
    assert r[0] > r[1] > r[2]


def test_two_seat_specs_swap_seats_on_paired_seeds() -> None:
    g = registry.get(TAKEAWAY.name)
    es = [parse_entrant(x) for x in ("random", "search:iterations=4", "random:end_weight=1")]
    specs = ladder_specs(g, es, n=3, seats=2, seed=10)
    assert len(specs) == 3 * 3 * 2  # seeds x pairs x both seatings
    for a, b in zip(specs[::2], specs[1::2], strict=True):
        assert a.seed == b.seed and a.agents == b.agents[::-1] and a.params == b.params[::-1]
    assert {s.seed for s in specs} == {10, 11, 12}


def test_multi_seat_specs_rotate_the_focus_seat_against_a_baseline() -> None:
    g = registry.get(TAKEAWAY.name)
    es = [parse_entrant("random"), parse_entrant("search:iterations=4")]
    specs = ladder_specs(g, es, n=4, seats=3, seed=0)
    base = [s for s in specs if s.label == "base||"]
    focus = [s for s in specs if s.label.startswith("focus|")]
    assert len(base) == len(focus) == 4
    for b, f in zip(base, focus, strict=True):
        seat = int(f.label.split("|")[2])
        assert seat == b.seed % 3 and f.seed == b.seed
        assert f.agents[seat] == "search" and b.agents[seat] == "random"
        assert all(f.agents[q] == "random" for q in range(3) if q != seat)
        assert [f.agent_seed(q) for q in range(3)] == [b.agent_seed(q) for q in range(3)]


def test_two_seat_rows_without_returns_score_by_the_winner_column() -> None:
    """Throne's rows name the winner ("blue", "red" or "draw") and have no returns: the
    pair table reads the winner against the seats' ``<name>_agent`` columns (a Throne
    ladder failed with IndexError before)."""
    rows = []
    for seed, w1, w2 in ((1, "blue", "blue"), (2, "red", "blue"), (3, "draw", "red")):
        for (a, b), w in ((("A", "B"), w1), (("B", "A"), w2)):
            rows.append({"seed": seed, "ladder": f"pair|{a}|{b}", "winner": w,
                         "blue_agent": a, "blue_agent_seed": 0, "red_agent": b})  # fmt: skip
    t = pair_table(pd.DataFrame(rows)).set_index("agent")
    # A: seed 1 won 1 lost 1, seed 2 lost 2, seed 3 a draw and a win: 2.5 of 6
    assert t.loc["A", "score"] == pytest.approx(2.5 / 6)
    assert t.loc["B", "score"] == pytest.approx(3.5 / 6)


def test_focus_table_is_the_paired_difference_per_role() -> None:
    """Hand-made rows: the entrant's seat wins on seeds 1 and 2 where the baseline's lost
    on seed 1; the advantage is (1 + 0 + 0 - 0) / 3 per seat role."""
    rows = []
    for seed, base_r, focus_r in ((1, -1.0, 1.0), (2, 1.0, 1.0), (3, -1.0, -1.0)):
        common = {"seed": seed, "game": "x", "seat0_role": "lord"}
        rows.append({**common, "ladder": "base||", "seat0_return": base_r, "seat1_return": 0.0})
        rows.append({**common, "ladder": "focus|X|0", "seat0_return": focus_r, "seat1_return": 0.0})  # fmt: skip
    t = focus_table(pd.DataFrame(rows))
    allrow = t[t["role"] == "all"].iloc[0]
    assert allrow["seeds"] == 3 and allrow["better"] == 1 and allrow["worse"] == 0
    assert allrow["advantage"] == pytest.approx(1 / 3)
    assert allrow["win_rate"] == pytest.approx(2 / 3)
    assert allrow["reference_rate"] == pytest.approx(1 / 3)
    assert set(t["role"]) == {"all", "lord"}


def test_entrants_are_paired_with_each_other_on_the_seeds_both_played() -> None:
    """Hand-made rows, two entrants X and Y in the rated seat 0 (dealt 城主 on seeds 1-2,
    敌军 on seed 3; seed 4 played by X alone): Y minus X on the three seeds both played —
    Y won seeds 1 and 3, X seeds 1 and 2 — per role and over all; the report prints it.
    One entrant: no such table."""
    rows = []
    outcomes = {1: (1.0, 1.0, "lord"), 2: (1.0, -1.0, "lord"), 3: (-1.0, 1.0, "enemy"), 4: (1.0, None, "lord")}  # fmt: skip
    for seed, (x, y, role) in outcomes.items():
        common = {"seed": seed, "game": "x", "seat0_role": role, "seat0_agent": "scripted",
                  "seat1_agent": "scripted"}  # fmt: skip
        for label, r in (("base||", -1.0), ("focus|X|0", x), ("focus|Y|0", y)):
            if r is not None:  # (the seats' columns in seat order, as a ladder writes them)
                rows.append({**common, "ladder": label, "seat0_return": r, "seat1_return": 0.0})
    df = pd.DataFrame(rows)
    t = entrant_pairs(df).set_index("role")
    assert set(t["agent"]) == {"Y"} and set(t["against"]) == {"X"}
    assert t.loc["all", "seeds"] == 3
    assert t.loc["all", "win_rate"] == pytest.approx(2 / 3)
    assert t.loc["all", "against_rate"] == pytest.approx(2 / 3)
    assert t.loc["all", "advantage"] == pytest.approx(0.0)
    assert (t.loc["all", "better"], t.loc["all", "worse"]) == (1, 1)
    assert t.loc["lord", "seeds"] == 2 and t.loc["lord", "advantage"] == pytest.approx(-0.5)
    assert t.loc["enemy", "advantage"] == pytest.approx(1.0)
    text = ladder_text(df)
    assert "entrants against each other" in text
    assert "entrants against each other" not in ladder_text(df[df["ladder"] != "focus|Y|0"])


def test_ladder_end_to_end_writes_parquet_that_report_prints(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    """The command plays the round robin, fits the ratings, writes Parquet, and
    ``throne report`` prints the same ladder from the file."""
    out = tmp_path / "ladder.parquet"
    argv = ["ladder", "--game", TAKEAWAY.name, "--agents", "random,search:iterations=8",
            "-n", "6", "--backend", "serial", "--seats", "2", "--out", str(out), "--no-progress"]  # fmt: skip
    assert throne_main(argv) == 0
    printed = capsys.readouterr().out
    df = pd.read_parquet(out)
    assert len(df) == 12 and set(df["ladder"].str.split("|").str[0]) == {"pair"}
    table = pair_table(df)
    assert list(table.columns[:4]) == ["agent", "matches", "score", "elo"]
    row = table.set_index("agent").loc["random"]
    assert row["elo"] == 0.0 and row["elo_low"] <= 0.0 <= row["elo_high"]
    assert "Bradley–Terry" in printed
    assert throne_main(["report", str(out)]) == 0
    assert capsys.readouterr().out.strip() in printed


def test_multi_seat_ladder_runs_on_every_backend_alike() -> None:
    g = registry.get(TAKEAWAY.name)
    es = [parse_entrant("random"), parse_entrant("search:iterations=6")]
    specs = ladder_specs(g, es, n=6, seats=3, seed=3)
    a = run_ladder(specs, backend="serial", progress=False)
    b = run_ladder(specs, backend="process", workers=2, progress=False)
    pd.testing.assert_frame_equal(a, b)
    assert set(a["game"]) == {TAKEAWAY.name}  # the report's header names it
    t = focus_table(a)
    assert t.loc[t["role"] == "all", "seeds"].iloc[0] == 6


def test_a_bad_agent_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["ladder", "--game", TAKEAWAY.name, "--agents", "random", "-n", "1", "--backend", "serial"]  # fmt: skip
    assert throne_main(argv) == 1
    assert "at least two agents" in capsys.readouterr().err


def test_role_focus_puts_the_entrant_in_the_seat_dealt_that_role() -> None:
    """``--role lord`` (城堡之心, CH-ROLE): on every seed the entrant takes the 城主's seat,
    wherever the deal put it, so each of the n seeds measures the 城主; the table has
    that role alone."""
    g = registry.get("castle")
    es = [parse_entrant("scripted"), parse_entrant("random")]
    specs = ladder_specs(g, es, n=4, seats=5, seed=50, role="lord")
    focus = [s for s in specs if s.label.startswith("focus|")]
    assert len(focus) == 4 and len(specs) == 8
    df = run_ladder(specs, backend="serial", progress=False)
    seats = {int(s.label.rsplit("|", 1)[1]) for s in focus}
    assert len(seats) > 1  # the deal moves the 城主; rotation alone would not follow it
    for _, row in df[df["ladder"].str.startswith("focus|")].iterrows():
        seat = int(str(row["ladder"]).rsplit("|", 1)[1])
        assert row[f"seat{seat}_role"] == "lord"
        assert row[f"seat{seat}_agent"] == "random"
    t = focus_table(df)
    assert set(t["role"]) == {"lord", "all"} and set(t["seeds"]) == {4}


def test_role_focus_refuses_what_it_cannot_do(capsys: pytest.CaptureFixture[str]) -> None:
    g = registry.get("castle")
    es = [parse_entrant("scripted"), parse_entrant("random")]
    with pytest.raises(ValueError, match="'king'"):
        ladder_specs(g, es, n=2, seats=5, role="king")
    with pytest.raises(ValueError, match="three or more seats"):
        ladder_specs(registry.get("pin"), es, n=2, seats=2, role="lord")
    toy = registry.get(TAKEAWAY.name)
    with pytest.raises(ValueError, match="deals no roles"):
        ladder_specs(toy, es, n=2, seats=3, role="lord")
    argv = ["ladder", "--game", "castle", "--seats", "5", "--agents", "scripted,random",
            "--role", "king", "-n", "1", "--backend", "serial"]  # fmt: skip
    assert throne_main(argv) == 1
    assert "king" in capsys.readouterr().err


def test_tablemates_play_the_seats_not_rated_in_baseline_and_focus_alike(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--tablemates`` (issue 32: a 敌军 rated among searching players): the baseline has
    the reference in the rated seat only, every other seat of both matches is the
    tablemates' agent with the same seeds, and the report names them."""
    g = registry.get(TAKEAWAY.name)
    es = [parse_entrant("random"), parse_entrant("search:iterations=4")]
    mates = parse_entrant("random:end_weight=1")
    specs = ladder_specs(g, es, n=3, seats=3, seed=0, tablemates=mates)
    base = [s for s in specs if s.label == "base||"]
    focus = [s for s in specs if s.label.startswith("focus|")]
    assert len(base) == len(focus) == 3
    for b, f in zip(base, focus, strict=True):
        seat = int(f.label.split("|")[2])
        assert b.agent_label(seat) == "random"
        assert f.agent_label(seat) == "search:iterations=4"
        for q in set(range(3)) - {seat}:
            assert b.agent_label(q) == f.agent_label(q) == "random:end_weight=1"
        assert [f.agent_seed(q) for q in range(3)] == [b.agent_seed(q) for q in range(3)]
    # without tablemates the reference keeps every other seat (as before the option)
    plain = ladder_specs(g, es, n=3, seats=3, seed=0)
    assert all(s.agent_label(q) == "random" for s in plain if s.label == "base||" for q in range(3))
    out = tmp_path / "mates.parquet"
    argv = ["ladder", "--game", TAKEAWAY.name, "--agents", "random,search:iterations=4",
            "--tablemates", "random:end_weight=1", "-n", "3", "--seats", "3",
            "--backend", "serial", "--out", str(out), "--no-progress"]  # fmt: skip
    assert throne_main(argv) == 0
    printed = capsys.readouterr().out
    assert "the other seats played by: random:end_weight=1" in printed
    assert "vs the reference (random)" in printed
    df = pd.read_parquet(out)  # each seat's agent is in its row as given, with its parameters
    focus_rows = df[df["ladder"].str.startswith("focus|")]
    for _, row in focus_rows.iterrows():
        seat = int(str(row["ladder"]).rsplit("|", 1)[1])
        for q in range(3):
            want = "search:iterations=4" if q == seat else "random:end_weight=1"
            assert row[f"seat{q}_agent"] == want
    assert throne_main(["report", str(out)]) == 0
    assert "the other seats played by: random:end_weight=1" in capsys.readouterr().out
    # a stopped run: a seed's baseline played, its focus match not yet — the reference and
    # the tablemates are still told apart from the seeds that have both
    last = df[(df["seed"] == df["seed"].max()) & df["ladder"].str.startswith("focus|")]
    text = ladder_text(df.drop(last.index))
    assert "vs the reference (random)" in text
    assert "the other seats played by: random:end_weight=1" in text


def test_tablemates_are_refused_where_they_mean_nothing(capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    es = [parse_entrant("random"), parse_entrant("search:iterations=4")]
    with pytest.raises(ValueError, match="three or more seats"):
        ladder_specs(registry.get(TAKEAWAY.name), es, n=1, seats=2, tablemates=es[0])
    argv = ["ladder", "--game", TAKEAWAY.name, "--agents", "random,search", "--seats", "3",
            "--tablemates", "nobody", "-n", "1", "--backend", "serial"]  # fmt: skip
    assert throne_main(argv) == 1
    assert "nobody" in capsys.readouterr().err


def test_report_joins_ladder_files_pairing_an_entrant_screened_later(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A designer screens a new setting after an earlier run (issue 32 item 4): ``throne
    report A B`` pairs the later file's entrant with the earlier one's on the seeds both
    played — the same figures as one ladder that had played all three entrants — and
    keeps the reference's baseline once."""
    toy, seats = TAKEAWAY.name, "3"
    common = ["--game", toy, "--seats", seats, "--backend", "serial", "--no-progress"]
    a, b = tmp_path / "a.parquet", tmp_path / "b.parquet"
    assert throne_main(["ladder", *common, "--agents", "random,search:iterations=4", "-n", "6", "--out", str(a)]) == 0  # fmt: skip
    assert throne_main(["ladder", *common, "--agents", "random,search:iterations=12", "-n", "4", "--out", str(b)]) == 0  # fmt: skip
    whole = tmp_path / "whole.parquet"
    argv = ["ladder", *common, "--agents", "random,search:iterations=4,search:iterations=12", "-n", "4", "--out", str(whole)]  # fmt: skip
    assert throne_main(argv) == 0
    capsys.readouterr()
    assert throne_main(["report", str(a), str(b)]) == 0
    joined = capsys.readouterr().out
    assert joined.startswith("2 ladder files joined")
    df = join_ladders([(str(a), pd.read_parquet(a)), (str(b), pd.read_parquet(b))])
    assert (df["ladder"] == "base||").sum() == 6  # seeds 0-5 once, not 0-3 twice
    both = entrant_pairs(df)
    ref = entrant_pairs(pd.read_parquet(whole))
    cols = ["agent", "against", "role", "seeds", "win_rate", "against_rate", "advantage"]
    pd.testing.assert_frame_equal(both[cols], ref[cols])
    assert "entrants against each other" in joined


def test_report_refuses_to_join_what_cannot_be_paired(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Files of different table sizes, a baseline played differently on a shared seed (a
    rule changed between the runs), or a file that is no ladder: a clear error naming
    the files, nothing printed as if paired."""
    toy = TAKEAWAY.name
    common = ["--game", toy, "--backend", "serial", "--no-progress", "-n", "3"]
    a, b = tmp_path / "a.parquet", tmp_path / "b.parquet"
    assert throne_main(["ladder", *common, "--seats", "3", "--agents", "random,search:iterations=4", "--out", str(a)]) == 0  # fmt: skip
    assert throne_main(["ladder", *common, "--seats", "4", "--agents", "random,search:iterations=4", "--out", str(b)]) == 0  # fmt: skip
    capsys.readouterr()
    assert throne_main(["report", str(a), str(b)]) == 1
    err = capsys.readouterr().err
    assert "different table sizes" in err and "b.parquet" in err
    changed = pd.read_parquet(a)
    base = changed["ladder"] == "base||"
    changed.loc[base, "seat0_return"] = -changed.loc[base, "seat0_return"] + 0.5
    c = tmp_path / "c.parquet"
    changed.to_parquet(c)
    with pytest.raises(ValueError, match="played differently") as info:
        join_ladders([(str(a), pd.read_parquet(a)), (str(c), changed)])
    assert "a.parquet" in str(info.value) and "c.parquet" in str(info.value)
    sim = tmp_path / "sim.parquet"
    pd.DataFrame({"seed": [0], "game": [toy], "seat0_return": [1.0]}).to_parquet(sim)
    assert throne_main(["report", str(a), str(sim)]) == 1
    assert "sim.parquet: not a `throne ladder` file" in capsys.readouterr().err
