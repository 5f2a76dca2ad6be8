"""The touch-up on the holdout (issue #38, item 3: sturdier proposals; ``Budget.holdout_repair``).

Every long acceptance run ended with a general out of band on its holdout while in band
on the search and confirm blocks, which the kept steps flatter. The touch-up repairs the
last proposal once more from the holdout's rates, shows the result as one more proposal
marked as touched up, and leaves the verdict to the verification blocks. On the toy game
of test_balance.py (seconds)."""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path

import matplotlib
import pytest

sys.path.insert(0, str(Path(__file__).parent))

from test_balance import SMALL, TWO_OFF, ToyGame  # noqa: E402

from throne_lib.kit import balance_cli  # noqa: E402
from throne_lib.kit.balance import Budget, Targets, search_space, suggest  # noqa: E402
from throne_lib.kit.balance_panel import SuggestPanel  # noqa: E402
from throne_lib.kit.balance_report import report_text, result_frame, save_result  # noqa: E402
from throne_lib.kit.balance_run import load_run, show_text  # noqa: E402

# one generation of four: the search leaves the strong giant and the weak monk out of band
SHORT = replace(SMALL, population=4, generations=1, holdout_blocks=30)


@pytest.fixture(scope="module")
def runs() -> tuple[object, object]:
    game = ToyGame(TWO_OFF)
    space = search_space(game)
    plain = suggest(game, space, Targets(), SHORT, seed=5, backend="serial")
    touched = suggest(
        game, space, Targets(), replace(SHORT, holdout_repair=4), seed=5, backend="serial"
    )
    return plain, touched


def test_the_touch_up_brings_the_last_proposal_into_band_on_the_holdout(runs: tuple) -> None:
    plain, touched = runs
    assert touched.history == plain.history  # the same search: the touch-up comes after it
    assert not any(p.touched_up for p in plain.proposals) and not plain.touch_up
    # the search's proposals unchanged, one more after them, marked
    assert [p.changes for p in touched.proposals[:-1]] == [p.changes for p in plain.proposals]
    last, extra = plain.proposals[-1], touched.proposals[-1]
    assert extra.touched_up and not any(p.touched_up for p in touched.proposals[:-1])
    assert extra.number == len(plain.proposals) + 1
    assert last.after.imbalance > 0.3  # the search left it well out of band on the holdout
    assert extra.after.imbalance < last.after.imbalance / 3
    # it starts from the last proposal: every change of it is still there or moved on
    assert {k for k, _ in last.changes} <= {k for k, _ in extra.changes}
    assert len(extra.changes) <= SHORT.max_changes
    # each step kept a move only when it lowered the holdout's aimed imbalance
    steps = touched.touch_up
    assert 1 <= len(steps) <= 4 and steps[0]["imbalance_before"] == pytest.approx(
        last.after.imbalance
    )
    for h in steps:
        assert h["imbalance_after"] < h["imbalance_before"] if h["kept"] else True
        assert h["imbalance_after"] <= h["imbalance_before"]
        assert h["worked_on"] and all(d in (-1, 1) for _, d, _ in h["worked_on"])
    # and its verdict, like every proposal's, is on the verification blocks
    assert extra.verified is not None and extra.meets == extra.verified.meets


def test_a_touch_up_try_replays_only_the_holdout_matches_of_its_hero(runs: tuple) -> None:
    _, touched = runs
    steps = touched.touch_up
    assert len(steps) >= 2
    # a block pairs the four heroes both ways, twice: a hero plays half its matches
    per_hero = 30 * 4 * 3 * 2 // 2
    for a, b in zip(steps, steps[1:], strict=False):
        played = b["matches_played"] - a["matches_played"]
        assert 0 < played <= per_hero * b["tries"]


def test_the_touch_up_is_reproducible_from_the_seed(runs: tuple) -> None:
    _, touched = runs
    game = ToyGame(TWO_OFF)
    again = suggest(
        game, search_space(game), Targets(), replace(SHORT, holdout_repair=4), seed=5,
        backend="serial",
    )  # fmt: skip
    assert again.touch_up == touched.touch_up
    assert report_text(again) == report_text(touched)


def test_report_file_and_show_say_which_proposal_the_holdout_touched_up(
    runs: tuple, tmp_path: Path
) -> None:
    _, touched = runs
    n = touched.proposals[-1].number
    text = report_text(touched)
    assert "touch-up of the last proposal on the holdout" in text
    assert text.count("touched up on the holdout, which chose its last moves") == 1
    frame = result_frame(touched)
    assert set(frame[frame.touched_up].proposal) == {n}
    run = json.loads(frame.run_json.iloc[0])
    assert run["touch_up"] == json.loads(json.dumps(touched.touch_up))
    assert run["budget"]["holdout_repair"] == 4
    path = save_result(touched, tmp_path / "run.parquet")
    shown = show_text(load_run(path))
    assert shown.count("touched up on the holdout") == 1
    assert f"== proposal {n}:" in shown.split("touched up on the holdout")[0].splitlines()[-1]


def test_the_touch_up_is_off_unless_asked_and_takes_its_steps_from_the_command_line() -> None:
    assert Budget().holdout_repair == 0
    with pytest.raises(ValueError, match="holdout_repair"):
        Budget(holdout_repair=-1)
    args = balance_cli.build_parser("throne", balance_cli.hooks("throne")).parse_args(
        ["suggest", "--holdout-repair", "3"]
    )
    assert balance_cli._budget(args).holdout_repair == 3
    assert balance_cli._budget(balance_cli.options("throne")).holdout_repair == 0


def test_the_dashboard_offers_the_touch_up_and_names_its_proposal(tmp_path: Path) -> None:
    """「留出修补」 on the 调平建议 panel: the run's touched-up proposal is listed as
    「方案 N（留出修补）」, and so again when the saved run is shown at the next visit."""
    matplotlib.use("Agg")
    cards = tmp_path / "cards.csv"
    cards.write_text(TWO_OFF, encoding="utf-8")
    panel = SuggestPanel(ToyGame, cards, {"giant": "巨人"}, backend="serial")
    assert panel.touch_up.value == 0  # off unless asked, as on the command line
    panel.population.value, panel.generations.value = 4, 1
    panel.blocks.value, panel.holdout.value, panel.touch_up.value = 4, 30, 4
    assert panel._budget().holdout_repair == 4
    panel.run()
    labels = [label for label, _ in panel.choice.options]
    assert labels[-1].endswith("（留出修补）") and not any("留出修补" in x for x in labels[:-1])
    again = SuggestPanel(ToyGame, cards, {"giant": "巨人"}, backend="serial")
    assert [label for label, _ in again.choice.options] == labels
