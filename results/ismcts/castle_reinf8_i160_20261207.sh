#!/bin/sh
# 城堡之心: the 援军 at 8 seats again at the new 1 s budget. With the faster decision of
# 21cd571 (docs/speed.md, 2026-12-07) an 8-seat decision takes 0.95 s at 160 iterations
# (decision_time_castle78_20261207.txt), where 100 was the 1 s budget before; at 100 the
# 援军 was +4.0 (-0.1 ... +8.1) on seeds 55400-55599 (castle_reinf8_i100_20261205.sh).
# 200 paired seeds never used before (61200-61399), against the scripted agent in the
# same seat on the same seeds, every other seat scripted.
# Usage: sh castle_reinf8_i160_20261207.sh   RESUME=1 goes on from a stopped run's journal;
# WORKERS=1 plays on one process (default 2).
set -e
cd "$(dirname "$0")/../.."
seats=8 seed=61200 role=reinforcement n=200 it=160
out=results/ismcts/castle${seats}_${role}_i${it}_s$seed.parquet
echo "== $(date -u +%FT%H:%M:%S) reinforcement8 $it iterations load $(cut -d' ' -f1-3 /proc/loadavg) at $(git rev-parse --short HEAD) $(python -c 'import throne_lib.compiled as c; print(c.loaded_build())')"
/usr/bin/time -f "wall %e s, CPU %U+%S s" throne ladder --game castle --seats $seats --role $role \
    --agents scripted,ismcts:iterations=$it -n $n --seed $seed \
    --workers ${WORKERS:-2} --no-progress --out $out ${RESUME:+--resume}
