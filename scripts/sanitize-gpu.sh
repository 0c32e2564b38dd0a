#!/bin/sh
# sanitize-gpu.sh - every kernel of kernels/ under NVIDIA's compute-sanitizer, on a GPU.
#
# Usage: scripts/sanitize-gpu.sh [BUILD]   (BUILD: the build folder, default build)
#
# For every recipe that `cudachef list --format json` names (library recipes left out: cuBLAS is
# not our code), runs `cudachef run RECIPE --backend gpu --repeat 1` at small sizes (one not a
# multiple of the team size) under each tool: memcheck (out-of-bounds and misaligned accesses,
# leaks), racecheck (shared-memory hazards between cooks of a team) and synccheck (barriers used
# wrongly). A reference kernel must be clean. The lessons' kernels written to show a mistake must be
# caught: vector-add-unguarded by memcheck, the two tiled kernels without a barrier by racecheck.
# Prints one line per recipe and tool, then a summary; exits 1 if a reference kernel was not
# clean or a mistake went unseen, 0 otherwise. Without a GPU or without compute-sanitizer it prints
# one SKIP line and exits 0. The full logs go to $SANITIZE_LOGS (default a temporary folder).
set -u
build=${1:-build}
bin="$build/cudachef"
[ -x "$bin" ] || { echo "sanitize-gpu: $bin is missing: build cudachef first (make)" >&2; exit 2; }
san=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer \
    /usr/local/cuda/compute-sanitizer/compute-sanitizer 2>/dev/null | head -n 1)
[ -n "$san" ] || { echo "sanitize-gpu: SKIP: compute-sanitizer not found (it comes with the CUDA toolkit)"; exit 0; }
if ! "$bin" info --backend gpu >/dev/null 2>&1; then
    echo "sanitize-gpu: SKIP: no usable GPU ($bin info --backend gpu failed)"
    exit 0
fi
logs=${SANITIZE_LOGS:-$(mktemp -d "${TMPDIR:-/tmp}/sanitize-gpu.XXXXXX")}
mkdir -p "$logs" || exit 2
recipes=$("$bin" list --format json | python3 -c '
import json, sys
for r in json.load(sys.stdin)["items"]:
    if r["kind"] == "recipe" and not r["kernel"].startswith("library_"):
        print(r["name"])') || { echo "sanitize-gpu: could not list the recipes" >&2; exit 2; }

# What a mistake kernel must show, by recipe and tool ("" = must be clean).
expect() {
    case "$1:$2" in
    vector-add-unguarded:memcheck) echo caught ;;
    matmul-tiled-no-fill-barrier:racecheck | matmul-tiled-no-reuse-barrier:racecheck) echo caught ;;
    vector-add-unguarded:* | matmul-tiled-no-*) echo any ;; # its mistake belongs to another tool
    *) echo clean ;;
    esac
}

status=0 clean=0 caught=0 runs=0
printf '%-32s %-10s %-8s %s\n' recipe tool result errors
for r in $recipes; do
    case $r in
    matmul-*) sizes="130" ;;
    *) sizes="4099" ;;
    esac
    for tool in memcheck racecheck synccheck; do
        errors=0 ran=0
        for n in $sizes; do
            log="$logs/$r.$tool.$n.log"
            "$san" --tool "$tool" --error-exitcode 99 --print-limit 20 \
                "$bin" run "$r" --backend gpu --n "$n" --repeat 1 >"$log" 2>&1
            rc=$?
            runs=$((runs + 1))
            e=$(sed -n 's/^========= ERROR SUMMARY: \([0-9]*\) errors*$/\1/p' "$log" | head -n 1)
            [ -n "$e" ] || e=$(sed -n 's/^========= RACECHECK SUMMARY: .*(\([0-9]*\) errors*,.*/\1/p' "$log" | head -n 1)
            [ -n "$e" ] || e=0
            [ "$rc" -eq 99 ] && [ "$e" -eq 0 ] && e=1
            errors=$((errors + e))
            # the run itself may fail for a mistake kernel (exit 1: wrong taste; 4: crashed)
            [ "$rc" -ne 99 ] && [ "$rc" -gt 1 ] && [ "$(expect "$r" "$tool")" = clean ] && ran=1
        done
        want=$(expect "$r" "$tool")
        if [ "$ran" -ne 0 ]; then
            result="RUN-FAILED" status=1
        elif [ "$want" = clean ] && [ "$errors" -eq 0 ]; then
            result=clean clean=$((clean + 1))
        elif [ "$want" = caught ] && [ "$errors" -gt 0 ]; then
            result=caught caught=$((caught + 1))
        elif [ "$want" = any ]; then
            result="n/a"
        else
            result=UNEXPECTED status=1
        fi
        printf '%-32s %-10s %-8s %s\n' "$r" "$tool" "$result" "$errors"
    done
done
echo
echo "sanitize-gpu: $runs runs; $clean reference kernel x tool pairs clean, $caught mistakes caught as meant; logs in $logs"
[ "$status" -eq 0 ] && echo "sanitize-gpu: all clean" || echo "sanitize-gpu: PROBLEMS above"
exit $status
