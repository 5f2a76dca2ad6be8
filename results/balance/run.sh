#!/bin/sh
# The small example run quoted in docs/balance.md ("Re-reading a run"), from the repository's
# root: a run with the standard agent on today's table, then `show`, then `verify` of its
# proposals with the random agent (which also re-plays the run's agent on the same fresh
# seeds and marks where a conclusion flips). A small budget: 8 search and 16 holdout
# matches per general; a look at the tools, not a balance result.
set -e
cd "$(dirname "$0")/../.."
out=results/balance
throne balance suggest --agent standard --population 6 --generations 4 --blocks 4 \
    --block-rounds 2 --holdout-blocks 8 --proposals 3 --repair 3 --seed 0 --workers 2 \
    --no-progress --out $out/small.parquet --report $out/small.txt
throne balance show $out/small.parquet > $out/small-show.txt
throne balance verify $out/small.parquet --agent random --seed 0 --workers 2 \
    --report $out/small-verify-random.txt
