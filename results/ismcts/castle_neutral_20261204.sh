#!/bin/sh
# 城堡之心: the 中立 seat against seat (never measured before): today's ISMCTS default
# (`ismcts:iterations=40`: rollouts to the end, belief=0.5) against the scripted agent in
# the seat dealt 中立, on the same seeds, at 6 seats (the fewest seats that deal one).
# Seeds never used before: 41000-41199. Usage: sh castle_neutral_20261204.sh
set -e
cd "$(dirname "$0")/../.."
role=neutral seats=6 seed=41000 n=200
out=results/ismcts/castle${seats}_${role}_default_s$seed.parquet
echo "== $(date -u +%FT%H:%M:%S) $role$seats load $(cut -d' ' -f1-3 /proc/loadavg) at $(git rev-parse --short HEAD)"
/usr/bin/time -f "wall %e s, CPU %U+%S s" throne ladder --game castle --seats $seats --role $role \
    --agents scripted,ismcts:iterations=40 -n $n --seed $seed --workers 2 \
    --no-progress --out $out
