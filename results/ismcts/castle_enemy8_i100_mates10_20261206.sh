#!/bin/sh
# 城堡之心: the 敌军 at 8 seats among searching tablemates, as at 5 and 6 seats
# (castle_enemy6_i160_mates10_20261206.sh: +11.0, met; castle_enemy5_i200_...: +3.5, not).
# Among scripted tablemates the scripted 敌军 wins 95.3% at 8 seats (4.7 points to gain at
# most); among tablemates that search at 10 iterations it should win less, as at 6 seats
# (93.1% -> 82.5%). At 100 iterations (~0.9 s an 8-seat decision, the budget of every other
# 8-seat cell in docs/agents.md): the 敌军's seat played by ismcts:iterations=100 against the
# scripted 敌军 in the same seat, the other seven seats ismcts:iterations=10 in both.
# 200 seeds never used before (60400-).
# Usage: sh castle_enemy8_i100_mates10_20261206.sh   RESUME=1 goes on from a stopped run's
# journal; WORKERS=1 plays on one process (default 2).
set -e
cd "$(dirname "$0")/../.."
seats=8 seed=60400 role=enemy n=200 it=100
out=results/ismcts/castle${seats}_${role}_i${it}_mates10_s$seed.parquet
echo "== $(date -u +%FT%H:%M:%S) enemy8 $it iterations, tablemates 10, load $(cut -d' ' -f1-3 /proc/loadavg) at $(git rev-parse --short HEAD) $(python -c 'import throne_lib.compiled as c; print(c.loaded_build())')"
/usr/bin/time -f "wall %e s, CPU %U+%S s" throne ladder --game castle --seats $seats --role $role \
    --agents scripted,ismcts:iterations=$it --tablemates ismcts:iterations=10 -n $n --seed $seed \
    --workers ${WORKERS:-2} --no-progress --out $out ${RESUME:+--resume}
