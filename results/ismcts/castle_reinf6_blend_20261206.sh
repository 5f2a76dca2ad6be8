#!/bin/sh
# 城堡之心: does blend=0.5 (half the value from the cut-off evaluation 40 actions into each
# rollout, half from its end) give the searching 援军 at 6 seats at 40 iterations what 160
# iterations gave it (+4.0 at 40, +12.0 at 160 on seeds 43000-)? A 援军 wins with its 城主
# only (5-17% of matches): most rollouts end in a loss whatever it plays, and the end alone
# tells its moves apart by noise. blend=0.5 and blend_at=40 are set, not tuned. Three
# entrants on the same seeds: the scripted 援军 (reference), today's default search, the
# search with blend; every other seat scripted. 200 seeds never used before (59800-59999).
# Usage: sh castle_reinf6_blend_20261206.sh   RESUME=1 goes on from a stopped run's journal;
# WORKERS=1 plays on one process (default 2).
set -e
cd "$(dirname "$0")/../.."
seats=6 seed=59800 role=reinforcement n=200
out=results/ismcts/castle${seats}_${role}_blend_s$seed.parquet
echo "== $(date -u +%FT%H:%M:%S) reinf6 blend, load $(cut -d' ' -f1-3 /proc/loadavg) at $(git rev-parse --short HEAD) $(python -c 'import throne_lib.compiled as c; print(c.loaded_build())')"
/usr/bin/time -f "wall %e s, CPU %U+%S s" throne ladder --game castle --seats $seats --role $role \
    --agents scripted,ismcts:iterations=40,ismcts:iterations=40:blend=0.5 \
    -n $n --seed $seed --workers ${WORKERS:-2} --no-progress --out $out ${RESUME:+--resume}
