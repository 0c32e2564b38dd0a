#!/bin/sh
# test-slurm.sh - scripts/grade-class.slurm on a real SLURM: starts munged, slurmctld and slurmd
# from Debian's packages (slurmctld, slurmd, slurm-client, munge), configured in a temporary folder
# on ports of their own, as a one-node cluster of this machine; grades a class of 8 workspaces
# (and a .git folder) through the job array on the emulator; checks that every student's result is
# there and right, that each task kept its grade's exit code, and that merge names a missing
# student; then stops the daemons. Prints cmocka's lines for scripts/run-tests.sh.
#
# Usage: scripts/test-slurm.sh [BUILD_DIR]   (make test-slurm; needs root for the daemons)
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/tests/cases.sh"
build=${1:-$here/build}
case $build in /*) ;; *) build=$here/$build ;; esac
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cudachef-slurm-XXXXXX") || exit 1
chmod 755 "$tmp"
export SLURM_CONF="$tmp/slurm.conf"
stop_daemons() {
    for pid in "$tmp/ctld.pid" "$tmp/d.pid" "$tmp/munge/pid"; do
        [ -s "$pid" ] && kill "$(cat "$pid")" 2>/dev/null
    done
    sleep 1
    rm -rf "$tmp"
}
trap stop_daemons EXIT

# The cluster: munge with a fresh key, one node (this machine), one partition.
start_cluster() {
    mkdir -p "$tmp/state" "$tmp/spool" "$tmp/munge" && chmod 700 "$tmp/munge"
    dd if=/dev/urandom of="$tmp/munge/key" bs=1024 count=1 2>/dev/null && chmod 600 "$tmp/munge/key"
    munged -f --key-file="$tmp/munge/key" --socket="$tmp/munge/sock" --pid-file="$tmp/munge/pid" \
        --log-file="$tmp/munge/log" --seed-file="$tmp/munge/seed" || return 1
    host=$(hostname -s)
    port=$((20000 + $$ % 20000))
    cat >"$SLURM_CONF" <<EOF
ClusterName=cudachef
SlurmctldHost=$host
AuthType=auth/munge
AuthInfo=socket=$tmp/munge/sock
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/ctld.pid
SlurmdPidFile=$tmp/d.pid
SlurmctldLogFile=$tmp/ctld.log
SlurmdLogFile=$tmp/d.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/linear
SchedulerType=sched/builtin
MpiDefault=none
ReturnToService=2
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=cudachef Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
    slurmctld -f "$SLURM_CONF" && slurmd -f "$SLURM_CONF" || return 1
    i=0
    while [ "$i" -lt 60 ]; do
        [ "$(sinfo -h -o %T 2>/dev/null)" = idle ] && return 0
        sleep 0.5
        i=$((i + 1))
    done
    return 1
}

# The class: 4 solutions, 2 starting files, 2 kernels that write zeros, and a .git folder.
make_class() {
    mkdir -p "$tmp/subs/.git/objects" "$tmp/bin" "$tmp/exercises/03-teams-and-cooks"
    ln -s "$build/cudachef" "$tmp/bin/cudachef"
    ex="$here/exercises/03-teams-and-cooks/bounds-check"
    cp -R "$ex" "$tmp/exercises/03-teams-and-cooks/" # the class's one exercise
    for s in 1 2 3 4 5 6 7 8; do
        d="$tmp/subs/student-$s/03-teams-and-cooks"
        mkdir -p "$d"
        case $s in
        1 | 2 | 3 | 4) cp "$ex/solution.cu" "$d/bounds-check.cu" ;;
        5 | 6) cp "$ex/start.cu" "$d/bounds-check.cu" ;;
        *) sed 's/c\[i\] = a\[i\] + b\[i\]/c[i] = 0/' "$ex/solution.cu" >"$d/bounds-check.cu" ;;
        esac
    done
}

no_cluster=""

test_the_array_grades_every_student() {
    [ -n "$no_cluster" ] && { skip "$no_cluster"; return; }
    n=$("$here/scripts/grade-class.slurm" count "$tmp/subs")
    [ "$n" -eq 8 ] || { fail "the class has $n students, not 8 (.git counted?)"; return; }
    PATH="$tmp/bin:$PATH" CUDACHEF_BACKEND=emu CUDACHEF_EXERCISES="$tmp/exercises" \
        sbatch --wait --quiet --gres=none --array=0-$((n - 1)) --output="$tmp/task-%a.log" \
        --export=ALL "$here/scripts/grade-class.slurm" "$tmp/subs" "$tmp/results" >"$tmp/sbatch.out" 2>&1
    # sbatch --wait fails when a task failed: the wrong kernels' tasks exit 1, as they should
    for s in 1 2 3 4 5 6 7 8; do
        f="$tmp/results/student-$s.json"
        [ -s "$f" ] || { fail "no result for student-$s ($(cat "$tmp/task-$((s - 1)).log" 2>/dev/null | tail -n 2))"; continue; }
        want=pass code=0
        [ "$s" -gt 4 ] && want=fail code=1
        grep -q "^  \"status\": \"$want\"" "$f" || fail "student-$s's grade is not $want: $(grep -m 3 "\"message\"\|\"status\"" "$f" | tr -s " " | tr "\n" " ")"
        [ "$(cat "$tmp/results/student-$s.code")" = "$code" ] || fail "student-$s's task code is not $code"
    done
    [ ! -e "$tmp/results/.git.json" ] || fail ".git was graded as a student"
}

test_merge_holds_the_class() {
    [ -n "$no_cluster" ] && { skip "$no_cluster"; return; }
    "$here/scripts/grade-class.slurm" merge "$tmp/subs" "$tmp/results" >"$tmp/class.json" || fail "merge failed"
    count=$(grep -o '"student": "student-[0-9]"' "$tmp/class.json" | wc -l)
    [ "$count" -eq 8 ] || fail "the merged class holds $count students"
    rm -f "$tmp/results/student-8.json"
    if "$here/scripts/grade-class.slurm" merge "$tmp/subs" "$tmp/results" >/dev/null 2>"$tmp/merge.err"; then
        fail "merge passed with student-8's result missing"
    fi
    grep -q student-8 "$tmp/merge.err" || fail "merge did not name student-8"
}

if [ "$(id -u)" -ne 0 ]; then
    no_cluster="the SLURM daemons need root (sudo make test-slurm)"
else
    for tool in munged slurmctld slurmd sbatch sinfo; do
        command -v "$tool" >/dev/null 2>&1 || { echo "test-slurm: $tool is missing (make test-slurm installs slurmctld slurmd slurm-client munge)" >&2; exit 1; }
    done
    if ! start_cluster; then
        echo "test-slurm: the cluster did not start:" >&2
        tail -n 5 "$tmp/ctld.log" "$tmp/d.log" "$tmp/munge/log" >&2 2>/dev/null
        exit 1
    fi
    make_class
fi
cases_begin 2
run_case test_the_array_grades_every_student
run_case test_merge_holds_the_class
cases_end
