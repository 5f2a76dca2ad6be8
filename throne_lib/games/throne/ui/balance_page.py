"""The balance dashboard: opens at once on the last saved sweep; a button runs a new one.

A sweep is a round robin of the chosen generals' signature decks (``throne_lib.sim``);
its results are saved as Parquet in ``logs/balance/`` (one file per sweep, written
atomically), and the page shows the newest file when it opens — nothing is simulated on
a visit. Every cell of the matchup table carries its number of matches and the Wilson
95% interval (``throne_lib.kit.analytics.wilson``), so 0.50 from two games reads as what it
is. Names are the cards' Chinese names; the tables have Chinese headers.

Beside the button, how long the sweep the widgets describe takes (its matches at the
speed recorded for the table, :mod:`throne_lib.kit.balance_saved`: this machine's
balance runs, else the repository's ``results/balance/speed.json``); while it runs, the
matches done, the time used and the time left.
"""

from __future__ import annotations

import asyncio
import html
import math
import os
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pandas as pd

from throne_lib.games.throne.analytics import endings, first_player_advantage, sides
from throne_lib.games.throne.cards import CardDB, load_cards
from throne_lib.games.throne.live import cards_path
from throne_lib.games.throne.ui.app import AGENT_ZH
from throne_lib.kit.analytics import rates, wilson
from throne_lib.kit.balance_saved import duration_zh, read_speed

ROOT = Path(__file__).resolve().parents[4]
RESULTS_DIR = ROOT / "logs" / "balance"
TD = "padding:3px 6px;border:1px solid #d8dee8;text-align:center"
TH = "padding:3px 6px;border:1px solid #d8dee8;background:#eef2f8"


def latest_results(folder: Path = RESULTS_DIR) -> Path | None:
    """The newest saved sweep (file names start with their UTC time)."""
    files = sorted(folder.glob("sweep-*.parquet"))
    return files[-1] if files else None


def save_results(df: pd.DataFrame, folder: Path = RESULTS_DIR) -> Path:
    """Write a sweep atomically (a temporary file, then a rename)."""
    folder.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    path = folder / f"sweep-{stamp}-{len(df)}.parquet"
    tmp = path.with_suffix(".parquet.tmp")
    df.to_parquet(tmp, engine="pyarrow")
    tmp.replace(path)
    return path


def _name(db: CardDB, card: str) -> str:
    return db[card].name if card in db else card


def _colour(rate: float) -> str:
    """Blue above 0.5 (the row general wins), red below, white at 0.5."""
    if math.isnan(rate):
        return "#ffffff"
    d = min(abs(rate - 0.5) * 2, 1.0)
    if rate >= 0.5:
        return f"rgba(45,108,223,{0.12 + 0.55 * d:.2f})"
    return f"rgba(210,69,58,{0.12 + 0.55 * d:.2f})"


def matchup_cells(df: pd.DataFrame) -> pd.DataFrame:
    """Per (general, opponent): matches, win rate and its 95% interval (the kit's
    :func:`~throne_lib.kit.analytics.rates`)."""
    r = rates(sides(df).groupby(["general", "opponent"]))
    if r.empty:
        return r
    return pd.DataFrame(
        {
            "general": [g for g, _ in r["key"]],
            "opponent": [o for _, o in r["key"]],
            "n": r["matches"],
            "rate": r["win_rate"],
            "lo": r["ci_low"],
            "hi": r["ci_high"],
        }
    )


def matrix_html(df: pd.DataFrame, db: CardDB) -> str:
    """The matchup table: the row general's win rate against the column general, with n
    and the 95% interval in every cell."""
    cells = matchup_cells(df)
    if cells.empty:
        return "<i>没有对局</i>"
    gens = sorted({str(g) for g in cells["general"]} | {str(g) for g in cells["opponent"]})
    at: dict[tuple[str, str], dict[Any, Any]] = {
        (str(r["general"]), str(r["opponent"])): r for r in cells.to_dict("records")
    }
    head = "".join(f"<th style='{TH}'>{html.escape(_name(db, g))}</th>" for g in gens)
    body = []
    for g in gens:
        tds = []
        for o in gens:
            r = at.get((g, o))
            if r is None:
                tds.append(f"<td style='{TD}'>—</td>")
                continue
            n, rate, lo, hi = int(r["n"]), float(r["rate"]), float(r["lo"]), float(r["hi"])
            tds.append(
                f"<td class='tp-cell' style='{TD};background:{_colour(rate)}' "
                f"title='{html.escape(_name(db, g))} 对 {html.escape(_name(db, o))}："
                f"{n} 局，胜率 {rate:.2f}，95% 区间 {lo:.2f}–{hi:.2f}'>"
                f"<b>{rate:.2f}</b><br><span style='font-size:11px;color:#444'>"
                f"n={n} · {lo:.2f}–{hi:.2f}</span></td>"
            )
        body.append(f"<tr><th style='{TH}'>{html.escape(_name(db, g))}</th>{''.join(tds)}</tr>")
    return (
        "<table class='tp-matrix' style='border-collapse:collapse;font-size:13px'>"
        f"<tr><th style='{TH}'>行 对 列</th>{head}</tr>{''.join(body)}</table>"
        "<div style='color:#5d6778;font-size:12px'>格内：行将领的胜率（平局算半胜），"
        "n = 对局数，后面是 95% 置信区间（Wilson）。区间跨过 0.50 的格子还看不出强弱。</div>"
    )


def generals_html(df: pd.DataFrame, db: CardDB) -> str:
    """Each general's win rate over all its matches, with n and the interval."""
    s = sides(df)
    rows = []
    for g, part in s.groupby("general"):
        n = len(part)
        score = float(part["score"].sum())
        lo, hi = wilson(score, n)
        rows.append((score / n if n else math.nan, str(g), n, lo, hi))
    rows.sort(reverse=True)
    trs = "".join(
        f"<tr><td style='{TD}'>{html.escape(_name(db, g))}</td><td style='{TD}'>{n}</td>"
        f"<td style='{TD};background:{_colour(rate)}'>{rate:.2f}</td>"
        f"<td style='{TD}'>{lo:.2f}–{hi:.2f}</td></tr>"
        for rate, g, n, lo, hi in rows
    )
    return (
        "<table style='border-collapse:collapse;font-size:13px'>"
        f"<tr><th style='{TH}'>将领</th><th style='{TH}'>对局数</th><th style='{TH}'>胜率</th>"
        f"<th style='{TH}'>95% 区间</th></tr>{trs}</table>"
    )


def summary_html(df: pd.DataFrame) -> str:
    f = first_player_advantage(df)
    e = endings(df)
    mean_rounds = float(df["rounds"].mean()) if len(df) else math.nan
    return (
        f"共 <b>{len(df)}</b> 局 · 先手胜率 <b>{f['first_win_rate']:.2f}</b>"
        f"（95% 区间 {f['ci_low']:.2f}–{f['ci_high']:.2f}）· 平局 {e['draw_rate']:.0%}"
        f" · 打满回合 {e['round_limit_rate']:.0%} · 平均 {mean_rounds:.1f} 回合"
    )


def cards_html(df: pd.DataFrame, db: CardDB, top: int = 15) -> str:
    """The cards most often played, with the win rate when drawn and when played."""
    from throne_lib.games.throne.analytics import card_win_rates

    table = card_win_rates(df)
    if table.empty:
        return ""
    table = table.sort_values("played", ascending=False).head(top)
    trs = ""
    for r in table.to_dict("records"):
        played = r["win_rate_played"]
        trs += (
            f"<tr><td style='{TD}'>{html.escape(_name(db, str(r['card'])))}</td>"
            f"<td style='{TD}'>{int(r['drawn'])}</td><td style='{TD}'>{int(r['played'])}</td>"
            f"<td style='{TD}'>{r['win_rate_drawn']:.2f}</td>"
            f"<td style='{TD}'>{'' if math.isnan(played) else f'{played:.2f}'}</td></tr>"
        )
    return (
        "<table style='border-collapse:collapse;font-size:13px'>"
        f"<tr><th style='{TH}'>卡牌</th><th style='{TH}'>抽到（局·方）</th>"
        f"<th style='{TH}'>打出</th><th style='{TH}'>抽到时胜率</th>"
        f"<th style='{TH}'>打出时胜率</th></tr>{trs}</table>"
    )


def results_html(df: pd.DataFrame, db: CardDB, source: str) -> str:
    return (
        f"<div class='tp-balance-results' style='font-size:14px'>"
        f"<div style='color:#5d6778'>结果来自 <code>{html.escape(source)}</code></div>"
        f"<div style='margin:4px 0 8px'>{summary_html(df)}</div>"
        f"<h4 style='margin:6px 0'>将领对阵胜率</h4>{matrix_html(df, db)}"
        f"<h4 style='margin:10px 0 6px'>将领总胜率</h4>{generals_html(df, db)}"
        f"<h4 style='margin:10px 0 6px'>打出最多的卡牌</h4>{cards_html(df, db)}</div>"
    )


class BalancePage:
    """The dashboard's widget (``.widget``): the last saved sweep, and a new one on demand."""

    def __init__(
        self,
        cards: str | None = None,
        backend: str = "process",
        results_dir: Path = RESULTS_DIR,
    ) -> None:
        import ipywidgets as w

        from throne_lib.kit.agents import agent_names

        self.db = load_cards(cards)
        self.cards = cards
        self.results_dir = results_dir
        gens = [(g.name, g.id) for g in self.db.of("general")]
        self.generals = w.SelectMultiple(
            options=gens, value=[g for _, g in gens[:4]], rows=7, description="将领"
        )
        agents = [(AGENT_ZH.get(a, a), a) for a in agent_names("throne")]
        self.agent = w.Dropdown(options=agents, value="standard", description="AI")
        self.matches = w.IntSlider(value=10, min=1, max=100, description="每对局数")
        self.seed = w.IntText(value=0, description="种子")
        self.backend = w.Dropdown(
            options=[("多进程", "process"), ("单进程", "serial"), ("Dask", "dask")],
            value=backend,
            description="后端",
        )
        self.button = w.Button(description="运行新一轮模拟", button_style="primary")
        self.button.add_class("tp-balance-run")
        self.button.on_click(lambda _: self.start())
        self.progress = w.IntProgress(value=0, min=0, max=1, layout=w.Layout(width="320px"))
        self.progress.layout.visibility = "hidden"
        self.status = w.HTML()
        self.status.add_class("tp-balance-status")
        self.estimate = w.HTML()  # how long the sweep the widgets describe takes
        self.estimate.add_class("tp-balance-estimate")
        self.view = w.HTML()
        self.results: pd.DataFrame | None = None
        self.source: Path | None = None
        self._task: asyncio.Future[Any] | None = None
        controls = w.VBox([self.agent, self.matches, self.seed, self.backend])
        run = w.VBox([self.button, self.estimate, self.progress, self.status])
        self.widget = w.VBox([w.HBox([self.generals, controls, run]), self.view])
        self.widget.add_class("tp-balance")
        for control in (self.generals, self.matches, self.backend):
            control.observe(lambda _: self.show_estimate(), "value")
        self.show_estimate()
        self.load_latest()

    def _workers(self) -> int:
        return 1 if self.backend.value == "serial" else max(1, os.cpu_count() or 1)

    def sweep_seconds(self) -> tuple[int, float | None]:
        """(matches of the sweep the widgets describe, the seconds it takes at the
        recorded speed; None: no speed recorded)."""
        n = len(self.specs())
        speed = read_speed(Path(self.cards) if self.cards else cards_path())
        if speed is None:
            return n, None
        return n, float(speed["seconds_per_match"]) * n / self._workers()

    def show_estimate(self) -> str:
        n, seconds = self.sweep_seconds()
        if seconds is None:
            text = f"这一轮 {n} 局（本机还没有测速记录，开始后按进度给出剩余时间）"
        else:
            procs = f"，{self._workers()} 个进程" if self._workers() > 1 else ""
            text = f"这一轮 {n} 局，预计约 <b>{duration_zh(seconds)}</b>（按记录的速度{procs}）"
        self.estimate.value = f"<span style='color:#5d6778;font-size:12px'>{text}</span>"
        return text

    def load_latest(self) -> None:
        """Show the newest saved sweep, or say how to make one."""
        path = latest_results(self.results_dir)
        if path is None:
            n, seconds = self.sweep_seconds()
            took = f"，按记录的速度约需 {duration_zh(seconds)}" if seconds is not None else ""
            self.view.value = (
                "<div class='tp-balance-results' style='color:#5d6778'>还没有保存的模拟结果："
                f"选择将领与每对局数，点「运行新一轮模拟」（现在的选择：{n} 局{took}）。</div>"
            )
            return
        try:
            df = pd.read_parquet(path, engine="pyarrow")
        except (OSError, ValueError) as error:
            self.view.value = (
                f"<div style='color:#9f3a38'>结果文件 {html.escape(path.name)} 读不出来："
                f"{html.escape(str(error))}（文件保留原样）</div>"
            )
            return
        self.show(df, path)

    def show(self, df: pd.DataFrame, path: Path) -> None:
        self.results, self.source = df, path
        shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        self.view.value = results_html(df, self.db, str(shown))

    def specs(self) -> list[Any]:
        from throne_lib.games.throne.sim import round_robin_specs

        return round_robin_specs(
            self.db,
            self.matches.value,
            self.seed.value,
            agent=self.agent.value,
            generals=list(self.generals.value),
        )

    def run(self) -> pd.DataFrame:
        """Run the sweep the widgets describe (blocking), save it and show it."""
        from throne_lib.kit.sim import simulate

        specs = self.specs()
        self.progress.max, self.progress.value = max(len(specs), 1), 0
        self.progress.layout.visibility = "visible"
        _, seconds = self.sweep_seconds()
        guess = f"，预计约 {duration_zh(seconds)}" if seconds is not None else ""
        self.status.value = f"模拟中：0/{len(specs)} 局{guess}"
        started = time.perf_counter()

        def on_row(_: dict[str, Any]) -> None:
            self.progress.value += 1
            done, used = self.progress.value, time.perf_counter() - started
            left = used / done * (len(specs) - done)
            self.status.value = (
                f"模拟中：{done}/{len(specs)} 局 · 已用 {duration_zh(used)}"
                f"，预计还需约 {duration_zh(left)}"
            )

        df = simulate(
            specs, backend=self.backend.value, cards=self.cards, progress=False, on_row=on_row
        )
        path = save_results(df, self.results_dir)
        self.status.value = f"完成：{len(df)} 局，已保存"
        self.show(df, path)
        return df

    def start(self) -> None:
        """The button: run the sweep off the kernel's loop, so the page stays live."""
        if self._task is not None and not self._task.done():
            return
        self.button.disabled = True

        def work() -> None:
            try:
                self.run()
            except Exception as error:  # noqa: BLE001 - show it in the page
                self.status.value = (
                    f"<span style='color:#9f3a38'>模拟失败：{html.escape(str(error))}</span>"
                )
            finally:
                self.button.disabled = False

        loop = asyncio.get_event_loop()
        self._task = loop.run_in_executor(None, work)
