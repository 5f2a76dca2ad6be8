#!/bin/sh
# 城堡之心: the 城主 at 4 seats, the other three seats scripted, at the largest
# budget that keeps a decision within the issue's 1 s at 4 seats: 320 iterations (0.50 /
# 0.72 / 0.97 s at 160 / 240 / 320, mean of 6 positions; decision_time_castle478_20261205.txt).
# At 160 iterations it was +6.5 points (+3.1 ... +9.9, seeds 54000-54199), short of the target.
# 200 paired seeds never used before (56000-56199), against the scripted agent in the
# same seat on the same seeds.
# Usage: sh castle_lord4_i320_20261205.sh   RESUME=1 goes on from a stopped run's journal.
set -e
cd "$(dirname "$0")/../.."
seats=4 seed=56000 role=lord n=200 it=320
out=results/ismcts/castle${seats}_${role}_i${it}_s$seed.parquet
echo "== $(date -u +%FT%H:%M:%S) lord4 $it iterations load $(cut -d' ' -f1-3 /proc/loadavg) at $(git rev-parse --short HEAD) $(python -c 'import throne_lib.compiled as c; print(c.loaded_build())')"
/usr/bin/time -f "wall %e s, CPU %U+%S s" throne ladder --game castle --seats $seats --role $role \
    --agents scripted,ismcts:iterations=$it -n $n --seed $seed --workers 2 \
    --no-progress --out $out ${RESUME:+--resume}
