#!/usr/bin/env bash
# sanitize-planted.sh - proves that a memory tool's run of the tests still covers every layer: each
# fault of src/kit/planted.h (a leak, an overflow, a use-after-free in each of emu, kit, grading
# and the host runtime) is planted in turn, the tool's selection of test programs runs, and the
# tool must report that fault, at the planted place, from some process. What make asan-planted and
# make valgrind-planted run (tests/sanitize.mk); the environment of the tool's run (ASAN_ENV or
# VALGRIND_ENV) comes from make.
#
# Usage: scripts/sanitize-planted.sh asan|valgrind BUILD LOGS [FAULT...]
#   BUILD: a build made with CHEF_PLANTED_FAULTS; LOGS: the folder the tool writes its reports to.
#   FAULT: LAYER:KIND (default all twelve). CUDACHEF_TEST_SKIP and the other variables of
#   scripts/run-tests.sh pick the programs, as in the tool's own run.
# A run stops as soon as the fault is reported (the rest of the suite is not needed to know), so
# each fault costs the time to the first program that reaches the place. Prints one line a fault
# (caught by which process, after how long; or MISSED) and exits 1 if any was missed.
set -u
tool=${1:?usage: sanitize-planted.sh asan|valgrind BUILD LOGS [FAULT...]}
build=${2:?usage: sanitize-planted.sh asan|valgrind BUILD LOGS [FAULT...]}
logs=${3:?usage: sanitize-planted.sh asan|valgrind BUILD LOGS [FAULT...]}
shift 3
cd "$(dirname "$0")/.." || exit 2
faults=("$@")
if [ ${#faults[@]} -eq 0 ]; then
    for layer in emu kit grading host; do
        for kind in leak overflow use-after-free; do faults+=("$layer:$kind"); done
    done
fi

# place LAYER: the function the fault of that layer is planted in (src/kit/planted.h's users).
place() {
    case $1 in
        emu) echo emu_launch ;;
        kit) echo emu_prep_source ;;
        grading) echo exercise_runs_parse ;;
        host) echo emu_cuda_malloc ;;
    esac
}

# caught LAYER KIND: the report file in $logs that shows this fault at its place, if any.
caught() {
    local fn pattern f
    fn=$(place "$1")
    if [ "$tool" = asan ]; then
        case $2 in
            leak) pattern='LeakSanitizer: detected memory leaks' ;;
            overflow) pattern='AddressSanitizer: heap-buffer-overflow' ;;
            use-after-free) pattern='AddressSanitizer: heap-use-after-free' ;;
        esac
        for f in "$logs"/*; do
            [ -f "$f" ] && grep -q "$pattern" "$f" 2>/dev/null && grep -q " in $fn " "$f" 2>/dev/null && { echo "$f"; return 0; }
        done
    else
        case $2 in
            leak) pattern='<kind>Leak_DefinitelyLost</kind>' ;;
            overflow) pattern='<kind>InvalidWrite</kind>' ;;
            use-after-free) pattern='<kind>InvalidRead</kind>' ;;
        esac
        for f in "$logs"/*.xml; do
            [ -f "$f" ] && grep -q "$pattern" "$f" 2>/dev/null && grep -q "<fn>$fn</fn>" "$f" 2>/dev/null && { echo "$f"; return 0; }
        done
    fi
    return 1
}

missed=0
for fault in "${faults[@]}"; do
    layer=${fault%%:*} kind=${fault#*:}
    if [ -z "$(place "$layer")" ]; then
        echo "sanitize-planted: $fault: no such layer (emu, kit, grading, host)" >&2
        exit 2
    fi
    rm -rf "$logs" && mkdir -p "$logs" || exit 2
    start=$(date +%s)
    # the suite in a session of its own, so that all of it can be stopped once the fault shows
    CUDACHEF_PLANTED_FAULT=$fault setsid scripts/run-tests.sh "$build" >"$logs.planted-out" 2>&1 &
    pid=$!
    found=
    while :; do
        if found=$(caught "$layer" "$kind"); then break; fi
        kill -0 "$pid" 2>/dev/null || { found=$(caught "$layer" "$kind") || found=; break; }
        sleep 1
    done
    kill -TERM -- -"$pid" 2>/dev/null
    sleep 1
    kill -KILL -- -"$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    took=$(($(date +%s) - start))
    if [ -n "$found" ]; then
        printf '%-26s caught in %4d s (%s: %s)\n' "$fault" "$took" "$tool" "$(basename "$found")"
    else
        printf '%-26s MISSED: %s reported nothing at %s in %d s of the whole selection\n' \
            "$fault" "$tool" "$(place "$layer")" "$took"
        missed=$((missed + 1))
    fi
done
rm -rf "$logs" "$logs.planted-out"
if [ "$missed" -gt 0 ]; then
    echo "sanitize-planted: $missed of ${#faults[@]} planted faults went unreported under $tool"
    exit 1
fi
echo "sanitize-planted: all ${#faults[@]} planted faults reported under $tool"
