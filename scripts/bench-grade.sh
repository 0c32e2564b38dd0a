#!/bin/sh
# bench-grade.sh - how long grading every exercise of one workspace takes on the CPU emulator:
# from a cold build cache (every kernel compiled) and again with nothing changed (every build
# reused). The workspace holds the reference solutions, so every exercise runs all of its sizes.
# Prints a row per figure and BENCH lines (ratio = the figure over its goal; met when <= 1).
# Usage: scripts/bench-grade.sh [build/cudachef]
set -u
bin=${1:-build/cudachef}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cudachef-bench-grade-XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
export CUDACHEF_STATE_HOME="$tmp/state" CUDACHEF_CACHE_HOME="$tmp/cache"
"$bin" init "$tmp/ws" >/dev/null || exit 1
data=$(cd "$(dirname "$0")/.." && pwd)
count=0
for sol in "$data"/exercises/*/*/solution.cu; do
    ex=$(dirname "$sol")
    cp "$sol" "$tmp/ws/$(basename "$(dirname "$ex")")/$(basename "$ex").cu"
    count=$((count + 1))
done
now() { date +%s.%N; }
t0=$(now)
"$bin" grade --workspace "$tmp/ws" --backend emu --format tap >"$tmp/cold.tap"
cold_rc=$?
t1=$(now)
"$bin" grade --workspace "$tmp/ws" --backend emu --format tap >"$tmp/warm.tap"
warm_rc=$?
t2=$(now)
cold=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
warm=$(awk -v a="$t1" -v b="$t2" 'BEGIN { printf "%.3f", b - a }')
echo "Grading all $count exercises of one workspace on the emulator ($(nproc) cores)"
printf '  %-44s %8.2f s  <= 60 s\n' "cold: every kernel built (exit $cold_rc)" "$cold"
printf '  %-44s %8.2f s  <= 10 s\n' "warm: nothing changed, every build reused (exit $warm_rc)" "$warm"
echo
bench_line() { # name value goal
    awk -v n="$1" -v v="$2" -v g="$3" 'BEGIN { printf "BENCH name=%s ratio=%.3f goal=<=1 met=%s value=%.2fs\n", n, v / g, v <= g ? "yes" : "no", v }'
}
bench_line grade_cold "$cold" 60
bench_line grade_warm "$warm" 10
if [ "$cold_rc" -ne 0 ] || [ "$warm_rc" -ne 0 ]; then
    echo "bench-grade: a reference solution did not pass (make check-exercises says which)"
    exit 1
fi
