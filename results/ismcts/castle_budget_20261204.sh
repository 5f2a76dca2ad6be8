#!/bin/sh
# 城堡之心: does a bigger budget lift the 援军's seat? With 城堡之心's engine and scripted
# agent compiled (docs/speed.md), 160 iterations cost ~0.77 s a decision at 5 seats, under
# the 1 s a dashboard affords. The 援军 at 6 seats, `ismcts:iterations=160` (today's default
# otherwise: rollouts to the end, belief=0.5) against the scripted agent in the seat dealt
# 援军, on the same seeds. Seeds never used before: 43000-43199.
# Usage: sh castle_budget_20261204.sh   (RESUME=1 goes on from the journal of a stopped run)
set -e
cd "$(dirname "$0")/../.."
role=reinforcement seats=6 seed=43000 n=200
out=results/ismcts/castle${seats}_${role}_i160_s$seed.parquet
echo "== $(date -u +%FT%H:%M:%S) $role$seats load $(cut -d' ' -f1-3 /proc/loadavg) at $(git rev-parse --short HEAD) $(python -c 'import throne_lib.compiled as c; print(c.loaded_build())')"
if [ -z "$CONTROL" ]; then
/usr/bin/time -f "wall %e s, CPU %U+%S s" throne ladder --game castle --seats $seats --role $role \
    --agents scripted,ismcts:iterations=160 -n $n --seed $seed --workers 2 \
    --no-progress --out $out ${RESUME:+--resume}
fi
# The control: the same seeds at today's default budget (40 iterations), started beside
# the run above with one worker (CONTROL=1 sh castle_budget_20261204.sh runs only it).
if [ -n "$CONTROL" ]; then
/usr/bin/time -f "wall %e s, CPU %U+%S s" throne ladder --game castle --seats $seats --role $role \
    --agents scripted,ismcts:iterations=40 -n $n --seed $seed --workers 1 \
    --no-progress --out results/ismcts/castle${seats}_${role}_i40_s$seed.parquet ${RESUME:+--resume}
fi
