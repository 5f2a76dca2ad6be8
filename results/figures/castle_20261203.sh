#!/bin/sh
# 城堡之心's camps with the scripted agent today, 4-8 seats, 300 seeds each from 37000
# (2026-12-03 night; 5-8 on main at 3b35657, 4 at 4fabc8f: the castle code is the same).
set -e
cd "$(dirname "$0")/../.."
PATH=$PWD/.venv/bin:$PATH
for n in 4 5 6 7 8; do
  nice throne simulate --game castle --players $n -n 300 --seed 37000 --workers 1 --no-progress \
      --out results/figures/castle${n}_scripted_s37000.parquet
done
