"""The balance pages' 「对比两个版本」 section: rule edits (``field=value`` lines), an
optional second card table and the variant's AI (the base's, or the search at a fixed
number of iterations: is a figure the game's or the AI's?), 「对比」, and the table of
paired deltas with 95% intervals —
``throne compare`` (:mod:`throne_lib.kit.compare`) in a dashboard, for any registered game.

Testable without a browser: set :attr:`ComparePanel.rules` / :attr:`ComparePanel.cards`,
call :meth:`ComparePanel.run`, read :attr:`ComparePanel.comparison` and the HTML.
"""

from __future__ import annotations

import html
import math
from pathlib import Path
from typing import Any

import pandas as pd

from throne_lib.kit import registry
from throne_lib.kit.compare import Comparison, default_specs, run_compare
from throne_lib.kit.sim import options_of, table_text
from throne_lib.kit.variants import check_variant, parse_sets

#: Chinese names of the sections and of the figures the kit knows (a game's own group
#: names fall back to the English word)
SECTIONS_ZH = {
    "win rate · seat": "胜率 · 座位",
    "win rate · general": "胜率 · 将领",
    "win rate · race": "胜率 · 种族",
    "win rate · role": "胜率 · 身份",
    "win rate · hero": "胜率 · 英雄",
    "win rate · setup": "胜率 · 卡组/设置",
    "win rate · team_size": "胜率 · 队伍人数",
    "win rate · start_city": "胜率 · 起始城池",
    "first player": "先手",
    "length": "对局长度",
    "end": "结束方式",
}
KEYS_ZH = {
    "actions": "动作数",
    "rounds": "回合数",
    "turns": "轮次",
    "draw": "平局",
    "first player": "先手方",
    "lord": "城主",
    "enemy": "敌军",
    "reinforcement": "援军",
    "neutral": "中立",
}
ENDS_ZH = {"end_reason": "结束原因", "end_rule": "结束规则"}
#: what the rule box suggests per game (a knob with a visible effect)
HINTS = {
    "throne": "second_first_turn_mana=2",
    "castle": "lord_bonus_hp=2",
    "cities": "kill_reward=5",
    "pin": "cp_rise=3",
    "goofspiel": "cards=6",
}
TOP = 12  # rows shown of a group with many values (heroes): the biggest moves
#: the variant's AI: the base's (the game's default agent), or the search at a budget
#: in iterations — not seconds, so the same seeds give the same figures on any machine
VARIANT_AGENTS = (
    ("与基准相同", ""),
    ("信息集搜索 · 10 次迭代", "ismcts:iterations=10"),
    ("信息集搜索 · 40 次迭代", "ismcts:iterations=40"),
)


def rule_lines(text: str) -> list[str]:
    """The ``field=value`` lines of the rule box (blank lines and ``#`` comments skipped)."""
    return [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.strip().startswith("#")]


def _pct(v: float, sign: bool = False) -> str:
    if math.isnan(v):
        return "–"
    return f"{v * 100:+.1f}" if sign else f"{v * 100:.1f}%"


def _num(v: float, sign: bool = False) -> str:
    if math.isnan(v):
        return "–"
    return f"{v:+.2f}" if sign else f"{v:.1f}"


def table_html(table: pd.DataFrame, top: int = TOP) -> str:
    """The paired table as HTML: one block per section, a row whose interval excludes 0
    highlighted; a section with more than ``top`` rows shows its biggest moves."""
    rows = []
    for section in dict.fromkeys(table["section"]):
        part = table[table["section"] == section]
        more = ""
        if len(part) > top:
            order = part["delta"].abs().sort_values(ascending=False, kind="stable").index
            more = f"（变化最大的 {top} 项，共 {len(part)} 项）"
            part = part.loc[order[:top]]
        rate = section.startswith(("win rate", "first player", "end"))
        fmt = _pct if rate else _num
        title = SECTIONS_ZH.get(section, section)
        rows.append(
            f"<tr class='tp-cmp-section'><th colspan='6'>{html.escape(title)}{more}</th></tr>"
        )
        for rec in part.to_dict("records"):
            lo, hi, d = float(rec["ci_low"]), float(rec["ci_high"]), float(rec["delta"])
            sig = lo > 0 or hi < 0
            style = " style='background:#fff3cd;font-weight:bold'" if sig else ""
            key = str(rec["key"])
            head, eq, value = key.partition("=")
            name = f"{ENDS_ZH[head]} {value}" if eq and head in ENDS_ZH else KEYS_ZH.get(key, key)
            unit = " pp" if rate else ""
            rows.append(
                f"<tr class='tp-cmp-row{' tp-cmp-sig' if sig else ''}'{style}>"
                f"<td>{html.escape(name)}</td><td>{int(rec['n'])}</td>"
                f"<td>{fmt(float(rec['base']))}</td><td>{fmt(float(rec['variant']))}</td>"
                f"<td>{fmt(d, True)}{unit}</td><td>[{fmt(lo, True)}, {fmt(hi, True)}]</td></tr>"
            )
    head = (
        "<tr><th>项目</th><th>n</th><th>基准</th><th>变体</th><th>差值</th><th>95% 区间</th></tr>"
    )
    style = (
        "<style>.tp-cmp td,.tp-cmp th{padding:2px 10px;text-align:right}"
        ".tp-cmp td:first-child,.tp-cmp th:first-child{text-align:left}"
        ".tp-cmp-section th{text-align:left;background:#eef2f7;padding-top:6px}</style>"
    )
    return f"{style}<table class='tp-cmp'>{head}{''.join(rows)}</table>"


class ComparePanel:
    """「对比两个版本」 of one game: the base (its rules, its card table) against the
    variant (the rule lines; the second card table, when given) on the same seeds."""

    def __init__(self, game: str, backend: str = "process", seeds: int = 20) -> None:
        import ipywidgets as w

        self.game = registry.get(game)
        self.backend = backend
        self.comparison: Comparison | None = None
        hint = HINTS.get(self.game.name, "field=value")
        self.rules = w.Textarea(
            value="",
            placeholder=f"每行一条规则改动，例如\n{hint}",
            description="规则改动",
            layout=w.Layout(width="34em", height="6em"),
        )
        self.cards = w.Text(
            value="",
            placeholder="留空：两边同一张卡表",
            description="第二张卡表",
            layout=w.Layout(width="34em"),
        )
        self.agent = w.Dropdown(
            options=list(VARIANT_AGENTS), value="", description="变体的 AI",
            layout=w.Layout(width="34em"),
        )  # fmt: skip
        self.agent.tooltip = (
            "每个座位都由它来下；信息集搜索比规则 AI 慢得多（每局数秒，城堡之心每局可达一分钟）"
        )
        self.seeds = w.BoundedIntText(value=seeds, min=2, max=5000, description="种子数")
        self.seed = w.IntText(value=0, description="起始种子")
        self.button = w.Button(description="对比", button_style="primary", icon="balance-scale")
        self.button.on_click(lambda _: self.run())
        self.progress = w.IntProgress(value=0, min=0, max=1, description="对局")
        self.status = w.HTML(value="")
        self.result = w.HTML(value="")
        inputs: list[Any] = [self.rules]
        if self.game.parse_table is not None:
            inputs.append(self.cards)
        inputs.append(self.agent)
        note = w.HTML(
            "<span style='color:#5d6778'>基准 = 现行规则与卡表、规则 AI；变体 = 填写的规则改动"
            "（与第二张卡表、变体的 AI）。两边在同样的种子、同样的对局设置上各打一遍（共同随机数）；"
            "只换 AI：看一个数字是游戏本身的，还是 AI 打出来的。差值 = 变体 − 基准，"
            "按种子配对取平均，95% 区间 = ±1.96·sd/√n；黄色行：区间不含 0。"
            "命令行：<code>throne compare</code>（docs/balance.md）</span>"
        )
        self.widget = w.VBox(
            [
                w.HBox([w.VBox(inputs), w.VBox([self.seeds, self.seed, self.button])]),
                note,
                w.HBox([self.progress, self.status]),
                self.result,
            ]
        )

    def _error(self, message: str) -> None:
        self.status.value = f"<span style='color:#c0392b'>无法对比：{html.escape(message)}</span>"

    def run(self) -> Comparison | None:
        """Play both variants and show the table; an error is one red line (nothing else
        changes), never a traceback."""
        path = self.cards.value.strip() or None
        agent = str(self.agent.value) or None
        try:
            changes = parse_sets(self.game, rule_lines(self.rules.value))
            if not changes and path is None and agent is None:
                raise ValueError("请至少填写一条规则改动（field=value）、第二张卡表的路径，或换一个变体的 AI")  # fmt: skip
            if path is not None:
                if self.game.parse_table is None:
                    raise ValueError(f"{self.game.name} 没有卡表")
                if not Path(path).is_file():
                    raise ValueError(f"找不到卡表文件 {path}")
                self.game.load_table(path)  # a broken table: its problems, before any match
            specs = default_specs(self.game, int(self.seeds.value), int(self.seed.value))
            text = table_text(self.game)
            table = self.game.parse_table(text) if text is not None and self.game.parse_table else None  # fmt: skip
            check_variant(self.game, changes, specs[0].setups, options_of(specs[0], table))
        except (ValueError, OSError) as exc:
            problems = getattr(exc, "problems", None)
            self._error(
                "; ".join(problems) if isinstance(problems, list) and problems else str(exc)
            )
            return None
        self.progress.max, self.progress.value = 2 * len(specs), 0
        self.status.value = f"正在模拟：2 × {len(specs)} 局 …"
        self.button.disabled = True

        def tick(_row: dict[str, Any]) -> None:
            self.progress.value += 1

        try:
            cmp = run_compare(
                self.game, specs, changes, (None, path), backend=self.backend,
                progress=False, on_row=tick, agents=(None, agent),
            )  # fmt: skip
        except (ValueError, OSError, RuntimeError) as exc:
            self._error(str(exc))
            return None
        finally:
            self.button.disabled = False
        self.comparison = cmp
        first, last = specs[0].seed, specs[-1].seed
        same = (
            "同样的对局设置与 AI"
            if agent is None
            else f"同样的对局设置；变体的 AI：{self.agent.label}"
        )
        self.status.value = f"完成：基准与变体各 {len(specs)} 局，种子 {first}–{last}，{same}"
        self.result.value = table_html(cmp.table)
        return cmp


def compare_panel(game: str = registry.DEFAULT_GAME, backend: str = "process", seeds: int = 20) -> ComparePanel:  # fmt: skip
    """The section for ``game`` (a notebook cell: ``compare_panel("castle").widget``)."""
    return ComparePanel(game, backend=backend, seeds=seeds)
