#!/bin/sh
# 城堡之心: each camp's win rate per seat count (#38 item 5). The figures of
# docs/balance.md's 城堡之心 section; run from the repository root's parent as
#   nice -n 15 sh results/balance/run-castle-camps.sh
# (16 minutes on the shared 2-core machine at a load average of 13-20). The run kept no
# proposal (castle-camps.txt), so the step that followed it when it ran,
#   throne --game castle balance verify $out/castle-camps.parquet 1 --seed 0 --blocks 12
# had nothing to re-measure ("no proposal 1 in the results") and is left out here; run C2
# (run-castle-camps-rules.sh) is the one re-measured.
set -e
cd "$(dirname "$0")/../.."
out=results/balance
throne --game castle balance suggest --players 4,5,6,7,8 --camp-band 40,60 --fields hp \
    --rules lord_bonus_hp=0:6,lord_leadership=3:7,lord_mana=8:16,roles_5,roles_6,roles_7,roles_8 \
    --population 6 --generations 4 --blocks 2 --block-matches 8 --holdout-blocks 4 \
    --verify-blocks 12 --proposals 3 --repair 4 --confirm 1 --seed 0 --workers 2 \
    --time-limit 28 --no-progress --out $out/castle-camps.parquet \
    --report $out/castle-camps.txt 2> $out/castle-camps-stderr.txt
throne --game castle balance show $out/castle-camps.parquet > $out/castle-camps-show.txt
