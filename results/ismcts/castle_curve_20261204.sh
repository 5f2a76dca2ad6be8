#!/bin/sh
# 城堡之心: the strength curve of the default ISMCTS (rollouts to the end, belief=0.5) at
# three budgets, 10, 40 and 160 iterations a decision, for the 城主 at 5 seats (the role
# with the most to gain: the scripted 城主 wins ~6%), against the scripted agent in the
# same seat on the same seeds. Every budget plays the same 100 seeds, never used before:
# 40100-40199. The ladder prints each budget's advantage. The ladder records no time per
# decision: the CPU seconds a decision at each budget are bench_ismcts.py's
# (decision_time_castle_20261204.txt).
# Usage: sh castle_curve_20261204.sh
set -e
cd "$(dirname "$0")/../.."
out=results/ismcts/castle5_lord_curve_s40100.parquet
echo "== $(date -u +%FT%H:%M:%S) curve load $(cut -d' ' -f1-3 /proc/loadavg) at $(git rev-parse --short HEAD)"
/usr/bin/time -f "wall %e s, CPU %U+%S s" throne ladder --game castle --seats 5 --role lord \
    --agents scripted,ismcts:iterations=10,ismcts:iterations=40,ismcts:iterations=160 \
    -n 100 --seed 40100 --workers 2 --no-progress --out $out
