#!/bin/sh
# Throne & Phalanx's first seat and generals re-measured with the search (issue #32 item 5):
# the round robin of the 18 generals' signature decks (171 pairings with the mirrors, 2
# matches each, sides alternating), every side played by the 10-iteration search (62% against
# the standard agent over 100 matches: throne_ladder_i10_s36100.parquet), beside the
# standard agent on the same seeds (36100; the round robin gives every pairing the same
# seeds). After figures_20261203.sh, from the repository's root.
set -e
cd "$(dirname "$0")/../.."
PATH=$PWD/.venv/bin:$PATH
out=results/figures
run() { echo "== $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg): $*"; /usr/bin/time -f "wall %e s, CPU %U+%S s" nice "$@"; }
for a in standard ismcts:iterations=10; do
  tag=$(echo $a | tr ':=' '__')
  run throne simulate --round-robin --agent $a -n 2 --seed 36100 --workers 2 --no-progress \
      --out $out/throne_rr_${tag}_s36100.parquet
done
