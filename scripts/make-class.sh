#!/bin/sh
# make-class.sh - a class of workspaces for grading benchmarks (bench-grade-class.sh,
# grade-class-gpus.sh): STUDENTS folders student-000 ..., a third holding every exercise's
# solution, a third its starting file, a third a typical mistake; each file ends with its
# student's name in a comment, so that no two students share a build.
# Usage: scripts/make-class.sh DIR STUDENTS MISTAKE
#   MISTAKE  off-by-one: the solution's first " < " made " <= " (an off-by-one where that is code)
#            wrong: the exercise's own wrong versions (wrong/*.cu), in turn from student to student
set -u
dir=$1
students=$2
mistake=$3
data=$(cd "$(dirname "$0")/.." && pwd)
s=0
while [ "$s" -lt "$students" ]; do
    name=$(printf 'student-%03d' "$s")
    for sol in "$data"/exercises/*/*/solution.cu; do
        ex=$(dirname "$sol")
        lesson=$(basename "$(dirname "$ex")")
        mkdir -p "$dir/$name/$lesson" || exit 1
        out="$dir/$name/$lesson/$(basename "$ex").cu"
        case $((s % 3)) in
        0) cp "$sol" "$out" ;;
        1) cp "$ex/start.cu" "$out" ;;
        *) if [ "$mistake" = wrong ]; then
               set -- "$ex"/wrong/*.cu
               k=$(((s / 3) % $#))
               while [ "$k" -gt 0 ]; do shift; k=$((k - 1)); done
               cp "$1" "$out"
           else
               sed '0,/ < /s// <= /' "$sol" >"$out"
           fi ;;
        esac || exit 1
        printf '/* %s */\n' "$name" >>"$out"
    done
    s=$((s + 1))
done
