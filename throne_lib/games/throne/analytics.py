"""Throne & Phalanx's balance analytics over a results frame from :mod:`throne_lib.kit.sim`
(the kit's :mod:`throne_lib.kit.analytics` gives the intervals and the generic report).

Every function takes the frame (one row per match) and returns a small pandas
object; the notebook ``notebooks/balance.ipynb`` charts them and
``throne report RESULTS.parquet`` (:func:`throne_lib.kit.analytics.report_main`) prints them. A draw counts
as half a win in every win rate. Intervals are Wilson score intervals.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import pandas as pd

from throne_lib.games.throne.board import SIDE_NAMES
from throne_lib.kit.analytics import rates, wilson

STATS = ("mana_spent", "mana_available", "cards_played", "cards_drawn", "summons")

if TYPE_CHECKING:
    from matplotlib.axes import Axes


def sides(df: pd.DataFrame) -> pd.DataFrame:
    """One row per (match, side): who played, whether it won (1, ½ for a draw, 0),
    whether it moved first, and its opponent."""
    parts = []
    for name, other in (SIDE_NAMES, SIDE_NAMES[::-1]):
        part = pd.DataFrame(
            {
                "match": df["match"],
                "side": name,
                "general": df[f"{name}_general"],
                "race": df[f"{name}_race"],
                "agent": df[f"{name}_agent"],
                "opponent": df[f"{other}_general"],
                "opponent_agent": df[f"{other}_agent"],
                "first": df["first"] == name,
                "score": (df["winner"] == name).astype(float) + 0.5 * (df["winner"] == "draw"),
                "throne_hp": df[f"{name}_throne_hp"],
                "drawn": df[f"{name}_drawn"],
                "played": df[f"{name}_played"],
            }
        )
        for stat in STATS:
            if f"{name}_{stat}" in df:
                part[stat] = df[f"{name}_{stat}"]
        parts.append(part)
    return pd.concat(parts, ignore_index=True)


def win_rates(df: pd.DataFrame, by: str = "general") -> pd.DataFrame:
    """Win rate per general (or ``race``/``agent``) with a 95% interval, best first."""
    out = rates(sides(df).groupby(by))
    if out.empty:
        return out
    out = out.rename(columns={"key": by})
    return out.sort_values("win_rate", ascending=False, kind="stable").reset_index(drop=True)


def matchup_matrix(df: pd.DataFrame) -> pd.DataFrame:
    """Win rate of the row general against the column general."""
    s = sides(df)
    return s.pivot_table(index="general", columns="opponent", values="score", aggfunc="mean")


def first_player_advantage(df: pd.DataFrame) -> pd.Series:
    """How often the side that moves first (R-TURN-12) wins, with its interval."""
    n = len(df)
    score = float((df["winner"] == df["first"]).sum() + 0.5 * (df["winner"] == "draw").sum())
    lo, hi = wilson(score, n)
    return pd.Series(
        {"matches": n, "first_win_rate": score / n if n else math.nan, "ci_low": lo, "ci_high": hi}
    )


def endings(df: pd.DataFrame) -> pd.Series:
    """Shares of how matches ended: throne fell, round 40 (R-END-1), draws."""
    n = max(1, len(df))
    limit = df["end_reason"].str.startswith("round_limit")
    return pd.Series(
        {
            "matches": len(df),
            "throne_rate": float((df["end_reason"] == "throne").sum() / n),
            "round_limit_rate": float(limit.sum() / n),
            "draw_rate": float((df["winner"] == "draw").sum() / n),
        }
    )


def length_distribution(df: pd.DataFrame) -> pd.Series:
    """Matches per length in rounds."""
    return df["rounds"].value_counts().sort_index()


def lead_changes(df: pd.DataFrame) -> pd.Series:
    """Distribution of throne-HP lead changes per match."""
    return df["lead_changes"].value_counts().sort_index()


def side_stats(df: pd.DataFrame, by: str = "general") -> pd.DataFrame:
    """Mean per-match counters of a side (mana spent and available, cards played and
    drawn, summons, throne HP left) per general (or ``race``/``agent``)."""
    s = sides(df)
    cols = [c for c in (*STATS, "throne_hp") if c in s]
    return s.groupby(by)[cols].mean().sort_index()


def card_win_rates(df: pd.DataFrame, min_count: int = 1) -> pd.DataFrame:
    """Per card: how often it was drawn / played (once per match and side) and the
    win rate of the side when it was drawn and when it was played."""
    s = sides(df)
    out = []
    for col in ("drawn", "played"):
        e = s[["match", "side", "score", col]].explode(col).dropna(subset=[col])
        g = e.groupby(col)["score"].agg(["count", "mean"])
        g.columns = [f"{col}", f"win_rate_{col}"]
        out.append(g)
    table = pd.concat(out, axis=1).fillna({"drawn": 0, "played": 0})
    table.index.name = "card"
    table = table[table["drawn"] >= min_count]
    table["play_rate"] = table["played"] / table["drawn"].where(table["drawn"] > 0)
    table["delta"] = table["win_rate_played"] - table["win_rate_drawn"]
    return table.sort_values("win_rate_played", ascending=False).reset_index()


def summary(df: pd.DataFrame) -> dict[str, Any]:
    """Headline figures of a batch."""
    e = endings(df)
    f = first_player_advantage(df)
    return {
        "matches": len(df),
        "first_win_rate": f["first_win_rate"],
        "draw_rate": e["draw_rate"],
        "round_limit_rate": e["round_limit_rate"],
        "mean_rounds": float(df["rounds"].mean()) if len(df) else math.nan,
        "mean_lead_changes": float(df["lead_changes"].mean()) if len(df) else math.nan,
    }


def _f1(x: float) -> str:
    return f"{x:.1f}"


def _f3(x: float) -> str:
    return f"{x:.3f}"


def report_text(df: pd.DataFrame, top: int = 15) -> str:
    """The plain-text balance report of ``throne report``."""
    if df.empty:
        return "no matches"
    parts = ["== summary =="]
    parts += [
        f"{k}: {v:.3f}" if isinstance(v, float) else f"{k}: {v}" for k, v in summary(df).items()
    ]
    parts += [
        "",
        "== win rate per general (95% CI) ==",
        win_rates(df).to_string(index=False, float_format=_f3),
    ]
    if df["blue_agent"].nunique() + df["red_agent"].nunique() > 2:
        parts += [
            "",
            "== win rate per agent ==",
            win_rates(df, "agent").to_string(index=False, float_format=_f3),
        ]
    parts += [
        "",
        "== general vs general (row's win rate) ==",
        matchup_matrix(df).to_string(float_format=_f3),
    ]
    parts += ["", "== per side, mean per match ==", side_stats(df).to_string(float_format=_f1)]
    parts += ["", "== endings ==", endings(df).to_string(float_format=_f3)]
    parts += ["", "== match length (rounds: matches) ==", length_distribution(df).to_string()]
    parts += ["", "== throne-HP lead changes (changes: matches) ==", lead_changes(df).to_string()]
    cards = card_win_rates(df).head(top)
    parts += [
        "",
        f"== cards: win rate when drawn vs played (top {top}) ==",
        cards.to_string(index=False, float_format=_f3),
    ]
    return "\n".join(parts)


# --- charts (matplotlib is imported only when a chart is drawn) --------------------------


def plot_matrix(df: pd.DataFrame, ax: Axes | None = None) -> Axes:
    """Heatmap of :func:`matchup_matrix`."""
    import matplotlib.pyplot as plt

    m = matchup_matrix(df)
    if ax is None:
        _, ax = plt.subplots(figsize=(1 + 0.6 * len(m.columns), 1 + 0.5 * len(m.index)))
    values = m.to_numpy(dtype=float)
    im = ax.imshow(values, cmap="RdBu", vmin=0, vmax=1)
    ax.set_xticks(range(len(m.columns)), list(m.columns), rotation=60, ha="right")
    ax.set_yticks(range(len(m.index)), list(m.index))
    for i in range(len(m.index)):
        for j in range(len(m.columns)):
            v = float(values[i, j])
            if not math.isnan(v):
                ax.text(j, i, f"{v:.2f}", ha="center", va="center", fontsize=7)
    ax.set_title("win rate (row vs column)")
    ax.figure.colorbar(im, ax=ax)
    return ax


def plot_lengths(df: pd.DataFrame, ax: Axes | None = None) -> Axes:
    """Histogram of match length in rounds."""
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=(6, 3))
    top = int(df["rounds"].max()) if len(df) else 1
    ax.hist(df["rounds"], bins=range(1, top + 2), color="#4a7ab0", edgecolor="white")
    ax.set_xlabel("rounds")
    ax.set_ylabel("matches")
    ax.set_title("match length")
    return ax


# --- notebook panel (ipywidgets is imported only when a panel is built) ----------------------


class BalancePanel:
    """Widgets to pick generals and agents, run a round robin with a progress bar and
    show the heatmap, the length histogram and the per-card table inline.

    Testable without a browser: set the widgets' values and call :meth:`run`."""

    def __init__(self, cards: str | None = None, backend: str = "process") -> None:
        import ipywidgets as w

        from throne_lib.games.throne.cards import load_cards
        from throne_lib.kit.agents import agent_names

        self.db = load_cards(cards)
        self.cards = cards
        gens = [(f"{g.name} ({g.id})", g.id) for g in self.db.of("general")]
        self.generals = w.SelectMultiple(
            options=gens, value=[g for _, g in gens[:4]], rows=8, description="将领"
        )
        agents = agent_names("throne")
        self.agent = w.Dropdown(options=agents, value="standard", description="先列 AI")
        self.opponent = w.Dropdown(options=agents, value="standard", description="对手 AI")
        self.matches = w.IntSlider(value=2, min=1, max=50, description="每对局数")
        self.iterations = w.IntSlider(value=8, min=1, max=64, description="搜索迭代")
        self.seed = w.IntText(value=0, description="种子")
        self.backend = w.Dropdown(
            options=("process", "serial", "dask"), value=backend, description="后端"
        )
        self.button = w.Button(description="运行模拟", button_style="primary")
        self.button.on_click(lambda _: self.run())
        self.out = w.Output()
        self.results: pd.DataFrame | None = None
        controls = w.VBox([self.agent, self.opponent, self.matches, self.iterations])
        extra = w.VBox([self.seed, self.backend, self.button])
        self.widget = w.VBox([w.HBox([self.generals, controls, extra]), self.out])

    def _params(self, agent: str) -> dict[str, Any]:
        return {"iterations": self.iterations.value} if agent == "search" else {}

    def run(self) -> pd.DataFrame:
        """Run the sweep the widgets describe and draw the charts into the output area."""
        import matplotlib.pyplot as plt
        from IPython.display import display

        from throne_lib.games.throne.sim import round_robin_specs
        from throne_lib.kit.sim import simulate

        specs = round_robin_specs(
            self.db,
            self.matches.value,
            self.seed.value,
            agent=self.agent.value,
            params=self._params(self.agent.value),
            generals=list(self.generals.value),
            opponent=self.opponent.value,
            opponent_params=self._params(self.opponent.value),
        )
        self.out.clear_output()
        with self.out:
            df = simulate(specs, backend=self.backend.value, cards=self.cards)
            fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
            plot_matrix(df, axes[0])
            plot_lengths(df, axes[1])
            fig.tight_layout()
            plt.show()
            display(pd.Series(summary(df)).to_frame("值"))
            table = card_win_rates(df)
            table.insert(1, "名称", [self.db[c].name for c in table["card"]])
            display(table.head(20))
        self.results = df
        return df
