"""Re-make the paired c = 0.7 row and c = 1.4 − c = 0.7 of docs/agents.md's screen of the
exploration constant (2026-12-07): the screen's file and the c = 0.7 run share seeds
61600–61699 and their scripted matches, so the c = 0.7 run's searching matches on those
seeds join the screen's and the ladder's own report pairs all three entrants.

    python results/ismcts/castle_lord7_c_screen_pair.py
"""

from pathlib import Path

import pandas as pd

from throne_lib.kit.ladder import ladder_text

HERE = Path(__file__).parent
screen = pd.read_parquet(HERE / "castle7_lord_i190_cscreen_s61600.parquet")
c07 = pd.read_parquet(HERE / "castle7_lord_i190_s61600.parquet")
c07 = c07[c07.seed.isin(screen.seed) & c07.label.str.startswith("focus")]
both = pd.concat([screen, c07], ignore_index=True)
both["match"] = range(len(both))
print(ladder_text(both))
