#!/bin/sh
# The screening prototype's second pilot: the closed loop (screen.py --loop-blocks) on the
# first pilot's screened effects (pilot-s45.json: no new screening). Each move the effects
# propose is measured on 30 blocks of run seed 45's search range (blocks 20-49, unused by
# the first pilot) and kept if the measured miss of the aimed band 46-54% falls. Verified
# on seed 52001 (never used; the first pilot's 52000 showed its overshoot, which this
# design answers). Usage: sh run-pilot2.sh [OPTION...]
set -e
cd "$(dirname "$0")/../../.."
out=results/balance/screening/pilot2-s45
echo "== $(date -u +%FT%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg) at $(git rev-parse --short HEAD) $(python -c 'import throne_lib.compiled as c; print(c.loaded_build())')" > $out.txt
/usr/bin/time -f "wall %e s, CPU %U+%S s" python results/balance/screening/screen.py --seed 45 \
    --effects results/balance/screening/pilot-s45.json --loop-blocks 30 --loop-steps 60 \
    --aim 0.46:0.54 --verify-seed 52001 --workers 2 --out $out.json "$@" >> $out.txt 2>&1
