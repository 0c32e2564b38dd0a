#!/bin/sh
# test_slurm.sh - scripts/grade-class.slurm's own logic, its array tasks run one after the other
# as SLURM would run them (SLURM_ARRAY_TASK_ID set, cudachef on PATH): a .git folder among the
# submissions is not a student and the last student is graded; a task whose grade fails keeps its
# exit code and leaves a placeholder result; merge names the students with no result and fails.
# (No SLURM daemons: docs/GRADING.md says how to run it on a real cluster.)
#
# Usage: tests/test_slurm.sh [BUILD_DIR]   (make test runs it as BUILD/tests/test_slurm BUILD)
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/tests/cases.sh"
build=${1:-$here/build}
case $build in /*) ;; *) build=$here/$build ;; esac
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cudachef-slurm-XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
script=$here/scripts/grade-class.slurm

# The class: three students, a .git folder, and cudachef on PATH through a wrapper that fails for
# the student called c-broken (as a node without a GPU or a full disk would).
setup() {
    mkdir -p "$tmp/bin" "$tmp/subs/.git/objects" "$tmp/exercises/03-teams-and-cooks"
    cp -R "$here/exercises/03-teams-and-cooks/bounds-check" "$tmp/exercises/03-teams-and-cooks/"
    for s in a-right b-start c-broken; do
        mkdir -p "$tmp/subs/$s/03-teams-and-cooks"
    done
    cp "$here/exercises/03-teams-and-cooks/bounds-check/solution.cu" "$tmp/subs/a-right/03-teams-and-cooks/bounds-check.cu"
    cp "$here/exercises/03-teams-and-cooks/bounds-check/start.cu" "$tmp/subs/b-start/03-teams-and-cooks/bounds-check.cu"
    cp "$here/exercises/03-teams-and-cooks/bounds-check/solution.cu" "$tmp/subs/c-broken/03-teams-and-cooks/bounds-check.cu"
    cat >"$tmp/bin/cudachef" <<EOF
#!/bin/sh
case "\$*" in *c-broken*) echo "this node cannot grade" >&2; exit 5 ;; esac
exec "$build/cudachef" "\$@"
EOF
    chmod +x "$tmp/bin/cudachef"
}

# Runs every array task as sbatch --array=0-(count - 1) would.
run_tasks() {
    n=$("$script" count "$tmp/subs")
    i=0
    codes=""
    while [ "$i" -lt "$n" ]; do
        PATH="$tmp/bin:$PATH" SLURM_ARRAY_TASK_ID=$i SLURM_JOB_ID=7 CUDACHEF_BACKEND=emu \
            CUDACHEF_EXERCISES="$tmp/exercises" "$script" "$tmp/subs" "$tmp/results" >/dev/null 2>&1
        codes="$codes $?"
        i=$((i + 1))
    done
}

test_students_are_the_visible_folders() {
    list=$("$script" list "$tmp/subs" | tr '\n' ' ')
    [ "$list" = "a-right b-start c-broken " ] || fail "the students are '$list', not a-right b-start c-broken"
    [ "$("$script" count "$tmp/subs")" -eq 3 ] || fail "count is not 3"
}

test_every_task_grades_its_student() {
    run_tasks
    [ "$codes" = " 0 1 5" ] || fail "the tasks' exit codes are$codes, not 0 1 5"
    for s in a-right b-start c-broken; do
        [ -s "$tmp/results/$s.json" ] || fail "no result for $s"
    done
    [ "$(cat "$tmp/results/b-start.code")" = 1 ] || fail "b-start's code is not kept"
    grep -q '"status": "pass"' "$tmp/results/a-right.json" || fail "a-right did not pass"
    grep -q '"status": "error"' "$tmp/results/c-broken.json" || fail "c-broken has no placeholder"
    [ ! -e "$tmp/results/.git.json" ] || fail ".git was graded as a student"
}

test_merge_names_the_missing() {
    "$script" merge "$tmp/subs" "$tmp/results" >"$tmp/class.json" 2>"$tmp/merge.err" || fail "merge failed with every result there"
    python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert [s['student'] for s in d['students']] == ['a-right', 'b-start', 'c-broken'], d" \
        "$tmp/class.json" 2>/dev/null || fail "the merged class is not JSON with the three students"
    rm "$tmp/results/b-start.json"
    if "$script" merge "$tmp/subs" "$tmp/results" >/dev/null 2>"$tmp/merge.err"; then
        fail "merge passed with a result missing"
    fi
    grep -q "b-start" "$tmp/merge.err" || fail "merge did not name the missing student"
}

setup
cases_begin 3
run_case test_students_are_the_visible_folders
run_case test_every_task_grades_its_student
run_case test_merge_names_the_missing
cases_end
