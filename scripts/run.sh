#!/bin/sh
# run.sh - what `make run` starts: meet the kitchen, then cook the first recipe.
# (The full-screen kitchen arrives with the TUI; until then this is the guided first taste.)
set -e
bin=${1:-build/cudachef}
"$bin" info
echo
echo "--- the four-element example: [1, 2, 3, 4] + [5, 6, 7, 8] with one team of four cooks ---"
"$bin" run vector-add --n 4 --threads-per-block 4
echo
echo "--- one million elements, 256 cooks per team ---"
"$bin" run vector-add --n 1000000 --threads-per-block 256
echo
echo "Next: '$bin run --help' lists every option; '$bin list' shows all recipes."
