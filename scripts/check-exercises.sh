#!/bin/sh
# check-exercises.sh - the authors' check of the exercises: every reference solution must pass,
# every starting file must fail, and every typical wrong version must fail with the diagnosis it
# names, on the CPU emulator. Prints the TAP of the three gradings and exits 1 when one of the
# promises does not hold.
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
echo "== typical wrong versions (each must fail with its diagnosis)"
"$bin" grade --wrong --backend emu --format tap || status=1
if [ "$status" -eq 0 ]; then
    echo "check-exercises: every solution passes, every starting file fails, every wrong version is diagnosed"
fi
exit $status
