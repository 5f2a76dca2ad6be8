#!/bin/sh
# 城堡之心: does keep=1.645 cost the searching 城主 what it gains at 5 seats? The 城主 at 5
# seats is where the search gains most over the scripted agent (+17.5 at 40 iterations,
# 2026-12-04); keep plays the scripted move unless the search's is measurably better, so it
# could lose some of that. Three entrants on the same seeds: the scripted 城主 (reference),
# today's default search, the search with keep=1.645; every other seat scripted. 200 seeds
# never used before (59400-59599).
# Usage: sh castle_lord5_keep_20261206.sh   RESUME=1 goes on from a stopped run's journal;
# WORKERS=1 plays on one process (default 2).
set -e
cd "$(dirname "$0")/../.."
seats=5 seed=59400 role=lord n=200
out=results/ismcts/castle${seats}_${role}_keep_s$seed.parquet
echo "== $(date -u +%FT%H:%M:%S) lord5 keep, load $(cut -d' ' -f1-3 /proc/loadavg) at $(git rev-parse --short HEAD) $(python -c 'import throne_lib.compiled as c; print(c.loaded_build())')"
/usr/bin/time -f "wall %e s, CPU %U+%S s" throne ladder --game castle --seats $seats --role $role \
    --agents scripted,ismcts:iterations=40,ismcts:iterations=40:keep=1.645 \
    -n $n --seed $seed --workers ${WORKERS:-2} --no-progress --out $out ${RESUME:+--resume}
