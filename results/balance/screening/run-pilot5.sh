#!/bin/sh
# The screening prototype's fifth pilot: the symmetric design with each general's 12 most
# relevant knobs among the candidates (--per-general 12; the third pilot's 240 by relevance
# alone held none of 狮心王's or 白骨女王's, and no move could reach them), 300 candidates,
# then the closed loop with every kind of move (--loop-moves full). Run seed 47 and
# verification seed 52004, both never used. Usage: sh run-pilot5.sh [OPTION...]
set -e
cd "$(dirname "$0")/../../.."
out=results/balance/screening/pilot5-s47
echo "== $(date -u +%FT%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg) at $(git rev-parse --short HEAD) $(python -c 'import throne_lib.compiled as c; print(c.loaded_build())')" > $out.txt
/usr/bin/time -f "wall %e s, CPU %U+%S s" python results/balance/screening/screen.py --seed 47 \
    --design symmetric --p 0.15 --rounds 6000 --candidates 300 --per-general 12 \
    --loop-blocks 30 --loop-steps 80 --loop-moves full \
    --aim 0.46:0.54 --verify-seed 52004 --workers 2 --out $out.json "$@" >> $out.txt 2>&1
