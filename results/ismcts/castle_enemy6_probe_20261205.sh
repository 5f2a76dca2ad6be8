#!/bin/sh
# 城堡之心: a probe of the 敌军 at 6 seats among searching tablemates (issue #32). Among
# scripted tablemates the scripted 敌军 seat wins 90-100% at 4-8 seats, so +10 points is
# out of reach there; with every other seat played by ismcts:iterations=10 the 敌军 won
# 82% at 6 seats (docs/agents.md). 40 seeds never used before (57000-57039): whether a
# full 200-seed run at this budget is worth its ~2 h, not the target's measurement.
# Usage: sh castle_enemy6_probe_20261205.sh   RESUME=1 goes on from a stopped run's journal.
set -e
cd "$(dirname "$0")/../.."
seats=6 seed=57000 role=enemy n=40 it=40 mates=10
out=results/ismcts/castle${seats}_${role}_i${it}_mates${mates}_s$seed.parquet
echo "== $(date -u +%FT%H:%M:%S) enemy6 probe $it iterations, tablemates $mates, load $(cut -d' ' -f1-3 /proc/loadavg) at $(git rev-parse --short HEAD) $(python -c 'import throne_lib.compiled as c; print(c.loaded_build())')"
/usr/bin/time -f "wall %e s, CPU %U+%S s" throne ladder --game castle --seats $seats --role $role \
    --agents scripted,ismcts:iterations=$it --tablemates ismcts:iterations=$mates -n $n --seed $seed \
    --workers 1 --no-progress --out $out ${RESUME:+--resume}
