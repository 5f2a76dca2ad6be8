#!/bin/sh
# 城堡之心's camps with every seat searching (issue #32 item 5): ismcts:iterations=10, the
# default since 2026-12-04 (rollouts to the end, belief=0.5) at the budget the other games'
# figures used, 4-8 seats, 50 seeds each from 37000: the first 50 of the scripted runs'
# 300 seeds (castle_20261203.sh), so `throne compare --results` pairs them match by match.
# Usage: [N=seeds] sh castle_search_20261204.sh [SEATS...]
set -e
cd "$(dirname "$0")/../.."
out=results/figures
for n in ${@:-4 5 6 7 8}; do
  echo "== $(date -u +%FT%H:%M:%S) $n seats load $(cut -d' ' -f1-3 /proc/loadavg) at $(git rev-parse --short HEAD)"
  /usr/bin/time -f "wall %e s, CPU %U+%S s" throne simulate --game castle --players $n \
      --agent ismcts:iterations=10 -n ${N:-50} --seed 37000 --workers 2 --no-progress \
      --out $out/castle${n}_ismcts_iterations_10_s37000.parquet
  throne compare --game castle --results $out/castle${n}_scripted_s37000.parquet \
      $out/castle${n}_ismcts_iterations_10_s37000.parquet > $out/castle${n}_compare.txt
  cat $out/castle${n}_compare.txt
done
