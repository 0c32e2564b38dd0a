#!/bin/sh
# screenshots.sh - makes the pictures of docs/screenshots/ from the running program (make screenshots).
#
#   scripts/screenshots.sh BUILD
#
# Each picture is the program on the CPU emulator (CUDA_VISIBLE_DEVICES=-1, so it is the same on
# every machine), driven by BUILD/screenshot through its keys and captured from the terminal as
# libvterm holds it; nothing is drawn by hand. A state folder of its own keeps the learner's
# progress out of the pictures.
set -eu
build=${1:-build}
bin=$build/cudachef
shot=$build/screenshot
out=docs/screenshots
state=$(mktemp -d)
trap 'rm -rf "$state"' EXIT
export CUDACHEF_STATE_HOME="$state" CUDA_VISIBLE_DEVICES=-1
mkdir -p "$out"

# the floor plan of 11,719 teams, the modeled H200's 132 stations filling in waves
"$shot" "$out/floor.svg" 120 40 "$bin" try exercises/03-teams-and-cooks/bounds-check/solution.cu --kitchen \
    --n 3000000 <<'STEPS'
wait your vector_add
keys ll
wait teams: 11719
keys f
wait Floor plan
keys m
wait MODELED
sleep 1800
keys \s
STEPS

# a team's warps: the kernel without its bounds check, stopped by the cook that reached outside
"$shot" "$out/warps.svg" 100 30 "$bin" --classroom <<'STEPS'
wait Teams and cooks
keys jj\r
wait Which demo?
keys 2
wait Without the bounds check
keys \s\s
wait Step 3, cook
keys z
wait reached outside
keys jjjjjjjllllllll
wait Cook 232
STEPS

# memory: the naive matrix multiply's warp reading a column, one line per cook
"$shot" "$out/memory.svg" 100 30 "$bin" try kernels/matmul_naive.cu --recipe matmul-naive --n 64 --kitchen <<'STEPS'
wait your matmul_naive
keys ll
wait Grid
keys a
wait Memory: matmul-naive
STEPS

# the step-through: lesson 6's tiled kernel without the barrier after filling the locker races
"$shot" "$out/steps.svg" 100 30 "$bin" --classroom 6 <<'STEPS'
wait Step 1, prepare
keys \s\s
wait Step 3, cook
keys s
wait Race: cook 0
STEPS

# the glossary, in Korean
"$shot" "$out/glossary.svg" 100 30 "$bin" --lang ko <<'STEPS'
wait 주방과 인사하기
keys w
wait 총괄 셰프
STEPS
echo "screenshots: $(ls "$out"/*.svg | wc -l) pictures in $out"
