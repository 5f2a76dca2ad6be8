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

from throne_lib.kit.balance import Proposal  # noqa: E402
from throne_lib.kit.balance_panel import SuggestPanel  # noqa: E402
from throne_lib.kit.balance_report import report_text  # noqa: E402


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


def _shows(panel: SuggestPanel, p: Proposal) -> None:
    """The detail of proposal ``p``: its card diff (or 「卡表无改动」, never the English of
    the text report) and each rules change by its Chinese name, with the field to set."""
    shown = panel.detail_html.value
    if any(not k.startswith("rules.") for k, _ in p.changes):
        assert html.escape(p.diff_text) in shown
    else:
        assert "卡表无改动" in shown and "no card changes" not in shown
    for name, old, new in p.rules_changes:
        assert f"规则 贴目（{name}）：{old} → {new}" in shown


def test_run_shows_progress_front_and_proposals(tmp_path: Path) -> None:
    panel = _panel(tmp_path)
    res = panel.run()
    assert panel.progress.value == panel.progress.max == 4  # one tick per generation (+ start)
    assert "留出验证完成" in panel.status.value
    assert res.proposals and len(panel.choice.options) == len(res.proposals)
    assert panel.front_figure is not None  # the Pareto front chart
    ax = panel.front_figure.axes[0]
    assert ax.get_xlabel().startswith("改动字段数") and ax.get_ylabel().startswith("失衡度")
    _shows(panel, res.proposals[0])  # proposal 1: its diff and before/after rates
    assert "调整后 after" in panel.detail_html.value
    assert panel.matrix_figure is not None and len(panel.matrix_figure.axes) == 3  # 2 maps + bar
    last = res.proposals[-1].number
    panel.choice.value = last  # clicking another proposal redraws its detail
    _shows(panel, res.proposal(last))
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


def test_repair_steps_reach_the_search_and_the_progress_bar(tmp_path: Path) -> None:
    panel = _tiny(_panel(tmp_path))
    panel.repair.value = 2
    res = panel.run()
    assert res.budget.repair == 2 and res.repairs_run >= 1
    assert panel.progress.max == 1 + 1 + 2  # generation 0, one generation, two steps
    assert "修补步数" in _labels(panel.widget)
    assert res.budget.confirm == 0


def test_the_confirm_box_gives_the_repair_confirm_blocks_and_combines_confirmed_moves(
    tmp_path: Path,
) -> None:
    panel = _tiny(_panel(tmp_path))
    panel.repair.value = 2
    panel.confirm.value = True
    res = panel.run()
    assert res.budget.confirm == panel.blocks.value == res.budget.blocks
    assert res.budget.repair_combine  # each general's confirmed move, made together
    assert "tries chosen on the search blocks failed on" in report_text(res)
    assert "复核修补" in _labels(panel.widget)
    panel.repair.value = 0  # nothing to confirm without a repair
    assert panel._budget().confirm == 0
    panel.confirm.value = False
    assert not panel._budget().repair_combine  # unconfirmed moves are never combined


# --- the same panel on the other games' balance pages (issue 21, items 3 and 4) ---------------


def _tiny(panel: SuggestPanel) -> SuggestPanel:
    panel.population.value = 2
    panel.generations.value = 1
    panel.blocks.value = 2
    panel.holdout.value = 1
    return panel


def _labels(widget: object) -> list[str]:
    """Every description in a widget tree."""
    out = [getattr(widget, "description", "")]
    for child in getattr(widget, "children", ()):
        out += _labels(child)
    return out


def test_castle_panel_has_no_first_seat_target_and_runs(tmp_path: Path) -> None:
    from throne_lib.games.castle.game import GAME as CASTLE
    from throne_lib.kit.balance_cli import suggest_panel

    cards = tmp_path / "cards-castle.csv"
    cards.write_bytes(CASTLE.card_tables[0].read_bytes())
    panel = _tiny(suggest_panel("castle", cards, backend="serial", block_matches=2))
    labels = _labels(panel.widget)
    assert "胜率区间" in labels and "先手上限" not in labels  # the 城主 always opens
    assert "筛选轮数" not in labels  # screening is for two-seat pairing games
    assert "rules.lord_mana" in panel.freeze.placeholder
    res = panel.run()
    assert res.targets.first_seat_max == 1.0
    assert panel.progress.value == panel.progress.max == 2
    assert "留出验证完成" in panel.status.value and panel.front_figure is not None
    # each role at the panel's seat count (5: no 中立, CH-ROLE-4); heroes are not groups
    assert list(res.groups) == ["lord@5", "enemy@5", "reinforcement@5"]
    if res.proposals:  # its rates: roles by Chinese name and seat count, no first-seat row
        assert "5人·城主" in panel.detail_html.value
        assert "先手" not in panel.detail_html.value
    else:
        assert "没有找到" in panel.detail_html.value


def test_pin_panel_has_decks_and_the_first_seat_and_runs(tmp_path: Path) -> None:
    from throne_lib.games.pin.game import GAME as PIN
    from throne_lib.kit.balance_cli import suggest_panel

    cards = tmp_path / "cards-pin.csv"
    cards.write_bytes(PIN.card_tables[0].read_bytes())
    panel = _tiny(suggest_panel("pin", cards, backend="serial", block_rounds=1))
    assert "先手上限" in _labels(panel.widget) and "筛选轮数" in _labels(panel.widget)
    panel.freeze.value = "anv_hq, rules.hq_hp"
    res = panel.run()
    assert res.groups == ["anvil", "aurora"] and res.targets.first_seat_max == 0.55
    assert panel.progress.value == panel.progress.max == 2
    for changes, _ in res.front:
        assert not any(k.startswith("anv_hq.") or k == "rules.hq_hp" for k, _ in changes)
    assert panel.names["anvil"] == "铁砧联邦"


def test_rules_changes_are_named_for_players() -> None:
    """The panel names a rules parameter by its label (RulesField.label, Chinese) with the
    field to set beside it; a parameter without a label keeps its field name."""
    from throne_lib.games.throne.balance import DEFAULT_RULES_KNOBS
    from throne_lib.kit.balance import search_space
    from throne_lib.kit.balance_panel import rules_label

    space = search_space(ToyGame())
    assert rules_label(space, "komi") == "贴目（komi）"
    assert rules_label(space, "not_searched") == "not_searched"
    labels = {n: f.label for n, f in DEFAULT_RULES_KNOBS.items()}
    assert labels == {
        "second_first_turn_mana": "后手首回合额外法力",
        "second_first_turn_draw": "后手首回合额外抽牌",
    }


def test_time_limit_estimate_and_apply_only_after_a_proposal(tmp_path: Path) -> None:
    """Issue 36, item 9: 限时 is the budget's time limit (--time-limit), 估算用时 times a
    block on this machine and says how long the search takes at most, 应用此方案 stays
    disabled until a run has a proposal, and the run's status shows time used and left."""
    panel = _panel(tmp_path)
    assert panel.apply_button.disabled and panel._budget().time_limit is None
    panel.time_limit.value = 2
    assert panel._budget().time_limit == 120.0
    seconds = panel.estimate()
    assert seconds > 0 and "预计最多约" in panel.estimate_label.value
    assert f"{panel.block_count()} 个区块" in panel.estimate_label.value
    assert "限时 2 分钟" in panel.estimate_label.value
    panel.time_limit.value = 0
    ticks: list[str] = []
    panel.status.observe(lambda ch: ticks.append(str(ch["new"])), names="value")
    panel.run()
    assert any("已用" in t and "预计还需" in t for t in ticks)
    assert "用时" in panel.status.value and not panel.apply_button.disabled


def test_the_screen_slider_reaches_the_search_and_the_estimate(tmp_path: Path) -> None:
    """For a pairing game the panel offers screening (Budget.screen): turning it on
    gives a repair with no steps 20, the estimate counts its rounds as blocks, and the
    run screens (its history holds the estimates) and reports each screened step."""
    from test_balance_screening import TABLE as PAIRS
    from test_balance_screening import ToyPairs

    cards = tmp_path / "cards.csv"
    cards.write_text(PAIRS, encoding="utf-8")
    panel = SuggestPanel(ToyPairs, cards, {}, backend="serial", screen_block_rounds=10)
    panel.generations.value, panel.blocks.value, panel.holdout.value = 1, 4, 2
    panel.verify_blocks.value = 2
    assert "筛选轮数" in _labels(panel.widget) and panel.repair.value == 0
    before = panel.block_count()
    panel.screen.value = 500
    assert panel.repair.value == 20
    assert panel.block_count() == before + 20 * 4 + 500 // 10
    res = panel.run()
    assert res.budget.screen == 500 and res.budget.repair == 20
    assert any("screening" in h for h in res.history)
    assert any("tried" in h for h in res.history)  # a screened step
    assert "复核完成" in panel.status.value
    # the repair's table is the run's recommended proposal: named so, and shown first
    (best,) = [p for p in res.proposals if p.repaired]
    labels = dict((v, label) for label, v in panel.choice.options)
    assert labels[best.number] == f"方案 {best.number}（推荐）"
    tips = dict(zip([v for _, v in panel.choice.options], panel.choice.tooltips, strict=True))
    assert tips[best.number].startswith("推荐：修补阶段结束时的卡表")
    assert [v for v, x in labels.items() if "推荐" in x] == [best.number]
    assert panel.choice.value == best.number
