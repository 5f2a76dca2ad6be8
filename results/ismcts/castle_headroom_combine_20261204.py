"""The 援军 at 6 seats on seeds 42000-: every player of its seat beside the scripted one,
from the runs of castle_headroom_20261204.sh and castle_reinf_belief3_20261204.sh (a
results file, else the journal a stopped run left). Prints the ladder's seat table per
run, then all of them on the seeds every run finished.

    python results/ismcts/castle_headroom_combine_20261204.py
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from throne_lib.kit.journal import journal_path, journal_rows
from throne_lib.kit.ladder import focus_table, with_ladder_column

HERE = Path(__file__).parent
RUNS = [
    "castle6_reinforcement_headroom_s42000",
    "castle6_reinforcement_roles_s42000",
    "castle6_reinforcement_belief3_s42000",
]
COLS = ["agent", "seeds", "win_rate", "reference_rate", "advantage", "ci_low", "ci_high",
        "better", "worse"]  # fmt: skip


def rows(name: str) -> tuple[pd.DataFrame, str]:
    done = HERE / f"{name}.parquet"
    if done.exists():
        return pd.read_parquet(done), done.name
    book = journal_path(done)
    return with_ladder_column(pd.DataFrame(journal_rows(book))), f"{book.name} (stopped)"


def main() -> None:
    frames = []
    for name in RUNS:
        df, source = rows(name)
        table = focus_table(df)
        print(f"== {source}: {len(df)} matches ==")
        print(table[table["role"] == "all"][COLS].to_string(index=False, float_format="%.3f"))
        frames.append(df)
    every = pd.concat(frames, ignore_index=True)
    focus = every[every["ladder"].str.startswith("focus|")]
    per_agent = focus.groupby(focus["ladder"].str.split("|").str[1])["seed"].apply(set)
    common = set.intersection(*per_agent)
    base = every[every["ladder"] == "base||"].drop_duplicates("seed")
    both = pd.concat([base, focus], ignore_index=True)
    both = both[both["seed"].isin(common)]
    table = focus_table(both)
    print(f"\n== the {len(common)} seeds every run finished ==")
    print(table[table["role"] == "all"][COLS].to_string(index=False, float_format="%.3f"))


if __name__ == "__main__":
    main()
