# cases.sh - the cases of a test written in shell, reported in cmocka's words so that
# scripts/run-tests.sh counts them like the C tests' (sourced by tests/test_*.sh).
#
#   cases_begin N      before the first case (N: how many will run)
#   run_case NAME      runs the shell function NAME as one case; inside it, fail MESSAGE makes the
#                      case fail (the first message is kept), skip MESSAGE skips it with a reason
#   cases_end          prints the totals and exits 1 when a case failed
passed=0
failed=0
skipped=0
names=""
skipped_names=""
failure=""
skipping=""

# fail MESSAGE: the current case fails (the first message is kept).
fail() {
    [ -z "$failure" ] && failure=$1
    return 0
}

# skip MESSAGE: the current case cannot run on this machine (said so, counted as skipped).
skip() {
    skipping=$1
    return 0
}

# run_case NAME: runs the shell function NAME as one case and prints its result.
run_case() {
    failure=""
    skipping=""
    echo "[ RUN      ] $1"
    "$1"
    if [ -n "$skipping" ] && [ -z "$failure" ]; then
        echo "SKIP: $skipping"
        echo "[  SKIPPED ] $1"
        skipped=$((skipped + 1))
        skipped_names="$skipped_names $1"
    elif [ -z "$failure" ]; then
        echo "[       OK ] $1"
        passed=$((passed + 1))
    else
        echo "ERROR: $failure"
        echo "[  FAILED  ] $1"
        failed=$((failed + 1))
        names="$names $1"
    fi
}

# cases_begin N: the header of the run.
cases_begin() {
    echo "[==========] Running $1 test(s)."
    cases_start=$(date +%s)
}

# cases_end: the totals, and the exit status (1 when a case failed).
cases_end() {
    echo "[==========] $((passed + failed + skipped)) test(s) run ($(($(date +%s) - cases_start)) s)."
    echo "[  PASSED  ] $passed test(s)."
    if [ "$skipped" -gt 0 ]; then
        echo "[  SKIPPED ] $skipped test(s), listed below:"
        for n in $skipped_names; do echo "[  SKIPPED ] $n"; done
    fi
    if [ "$failed" -gt 0 ]; then
        echo "[  FAILED  ] $failed test(s), listed below:"
        for n in $names; do echo "[  FAILED  ] $n"; done
        exit 1
    fi
    exit 0
}
