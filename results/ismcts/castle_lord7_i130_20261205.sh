#!/bin/sh
# 城堡之心: the 城主 at 7 seats, the other six seats scripted, at the largest budget
# that keeps a decision within the issue's 1 s at 7 seats: 130 iterations (0.92 / 1.28 s
# at 120 / 160, mean of 6 positions; decision_time_castle478_20261205.txt).
# At 40 iterations it was +1.0 points (-1.0 ... +3.0, seeds 52200-52399), short of the target.
# 200 paired seeds never used before (56400-56599), against the scripted agent in the
# same seat on the same seeds.
# Usage: sh castle_lord7_i130_20261205.sh   RESUME=1 goes on from a stopped run's journal.
set -e
cd "$(dirname "$0")/../.."
seats=7 seed=56400 role=lord n=200 it=130
out=results/ismcts/castle${seats}_${role}_i${it}_s$seed.parquet
echo "== $(date -u +%FT%H:%M:%S) lord7 $it iterations load $(cut -d' ' -f1-3 /proc/loadavg) at $(git rev-parse --short HEAD) $(python -c 'import throne_lib.compiled as c; print(c.loaded_build())')"
/usr/bin/time -f "wall %e s, CPU %U+%S s" throne ladder --game castle --seats $seats --role $role \
    --agents scripted,ismcts:iterations=$it -n $n --seed $seed --workers 2 \
    --no-progress --out $out ${RESUME:+--resume}
