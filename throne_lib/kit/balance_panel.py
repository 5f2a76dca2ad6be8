"""The balance dashboard's 「调平建议」 section: targets and budget, a run with a progress
bar per generation, the Pareto front (imbalance against number of changes), a proposal's
diff with before/after heatmaps, and "apply".

Game-agnostic: it gets a function that builds the game's :class:`BalanceGame` adapter
from a card table's text. Testable without a browser: set the widgets' values, call
:meth:`SuggestPanel.run`, :meth:`SuggestPanel.show` and :meth:`SuggestPanel.apply`.

Before any run the panel shows the last run on its table (saved by every run, else the
repository's; :mod:`throne_lib.kit.balance_saved`) and what a run of the current budget
would take at this machine's recorded speed; 「应用此方案」 stays disabled until a run,
saved or new, has a proposal.
"""

from __future__ import annotations

import html
import math
import os
import random
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from throne_lib.kit.balance import (
    FIRST,
    MAX_STEP,
    BalanceGame,
    BalanceResult,
    Budget,
    Proposal,
    SearchSpace,
    Targets,
    Tell,
    base_values,
    plan_verification,
    search_space,
    suggest,
)
from throne_lib.kit.balance_report import (
    apply_changes,
    proposal_changes,
    save_result,
)
from throne_lib.kit.balance_run import RunFile
from throne_lib.kit.balance_saved import (
    duration_zh,
    estimate_html,
    estimate_seconds,
    latest_run,
    read_speed,
    record_speed,
    run_head_html,
    saved_detail_html,
    saved_path,
    shown_path,
)
from throne_lib.kit.charts import set_cjk_font

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure


def plot_front(res: BalanceResult, ax: Axes | None = None, selected: int | None = None) -> Axes:
    """The search's Pareto set (grey) and the proposals shown (numbered; on the holdout
    blocks in colour): imbalance against number of changes."""
    import matplotlib.pyplot as plt

    set_cjk_font()
    if ax is None:
        _, ax = plt.subplots(figsize=(6, 3.5))
    xs = [len(c) for c, _ in res.front]
    ys = [o[0] for _, o in res.front]
    ax.scatter(xs, ys, color="#bbbbbb", label="搜索中的帕累托集 (search)", zorder=1)
    ax.scatter([0], [res.before.imbalance], color="#c0392b", marker="s", label="现状 (holdout)")
    for p in res.proposals:
        colour = "#e67e22" if p.number == selected else "#2e86c1"
        ax.scatter([p.n_changes], [p.after.imbalance], color=colour, zorder=3)
        ax.annotate(
            str(p.number),
            (p.n_changes, p.after.imbalance),
            xytext=(4, 4),
            textcoords="offset points",
            fontsize=9,
        )
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlim(-0.5, max([1, *xs, *(p.n_changes for p in res.proposals)]) + 0.5)
    ax.set_xlabel("改动字段数 (changes)")
    ax.set_ylabel("失衡度 (imbalance)")
    ax.set_title("帕累托前沿 · Pareto front")
    ax.legend(fontsize=7, loc="best")  # "upper right" hid a proposal's point
    return ax


def plot_matrices(
    res: BalanceResult, number: int, names: Mapping[str, str] | None = None
) -> Figure:
    """Before/after heatmaps of the matchups on the holdout blocks (row against column)."""
    import matplotlib.pyplot as plt

    set_cjk_font()
    p = res.proposal(number)
    labels = [(names or {}).get(g, g) for g in res.groups]
    n = len(labels)
    fig, axes = plt.subplots(1, 2, figsize=(2 + 0.9 * n, 0.5 + 0.45 * n))
    for ax, m, title in (
        (axes[0], res.before, "调整前 before"),
        (axes[1], p.after, f"方案 {number} after"),
    ):
        values = m.matrix(res.groups).to_numpy(dtype=float)
        im = ax.imshow(values, cmap="RdBu", vmin=0, vmax=1)
        ax.set_xticks(range(n), labels, rotation=70, ha="right", fontsize=7)
        ax.set_yticks(range(n), labels, fontsize=7)
        for i in range(n):
            for j in range(n):
                if not math.isnan(values[i, j]):
                    ax.text(j, i, f"{values[i, j]:.1f}", ha="center", va="center", fontsize=5)
        ax.set_title(title)
    fig.colorbar(im, ax=list(axes), shrink=0.8)
    return fig


def _cell(r: Any) -> str:
    if math.isnan(r.win_rate):
        return "–"  # the group never played on these matches
    return f"{100 * r.win_rate:.1f}% [{100 * r.ci_low:.0f}–{100 * r.ci_high:.0f}]"


def rates_table(res: BalanceResult, number: int, names: Mapping[str, str] | None = None) -> str:
    """Before/after win rates with 95% intervals on the run's verification blocks
    (coloured: in the band or not), the holdout's figure beside them, as an HTML table
    (the first seat's row only for a game that has a first seat)."""
    p = res.proposal(number)
    lo, hi = res.targets.band
    rows = []
    verified = p.verified is not None and res.before_verified is not None
    for g in [*res.groups, FIRST]:
        held = p.after.rates[g]
        if p.verified is not None and res.before_verified is not None:  # the verdict's data
            b, a = res.before_verified.rates[g], p.verified.rates[g]
        else:
            b, a = res.before.rates[g], held
        if g == FIRST and math.isnan(b.win_rate) and math.isnan(a.win_rate):
            continue
        ok = a.win_rate <= res.targets.first_seat_max if g == FIRST else lo <= a.win_rate <= hi
        label = "先手 first seat" if g == FIRST else (names or {}).get(g, g)
        rows.append(
            f"<tr><td>{html.escape(label)}</td><td>{_cell(b)}</td>"
            f"<td style='color:{'#1e8449' if ok else '#c0392b'}'>{_cell(a)}</td>"
            + (f"<td style='color:#5d6778'>{_cell(held)}</td>" if verified else "")
            + "</tr>"
        )
    where = "（复核）" if verified else ""
    head = (
        f"<tr><th></th><th>调整前 before{where}</th><th>调整后 after{where}</th>"
        + ("<th>留出 holdout</th>" if verified else "")
        + "</tr>"
    )
    return f"<table style='font-size:12px'>{head}{''.join(rows)}</table>"


def rules_label(space: SearchSpace, name: str) -> str:
    """A rules parameter as the panel names it: its Chinese label with the field's name
    (what to set in the rules object), or the field's name alone when it has no label."""
    key = f"rules.{name}"
    label = space[key].label if key in space else ""
    return f"{label}（{name}）" if label else name


_duration = duration_zh


def _label(number: int, touched_up: bool, repaired: bool) -> str:
    """A proposal's name on the page: 「方案 N」, marked when the touch-up on the holdout
    made it, or when it is the repair's table (every kept move), the one the run
    recommends (its button's tooltip, :data:`RECOMMENDED_TIP`, says why)."""
    return (
        f"方案 {number}" + ("（留出修补）" if touched_up else "") + ("（推荐）" if repaired else "")
    )


RECOMMENDED_TIP = "推荐：修补阶段结束时的卡表，保留了搜索留下的每一步改动"


def _tell_html(t: Tell, blocks: int, per_block: float) -> str:
    """What the run's verification can tell (before the run: planned; after: played),
    in the panel's words: a red warning when the budget cannot tell."""
    when = "计划复核" if t.planned else "复核"
    head = (
        f"{when}：每个组最少 {t.matches} 局，95% 区间 ±{100 * t.half_width:.1f} 个百分点，"
        f"目标区间半宽 ±{100 * t.band_half:.1f}"
    )
    if t.can_tell:
        return f"<p style='color:#1e8449'>{head}：足以判断是否达标</p>"
    need = math.ceil(t.needed / per_block) if per_block else None
    more = f"；约需 {need} 个复核区块（--verify-blocks {need}）" if need else ""
    return (
        f"<p style='color:#c0392b'><b>预算不足以判断</b>（budget cannot tell）：{head}，"
        f"比目标区间还宽；需每组约 {t.needed} 局{more}</p>"
    )


def _effects_html(p: Proposal, names: Mapping[str, str]) -> str:
    """Each change's effect on the holdout with its 95% interval, and whether it was
    kept (the report's lines, in the panel's words)."""
    if not p.effects:
        return ""
    rows = []
    for e in p.effects:
        who = "先手" if FIRST in e.groups else "、".join(names.get(g, g) for g in e.groups[:3])
        span = f"[{100 * e.low:+.1f}, {100 * e.high:+.1f}]" if math.isfinite(e.low) else "[–]"
        kept = "保留" if e.kept else "舍弃（方向不符）"
        rows.append(
            f"<li>{html.escape(e.key)} {e.old} → {e.new}：{html.escape(who)} "
            f"{100 * e.effect:+.1f} 个百分点 {span}（{e.matches} 局）· {kept}</li>"
        )
    return f"<p>各改动在留出对局上的效果（95% 区间）：</p><ul>{''.join(rows)}</ul>"


def _verdict_html(res: BalanceResult, p: Proposal) -> str:
    """The verdict line of a proposal: imbalance on the holdout and the verification
    blocks, and whether it meets the targets on the latter alone."""
    held = f"失衡度 {res.before.imbalance:.3f} → {p.after.imbalance:.3f}（留出对局）"
    if p.verified is None or res.before_verified is None:
        return f"<p>{held} · 未复核</p>"
    cannot = res.verified_tell is not None and not res.verified_tell.can_tell
    return (
        f"<p>{held}；复核 {res.before_verified.imbalance:.3f} → {p.verified.imbalance:.3f}"
        f"（从未见过的种子）· 复核达标：{'是' if p.verified.meets else '否'}"
        + ("（预算不足以判断）" if cannot else "")
        + "</p>"
    )


class SuggestPanel:
    """「调平建议」: widgets over :func:`throne_lib.kit.balance.suggest`."""

    def __init__(
        self,
        make_game: Callable[[str], BalanceGame],
        cards: str | Path,
        names: Mapping[str, str] | None = None,
        backend: str = "process",
        first_seat: bool = True,
        freeze_hint: str = "lionheart, cost, iron_duke.hp",
        rules_type: str = "Rules",
        screen_block_rounds: int | None = None,
    ) -> None:
        import ipywidgets as w

        self.make_game = make_game
        self.first_seat = first_seat  # False: the game has no first-seat target
        self.rules_type = rules_type
        self.cards = Path(cards)
        self.names = dict(names or {})
        self.result: BalanceResult | None = None
        self.game: BalanceGame | None = None
        self.saved_run: RunFile | None = None  # the run shown before this page ran one
        d = Budget()
        self.band = w.FloatRangeSlider(
            value=(0.45, 0.55), min=0.3, max=0.7, step=0.01, description="胜率区间"
        )
        self.first = w.FloatSlider(value=0.55, min=0.5, max=0.7, step=0.01, description="先手上限")
        self.population = w.IntSlider(value=d.population, min=2, max=32, description="种群")
        self.generations = w.IntSlider(value=d.generations, min=1, max=20, description="代数")
        self.blocks = w.IntSlider(value=d.blocks, min=2, max=12, description="搜索区块")
        self.holdout = w.IntSlider(value=d.holdout_blocks, min=1, max=30, description="留出区块")
        self.max_changes = w.IntSlider(value=d.max_changes, min=1, max=30, description="最多改动")
        self.verify_blocks = w.IntSlider(
            value=d.verify_blocks,
            min=1,
            max=60,
            description="复核区块",
            tooltip="搜索和留出之后，在从未用过的种子上复核各方案；是否达标只看复核结果",
        )
        self.repair = w.IntSlider(
            value=d.repair,
            min=0,
            max=30,
            description="修补步数",
            tooltip="代数之后，针对仍在区间外的将领逐步微调（每步只重赛相关对局）",
        )
        self.touch_up = w.IntSlider(
            value=d.holdout_repair,
            min=0,
            max=5,
            description="留出修补",
            tooltip="剪枝之后，按留出区块上的胜率再修补最后一个方案（至多这么多步），"
            "结果作为另一个方案列出；是否达标仍只看复核",
        )
        self.confirm = w.Checkbox(
            value=False,
            description="复核修补",
            tooltip="每步修补选出的改动，另在同样多的新区块上复核，通过才采纳（防止挑中运气）；"
            "各将领复核通过的改动合并为一步",
        )
        # screening (Budget.screen): for two-seat pairing games; the rounds of a block,
        # for the time estimate (None: the game cannot screen, no control)
        self.screen_block_rounds = screen_block_rounds
        self.screen = w.IntSlider(
            value=d.screen,
            min=0,
            max=8000,
            step=500,
            description="筛选轮数",
            tooltip="先在随机微调的多个版本上对局，一次估出每个候选数值对每位将领的影响，"
            "修补每步只试预测最有帮助的一处改动（推荐 6000 轮、修补 80 步，约 15 分钟）",
        )
        self.screen.observe(self._on_screen, names="value")
        self.freeze = w.Text(value="", placeholder=freeze_hint, description="冻结")
        self.seed = w.IntText(value=0, description="种子")
        self.time_limit = w.BoundedIntText(
            value=0, min=0, max=600, description="限时（分）",
            tooltip="0 = 不限时；到时不再开始新的一代，直接做留出验证（同 --time-limit）",
        )  # fmt: skip
        self.estimate_button = w.Button(description="估算用时", icon="clock-o")
        self.estimate_button.on_click(lambda _: self.estimate())
        self.estimate_label = w.HTML()
        self.estimate_label.add_class("tp-suggest-estimate")
        self.run_head = w.HTML()  # which run the proposals below come from
        self.run_head.add_class("tp-suggest-run")
        self._started = 0.0
        self.backend = w.Dropdown(
            options=[("多进程", "process"), ("单进程", "serial"), ("Dask 集群", "dask")],
            value=backend,
            description="后端",
        )
        self.button = w.Button(description="开始搜索", button_style="primary", icon="search")
        self.button.on_click(lambda _: self.run())
        self.progress = w.IntProgress(value=0, min=0, max=1, description="代")
        self.status = w.Label(value="")
        # what the run's verification can tell: before the run (planned) and after it
        self.warning = w.HTML(value="")
        self.chart = w.Output()
        self.choice = w.ToggleButtons(options=[], description="方案")
        self.choice.observe(self._on_choice, names="value")
        self.detail_html = w.HTML(value="")
        self.detail = w.Output()  # the heatmaps
        self.front_figure: Figure | None = None
        self.matrix_figure: Figure | None = None
        self.apply_button = w.Button(
            description="应用此方案", button_style="warning", disabled=True
        )
        self.apply_button.on_click(lambda _: self.apply())
        self.apply_button.add_class("tp-suggest-apply")
        self.applied = w.Label(value="")
        shown = [self.band, self.first] if first_seat else [self.band]
        targets = w.VBox([w.HTML("<b>目标</b>"), *shown, self.freeze])
        budget = w.VBox(
            [
                w.HTML("<b>预算</b>"),
                self.population,
                self.generations,
                self.blocks,
                self.holdout,
                self.verify_blocks,
            ]  # fmt: skip
        )
        extra = w.VBox(
            [self.max_changes, self.repair, *([self.screen] if screen_block_rounds else []),
             self.confirm, self.touch_up, self.seed, self.time_limit, self.backend, self.button]
        )  # fmt: skip
        self.widget = w.VBox(
            [
                w.HBox([targets, budget, extra]),
                w.HBox([self.estimate_button, self.estimate_label]),
                w.HBox([self.progress, self.status]),
                self.warning,
                self.run_head,
                self.chart,
                self.choice,
                w.HBox([self.apply_button, self.applied]),
                self.detail_html,
                self.detail,
            ]
        )
        self.widget.add_class("tp-suggest")
        for slider in (self.population, self.generations, self.blocks, self.holdout,
                       self.verify_blocks, self.repair, self.backend):  # fmt: skip
            slider.observe(lambda _: self._show_estimate(), "value")
        self._show_estimate()
        self.show_saved()

    def _workers(self) -> int:
        return 1 if self.backend.value == "serial" else max(1, (os.cpu_count() or 1))

    def _show_estimate(self) -> None:
        """The budget's run at the recorded speed (or how to measure one)."""
        speed = read_speed(self.cards)
        self.estimate_label.value = estimate_html(speed, self.block_count(), self._workers())

    def show_saved(self) -> RunFile | None:
        """Show the last saved run on this table, if there is one: its proposals to choose
        from (「应用此方案」 enabled when it has one), proposal 1's changes and rates."""
        rf = latest_run(self.cards)
        self.saved_run = rf
        if rf is None:
            self.run_head.value = (
                "<p style='color:#5d6778'>还没有这张卡表的搜索结果：点「开始搜索」运行第一次搜索"
                f"（结果保存在 <code>{html.escape(saved_path(self.cards).name)}</code>，"
                "下次打开本页直接显示）</p>"
            )
            return None
        self.run_head.value = run_head_html(rf, self.cards)
        first = self._set_choices([(n, rf.touched_up(n), rf.repaired(n)) for n in rf.numbers])
        if rf.numbers:
            self.choice.value = first
        self.detail_html.value = saved_detail_html(rf, first)
        self.apply_button.disabled = not rf.numbers
        return rf

    def _on_screen(self, change: Mapping[str, Any]) -> None:
        """Screening guides the repair: turning it on with no repair steps gives it 20."""
        if change["new"] and not self.repair.value:
            self.repair.value = 20

    def _budget(self) -> Budget:
        return Budget(
            population=self.population.value,
            generations=self.generations.value,
            blocks=self.blocks.value,
            holdout_blocks=self.holdout.value,
            max_changes=self.max_changes.value,
            verify_blocks=self.verify_blocks.value,
            repair=self.repair.value,
            screen=self.screen.value if self.screen_block_rounds else 0,
            # as many confirm blocks as search blocks, confirmed moves made together: the
            # acceptance run's choice
            confirm=self.blocks.value if self.confirm.value and self.repair.value else 0,
            repair_combine=self.confirm.value,
            holdout_repair=self.touch_up.value,
            time_limit=60.0 * self.time_limit.value if self.time_limit.value else None,
        )

    def _targets(self) -> Targets:
        return Targets(tuple(self.band.value), self.first.value if self.first_seat else 1.0)

    def block_count(self) -> int:
        """Blocks a search of this budget plays at most: each generation's population
        on every search block, the holdout for the current table and each proposal
        (the cache and the card filter make the real count smaller)."""
        b = self._budget()
        search = b.population * (b.generations + 1) * b.blocks
        end = (2 * b.holdout_blocks + b.verify_blocks) * (b.proposals + 1)  # + effects
        screen = math.ceil(b.screen / self.screen_block_rounds) if self.screen_block_rounds else 0
        return search + end + b.repair * b.blocks + screen

    def estimate(self) -> float:
        """Time one block of matches on this machine (serial) and say how long the
        search the widgets describe takes at most; returns the estimate in seconds."""
        from throne_lib.kit.balance import Evaluator, block_seed

        self.estimate_button.disabled = True
        try:
            game = self.make_game(self.cards.read_text(encoding="utf-8"))
            space = search_space(game, freeze=[])
            block = game.block(random.Random(0), block_seed(int(self.seed.value), 0))
            started = time.perf_counter()
            Evaluator(game, space, None).outcomes([((), block)])
            per_block = time.perf_counter() - started
        finally:
            self.estimate_button.disabled = False
        speed = record_speed(self.cards, per_block / max(1, len(block)), len(block), "估算用时")
        blocks, workers = self.block_count(), self._workers()
        limit = f"；限时 {self.time_limit.value} 分钟" if self.time_limit.value else ""
        plan, least = plan_verification(game, self._budget(), self._targets(), int(self.seed.value))
        self.warning.value = _tell_html(plan, self._budget().verify_blocks, least)
        self.estimate_label.value = estimate_html(speed, blocks, workers) + limit
        return estimate_seconds(speed, blocks, workers)

    def _tick(self, h: dict[str, Any]) -> None:
        elapsed = time.perf_counter() - self._started
        if "plan" in h:  # before the search: can its verification tell?
            self.warning.value = _tell_html(h["plan"], self._budget().verify_blocks,
                                            h["per_block"])  # fmt: skip
            return
        if h.get("verified"):
            self.status.value = (
                f"留出验证完成，复核完成 · {h['matches_played']} 局 · 用时 {_duration(elapsed)}"
            )
            return
        if "screening" in h and "generation" not in h:
            self.status.value = (
                f"筛选第 {h['screening']}/{h['rounds']} 轮 · 已模拟 {h['matches_played']} 局"
                f" · 用时 {_duration(elapsed)}"
            )
            return
        if "refresh" in h:
            self.status.value = (
                f"换一批新对局复测（第 {h['refresh']} 次）· 偏离 {h['miss_before']:.3f} → "
                f"{h['miss_after']:.3f} · 已模拟 {h['matches_played']} 局 · 用时 {_duration(elapsed)}"
            )
            return
        if h.get("holdout"):
            self.status.value = (
                f"留出验证完成 · {h['matches_played']} 局 · 用时 {_duration(elapsed)}"
            )
            return
        self.progress.value = min(self.progress.max, h["generation"] + 1 + h.get("repair", 0))
        stage = (
            f"修补第 {h['repair']} 步"
            if "repair" in h
            else f"第 {h['generation']}/{h['generations']} 代"
        )
        done = max(1, int(self.progress.value))
        left = elapsed / done * max(0, int(self.progress.max) - done)
        self.status.value = (
            f"{stage} · 最小失衡 {h['best_imbalance']:.3f}"
            f"（{h['best_changes']} 处改动）· 已模拟 {h['matches_played']} 局"
            f" · 已用 {_duration(elapsed)}，预计还需约 {_duration(left)}（另加留出验证）"
        )

    def run(self) -> BalanceResult:
        """Run the search the widgets describe; draw the front and select proposal 1."""
        import matplotlib.pyplot as plt

        text = self.cards.read_text(encoding="utf-8")
        game = self.make_game(text)
        freeze = [f.strip() for f in self.freeze.value.split(",") if f.strip()]
        # the command line's defaults: no number moves more than half (one step at
        # least), no cost falls to 0
        space = search_space(game, freeze=freeze, max_step=MAX_STEP, zero_cost=False)
        budget = self._budget()
        self.progress.max = budget.generations + 1 + budget.repair
        self.progress.value = 0
        self._started = time.perf_counter()
        speed = read_speed(self.cards)
        limit = 60.0 * self.time_limit.value if self.time_limit.value else math.inf
        guess = (
            f"预计最多约 {_duration(min(limit, estimate_seconds(speed, self.block_count(), self._workers())))}"
            if speed is not None
            else "第一代完成后给出剩余时间"
        )  # fmt: skip
        self.status.value = f"开始搜索……{guess}"
        self.warning.value = ""
        self.applied.value = ""
        self.apply_button.disabled = True  # until this run has a proposal
        # the run shown so far (saved or earlier) gives way to this one
        self.result, self.saved_run = None, None
        self.choice.options = []
        self.chart.clear_output()
        self.detail.clear_output()
        self.detail_html.value = ""
        self.run_head.value = "<p style='color:#5d6778'>搜索中：完成后在这里显示它的方案</p>"
        self.button.disabled = True
        try:
            res = suggest(
                game,
                space,
                self._targets(),
                budget,
                self.seed.value,
                self.backend.value,
                progress=self._tick,
            )
        finally:
            self.button.disabled = False
        elapsed = time.perf_counter() - self._started
        self.game, self.result, self.saved_run = game, res, None
        self._remember(res, text, elapsed)
        if res.verified_tell is not None:
            self.warning.value = _tell_html(res.verified_tell, budget.verify_blocks, res.per_block)
        self.chart.clear_output()
        fig, ax = plt.subplots(figsize=(6, 3.5))
        plot_front(res, ax)
        self.front_figure = fig
        with self.chart:
            plt.show()
        plt.close(fig)
        first = self._set_choices([(p.number, p.touched_up, p.repaired) for p in res.proposals])
        if res.proposals:
            self.choice.value = first
            self.show(first)
        else:
            self.detail.clear_output()
            self.detail_html.value = (
                "<p>没有找到比现状更平衡的方案（加大预算再试；"
                "或各改动在留出对局上的效果方向都不符，已舍弃：可加大留出区块）</p>"
            )
        self.apply_button.disabled = not res.proposals
        return res

    def _remember(self, res: BalanceResult, text: str, elapsed: float) -> None:
        """Save the run for the page's next visit (and ``throne balance show``), and
        keep the speed it ran at for the next estimate."""
        import hashlib

        path = saved_path(self.cards)
        record = {
            "command": "看板「开始搜索」",
            "backend": self.backend.value,
            "seconds": round(elapsed, 1),
            "finished": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "cards": {"path": self.cards.name, "sha256": hashlib.sha256(text.encode()).hexdigest()},
        }
        try:
            save_result(res, path, run=record, names=self.names)
        except OSError as exc:
            self.run_head.value = (
                f"<p style='color:#c0392b'>结果未能保存：{html.escape(str(exc))}</p>"
            )
        else:
            self.run_head.value = (
                f"<p style='font-size:13px'><b>本次搜索</b>（{_duration(elapsed)}，"
                f"{res.matches_played} 局）已保存到 <code>{html.escape(shown_path(path, self.cards))}</code>"
                "，下次打开本页时显示</p>"
            )
        if res.matches_played and self.game is not None:
            per_block = len(self.game.block(random.Random(0), 0))
            per_match = elapsed * self._workers() / res.matches_played
            record_speed(self.cards, per_match, per_block, "开始搜索")
            self._show_estimate()

    def _on_choice(self, change: dict[str, Any]) -> None:
        if change.get("new") is None:
            return
        if self.result is not None:
            self.show(int(change["new"]))
        elif self.saved_run is not None:
            self.detail.clear_output()
            self.detail_html.value = saved_detail_html(self.saved_run, int(change["new"]))

    def _set_choices(self, rows: Sequence[tuple[int, bool, bool]]) -> int:
        """The proposal buttons, one per (number, touched up, repaired) row, the
        recommended one's tooltip saying why; returns the proposal the page opens on: the
        recommended (the repair's table), else the first (0: none)."""
        self.choice.options = [(_label(n, up, rep), n) for n, up, rep in rows]
        self.choice.tooltips = [RECOMMENDED_TIP if rep else "" for _, _, rep in rows]
        return next((n for n, _, rep in rows if rep), rows[0][0] if rows else 0)

    def show(self, number: int) -> None:
        """Proposal ``number``: its diff, rules changes, rates and heatmaps."""
        import matplotlib.pyplot as plt
        from IPython.display import display

        assert self.result is not None
        p = self.result.proposal(number)
        space = self.result.space
        rules = "".join(
            f"<br>规则 {html.escape(rules_label(space, n))}：{o} → {v}"
            for n, o, v in p.rules_changes
        )
        cards = any(not space[k].is_rules for k, _ in p.changes)
        diff = (
            f"<pre style='font-size:12px'>{html.escape(p.diff_text)}</pre>"
            if cards
            else "<p>卡表无改动</p>"
        )
        self.detail_html.value = (
            f"{diff}{rules}"
            + _verdict_html(self.result, p)
            + _effects_html(p, self.names)
            + rates_table(self.result, number, self.names)
        )
        self.matrix_figure = plot_matrices(self.result, number, self.names)
        self.detail.clear_output()
        with self.detail:
            display(self.matrix_figure)
        plt.close(self.matrix_figure)

    def apply(self) -> str:
        """Write the selected proposal into the card table (atomic; the live watcher
        reloads it). Returns the status text."""
        number = int(self.choice.value)
        try:
            if self.result is not None and self.game is not None:
                p = self.result.proposal(number)
                changes, base = dict(p.changes), base_values(p.changes, self.result.space)
                game = self.game
            elif self.saved_run is not None:  # a saved run's proposal, on today's table
                changes, base = proposal_changes(self.saved_run.frame, number)
                game = self.make_game(self.cards.read_text(encoding="utf-8"))
            else:
                raise ValueError("还没有方案：先运行一次搜索")
            _, _, rules = apply_changes(game, self.cards, changes, base)
        except (ValueError, OSError) as exc:
            status = f"未应用：{exc}"
        else:
            note = (
                f"；规则改动需在 {self.rules_type}(...) 中设置：{'; '.join(rules)}" if rules else ""
            )
            status = f"方案 {number} 已写入 {self.cards.name}{note}"
        self.applied.value = status
        return status
