#!/bin/sh
# 城堡之心: the ISMCTS default since 2026-12-04 (rollouts to the end, belief=0.5: plain
# `ismcts:iterations=40`) against the scripted agent in the same seat on the same seeds,
# for the roles and seat counts castle_belief_20261204.sh did not measure: the 城主 at 6
# seats (200 seeds) and the 敌军 at 5 (100 seeds: does the default cost a seat that
# already wins ~90%?), then the 城主 at 8 seats (100 seeds: the most hidden seats, 105
# deals). Seeds never used before: 城主 6 seats 39700-39899, 敌军 5 seats 39900-39999,
# 城主 8 seats 40000-40099. Usage: sh castle_default_20261204.sh [lord6|enemy5|lord8]...
set -e
cd "$(dirname "$0")/../.."
for run in "${@:-lord6}"; do
    case $run in
        lord6) role=lord seats=6 seed=39700 n=200 ;;
        enemy5) role=enemy seats=5 seed=39900 n=100 ;;
        lord8) role=lord seats=8 seed=40000 n=100 ;;  # what the session's time left
        *) echo "run?"; exit 2 ;;
    esac
    out=results/ismcts/castle${seats}_${role}_default_s$seed.parquet
    echo "== $(date -u +%FT%H:%M:%S) $run load $(cut -d' ' -f1-3 /proc/loadavg) at $(git rev-parse --short HEAD)"
    /usr/bin/time -f "wall %e s, CPU %U+%S s" throne ladder --game castle --seats $seats --role $role \
        --agents scripted,ismcts:iterations=40 -n $n --seed $seed --workers 2 \
        --no-progress --out $out
done
