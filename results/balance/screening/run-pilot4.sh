#!/bin/sh
# The screening prototype's fourth pilot: the third pilot's screened effects (pilot3-s46.json,
# no new screening) and its loop blocks, with every kind of move the kit's repair makes
# (--loop-moves full: one more step or one back of a changed knob, swaps at 11 card
# changes) — the third pilot spent its 11 changes before reaching 狮心王 and 瘟疫领主.
# Verification seed 52003, never used. Usage: sh run-pilot4.sh [OPTION...]
set -e
cd "$(dirname "$0")/../../.."
out=results/balance/screening/pilot4-s46
echo "== $(date -u +%FT%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg) at $(git rev-parse --short HEAD) $(python -c 'import throne_lib.compiled as c; print(c.loaded_build())')" > $out.txt
/usr/bin/time -f "wall %e s, CPU %U+%S s" python results/balance/screening/screen.py --seed 46 \
    --effects results/balance/screening/pilot3-s46.json --loop-blocks 30 --loop-steps 80 \
    --loop-moves full --aim 0.46:0.54 --verify-seed 52003 --workers 2 --out $out.json "$@" >> $out.txt 2>&1
