"""Match lengths (rounds) of the CW-SETUP-3 team runs (``run_team_lengths.sh``): median,
quartiles, range, matches over in round 1 or 2, the median of turns per player, how the
matches ended and who won (team labels a, b, c). ``before_9e780ca_*`` are the same
commands and seeds run on main at 9e780ca, before the CW-SETUP-3 count and the CW-TURN-1
turn order (its ``winner`` column is the old, wrong "draw"; it has no ``turns``).
Writes ``team_lengths.txt``."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

HERE = Path(__file__).parent
RUNS = (("4 v 4", "teams_4v4"), ("2 v 2", "teams_2v2"), ("3 teams of 2", "teams_3x2"))


def summary(prefix: str = "") -> str:
    rows = []
    for name, stem in RUNS:
        df = pd.read_parquet(HERE / f"{prefix}{stem}.parquet")
        r = df["rounds"]
        turns = (df["turns"] / df["players"]).median() if "turns" in df else float("nan")
        rows.append(
            {
                "teams": name,
                "matches": len(df),
                "seeds": f"{df['seed'].min()}-{df['seed'].max()}",
                "median": r.median(),
                "q1": r.quantile(0.25),
                "q3": r.quantile(0.75),
                "min": r.min(),
                "max": r.max(),
                "in round 1-2": int((r <= 2).sum()),
                "turns/player median": turns,
                "end rules": dict(df["end_rule"].value_counts()),
                "winners": dict(df["winner"].value_counts()),
            }
        )
    return pd.DataFrame(rows).to_string(index=False)


if __name__ == "__main__":
    text = "\n\n".join(
        [
            "after (CW-SETUP-3 members + table count - 1; CW-TURN-1 by hero):",
            summary(),
            "before (main at 9e780ca: largest team + 2; turns by position):",
            summary("before_9e780ca_"),
        ]
    )
    (HERE / "team_lengths.txt").write_text(text + "\n", encoding="utf-8")
    print(text)
