#!/bin/sh
# 城堡之心: the 城主 at 4 seats with four times the budget that fell short there (40
# iterations gave +4.5 points, 1.6 ... 7.4, castle_lord_seats_20261205.txt): 160 iterations,
# 200 paired seeds never used before (54000-54199), against the scripted agent in the same
# seat on the same seeds. The question: is the 4-seat shortfall the budget or the seat?
# Usage: sh castle_lord4_i160_20261205.sh   RESUME=1 goes on from a stopped run's journal.
set -e
cd "$(dirname "$0")/../.."
seats=4 seed=54000 role=lord n=200 it=160
out=results/ismcts/castle${seats}_${role}_i${it}_s$seed.parquet
echo "== $(date -u +%FT%H:%M:%S) lord4 $it iterations load $(cut -d' ' -f1-3 /proc/loadavg) at $(git rev-parse --short HEAD) $(python -c 'import throne_lib.compiled as c; print(c.loaded_build())')"
/usr/bin/time -f "wall %e s, CPU %U+%S s" throne ladder --game castle --seats $seats --role $role \
    --agents scripted,ismcts:iterations=$it -n $n --seed $seed --workers 2 \
    --no-progress --out $out ${RESUME:+--resume}
