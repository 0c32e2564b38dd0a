#!/bin/sh
# check-exercises.sh - the authors' check of the exercises: every reference solution must pass
# and every starting file must fail, on the CPU emulator. Prints the TAP of both gradings and
# exits 1 when one of the two promises does not hold.
# Usage: scripts/check-exercises.sh [build/cudachef]
set -u
bin=${1:-build/cudachef}
status=0
echo "== reference solutions (each must pass)"
"$bin" grade --solutions --backend emu --format tap || status=1
echo "== starting files (each must fail)"
out=$("$bin" grade --starters --backend emu --format tap)
printf '%s\n' "$out"
if printf '%s\n' "$out" | grep -q '^ok '; then
    echo "check-exercises: a starting file passes: it gives the exercise away"
    status=1
fi
if [ "$status" -eq 0 ]; then
    echo "check-exercises: every solution passes, every starting file fails"
fi
exit $status
