#!/bin/sh
# 城堡之心: the 7-seat 城主 with rollouts cut off at 60 actions and ~400 iterations (1 s a
# decision), on 200 seeds never used before (62400-62599) — the 城主's cell of
# castle_cutoff60_seats_20261207.sh, which plays the same command for any seat; its log is
# castle_lord7_cutoff60_20261207.txt. RESUME=1 and WORKERS=N as there.
exec sh "$(dirname "$0")/castle_cutoff60_seats_20261207.sh" 7:lord:62400
