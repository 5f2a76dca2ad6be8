#!/bin/sh
# The screening prototype's pilot (screen.py): run seed 45 (its search blocks never used
# by a run), 6,000 screening rounds (54,000 matches), verification seed 52000 (never used),
# 36 verification blocks (360 matches per general). Usage: sh run-pilot.sh [OPTION...]
set -e
cd "$(dirname "$0")/../../.."
out=results/balance/screening/pilot-s45
echo "== $(date -u +%FT%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg) at $(git rev-parse --short HEAD) $(python -c 'import throne_lib.compiled as c; print(c.loaded_build())')" > $out.txt
/usr/bin/time -f "wall %e s, CPU %U+%S s" python results/balance/screening/screen.py --seed 45 \
    --verify-seed 52000 --rounds 6000 --p 0.3 --candidates 240 --workers 2 --out $out.json "$@" >> $out.txt 2>&1
