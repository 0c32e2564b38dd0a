#!/bin/sh
# grade-class-gpus.sh - a class graded over one GPU and over two, side by side (docs/GRADING.md):
# STUDENTS workspaces (a third the exercises' solutions, a third their starting files, a third a
# typical mistake: each exercise's wrong versions in turn), each file with its student's name in a
# comment. The build cache is warmed first by a run over both GPUs (not timed), then the class is
# graded with `--class -j JOBS` on the first GPU alone and on both, each twice in the order one,
# two, two, one, from the same warm cache (the faster of each pair counts). Checks that every student's result is the same both times and that both GPUs cooked
# (each student's `device` names its GPU by index and UUID), and prints the wall times and a BENCH
# line (ratio = one GPU's time over two GPUs'; goal at least 1.7).
#
# Usage: scripts/grade-class-gpus.sh [build/cudachef] [STUDENTS] [JOBS] [EXERCISE...]
#   GPUS     the two GPUs, as CUDA_VISIBLE_DEVICES entries (default 0,1)
#   BACKEND  gpu (default); emu with CUDACHEF_GPU_PROC for a dry run over a fake list of GPUs
# Exit: 0 the results agree and both GPUs cooked, 1 they do not, 2 a run could not be made.
set -u
bin=${1:-build/cudachef}
students=${2:-40}
jobs=${3:-8}
[ $# -ge 3 ] && shift 3 || shift $#
exercises="$*" # names without blanks: the class is graded on these only (all when none)
gpus=${GPUS:-0,1}
first=${gpus%%,*}
backend=${BACKEND:-gpu}
data=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cudachef-class-gpus-XXXXXX") || exit 2
# the folder goes at the end, unless KEEP is set or a run failed (its files are kept to be read)
trap '[ -n "${KEEP:-}" ] || [ -n "$(ls "$tmp"/*.failed 2>/dev/null)" ] || rm -rf "$tmp"' EXIT
export CUDACHEF_STATE_HOME="$tmp/state" CUDACHEF_CACHE_HOME="$tmp/cache"
command -v python3 >/dev/null 2>&1 || { echo "grade-class-gpus: python3 compares the results; install it" >&2; exit 2; }

"$data/scripts/make-class.sh" "$tmp/class" "$students" wrong || exit 2

now() { date +%s.%N; }
# grade OUT VISIBLE: the class over those GPUs; prints its wall time in seconds, or nothing (and
# writes OUT.failed) when it could not be graded.
grade() {
    t0=$(now)
    # shellcheck disable=SC2086 # exercises: one word each
    CUDA_VISIBLE_DEVICES=$2 "$bin" grade --class "$tmp/class" $exercises --backend "$backend" -j "$jobs" --format json \
        >"$tmp/$1.json" 2>"$tmp/$1.err"
    rc=$?
    t1=$(now)
    if [ "$rc" -gt 1 ] && [ "$rc" -ne 3 ] && [ "$rc" -ne 4 ] || ! [ -s "$tmp/$1.json" ]; then
        {
            echo "grade-class-gpus: the class over GPUs $2 ended with exit $rc:"
            head -n 5 "$tmp/$1.err"
            python3 -c 'import json, sys
for s in json.load(open(sys.argv[1])).get("students", []):
    for t in s.get("tests", []):
        if t.get("status") == "error":
            print("  %s %s: %s" % (s["student"], t.get("name"), t.get("message")))' "$tmp/$1.json" 2>/dev/null | head -n 8
        } >&2
        touch "$tmp/$1.failed"
        echo "grade-class-gpus: its JSON and messages are kept in $tmp" >&2
        return
    fi
    echo "$t0 $t1" | awk '{ printf "%.2f", $2 - $1 }'
}

echo "== a class of $students workspaces graded on ${exercises:-every exercise}, -j $jobs, backend $backend"
echo "== warming the build cache (over GPUs $gpus, not timed)"
grade warm "$gpus" >/dev/null
[ -e "$tmp/warm.failed" ] && exit 2
# each twice, in the order one, two, two, one (a drift between runs falls on both), the faster of each
one_a=$(grade one "$first")
two_a=$(grade two "$gpus")
two_b=$(grade two "$gpus")
one_b=$(grade one "$first")
[ -e "$tmp/one.failed" ] || [ -e "$tmp/two.failed" ] && exit 2
one=$(echo "$one_a $one_b" | awk '{ print ($1 < $2) ? $1 : $2 }')
two=$(echo "$two_a $two_b" | awk '{ print ($1 < $2) ? $1 : $2 }')
echo "one GPU ($first): $one_a s, $one_b s"
echo "two GPUs ($gpus): $two_a s, $two_b s"
python3 - "$tmp/one.json" "$tmp/two.json" "$one" "$two" <<'EOF'
import json, sys

def results(path):
    doc = json.load(open(path))
    out, devices = {}, {}
    for s in doc["students"]:
        out[s["student"]] = [(t.get("name"), t.get("status"), t.get("score"), t.get("diagnosis"))
                             for t in s.get("tests", [])]
        d = s.get("device") or {}
        devices[s["student"]] = (d.get("index"), d.get("uuid"))
    return out, devices

one, one_dev = results(sys.argv[1])
two, two_dev = results(sys.argv[2])
differ = [name for name in one if one[name] != two.get(name)]
used = sorted(set(two_dev.values()), key=str)
print("GPUs that cooked in the two-GPU run: %s" % ", ".join("%s %s" % u for u in used))
for gpu in used:
    print("  %s: %d students" % (gpu[0], sum(1 for d in two_dev.values() if d == gpu)))
print("students whose results differ: %d of %d" % (len(differ), len(one)))
for name in differ[:5]:
    print("  %s: one GPU %s, two GPUs %s" % (name, one[name], two.get(name)))
ratio = float(sys.argv[3]) / float(sys.argv[4])
print("BENCH name=grade_class_two_gpus_speedup ratio=%.2f goal=>=1.7 met=%s" % (ratio, "yes" if ratio >= 1.7 else "no"))
sys.exit(1 if differ or len(used) < 2 else 0)
EOF
