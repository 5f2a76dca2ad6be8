"""The balance pages' 「对比两个版本」 section (issue 38, item 6): rule lines and an
optional second card table in, the paired table out; bad input is one red line."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from throne_lib.kit import registry
from throne_lib.kit.ui.compare_panel import ComparePanel, compare_panel, rule_lines

pytest.importorskip("ipywidgets")


def test_rule_lines_skip_blanks_and_comments() -> None:
    assert rule_lines("a=1\n\n  # why\n b = 2 \n") == ["a=1", "b = 2"]


def test_a_rule_change_fills_the_table() -> None:
    """城堡之心, 30 more HP for the 城主 (CH-SETUP-6), seeds 0-5: the table has the role
    rows, the 城主's rise is highlighted, the progress bar counted both variants."""
    panel = compare_panel("castle", backend="serial", seeds=6)
    panel.rules.value = "# the lord survives longer\nlord_bonus_hp=30\n"
    cmp = panel.run()
    assert cmp is not None and panel.comparison is cmp
    assert panel.progress.value == panel.progress.max == 12
    assert "胜率 · 身份" in panel.result.value and "城主" in panel.result.value
    roles = cmp.table[cmp.table["section"] == "win rate · role"].set_index("key")
    assert roles.loc["lord", "delta"] > 0
    assert "tp-cmp-sig" in panel.result.value  # at least one interval excludes 0
    assert "完成" in panel.status.value and not panel.button.disabled


def test_the_same_card_table_twice_changes_nothing(tmp_path: Path) -> None:
    a = registry.get("pin").card_tables[0]
    b = tmp_path / "b.csv"
    shutil.copy(a, b)
    panel = ComparePanel("pin", backend="serial", seeds=3)
    panel.cards.value = str(b)
    cmp = panel.run()
    assert cmp is not None
    assert (cmp.table["delta"] == 0).all()
    assert "tp-cmp-sig" not in panel.result.value


@pytest.mark.parametrize(
    ("rules", "cards", "message"),
    [
        ("bogus=1", "", "pin has no rule field &#x27;bogus&#x27;; valid fields:"),
        ("cp_rise=lots", "", "expected int"),
        ("", "", "请至少填写一条规则改动（field=value）、第二张卡表的路径，或换一个变体的 AI"),
        ("", "missing.csv", "找不到卡表文件 missing.csv"),
    ],
)
def test_bad_input_is_one_red_line(rules: str, cards: str, message: str) -> None:
    panel = ComparePanel("pin", backend="serial", seeds=2)
    panel.rules.value, panel.cards.value = rules, cards
    panel.result.value = "<table>earlier</table>"
    assert panel.run() is None
    assert "无法对比" in panel.status.value and message in panel.status.value
    assert panel.result.value == "<table>earlier</table>"  # the last result stays


def test_the_variants_ai_alone_is_a_comparison() -> None:
    """No rule or table change, only the variant's AI: the same seeds played by the
    game's agent and by the search (goofspiel: its matches are short)."""
    panel = ComparePanel("goofspiel", backend="serial", seeds=8)
    panel.agent.value = "ismcts:iterations=10"
    cmp = panel.run()
    assert cmp is not None
    assert set(cmp.base["seat0_agent"]) == {registry.get("goofspiel").default_agent}
    assert set(cmp.variant["seat0_agent"]) == {"ismcts:iterations=10"}
    assert list(cmp.base["seed"]) == list(cmp.variant["seed"])
    assert "信息集搜索 · 10 次迭代" in panel.status.value
