"""Reviewing match logs: the event table, the per-turn timeline and the charts."""

from __future__ import annotations

import io
from pathlib import Path

import pandas as pd
import pytest

from throne_lib.cli import main
from throne_lib.games.throne.cards import CardDB
from throne_lib.games.throne.decks import signature_deck
from throne_lib.games.throne.match import Match
from throne_lib.games.throne.review import (
    EVENT_COLUMNS,
    TIMELINE_COLUMNS,
    damage_by_card,
    events_frame,
    plot_review,
    timeline,
)
from throne_lib.kit.agents import RandomAgent, play_match
from throne_lib.kit.log import iter_replay, read_log, write_log


@pytest.fixture(scope="module")
def log_path(tmp_path_factory: pytest.TempPathFactory, db: CardDB) -> Path:
    m = Match.new(db, signature_deck(db, "demon"), signature_deck(db, "elf"), seed=11)
    play_match(m, RandomAgent(1), RandomAgent(2))
    return write_log(m, tmp_path_factory.mktemp("logs") / "m.jsonl")


def test_events_frame_has_one_row_per_event_with_typed_columns(log_path: Path) -> None:
    lf = read_log(log_path)
    frame = events_frame(lf)
    assert tuple(frame.columns) == EVENT_COLUMNS
    assert len(frame) == sum(len(r.events) for r in lf.records)
    assert frame["round"].dtype == "int64" and frame["amount"].dtype == "int64"
    assert isinstance(frame["kind"].dtype, pd.CategoricalDtype)
    # every attack row names a real cell and a Chinese card name
    attacks = frame[frame["kind"] == "attack"]
    assert len(attacks) > 0
    assert attacks["cell"].str.match(r"^[a-g][1-6]$").all()
    assert (attacks["actor_name"] != "").all()
    # the step column follows the log's action numbers
    assert frame["step"].min() == 1 and frame["step"].max() == len(lf.records)


def test_iter_replay_steps_through_every_recorded_hash(log_path: Path) -> None:
    """R-TURN-12: the log replays step by step to the recorded state hash."""
    lf = read_log(log_path)
    steps = 0
    for rec, match in iter_replay(lf):
        if rec is not None:
            assert match.hash() == rec.hash
            steps += 1
    assert steps == len(lf.records)


def test_timeline_has_a_row_per_finished_turn(log_path: Path) -> None:
    lf = read_log(log_path)
    tl = timeline(lf)
    assert tuple(tl.columns) == TIMELINE_COLUMNS
    ends = sum(1 for r in lf.records if r.action == "end")
    assert len(tl) in (ends, ends + 1)  # + the turn in which the match ended
    assert (tl["mana_available"] >= 5).all()  # R-TURN-2: base mana 5, plus peasants
    last = tl.iloc[-1]
    final = iter_replay(lf)
    *_, (_, match) = final
    assert last["hp_blue"] == match.throne_hp(0) and last["hp_red"] == match.throne_hp(1)


def test_damage_by_card_sums_damage_events(log_path: Path) -> None:
    frame = events_frame(log_path)
    dmg = damage_by_card(frame)
    assert dmg.sum() == frame.loc[frame["kind"] == "damage", "amount"].sum()
    assert list(dmg.values) == sorted(dmg.values, reverse=True)


def test_plot_review_draws_four_charts(log_path: Path) -> None:
    fig = plot_review(log_path)
    assert len(fig.axes) == 4
    titles = [ax.get_title() for ax in fig.axes]
    assert any("throne HP" in t for t in titles)
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    assert buf.getvalue()[:4] == b"\x89PNG"


def test_cli_log_csv_exports_the_event_table(log_path: Path, tmp_path: Path) -> None:
    out = tmp_path / "events.csv"
    assert main(["log", str(log_path), "--csv", str(out)]) == 0
    exported = pd.read_csv(out)
    assert list(exported.columns) == list(EVENT_COLUMNS)
    assert len(exported) == len(events_frame(log_path))


def test_cli_log_on_a_corrupt_file_names_the_line(
    tmp_path: Path, log_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.jsonl"
    lines = log_path.read_text(encoding="utf-8").splitlines()
    bad.write_text("\n".join(lines[:3] + ["{not json"]) + "\n", encoding="utf-8")
    assert main(["log", str(bad), "--csv", str(tmp_path / "x.csv")]) == 1
    assert "bad.jsonl:4:" in capsys.readouterr().err
