"""The 「调平建议」 panel before any run (issue 36, item 9): the last saved run shown at
once, how long a first search takes at the recorded speed, 应用此方案 only with a
proposal, and every run saved, timed and announced with its estimate. Driven without a
browser on the toy game of test_balance.py (throne_lib/kit/balance_saved.py)."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import matplotlib
import pytest

matplotlib.use("Agg")

sys.path.insert(0, str(Path(__file__).parent))

from test_balance import TABLE, ToyGame  # noqa: E402

from throne_lib.kit.balance_panel import SuggestPanel  # noqa: E402
from throne_lib.kit.balance_run import load_run  # noqa: E402
from throne_lib.kit.balance_saved import (  # noqa: E402
    estimate_html,
    estimate_seconds,
    latest_run,
    read_speed,
    record_speed,
    saved_path,
    shipped_runs,
)


def _panel(folder: Path) -> SuggestPanel:
    cards = folder / "cards.csv"
    if not cards.exists():
        cards.write_text(TABLE, encoding="utf-8")
    panel = SuggestPanel(ToyGame, cards, {"giant": "巨人"}, backend="serial")
    panel.population.value = 6
    panel.generations.value = 3
    panel.blocks.value = 4
    panel.holdout.value = 20
    panel.seed.value = 3
    return panel


def test_a_table_never_searched_says_so_and_how_to_get_an_estimate(tmp_path: Path) -> None:
    panel = _panel(tmp_path)
    assert panel.saved_run is None and panel.apply_button.disabled
    assert "还没有这张卡表的搜索结果" in panel.run_head.value
    assert "本机还没有测速记录" in panel.estimate_label.value
    assert panel.choice.options == ()


def test_the_repository_speed_record_gives_the_first_search_its_estimate(tmp_path: Path) -> None:
    speeds = tmp_path / "results" / "balance" / "speed.json"
    speeds.parent.mkdir(parents=True)
    record = {"seconds_per_match": 0.5, "matches_per_block": 10, "measured": "2026-12-03 10:00 UTC"}
    speeds.write_text(json.dumps({"cards.csv": record, "other.csv": {}}), encoding="utf-8")
    panel = _panel(tmp_path)
    blocks = panel.block_count()
    # 0.5 s per match x 10 matches per block x the budget's blocks, one process
    assert estimate_seconds(record, blocks, 1) == pytest.approx(5.0 * blocks)
    assert f"{blocks} 个区块" in panel.estimate_label.value
    assert "一次搜索预计最多约" in panel.estimate_label.value
    assert "仓库记录 2026-12-03 10:00 UTC" in panel.estimate_label.value
    panel.generations.value = 1  # the estimate follows the budget
    assert f"{panel.block_count()} 个区块" in panel.estimate_label.value
    assert panel.block_count() < blocks


def test_a_run_is_saved_timed_and_shown_at_the_next_visit(tmp_path: Path) -> None:
    panel = _panel(tmp_path)
    ticks: list[str] = []
    panel.status.observe(lambda ch: ticks.append(str(ch["new"])), names="value")
    res = panel.run()
    assert res.proposals
    assert ticks[0] == "开始搜索……第一代完成后给出剩余时间"  # no speed known yet
    saved = saved_path(panel.cards)
    assert saved == tmp_path / "logs" / "balance" / "suggest-cards.parquet"
    rf = load_run(saved)  # the CLI's format: `throne balance show` reads it
    assert rf.numbers == [p.number for p in res.proposals]
    assert rf.run is not None and rf.run["cards"]["path"] == "cards.csv"
    assert "本次搜索" in panel.run_head.value
    speed = read_speed(panel.cards)  # this run's speed, for the next estimate
    assert speed is not None and speed["how"] == "开始搜索" and speed["matches_per_block"] > 0
    assert "本机" in panel.estimate_label.value and "预计最多约" in panel.estimate_label.value

    again = _panel(tmp_path)  # the page opened again: the saved run at once
    assert again.result is None and again.saved_run is not None
    assert "上次的搜索结果" in again.run_head.value
    assert "logs/balance/suggest-cards.parquet" in again.run_head.value  # from the table's folder
    assert rf.run["finished"] in again.run_head.value and "看板「开始搜索」" in again.run_head.value
    assert [v for _, v in again.choice.options] == rf.numbers
    first = res.proposals[0]
    assert f"方案 {first.number}：{first.n_changes} 处改动" in again.detail_html.value
    for key, value in first.changes:
        assert (
            f"<code>{key}</code>" in again.detail_html.value
            and f"→ {value}" in again.detail_html.value
        )
    assert not again.apply_button.disabled
    ticks = []
    again.status.observe(lambda ch: ticks.append(str(ch["new"])), names="value")
    last = res.proposals[-1]
    again.choice.value = last.number  # another proposal of the saved run
    assert f"方案 {last.number}：" in again.detail_html.value
    if any(not k.startswith("rules.") for k, _ in last.changes):
        status = again.apply()  # written from the saved file, on today's table
        assert status.startswith(f"方案 {last.number} 已写入 cards.csv")
        assert (tmp_path / "cards.csv").read_text(encoding="utf-8") == last.table
        assert again.apply().startswith("未应用")  # the table moved on: refused
    # a new run announces its estimate from the recorded speed, and the saved run's
    # proposals give way to it at once
    again.generations.value = 1
    heads: list[str] = []
    again.run_head.observe(lambda ch: heads.append(str(ch["new"])), names="value")
    again.run()
    assert ticks and ticks[0].startswith("开始搜索……预计最多约")
    assert "搜索中" in heads[0] and "本次搜索" in heads[-1]
    assert again.saved_run is None and again.result is not None


def test_a_saved_run_says_when_the_table_changed_since(tmp_path: Path) -> None:
    panel = _panel(tmp_path)
    panel.run()
    cards = tmp_path / "cards.csv"
    cards.write_text(cards.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert "卡表在这次搜索之后改动过" in _panel(tmp_path).run_head.value


def test_a_run_without_proposals_shows_the_unchanged_table_and_keeps_apply_off(
    tmp_path: Path,
) -> None:
    panel = _panel(tmp_path)
    res = panel.run()
    frame = load_run(saved_path(panel.cards)).frame
    frame[frame["proposal"] == 0].to_parquet(saved_path(panel.cards), index=False)
    again = _panel(tmp_path)
    assert again.saved_run is not None and again.saved_run.numbers == []
    assert again.apply_button.disabled and again.choice.options == ()
    assert "没有找到比现状更平衡的方案" in again.detail_html.value
    assert "巨人" in again.detail_html.value  # the groups' rates, by name
    assert res.groups


def test_the_repository_runs_are_the_fallback_and_a_damaged_file_is_skipped(
    tmp_path: Path,
) -> None:
    root = Path(__file__).resolve().parents[1]
    shipped = tmp_path / "results" / "balance"
    shipped.mkdir(parents=True)
    shutil.copy(root / "results" / "balance" / "verified.parquet", shipped / "b.parquet")
    shutil.copy(root / "results" / "balance" / "small.parquet", shipped / "a.parquet")
    (shipped / "c.parquet").write_text("not parquet", encoding="utf-8")
    cards = tmp_path / "cards.csv"
    cards.write_text(TABLE, encoding="utf-8")
    # both runs name cards.csv; the one with its own verification comes first
    assert shipped_runs(cards) == [shipped / "b.parquet", shipped / "a.parquet"]
    assert shipped_runs(tmp_path / "cards-pin.csv") == []
    rf = latest_run(cards)
    assert rf is not None and rf.path == shipped / "b.parquet"
    own = saved_path(cards)
    own.parent.mkdir(parents=True)
    own.write_text("damaged", encoding="utf-8")
    rf = latest_run(cards)  # the panel's own file is damaged: the repository's run
    assert rf is not None and rf.path == shipped / "b.parquet"


def test_speed_records_this_machine_first(tmp_path: Path) -> None:
    cards = tmp_path / "cards.csv"
    cards.write_text(TABLE, encoding="utf-8")
    assert read_speed(cards) is None
    mine = record_speed(cards, 0.25, 8, "估算用时")
    assert read_speed(cards) == mine
    assert mine["source"] == str(tmp_path / "logs" / "balance" / "speed.json")
    assert "本机" in estimate_html(mine, 10, 2) and "2 个进程" in estimate_html(mine, 10, 2)
    assert estimate_seconds(mine, 10, 2) == pytest.approx(0.25 * 8 * 10 / 2)
