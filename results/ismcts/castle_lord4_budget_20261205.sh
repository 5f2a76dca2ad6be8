#!/bin/sh
# 城堡之心: the 城主 at 4 seats gained +4.5 points at 40 iterations (castle_lord_seats_20261205.sh:
# 4.5% against the scripted seat's 0.0%, 200 seeds); does a bigger budget lift it as it
# lifted the 援军 and the 中立 at 6 seats? `ismcts:iterations=160` (today's default
# otherwise) against the scripted agent in the seat dealt 城主, on seeds never used before:
# 52600-52799. RESUME=1 goes on from the journal of a stopped run.
set -e
cd "$(dirname "$0")/../.."
role=lord seats=4 seed=52600 n=200 it=160
out=results/ismcts/castle${seats}_${role}_i${it}_s$seed.parquet
echo "== $(date -u +%FT%H:%M:%S) $role$seats $it iterations load $(cut -d' ' -f1-3 /proc/loadavg) at $(git rev-parse --short HEAD) $(python -c 'import throne_lib.compiled as c; print(c.loaded_build())')"
/usr/bin/time -f "wall %e s, CPU %U+%S s" throne ladder --game castle --seats $seats --role $role \
    --agents scripted,ismcts:iterations=$it -n $n --seed $seed --workers 2 \
    --no-progress --out $out ${RESUME:+--resume}
