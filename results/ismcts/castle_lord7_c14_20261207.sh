#!/bin/sh
# 城堡之心: the 7-seat 城主 at 190 iterations with the exploration constant c = 1.4 (default
# 0.7), on 200 seeds never used before (62200-62399): the re-measure of the screen
# castle_lord7_c_screen_20261207.sh, where c = 1.4 was +7.0 (+2.0 ... +12.0) on seeds
# 61600-61699 and c = 0.7 (castle7_lord_i190_s61600.parquet) less on the same seeds.
# Usage: sh castle_lord7_c14_20261207.sh   RESUME=1 goes on from a stopped run's journal;
# WORKERS=1 plays on one process (default 2).
set -e
cd "$(dirname "$0")/../.."
seats=7 seed=62200 role=lord n=200 it=190
out=results/ismcts/castle${seats}_${role}_i${it}_c14_s$seed.parquet
echo "== $(date -u +%FT%H:%M:%S) lord7 c=1.4 $it iterations load $(cut -d' ' -f1-3 /proc/loadavg) at $(git rev-parse --short HEAD) $(python -c 'import throne_lib.compiled as c; print(c.loaded_build())')"
/usr/bin/time -f "wall %e s, CPU %U+%S s" throne ladder --game castle --seats $seats --role $role \
    --agents scripted,ismcts:iterations=$it:c=1.4 -n $n --seed $seed \
    --workers ${WORKERS:-2} --no-progress --out $out ${RESUME:+--resume}
