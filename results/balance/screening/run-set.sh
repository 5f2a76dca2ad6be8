#!/bin/sh
# Pilot 5's command (run-pilot5.sh) on further run seeds, each with its own verification
# seed, all never used: run seed S, verification seed 52004 + (S - 47). Sequential, two
# workers each. Usage: sh run-set.sh 48 49 50 51
set -e
cd "$(dirname "$0")/../../.."
for s in "$@"; do
    out=results/balance/screening/pilot5-s$s
    echo "== $(date -u +%FT%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg) at $(git rev-parse --short HEAD) $(python -c 'import throne_lib.compiled as c; print(c.loaded_build())')" > $out.txt
    /usr/bin/time -f "wall %e s, CPU %U+%S s" python results/balance/screening/screen.py --seed $s \
        --design symmetric --p 0.15 --rounds 6000 --candidates 300 --per-general 12 \
        --loop-blocks 30 --loop-steps 80 --loop-moves full \
        --aim 0.46:0.54 --verify-seed $((52004 + s - 47)) --workers 2 --out $out.json >> $out.txt 2>&1
done
