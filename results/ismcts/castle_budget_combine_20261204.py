"""The 援军 at 6 seats on seeds 43000-43199, from castle_budget_20261204.sh: the seat at 160
iterations and at 40 (the control), each against the scripted seat on the same seeds, and
160 against 40 head to head on the seeds both finished (a results file, else the journal
a stopped run left).

    python results/ismcts/castle_budget_combine_20261204.py
"""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd

from throne_lib.kit.journal import journal_path, journal_rows
from throne_lib.kit.ladder import focus_table, with_ladder_column

HERE = Path(__file__).parent
RUNS = ["castle6_reinforcement_i160_s43000", "castle6_reinforcement_i40_s43000"]
COLS = ["agent", "seeds", "win_rate", "reference_rate", "advantage", "ci_low", "ci_high",
        "better", "worse"]  # fmt: skip


def rows(name: str) -> tuple[pd.DataFrame, str]:
    done = HERE / f"{name}.parquet"
    if done.exists():
        return pd.read_parquet(done), done.name
    book = journal_path(done)
    return with_ladder_column(pd.DataFrame(journal_rows(book))), f"{book.name} (stopped)"


def seat_wins(df: pd.DataFrame) -> pd.Series:
    """The focus seat's win (0/1) per seed."""
    names = [c[: -len("_return")] for c in df.columns if c.endswith("_return")]
    focus = df[df["ladder"].str.startswith("focus|")]
    return pd.Series(
        {
            int(r["seed"]): float(r[f"{names[int(str(r['ladder']).split('|')[2])]}_return"] > 0)
            for _, r in focus.iterrows()
        }
    )


def main() -> None:
    frames = []
    for name in RUNS:
        df, source = rows(name)
        table = focus_table(df)
        print(f"== {source}: {len(df)} matches ==")
        print(table[table["role"] == "all"][COLS].to_string(index=False, float_format="%.3f"))
        frames.append(df)
    hi, lo = seat_wins(frames[0]), seat_wins(frames[1])
    common = sorted(set(hi.index) & set(lo.index))
    d = hi[common] - lo[common]
    half = 1.96 * float(d.std(ddof=1)) / math.sqrt(len(d))
    print(
        f"\n== 160 against 40 iterations on the {len(common)} seeds both finished ==\n"
        f"160: {hi[common].mean():.3f}  40: {lo[common].mean():.3f}  "
        f"difference {100 * d.mean():+.1f} points ({100 * (d.mean() - half):+.1f} … "
        f"{100 * (d.mean() + half):+.1f}); seeds 160 better {int((d > 0).sum())}, "
        f"worse {int((d < 0).sum())}"
    )


if __name__ == "__main__":
    main()
