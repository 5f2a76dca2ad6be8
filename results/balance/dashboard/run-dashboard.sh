#!/bin/sh
# Issue #38's second target: the Throne balance page's default run (「调平建议」 with every
# widget at its default: band 45-55%, first seat <= 55%, population 8, 6 generations, 4
# search blocks of 2 rounds, 8 holdout blocks, 8 verification blocks, no repair, no time
# limit, run seed SEED — the page's is 0) from the command line, then its first
# proposal (the one the page shows) and the unchanged table re-measured on verification
# seeds no step of the run played (verify seed 4242, never used by a run) with 36 blocks
# of 10 rounds: 360 matches per general, the issue's measure.
# Usage: sh run-dashboard.sh SEED   (from anywhere; files next to this script)
set -e
seed=${1:?run seed}
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
out=$here/dashboard-s$seed
echo "== $(date -u +%FT%H:%M:%S) run seed $seed, load $(cut -d' ' -f1-3 /proc/loadavg), at $(git rev-parse --short HEAD)"
/usr/bin/time -f "suggest: wall %e s, CPU %U+%S s" throne balance suggest --band 45,55 \
    --first-seat-max 0.55 --seed "$seed" --workers 2 --no-progress \
    --out "$out.parquet" --report "$out.txt" 2> "$out-stderr.txt" || { cat "$out-stderr.txt"; exit 1; }
tail -1 "$out-stderr.txt"
throne balance show "$out.parquet" 1 > "$out-show.txt"
/usr/bin/time -f "verify: wall %e s, CPU %U+%S s" throne balance verify "$out.parquet" 1 \
    --band 40,60 --block-rounds 10 --blocks 36 --seed 4242 --workers 2 \
    --report "$out-verify.txt" > /dev/null 2> "$out-verify-stderr.txt"
echo "== $(date -u +%FT%H:%M:%S) done, load $(cut -d' ' -f1-3 /proc/loadavg)"
