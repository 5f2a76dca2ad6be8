#!/bin/sh
# 城堡之心: the 7-seat 城主 with rollouts cut off at 60 actions (the camps' HP evaluation,
# castle/ismcts.py `evaluate`) instead of played to the end (the default 400): a cut-off
# rollout costs a fraction of a whole one, so 1 s a decision buys ~400 iterations at 7
# seats instead of ~190 (decision_time_castle7_cutoff_20261207.txt). Budget was the lever
# that took the 4-, 5- and 6-seat cells past +10; this trades the rollout's length for it.
# On 200 seeds never used before (62400-62599), against the scripted 城主 in the same seat.
# Usage: sh castle_lord7_cutoff60_20261207.sh   RESUME=1 goes on from a stopped run's
# journal; WORKERS=1 plays on one process (default 2).
set -e
cd "$(dirname "$0")/../.."
seats=7 seed=62400 role=lord n=200 it=400 ra=60
out=results/ismcts/castle${seats}_${role}_i${it}_ra${ra}_s$seed.parquet
echo "== $(date -u +%FT%H:%M:%S) lord7 rollout_actions=$ra $it iterations load $(cut -d' ' -f1-3 /proc/loadavg) at $(git rev-parse --short HEAD) $(python -c 'import throne_lib.compiled as c; print(c.loaded_build())')"
/usr/bin/time -f "wall %e s, CPU %U+%S s" throne ladder --game castle --seats $seats --role $role \
    --agents scripted,ismcts:iterations=$it:rollout_actions=$ra -n $n --seed $seed \
    --workers ${WORKERS:-2} --no-progress --out $out ${RESUME:+--resume}
