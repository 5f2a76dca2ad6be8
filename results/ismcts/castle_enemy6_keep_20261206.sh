#!/bin/sh
# 城堡之心: the searching 敌军 among searching tablemates, with and without keep=1.645.
# The probe of 2026-12-05 (castle_enemy6_probe_20261205.sh) found the searching 敌军 at 40
# iterations 21.7 points worse than the scripted one there (23 seeds); replayed, it attacked
# an unrevealed fellow 敌军 and passed over a 1-HP 城主 for a soldier: choices where every
# candidate wins ~90% of rollouts. keep=1.645 (a one-sided 5% test, not tuned) keeps the
# scripted move unless the search's is measurably better. Three entrants on the same seeds:
# the scripted 敌军 (reference), the search as it was, the search with keep; the other five
# seats ismcts:iterations=10 in all three. 100 seeds never used before (59000-).
# Usage: sh castle_enemy6_keep_20261206.sh   RESUME=1 goes on from a stopped run's journal;
# WORKERS=1 plays on one process (default 2).
set -e
cd "$(dirname "$0")/../.."
seats=6 seed=59000 role=enemy n=100
out=results/ismcts/castle${seats}_${role}_keep_mates10_s$seed.parquet
echo "== $(date -u +%FT%H:%M:%S) enemy6 keep, tablemates 10, load $(cut -d' ' -f1-3 /proc/loadavg) at $(git rev-parse --short HEAD) $(python -c 'import throne_lib.compiled as c; print(c.loaded_build())')"
/usr/bin/time -f "wall %e s, CPU %U+%S s" throne ladder --game castle --seats $seats --role $role \
    --agents scripted,ismcts:iterations=40,ismcts:iterations=40:keep=1.645 \
    --tablemates ismcts:iterations=10 -n $n --seed $seed --workers ${WORKERS:-2} \
    --no-progress --out $out ${RESUME:+--resume}
