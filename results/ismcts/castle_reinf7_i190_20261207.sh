#!/bin/sh
# 城堡之心: the 援军 at 7 seats at the new 1 s budget. With the faster decision of 21cd571
# (docs/speed.md, 2026-12-07) a 7-seat decision takes 1.06 s at 200 iterations and 0.84 s
# at 160 (decision_time_castle78_20261207.txt): 190 iterations, where 130 was the 1 s
# budget before; at 130 the 援军 was +3.0 (+0.6 ... +5.4) on 200 seeds from 58000
# (castle_reinf7_i130_20261206.sh).
# 200 paired seeds never used before (61800-61999), against the scripted agent in the
# same seat on the same seeds, every other seat scripted.
# Usage: sh castle_reinf7_i190_20261207.sh   RESUME=1 goes on from a stopped run's journal;
# WORKERS=2 plays on two processes (default 1: it ran beside the 中立's run).
set -e
cd "$(dirname "$0")/../.."
seats=7 seed=61800 role=reinforcement n=200 it=190
out=results/ismcts/castle${seats}_${role}_i${it}_s$seed.parquet
echo "== $(date -u +%FT%H:%M:%S) reinforcement7 $it iterations load $(cut -d' ' -f1-3 /proc/loadavg) at $(git rev-parse --short HEAD) $(python -c 'import throne_lib.compiled as c; print(c.loaded_build())')"
/usr/bin/time -f "wall %e s, CPU %U+%S s" throne ladder --game castle --seats $seats --role $role \
    --agents scripted,ismcts:iterations=$it -n $n --seed $seed --workers ${WORKERS:-1} \
    --no-progress --out $out ${RESUME:+--resume}
