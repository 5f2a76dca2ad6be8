#!/bin/sh
# The screening prototype's third pilot: the symmetric design (each candidate knob one step
# up with chance 0.15, down with 0.15: the variants centre on the start, where the first
# pilot's directed design, every move the helpful way, under-estimated effects two- to
# four-fold), then the closed loop (moves either way, each measured on 30 blocks of the run's
# search range, kept if the miss of the aimed band 46-54% falls). Run seed 46 and
# verification seed 52002, both never used. Usage: sh run-pilot3.sh [OPTION...]
set -e
cd "$(dirname "$0")/../../.."
out=results/balance/screening/pilot3-s46
echo "== $(date -u +%FT%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg) at $(git rev-parse --short HEAD) $(python -c 'import throne_lib.compiled as c; print(c.loaded_build())')" > $out.txt
/usr/bin/time -f "wall %e s, CPU %U+%S s" python results/balance/screening/screen.py --seed 46 \
    --design symmetric --p 0.15 --rounds 6000 --candidates 240 --loop-blocks 30 --loop-steps 60 \
    --aim 0.46:0.54 --verify-seed 52002 --workers 2 --out $out.json "$@" >> $out.txt 2>&1
