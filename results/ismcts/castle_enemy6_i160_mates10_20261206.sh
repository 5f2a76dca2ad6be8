#!/bin/sh
# 城堡之心: the 敌军 at 6 seats where it has something to gain. Among scripted tablemates
# the scripted 敌军 wins 90-100% (there are not 10 points to gain); among tablemates that
# search at 10 iterations it wins ~82%, and the search at 40 iterations gained +5.5 on 73
# seeds there (castle_enemy6_keep_20261206.sh). At 160 iterations (1.06 s a 6-seat
# decision, the budget that lifted the 援军 and the 中立 at 6 seats from ~+5 to +12 and +10.5):
# the 敌军's seat played by ismcts:iterations=160 against the scripted 敌军 in the same seat,
# the other five seats ismcts:iterations=10 in both. 200 seeds never used before (60000-).
# Usage: sh castle_enemy6_i160_mates10_20261206.sh   RESUME=1 goes on from a stopped run's
# journal; WORKERS=1 plays on one process (default 2).
set -e
cd "$(dirname "$0")/../.."
seats=6 seed=60000 role=enemy n=200 it=160
out=results/ismcts/castle${seats}_${role}_i${it}_mates10_s$seed.parquet
echo "== $(date -u +%FT%H:%M:%S) enemy6 $it iterations, tablemates 10, load $(cut -d' ' -f1-3 /proc/loadavg) at $(git rev-parse --short HEAD) $(python -c 'import throne_lib.compiled as c; print(c.loaded_build())')"
/usr/bin/time -f "wall %e s, CPU %U+%S s" throne ladder --game castle --seats $seats --role $role \
    --agents scripted,ismcts:iterations=$it --tablemates ismcts:iterations=10 -n $n --seed $seed \
    --workers ${WORKERS:-2} --no-progress --out $out ${RESUME:+--resume}
