#!/bin/sh
# run.sh - what `make run` starts: meet the kitchen, then the first lesson's pages and demos.
# (The full-screen kitchen arrives with the TUI; until then this is the guided first taste.)
set -e
bin=${1:-build/cudachef}
"$bin" list
echo
"$bin" read 1
"$bin" run 1
echo "Next: '$bin read 2' and '$bin run 2' (the five steps); '$bin read N --answers' shows the"
echo "answers to a lesson's questions; '--lang ko' reads in Korean; '$bin run --help' lists every option."
