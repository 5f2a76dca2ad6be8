#!/bin/sh
# 城堡之心, run C3 (#38 item 5): run C2 (run-castle-camps-rules.sh) again, same command and
# seed, once a camp that a role row deals out of the game counts as winning no match. Each
# camp 40–60% at 4–8 seats over the rules knobs only (the 城主's extras, wider than their
# defaults, and the role tables of 5–8 seats). Run from the repository root's parent as
#   nice -n 15 sh results/balance/run-castle-camps-c3.sh
# (8.5 minutes for the run on the shared 2-core machine), then its first proposal on fresh
# verification seeds (verify seed 0, 13 blocks = 104 matches per seat count).
set -e
cd "$(dirname "$0")/../.."
out=results/balance
throne --game castle balance suggest --players 4,5,6,7,8 --camp-band 40,60 --fields hp --freeze hp \
    --rules lord_bonus_hp=0:6,lord_leadership=3:7,lord_mana=8:16,roles_5,roles_6,roles_7,roles_8 \
    --population 8 --generations 6 --blocks 2 --block-matches 8 --holdout-blocks 4 \
    --verify-blocks 13 --proposals 3 --repair 4 --confirm 1 --seed 0 --workers 2 \
    --time-limit 24 --no-progress --out $out/castle-camps-c3.parquet \
    --report $out/castle-camps-c3.txt 2> $out/castle-camps-c3-stderr.txt
throne --game castle balance show $out/castle-camps-c3.parquet > $out/castle-camps-c3-show.txt
throne --game castle balance verify $out/castle-camps-c3.parquet 1 --seed 0 --blocks 13 \
    --workers 2 --report $out/castle-camps-c3-verify.txt
