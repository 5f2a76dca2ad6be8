#!/bin/sh
# 城堡之心: the 援军 at 5 seats (城主, 援军, three 敌军) with the budget that met the target
# for the 援军 at 6 seats (160 iterations: +12.0 points, 6.0 ... 18.0,
# castle_budget_20261204.txt); at 5 seats it had only a 37-seed sample at 40 iterations
# (+2.7, -2.6 ... 8.0). 200 paired seeds never used before (54400-54599), against the
# scripted agent in the same seat on the same seeds.
# Usage: sh castle_reinf5_i160_20261205.sh   RESUME=1 goes on from a stopped run's journal.
set -e
cd "$(dirname "$0")/../.."
seats=5 seed=54400 role=reinforcement n=200 it=160
out=results/ismcts/castle${seats}_${role}_i${it}_s$seed.parquet
echo "== $(date -u +%FT%H:%M:%S) reinforcement5 $it iterations load $(cut -d' ' -f1-3 /proc/loadavg) at $(git rev-parse --short HEAD) $(python -c 'import throne_lib.compiled as c; print(c.loaded_build())')"
/usr/bin/time -f "wall %e s, CPU %U+%S s" throne ladder --game castle --seats $seats --role $role \
    --agents scripted,ismcts:iterations=$it -n $n --seed $seed --workers 2 \
    --no-progress --out $out ${RESUME:+--resume}
