#!/bin/sh
# 城堡之心: the 城主 at the seat counts not measured with today's default agent (rollouts to
# the end, belief=0.5: plain `ismcts:iterations=40`, the budget that met the target at 5
# and 6 seats): 4, 8 and 7 seats, 200 paired seeds each, against the scripted agent in the
# same seat on the same seeds. Seeds never used before: 4 seats 52000-52199, 8 seats
# 52400-52599, 7 seats 52200-52399.
# Usage: sh castle_lord_seats_20261205.sh [lord4|lord8|lord7]...   RESUME=1 goes on from a
# stopped run's journal.
set -e
cd "$(dirname "$0")/../.."
for run in "${@:-lord4}"; do
    case $run in
        lord4) seats=4 seed=52000 ;;
        lord7) seats=7 seed=52200 ;;
        lord8) seats=8 seed=52400 ;;
        *) echo "run?"; exit 2 ;;
    esac
    role=lord n=200 it=40
    out=results/ismcts/castle${seats}_${role}_i${it}_s$seed.parquet
    echo "== $(date -u +%FT%H:%M:%S) $run $it iterations load $(cut -d' ' -f1-3 /proc/loadavg) at $(git rev-parse --short HEAD) $(python -c 'import throne_lib.compiled as c; print(c.loaded_build())')"
    /usr/bin/time -f "wall %e s, CPU %U+%S s" throne ladder --game castle --seats $seats --role $role \
        --agents scripted,ismcts:iterations=$it -n $n --seed $seed --workers 2 \
        --no-progress --out $out ${RESUME:+--resume}
done
