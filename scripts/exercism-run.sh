#!/bin/sh
# exercism-run.sh - Exercism's test-runner interface for cudachef exercises: grades the learner's
# SLUG.cu in SOLUTION_DIR and writes OUTPUT_DIR/results.json (version 3). Exits 0 whatever the
# result, as the interface asks; a result that could not be written is the only failure.
# Usage: scripts/exercism-run.sh SLUG SOLUTION_DIR OUTPUT_DIR   (CUDACHEF: the program, default cudachef)
set -u
if [ $# -ne 3 ]; then
    echo "usage: $0 SLUG SOLUTION_DIR OUTPUT_DIR" >&2
    exit 2
fi
slug=$1 solution=$2 output=$3
bin=${CUDACHEF:-cudachef}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cudachef-exercism-XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
export CUDACHEF_STATE_HOME="$tmp/state"
mkdir -p "$output" || exit 1
"$bin" init "$tmp/ws" >/dev/null 2>&1 || true
# the exercise's place in the workspace is LESSON/SLUG.cu: the learner's file goes there
target=$(ls "$tmp"/ws/*/"$slug".cu 2>/dev/null | head -n 1)
if [ -n "$target" ] && [ -f "$solution/$slug.cu" ]; then
    cp "$solution/$slug.cu" "$target"
fi
"$bin" grade "$slug" --workspace "$tmp/ws" --format exercism --output "$output/results.json" >/dev/null 2>&1
[ -s "$output/results.json" ] && exit 0
printf '{"version": 3, "status": "error", "message": "cudachef could not grade %s", "tests": []}\n' "$slug" \
    >"$output/results.json"
