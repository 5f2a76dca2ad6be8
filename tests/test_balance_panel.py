"""The balance dashboard's 「调平建议」 section (throne_lib/kit/balance_panel.py), driven
without a browser on the toy game of test_balance.py."""

from __future__ import annotations

import html
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

sys.path.insert(0, str(Path(__file__).parent))

from test_balance import TABLE, ToyGame  # noqa: E402

from throne_lib.kit.balance_panel import SuggestPanel  # noqa: E402


def _panel(tmp_path: Path) -> SuggestPanel:
    cards = tmp_path / "cards.csv"
    cards.write_text(TABLE, encoding="utf-8")
    panel = SuggestPanel(ToyGame, cards, {"giant": "巨人"}, backend="serial")
    panel.population.value = 6
    panel.generations.value = 3
    panel.blocks.value = 4
    panel.holdout.value = 20
    panel.seed.value = 3
    return panel


def test_run_shows_progress_front_and_proposals(tmp_path: Path) -> None:
    panel = _panel(tmp_path)
    res = panel.run()
    assert panel.progress.value == panel.progress.max == 4  # one tick per generation (+ start)
    assert "留出验证完成" in panel.status.value
    assert res.proposals and len(panel.choice.options) == len(res.proposals)
    assert panel.front_figure is not None  # the Pareto front chart
    ax = panel.front_figure.axes[0]
    assert ax.get_xlabel().startswith("改动字段数") and ax.get_ylabel().startswith("失衡度")
    shown = panel.detail_html.value  # proposal 1: its diff and before/after rates
    assert html.escape(res.proposals[0].diff_text) in shown and "调整后 after" in shown
    assert panel.matrix_figure is not None and len(panel.matrix_figure.axes) == 3  # 2 maps + bar
    last = res.proposals[-1].number
    panel.choice.value = last  # clicking another proposal redraws its detail
    assert html.escape(res.proposal(last).diff_text) in panel.detail_html.value
    assert panel.matrix_figure.axes[1].get_title() == f"方案 {last} after"
    assert not panel.apply_button.disabled


def test_apply_writes_the_selected_proposal_and_refuses_a_stale_table(tmp_path: Path) -> None:
    panel = _panel(tmp_path)
    res = panel.run()
    number = int(panel.choice.value)
    p = res.proposal(number)
    status = panel.apply()
    assert status.startswith(f"方案 {number} 已写入")
    assert (tmp_path / "cards.csv").read_text(encoding="utf-8") == p.table
    if any(not k.startswith("rules.") for k, _ in p.changes):
        again = panel.apply()  # the table has moved on: refused, file unchanged
        assert again.startswith("未应用") and (tmp_path / "cards.csv").read_text() == p.table


def test_freeze_text_reaches_the_search(tmp_path: Path) -> None:
    panel = _panel(tmp_path)
    panel.freeze.value = "giant, rules.komi"
    res = panel.run()
    for changes, _ in res.front:
        assert not any(k.startswith("giant.") or k == "rules.komi" for k, _ in changes)
