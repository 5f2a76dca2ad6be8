#!/bin/sh
# 城堡之心: the 敌军 at 5 seats among searching tablemates, as at 6 seats
# (castle_enemy6_i160_mates10_20261206.sh, +11.9 on its first 109 seeds). Among scripted
# tablemates the scripted 敌军 wins 91.7% at 5 seats (8.3 points to gain at most); among
# tablemates that search at 10 iterations it should win less. At 200 iterations (~1 s a
# 5-seat decision: 0.73 s at 160, docs/speed.md): the 敌军's seat played by
# ismcts:iterations=200 against the scripted 敌军 in the same seat, the other four seats
# ismcts:iterations=10 in both. 200 seeds never used before (60200-).
# Usage: sh castle_enemy5_i200_mates10_20261206.sh   RESUME=1 goes on from a stopped run's
# journal; WORKERS=1 plays on one process (default 2).
set -e
cd "$(dirname "$0")/../.."
seats=5 seed=60200 role=enemy n=200 it=200
out=results/ismcts/castle${seats}_${role}_i${it}_mates10_s$seed.parquet
echo "== $(date -u +%FT%H:%M:%S) enemy5 $it iterations, tablemates 10, load $(cut -d' ' -f1-3 /proc/loadavg) at $(git rev-parse --short HEAD) $(python -c 'import throne_lib.compiled as c; print(c.loaded_build())')"
/usr/bin/time -f "wall %e s, CPU %U+%S s" throne ladder --game castle --seats $seats --role $role \
    --agents scripted,ismcts:iterations=$it --tablemates ismcts:iterations=10 -n $n --seed $seed \
    --workers ${WORKERS:-2} --no-progress --out $out ${RESUME:+--resume}
