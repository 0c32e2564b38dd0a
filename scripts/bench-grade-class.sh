#!/bin/sh
# bench-grade-class.sh - how long `cudachef grade --class` takes for a class on the CPU emulator:
# STUDENTS workspaces (a third the exercises' reference solutions, a third their starting files, a
# third a changed solution: its first " < " made " <= ", an off-by-one where that is code), each file
# with its student's name in a comment, so that no two students share a build. Graded from a cold
# build cache (every kernel compiled) and again with nothing changed (every build reused), with the
# default workers (one per core), in the sandbox. Prints the times, the cost of one exercise check
# and BENCH lines (ratio = the figure over its goal; met when <= 1).
# Usage: scripts/bench-grade-class.sh [build/cudachef] [STUDENTS]
set -u
bin=${1:-build/cudachef}
students=${2:-60}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cudachef-bench-class-XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
export CUDACHEF_STATE_HOME="$tmp/state" CUDACHEF_CACHE_HOME="$tmp/cache"
data=$(cd "$(dirname "$0")/.." && pwd)
exercises=0
for sol in "$data"/exercises/*/*/solution.cu; do exercises=$((exercises + 1)); done
"$data/scripts/make-class.sh" "$tmp/class" "$students" off-by-one || exit 1
now() { date +%s.%N; }
t0=$(now)
"$bin" grade --class "$tmp/class" --backend emu --format json >"$tmp/cold.json"
cold_rc=$?
t1=$(now)
"$bin" grade --class "$tmp/class" --backend emu --format json >"$tmp/warm.json"
warm_rc=$?
t2=$(now)
cold=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
warm=$(awk -v a="$t1" -v b="$t2" 'BEGIN { printf "%.3f", b - a }')
checks=$((students * exercises))
passed=$(grep -c '"result": "passed"' "$tmp/warm.json")
echo "Grading a class of $students ($checks exercise checks: $exercises exercises each) on the emulator, $(nproc) cores"
printf '  %-46s %8.2f s  <= 180 s\n' "cold: every student's kernels built (exit $cold_rc)" "$cold"
printf '  %-46s %8.2f s  <= 60 s\n' "warm: nothing changed, every build reused (exit $warm_rc)" "$warm"
awk -v w="$warm" -v c="$cold" -v n="$checks" 'BEGIN { printf "  one check: %.1f ms warm, %.1f ms cold (wall time over the checks, all workers)\n", 1000 * w / n, 1000 * c / n }'
echo "  checks passed: $passed (the solutions' third: $((students / 3 * exercises)) or so)"
echo
bench_line() { # name value goal
    awk -v n="$1" -v v="$2" -v g="$3" 'BEGIN { printf "BENCH name=%s ratio=%.3f goal=<=1 met=%s value=%.2fs\n", n, v / g, v <= g ? "yes" : "no", v }'
}
bench_line grade_class_cold "$cold" 180
bench_line grade_class_warm "$warm" 60
