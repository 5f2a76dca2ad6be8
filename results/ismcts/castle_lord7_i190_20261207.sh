#!/bin/sh
# 城堡之心: the 城主 at 7 seats again at the new 1 s budget. With the faster decision of
# 21cd571 (docs/speed.md, 2026-12-07) a 7-seat decision takes 1.06 s at 200 iterations and
# 0.84 s at 160 (decision_time_castle78_20261207.txt): 190 iterations, where 130 was the
# 1 s budget before; at 130 the 城主 was +1.8 (-2.6 ... +6.2) on 110 seeds from 56400
# (castle_lord7_i130_20261205.sh, stopped), and a role oracle at 130 +7.1
# (castle_lord7_headroom_20261207.sh).
# 200 paired seeds never used before (61600-61799), against the scripted agent in the
# same seat on the same seeds, every other seat scripted.
# Usage: sh castle_lord7_i190_20261207.sh   RESUME=1 goes on from a stopped run's journal;
# WORKERS=1 plays on one process (default 2).
set -e
cd "$(dirname "$0")/../.."
seats=7 seed=61600 role=lord n=200 it=190
out=results/ismcts/castle${seats}_${role}_i${it}_s$seed.parquet
echo "== $(date -u +%FT%H:%M:%S) lord7 $it iterations load $(cut -d' ' -f1-3 /proc/loadavg) at $(git rev-parse --short HEAD) $(python -c 'import throne_lib.compiled as c; print(c.loaded_build())')"
/usr/bin/time -f "wall %e s, CPU %U+%S s" throne ladder --game castle --seats $seats --role $role \
    --agents scripted,ismcts:iterations=$it -n $n --seed $seed \
    --workers ${WORKERS:-2} --no-progress --out $out ${RESUME:+--resume}
