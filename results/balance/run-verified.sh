#!/bin/sh
# The example of a run with its own verification (docs/balance.md, "What a run
# reports"), from the repository's root: the small run of run.sh with the run's own
# verification (8 blocks, the default) and pruning (the default), then `show`. The
# warning printed before the run goes to stderr: kept in verified-stderr.txt. A small
# budget on purpose: it shows what a run says when its budget cannot tell.
set -e
cd "$(dirname "$0")/../.."
out=results/balance
throne balance suggest --agent standard --population 6 --generations 4 --blocks 4 \
    --block-rounds 2 --holdout-blocks 8 --verify-blocks 8 --proposals 3 --repair 3 --seed 0 \
    --workers 2 --no-progress --out $out/verified.parquet --report $out/verified.txt \
    2> $out/verified-stderr.txt
throne balance show $out/verified.parquet > $out/verified-show.txt
