#!/bin/sh
# 城堡之心: the 中立 at 8 seats (城主, four 敌军, two 援军, 中立) at the budget of the other 8-seat
# runs, within the issue's 1 s a decision: 100 iterations (0.74 s at 80, 1.07 s at 120,
# mean of 6 positions; decision_time_castle478_20261205.txt). Not measured at 8 seats
# before; the 中立 met the target at 6 seats at 160 iterations (+10.5) and was +5.5 at 40
# (7 seats: castle_neutral7_i130_20261206.sh). 200 paired seeds never used before
# (58800-58999), against the scripted agent in the same seat on the same seeds.
# Usage: sh castle_neutral8_i100_20261206.sh   RESUME=1 goes on from a stopped run's journal;
# WORKERS=1 plays on one process (default 2).
set -e
cd "$(dirname "$0")/../.."
seats=8 seed=58800 role=neutral n=200 it=100
out=results/ismcts/castle${seats}_${role}_i${it}_s$seed.parquet
echo "== $(date -u +%FT%H:%M:%S) neutral8 $it iterations load $(cut -d' ' -f1-3 /proc/loadavg) at $(git rev-parse --short HEAD) $(python -c 'import throne_lib.compiled as c; print(c.loaded_build())')"
/usr/bin/time -f "wall %e s, CPU %U+%S s" throne ladder --game castle --seats $seats --role $role \
    --agents scripted,ismcts:iterations=$it -n $n --seed $seed --workers ${WORKERS:-2} \
    --no-progress --out $out ${RESUME:+--resume}
