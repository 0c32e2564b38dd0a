#!/usr/bin/env bash
# emu-rates.sh - measures the CPU emulator's pace per recipe on this machine and writes the table
# that stands in for a machine's own before its first runs (assets/devices/emulator-rates.tsv,
# read by src/engine/rates.c to predict a run's wait). Every recipe runs at its default size, then
# at a large one (vectors 10^7 elements, matrices 512: large runs miss the caches more, and the
# note is for large runs); each run records its own pace through the kitchen, as every run does.
#
# Usage: scripts/emu-rates.sh [BUILD_DIR]   (default build; about two minutes on 2 cores)
set -euo pipefail
build=${1:-build}
bin="$build/cudachef"
[ -x "$bin" ] || { echo "emu-rates: $bin is not built: run make first" >&2; exit 2; }
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT
export CUDACHEF_CACHE_HOME="$cache"
recipes=$("$bin" list | awk '/^Recipes/ {on = 1; next} on && NF {print $1}')
for r in $recipes; do
    case "$r" in *-unguarded | *-no-fill-barrier | *-no-reuse-barrier) continue ;; esac # they fail on purpose
    case "$r" in matmul*) big=512 ;; *) big=10000000 ;; esac
    for n in "" "--n $big"; do
        # shellcheck disable=SC2086 # $n is two words or none
        "$bin" run "$r" $n --backend emu --repeat 3 > /dev/null 2>&1 || echo "emu-rates: $r $n did not pass" >&2
    done
    echo "measured $r"
done
out=assets/devices/emulator-rates.tsv
{
    echo "# The CPU emulator's pace per recipe on cudachef's reference machine (2 cores, $(date +%Y-%m-%d)),"
    echo "# made by scripts/emu-rates.sh: a machine's own runs replace it in its cache (src/engine/rates.h)."
    grep -v '^#' "$cache/rates/emulator-rates.tsv"
} > "$out"
echo "wrote $out ($(grep -vc '^#' "$out") recipes)"
