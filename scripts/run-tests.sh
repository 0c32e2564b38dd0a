#!/bin/sh
# run-tests.sh - runs every test program in BUILD/tests and sums up.
#
# Usage: scripts/run-tests.sh BUILD_DIR [TEST...]   (the TESTs named, else every one)
# CUDACHEF_TEST_BACKEND (emu or gpu) is passed on to the tests. Prints cmocka's own lines, then a
# closing "N passed, N failed, N skipped" line; exits 1 if any test failed. A test that is a script
# (tests/test_install.sh) is given BUILD_DIR.
# For make valgrind (tests/sanitize.mk): CUDACHEF_TEST_WRAPPER is a command put before each
# compiled test program, CUDACHEF_TEST_PROGRAM what the tests run as the cudachef program (default
# BUILD_DIR/cudachef), and CUDACHEF_TEST_SKIP names test programs to leave out, each said so.
# CUDACHEF_TESTS_EXPECTED names the test programs the build makes: one missing fails the run.
set -u
build=${1:-build}
[ $# -gt 0 ] && shift
export CUDACHEF_BIN="${CUDACHEF_TEST_PROGRAM:-$build/cudachef}"
# the learner's progress file is never touched by tests: each run gets a folder of its own
CUDACHEF_STATE_HOME=$(mktemp -d "${TMPDIR:-/tmp}/cudachef-state-XXXXXX") || exit 1
export CUDACHEF_STATE_HOME
trap 'rm -rf "$CUDACHEF_STATE_HOME"' EXIT
passed=0
failed=0
skipped=0
status=0
for t in "$build"/tests/test_*; do
    [ -x "$t" ] || continue
    case "$t" in *.o) continue ;; esac
    if [ $# -gt 0 ]; then
        case " $* " in *" $(basename "$t") "*) ;; *) continue ;; esac
    fi
    case " ${CUDACHEF_TEST_SKIP:-} " in
        *" $(basename "$t") "*) echo "== $(basename "$t"): left out (CUDACHEF_TEST_SKIP)"; continue ;;
    esac
    case "$t" in
        */test_emu) echo "== $(basename "$t") (the emulator's own rules; always on the CPU)" ;;
        *) echo "== $(basename "$t") (backend: ${CUDACHEF_TEST_BACKEND:-emu})" ;;
    esac
    if [ "$(head -c 2 "$t")" = "#!" ]; then
        out=$("$t" "$build" 2>&1)
    else
        out=$(${CUDACHEF_TEST_WRAPPER:-} "$t" 2>&1)
    fi
    rc=$?
    printf '%s\n' "$out"
    p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | awk '{s+=$1} END {print s+0}')
    f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | awk '{s+=$1} END {print s+0}')
    k=$(printf '%s\n' "$out" | sed -n 's/^\[  SKIPPED \] \([0-9]*\) test.*/\1/p' | awk '{s+=$1} END {print s+0}')
    skipped=$((skipped + k))
    passed=$((passed + p))
    failed=$((failed + f))
    if [ "$rc" -ne 0 ]; then
        status=1
        [ "$f" -eq 0 ] && failed=$((failed + 1)) && echo "!! $(basename "$t") exited with status $rc"
    fi
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
