#!/bin/sh
# 城堡之心: does a bigger budget lift the 中立's seat as it lifted the 援军's
# (castle_budget_20261204.sh: +4.0 at 40 iterations, +12.0 at 160)? The 中立 at 6 seats (the
# fewest that deal one), `ismcts:iterations=160` (today's default otherwise: rollouts to the
# end, belief=0.5) against the scripted agent in the seat dealt 中立, on the same seeds, and
# the control at 40 iterations on the same seeds. Seeds never used before: 44000-44199.
# Usage: sh castle_neutral_budget_20261205.sh            (160 iterations, two workers)
#        CONTROL=1 sh castle_neutral_budget_20261205.sh  (40 iterations, one worker, beside it;
#        on 2026-12-05 stopped after 29 seeds so the 160 run had both cores, not kept)
# RESUME=1 goes on from the journal of a stopped run.
set -e
cd "$(dirname "$0")/../.."
role=neutral seats=6 seed=44000 n=200
if [ -n "$CONTROL" ]; then it=40 workers=1; else it=160 workers=2; fi
out=results/ismcts/castle${seats}_${role}_i${it}_s$seed.parquet
echo "== $(date -u +%FT%H:%M:%S) $role$seats $it iterations load $(cut -d' ' -f1-3 /proc/loadavg) at $(git rev-parse --short HEAD) $(python -c 'import throne_lib.compiled as c; print(c.loaded_build())')"
/usr/bin/time -f "wall %e s, CPU %U+%S s" throne ladder --game castle --seats $seats --role $role \
    --agents scripted,ismcts:iterations=$it -n $n --seed $seed --workers $workers \
    --no-progress --out $out ${RESUME:+--resume}
