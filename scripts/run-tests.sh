#!/usr/bin/env bash
# run-tests.sh - runs every test program in BUILD/tests, several at once, and sums up.
#
# Usage: scripts/run-tests.sh BUILD_DIR [TEST...]   (the TESTs named, else every one)
# CUDACHEF_TEST_BACKEND (emu or gpu) is passed on to the tests. The programs run CUDACHEF_TEST_JOBS
# at a time (default: the machine's cores, at most 4), the longest first (CUDACHEF_TEST_FIRST names
# them; the rest follow in name order), each with a HOME, XDG folders, state folder, build cache
# and TMPDIR of its own, so that none sees another's files. Each program's cmocka lines are printed
# whole when it ends, then a closing "N passed, N failed, N skipped" line; exits 1 if any test
# failed. A test that is a script (tests/test_install.sh) is given BUILD_DIR.
# For make valgrind (tests/sanitize.mk): CUDACHEF_TEST_WRAPPER is a command put before each
# compiled test program, CUDACHEF_TEST_PROGRAM what the tests run as the cudachef program (default
# BUILD_DIR/cudachef), and CUDACHEF_TEST_SKIP names test programs to leave out, each said so.
# CUDACHEF_TESTS_EXPECTED names the test programs the build makes: one missing fails the run.
# The tests read the tree this script is in (CUDACHEF_TEST_SOURCE_DIR, exported; tests/test_tree.h):
# a copy of a built tree tests the copy.
# CUDACHEF_TEST_SHARDS="NAME:N ..." runs test program NAME as N processes side by side, each with
# CUDACHEF_TEST_SHARD=K/N and every Nth of its cases (tests/test_shard.h), reported as NAME.KofN:
# under valgrind's memcheck, which runs a program's threads one at a time, the longest program
# otherwise keeps one core busy alone while the other waits.
set -u
build=${1:-build}
[ $# -gt 0 ] && shift
CUDACHEF_TEST_SOURCE_DIR=$(cd "$(dirname "$0")/.." && pwd) || exit 1
export CUDACHEF_TEST_SOURCE_DIR
export CUDACHEF_BIN="${CUDACHEF_TEST_PROGRAM:-$build/cudachef}"
cores=$(nproc 2>/dev/null || echo 2)
jobs=${CUDACHEF_TEST_JOBS:-$((cores < 4 ? cores : 4))}
[ "$jobs" -ge 1 ] 2>/dev/null || jobs=1
first=${CUDACHEF_TEST_FIRST:-"test_tui test_cli test_exercises test_kitchen test_faults test_lessons test_badinput test_layers test_bench test_install test_hacking"}
root=$(mktemp -d "${TMPDIR:-/tmp}/ct.XXXXXX") || exit 1 # short: some tests write paths into lines of limited length
trap 'rm -rf "$root"' EXIT

# The programs to run, the longest first.
programs=()
for t in "$build"/tests/test_*; do
    [ -x "$t" ] || continue
    case "$t" in *.o | *.d) continue ;; esac
    name=$(basename "$t")
    if [ $# -gt 0 ]; then
        case " $* " in *" $name "*) ;; *) continue ;; esac
    fi
    case " ${CUDACHEF_TEST_SKIP:-} " in
        *" $name "*) echo "== $name: left out (CUDACHEF_TEST_SKIP)"; continue ;;
    esac
    programs+=("$name")
done
ordered=()
for name in $first; do
    for p in "${programs[@]}"; do [ "$p" = "$name" ] && ordered+=("$p"); done
done
for p in "${programs[@]}"; do
    case " $first " in *" $p "*) ;; *) ordered+=("$p") ;; esac
done
# a sharded program's jobs, NAME.1ofN to NAME.NofN, where it stood
jobs_list=()
for p in "${ordered[@]}"; do
    n=1
    for spec in ${CUDACHEF_TEST_SHARDS:-}; do
        [ "${spec%%:*}" = "$p" ] && n=${spec#*:}
    done
    if [ "$n" -gt 1 ] 2>/dev/null; then
        for k in $(seq 1 "$n"); do jobs_list+=("$p.${k}of$n"); done
    else
        jobs_list+=("$p")
    fi
done
ordered=("${jobs_list[@]}")

# run_one NAME: runs one test program in a home of its own, its output in $root/NAME.out and its
# exit status in $root/NAME.rc.
run_one() {
    local name=$1 t="$build/tests/${1%%.*}" home="$root/$1" shard=
    case "$name" in *.*of*) shard=${name#*.} && shard="${shard%of*}/${shard#*of}" ;; esac
    mkdir -p "$home/home" "$home/config" "$home/cache" "$home/state" "$home/data" "$home/t" "$home/cudachef-state" \
        "$home/cudachef-cache"
    (
        export HOME="$home/home" XDG_CONFIG_HOME="$home/config" XDG_CACHE_HOME="$home/cache" \
            XDG_STATE_HOME="$home/state" XDG_DATA_HOME="$home/data" TMPDIR="$home/t" \
            CUDACHEF_STATE_HOME="$home/cudachef-state" CUDACHEF_CACHE_HOME="$home/cudachef-cache"
        [ -n "$shard" ] && export CUDACHEF_TEST_SHARD="$shard"
        case "$name" in
            test_emu) echo "== $name (the emulator's own rules; always on the CPU)" ;;
            *) echo "== $name (backend: ${CUDACHEF_TEST_BACKEND:-emu})" ;;
        esac
        start=$(date +%s)
        if [ "$(head -c 2 "$t")" = "#!" ]; then
            "$t" "$build" 2>&1
        else
            ${CUDACHEF_TEST_WRAPPER:-} "$t" 2>&1
        fi
        rc=$?
        echo "== $name: $(($(date +%s) - start)) s"
        exit $rc
    ) >"$root/$name.out" 2>&1
    echo $? >"$root/$name.rc.tmp" && mv "$root/$name.rc.tmp" "$root/$name.rc" # whole, or not there yet
}

passed=0
failed=0
skipped=0
status=0

# report NAME: prints a finished program's output and adds its counts.
report() {
    local name=$1 out rc p f k
    out=$(cat "$root/$name.out")
    rc=$(cat "$root/$name.rc")
    printf '%s\n' "$out"
    p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | awk '{s+=$1} END {print s+0}')
    f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | awk '{s+=$1} END {print s+0}')
    k=$(printf '%s\n' "$out" | sed -n 's/^\[  SKIPPED \] \([0-9]*\) test.*/\1/p' | awk '{s+=$1} END {print s+0}')
    skipped=$((skipped + k))
    passed=$((passed + p))
    failed=$((failed + f))
    if [ "$rc" -ne 0 ]; then
        status=1
        [ "$f" -eq 0 ] && failed=$((failed + 1)) && echo "!! $name exited with status $rc"
    fi
}

# At most $jobs at once; each is reported as it ends.
declare -A running=()
for name in "${ordered[@]}"; do
    while [ "${#running[@]}" -ge "$jobs" ]; do
        wait -n
        for r in "${!running[@]}"; do
            if [ -f "$root/$r.rc" ]; then
                report "$r"
                unset "running[$r]"
            fi
        done
    done
    run_one "$name" &
    running[$name]=$!
done
wait
for r in "${!running[@]}"; do
    report "$r"
done

# a test program that should be there but was not built fails the run (CUDACHEF_TESTS_EXPECTED)
for e in ${CUDACHEF_TESTS_EXPECTED:-}; do
    if [ $# -gt 0 ]; then
        case " $* " in *" $e "*) ;; *) continue ;; esac
    fi
    case " ${CUDACHEF_TEST_SKIP:-} " in *" $e "*) continue ;; esac
    if [ ! -x "$build/tests/$e" ]; then
        echo "!! $e was not built ($build/tests/$e is missing)"
        failed=$((failed + 1))
        status=1
    fi
done
echo "$passed passed, $failed failed, $skipped skipped"
exit $status
