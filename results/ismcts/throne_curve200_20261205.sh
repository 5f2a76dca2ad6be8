#!/bin/sh
# Throne & Phalanx: the strength curve's third budget (docs/agents.md, "The strength curve"):
# `ismcts:iterations=200` (today's defaults: widened search, decisive-move check) against
# `standard`, seats swapped, 30 seeds (60 matches) as the 200-iteration points of PIN and
# 城池战, on seeds never used before: 53000-53029. RESUME=1 goes on from a stopped run.
set -e
cd "$(dirname "$0")/../.."
out=results/ismcts/curve_throne_i200_s53000.parquet
echo "== $(date -u +%FT%H:%M:%S) throne 200 iterations load $(cut -d' ' -f1-3 /proc/loadavg) at $(git rev-parse --short HEAD) $(python -c 'import throne_lib.compiled as c; print(c.loaded_build())')"
/usr/bin/time -f "wall %e s, CPU %U+%S s" throne ladder --game throne \
    --agents standard,ismcts:iterations=200 -n 30 --seed 53000 --workers 2 \
    --no-progress --out $out ${RESUME:+--resume}
