#!/bin/sh
# run-tests.sh - runs every test program in BUILD/tests and sums up.
#
# Usage: scripts/run-tests.sh BUILD_DIR
# CUDACHEF_TEST_BACKEND (emu or gpu) is passed on to the tests. Prints cmocka's own lines, then a
# closing "N passed, N failed, N skipped" line; exits 1 if any test failed.
set -u
build=${1:-build}
export CUDACHEF_BIN="$build/cudachef"
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
    case "$t" in
        */test_emu) echo "== $(basename "$t") (the emulator's own rules; always on the CPU)" ;;
        *) echo "== $(basename "$t") (backend: ${CUDACHEF_TEST_BACKEND:-emu})" ;;
    esac
    out=$("$t" 2>&1)
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
echo "$passed passed, $failed failed, $skipped skipped"
exit $status
