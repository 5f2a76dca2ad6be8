"""The balance look of 城堡之心 (``notebooks/castle_balance.ipynb``): role and hero win
rates with 95% intervals from saved ``throne simulate --game castle`` results, and a
button that runs a new sweep with a progress bar.

The tables reuse :func:`throne_lib.games.castle.report.long_rows` (one row per seat) and
the kit's Wilson intervals (:func:`throne_lib.kit.analytics.rates`); the sweep is the
kit's :func:`throne_lib.kit.sim.simulate` over :func:`~throne_lib.kit.sim.seat_specs`,
the same matches ``throne simulate --game castle --players N`` plays.

The page opens on the newest saved sweep: its own last one (``castle-balance-latest
.parquet`` in the castle logs' folder, ``$CASTLE_LOGS`` or ``logs/``) when there is one,
else the repository's ``results/castle-balance.parquet``.
Beside the button, how long the sweep the widgets describe takes at the recorded speed
(:func:`throne_lib.kit.balance_saved.read_speed` for ``cards-castle.csv``); while it
runs, the matches done, the time used and the time left.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from throne_lib.games.castle.report import long_rows
from throne_lib.games.castle.rules import ROLE_ZH
from throne_lib.kit.analytics import rates
from throne_lib.kit.balance_saved import duration_zh, read_speed
from throne_lib.kit.sim import load_results, save_results, seat_specs, simulate

ROOT = Path(__file__).resolve().parents[4]
SAVED = ROOT / "results" / "castle-balance.parquet"
ROLES = ("lord", "enemy", "reinforcement", "neutral")
REGENERATE = (
    "for p in 4 5 6 7 8; do throne simulate --game castle --players $p -n 1000 "
    "--out logs/castle-$p.parquet; done; "
    "python -m throne_lib.games.castle.ui.balance logs/castle-?.parquet"
)


def combine(paths: Iterable[str | Path]) -> pd.DataFrame:
    """Concatenate ``throne simulate --game castle`` result files (one per player count)."""
    return pd.concat([load_results(p) for p in paths], ignore_index=True)


def seat_rows(df: pd.DataFrame) -> pd.DataFrame:
    """One row per seat with ``score`` = 1 for a win (a draw or loss scores 0)."""
    rows = long_rows(df)
    return rows.assign(score=(rows["result"] > 0).astype(float))


def role_rates(df: pd.DataFrame) -> pd.DataFrame:
    """Win rate per (players, role): seats n, wins, rate, 95% Wilson interval."""
    out = rates(seat_rows(df).groupby(["players", "role"]))
    out[["players", "role"]] = pd.DataFrame(out.pop("key").tolist(), index=out.index)
    order = {r: i for i, r in enumerate(ROLES)}
    out = out.sort_values(
        ["players", "role"], key=lambda c: c.map(order) if c.name == "role" else c
    )
    return out.reset_index(drop=True)[["players", "role", "matches", "wins", "win_rate", "ci_low", "ci_high"]]  # fmt: skip


def hero_rates(df: pd.DataFrame) -> pd.DataFrame:
    """Win rate per hero over all player counts, best first."""
    out = rates(seat_rows(df).groupby("hero")).rename(columns={"key": "hero"})
    return out.sort_values("win_rate", ascending=False).reset_index(drop=True)


def _cell(rate: float, lo: float, hi: float) -> str:
    return f"{rate:.0%}（{lo:.0%}–{hi:.0%}）"


def role_grid(df: pd.DataFrame) -> pd.DataFrame:
    """The designer's table in Chinese: players × role, "胜率（95% 区间）" and n seats."""
    r = role_rates(df)
    r["cell"] = [_cell(*t) for t in zip(r["win_rate"], r["ci_low"], r["ci_high"], strict=True)]
    r["cell"] = r["cell"] + "  n=" + r["matches"].astype(str)
    grid = r.pivot(index="players", columns="role", values="cell")
    grid = grid[[c for c in ROLES if c in grid.columns]].fillna("—")
    grid.columns = [ROLE_ZH[c] for c in grid.columns]
    grid.insert(0, "对局数", df.groupby("players").size())
    grid.index.name = "人数"
    return grid


def hero_names() -> dict[str, str]:
    from throne_lib.games.castle.cards import load_castle_cards

    return {k: c.name for k, c in load_castle_cards().items() if c.kind == "hero"}


def hero_grid(df: pd.DataFrame) -> pd.DataFrame:
    names = hero_names()
    h = hero_rates(df)
    return pd.DataFrame(
        {
            "英雄": [names.get(k, k) for k in h["hero"]],
            "胜率（95% 区间）": [
                _cell(*t) for t in zip(h["win_rate"], h["ci_low"], h["ci_high"], strict=True)
            ],
            "出场席位": h["matches"],
        }
    )


def sweep(
    players: Sequence[int],
    n: int,
    seed: int = 0,
    agent: str = "scripted",
    on_row: Any = None,
    workers: int = 1,
) -> pd.DataFrame:
    """``n`` matches per player count, as ``throne simulate --game castle --players P -n
    n --seed seed`` would play them."""
    frames = []
    for p in players:
        specs = seat_specs("castle", [f"seat{i}" for i in range(p)], [agent] * p, n, seed)
        frames.append(simulate(specs, workers=workers, progress=False, on_row=on_row))
    return pd.concat(frames, ignore_index=True)


class BalancePanel:
    """Saved tables on load; 「运行新模拟」 runs a sweep with an ipywidgets progress bar."""

    def __init__(self, path: str | Path = SAVED, latest: str | Path | None = None) -> None:
        import ipywidgets as w

        from throne_lib.games.castle.ui.replay import logs_dir  # $CASTLE_LOGS, else logs/

        self.latest = Path(latest or logs_dir() / "castle-balance-latest.parquet")
        self.path = self.latest if self.latest.exists() else Path(path)  # the newest sweep
        self.df = load_results(self.path) if self.path.exists() else pd.DataFrame()
        self.players = w.SelectMultiple(
            options=list(range(4, 9)), value=tuple(range(4, 9)), description="人数", rows=5
        )
        self.n = w.BoundedIntText(value=20, min=1, max=5000, description="每档局数")
        self.seed = w.IntText(value=10_000, description="起始种子")
        self.button = w.Button(description="运行新模拟", button_style="primary", icon="play")
        self.bar = w.IntProgress(value=0, min=0, max=1, description="进度")
        self.status = w.HTML()
        self.estimate = w.HTML()  # how long the sweep the widgets describe takes
        self.estimate.add_class("tp-balance-estimate")
        self.out = w.Output()
        self.button.on_click(lambda _b: self.run())
        controls = w.VBox([w.HBox([self.players, w.VBox([self.n, self.seed, self.button,
                                                         self.estimate])]),
                           w.HBox([self.bar, self.status])])  # fmt: skip
        self.widget = w.VBox([controls, self.out])
        for control in (self.players, self.n):
            control.observe(lambda _: self.show_estimate(), "value")
        self.show_estimate()
        self.show(self.source())

    def sweep_seconds(self) -> tuple[int, float | None]:
        """(matches of the sweep the widgets describe, the seconds it takes at the
        recorded speed, one process; None: no speed recorded)."""
        from throne_lib.games.castle.cards import DEFAULT_PATH

        n = int(self.n.value) * len(self.players.value)
        speed = read_speed(DEFAULT_PATH)
        return n, None if speed is None else float(speed["seconds_per_match"]) * n

    def show_estimate(self) -> str:
        n, seconds = self.sweep_seconds()
        took = "本机还没有测速记录" if seconds is None else f"预计约 <b>{duration_zh(seconds)}</b>"
        text = f"这一轮 {n} 局，{took}（按记录的速度，单进程）"
        self.estimate.value = f"<span style='color:#5d6778;font-size:12px'>{text}</span>"
        return text

    def source(self) -> str:
        if self.df.empty:
            return f"尚无保存的结果（{self.path.name}）。"
        counts = self.df.groupby("players").size()
        each = "、".join(f"{p} 人 {c} 局" for p, c in counts.items())
        shown = self.path.relative_to(ROOT) if self.path.is_relative_to(ROOT) else self.path
        return f"已保存结果 {shown}：{each}。"

    def show(self, note: str) -> None:
        from IPython.display import HTML, display

        self.out.clear_output()
        with self.out:
            display(HTML(f"<p>{note}</p>"))
            if self.df.empty:
                return
            display(HTML("<h3>身份胜率（95% Wilson 区间，n = 席位数）</h3>"))
            display(HTML(role_grid(self.df).to_html()))
            display(HTML("<h3>英雄胜率（全部人数合计）</h3>"))
            display(HTML(hero_grid(self.df).to_html(index=False)))

    def run(self) -> pd.DataFrame:
        players = sorted(self.players.value)
        n = int(self.n.value)
        self.bar.max, self.bar.value = max(1, n * len(players)), 0
        self.button.disabled = True
        _, seconds = self.sweep_seconds()
        total = int(self.bar.max)
        self.status.value = f"模拟中：0/{total} 局" + (
            f"，预计约 {duration_zh(seconds)}" if seconds is not None else ""
        )
        started = time.perf_counter()

        def tick(_row: dict[str, Any]) -> None:
            self.bar.value += 1
            done, used = int(self.bar.value), time.perf_counter() - started
            self.status.value = (
                f"模拟中：{done}/{total} 局 · 已用 {duration_zh(used)}"
                f"，预计还需约 {duration_zh(used / done * (total - done))}"
            )

        try:
            self.df = sweep(players, n, seed=int(self.seed.value), on_row=tick)
        finally:
            self.button.disabled = False
        saved = save_results(self.df, self.latest)
        self.status.value = f"完成：{len(self.df)} 局，已存 {saved}"
        self.show(
            f"新模拟（种子自 {self.seed.value} 起）：{'、'.join(map(str, players))} 人各 {n} 局。"
        )
        return self.df


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m throne_lib.games.castle.ui.balance A.parquet B.parquet …`` merges
    per-player-count results into the saved file the notebook opens."""
    import sys

    paths = list(argv if argv is not None else sys.argv[1:])
    if not paths:
        print(
            f"usage: python -m throne_lib.games.castle.ui.balance RESULTS.parquet …\n{REGENERATE}"
        )
        return 2
    df = combine(paths)
    save_results(df, SAVED)
    print(f"{len(df)} matches -> {SAVED}")
    print(role_grid(df).to_string())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
