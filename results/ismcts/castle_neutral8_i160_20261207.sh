#!/bin/sh
# 城堡之心: the 中立 at 8 seats again at the new 1 s budget. With the faster decision of
# 21cd571 (docs/speed.md, 2026-12-07) an 8-seat decision takes 0.95 s at 160 iterations
# (decision_time_castle78_20261207.txt), where 100 was the 1 s budget before; at 100 the
# 中立 was +3.5 (+0.9 ... +6.1) on seeds 58800-58999 (castle_neutral8_i100_20261206.sh);
# at 6 seats it went from +5.5 at 40 iterations to +10.5 at 160.
# 200 paired seeds never used before (61400-61599), against the scripted agent in the
# same seat on the same seeds, every other seat scripted.
# Usage: sh castle_neutral8_i160_20261207.sh   RESUME=1 goes on from a stopped run's journal;
# WORKERS=1 plays on one process (default 2).
set -e
cd "$(dirname "$0")/../.."
seats=8 seed=61400 role=neutral n=200 it=160
out=results/ismcts/castle${seats}_${role}_i${it}_s$seed.parquet
echo "== $(date -u +%FT%H:%M:%S) neutral8 $it iterations load $(cut -d' ' -f1-3 /proc/loadavg) at $(git rev-parse --short HEAD) $(python -c 'import throne_lib.compiled as c; print(c.loaded_build())')"
/usr/bin/time -f "wall %e s, CPU %U+%S s" throne ladder --game castle --seats $seats --role $role \
    --agents scripted,ismcts:iterations=$it -n $n --seed $seed \
    --workers ${WORKERS:-2} --no-progress --out $out ${RESUME:+--resume}
