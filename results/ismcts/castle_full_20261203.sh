#!/bin/sh
# 城堡之心: ISMCTS whose rollouts play to the end of the match (rollout_actions=400: no
# cut-off evaluation) against the scripted seat, 5 seats, seeds 38000-38199 (never used;
# the setting was picked on a 40-seed probe at seeds 37500-37539).
set -e
cd "$(dirname "$0")/../.."
PATH=$PWD/.venv/bin:$PATH
echo "== $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg) main at $(git rev-parse --short HEAD)"
/usr/bin/time -f "wall %e s, CPU %U+%S s" nice throne ladder --game castle --seats 5 \
    --agents scripted,ismcts:iterations=40:rollout_actions=400 -n 200 --seed 38000 \
    --workers 1 --no-progress --out results/ismcts/castle5_i40_full_s38000.parquet
