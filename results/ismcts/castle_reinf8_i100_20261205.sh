#!/bin/sh
# 城堡之心: the 援军 at 8 seats (城主, four 敌军, two 援军, 中立) at the largest budget that
# keeps a decision within the issue's 1 s at 8 seats: 100 iterations (0.74 s at 80, 1.07 s
# at 120, mean of 6 positions; decision_time_castle478_20261205.txt). Not measured at 8
# seats before; the 城主 there was +9.0 points at 40 iterations (seeds 52400-52599).
# 200 paired seeds never used before (55400-55599), against the scripted agent in the
# same seat on the same seeds.
# Usage: sh castle_reinf8_i100_20261205.sh   RESUME=1 goes on from a stopped run's journal.
set -e
cd "$(dirname "$0")/../.."
seats=8 seed=55400 role=reinforcement n=200 it=100
out=results/ismcts/castle${seats}_${role}_i${it}_s$seed.parquet
echo "== $(date -u +%FT%H:%M:%S) reinforcement8 $it iterations load $(cut -d' ' -f1-3 /proc/loadavg) at $(git rev-parse --short HEAD) $(python -c 'import throne_lib.compiled as c; print(c.loaded_build())')"
/usr/bin/time -f "wall %e s, CPU %U+%S s" throne ladder --game castle --seats $seats --role $role \
    --agents scripted,ismcts:iterations=$it -n $n --seed $seed --workers 2 \
    --no-progress --out $out ${RESUME:+--resume}
