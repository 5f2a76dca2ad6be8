#!/bin/sh
# 城堡之心: does dealing the hidden identities by the public record (ismcts belief=0.5,
# throne_lib/games/castle/ismcts.py: determinize) make a searching 城主 or 援军 stronger?
# On every seed the searching agent takes the seat dealt the role (ladder
# --role), once with uniform deals and once with belief=0.5, against the scripted
# seat on the same seed: the 城主 at 5 seats, the 援军 at 6 (at 5 every seat it cannot
# see is an 敌军, so there is nothing to infer). belief=0.5 was chosen before any run (one hit on the 城主
# makes a seat e^1 = 2.7 times likelier an 敌军); rollouts to the end (rollout_actions=400)
# as the best setting measured before (castle_full_20261203.sh). Seeds never used before:
# 城主 39000-39199, 援军 39500-39619. Usage: sh castle_belief_20261204.sh [lord|reinforcement]...
set -e
cd "$(dirname "$0")/../.."
search=ismcts:iterations=40:rollout_actions=400
for role in "${@:-lord}"; do
    case $role in
        lord) seed=39000 seats=5 n=200 ;;
        reinforcement) seed=39500 seats=6 n=120 ;;  # what the session's time left
        *) echo "role?"; exit 2 ;;
    esac
    out=results/ismcts/castle${seats}_${role}_belief_s$seed.parquet
    echo "== $(date -u +%FT%H:%M:%S) $role load $(cut -d' ' -f1-3 /proc/loadavg) at $(git rev-parse --short HEAD)"
    /usr/bin/time -f "wall %e s, CPU %U+%S s" throne ladder --game castle --seats $seats --role $role \
        --agents scripted,$search,$search:belief=0.5 -n $n --seed $seed --workers 2 \
        --no-progress --out $out
    python - "$out" <<'PY'
import sys
import pandas as pd
from throne_lib.kit.stats import Z95
df = pd.read_parquet(sys.argv[1])
focus = df[df["ladder"].str.startswith("focus|")]
won = {}
for _, r in focus.iterrows():
    _, label, seat = str(r["ladder"]).split("|")
    won.setdefault(label, {})[r["seed"]] = float(r[f"seat{seat}_return"] > 0)
a, b = (pd.Series(won[k]) for k in sorted(won, key=len))  # uniform, then belief
d = (b - a).dropna()
half = Z95 * d.std(ddof=1) / len(d) ** 0.5
print(f"belief=0.5 against uniform deals, same seeds and seat: {100 * b.mean():.1f}% vs "
      f"{100 * a.mean():.1f}%, {100 * d.mean():+.1f} points ({100 * (d.mean() - half):+.1f} … "
      f"{100 * (d.mean() + half):+.1f}) over {len(d)} seeds; better/worse {(d > 0).sum()}/{(d < 0).sum()}")
PY
done
