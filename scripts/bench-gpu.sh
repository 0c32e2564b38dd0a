#!/bin/sh
# bench-gpu.sh - what `make bench-gpu` runs: GPU benchmarks (docs/BENCHMARKS.md).
#
# Usage: scripts/bench-gpu.sh [BUILD]   (BUILD: the build folder, default build)
#
# Uses the prebuilt BUILD/cudachef and never rebuilds it (the GPU machine has no jansson or cmocka
# headers); builds BUILD/bench/bench_gpu and BUILD/bench/bare_vector_add with nvcc alone ($MAKE).
#   1. BUILD/bench/bench_gpu: vector add's bandwidth against a device-to-device copy; then
#      BUILD/bench/bench_matmul_gpu: every matmul rung against cuBLAS SGEMM (BENCH_MATMUL_SIZES);
#      then `cudachef bench`: the size sweep and the shipments through the program itself.
#   2. the kernel time cudachef reports against a bare CUDA program's, at n = 2^28: ROUNDS runs of
#      `cudachef run vector-add --n N --repeat R --format json` alternating with ROUNDS runs of
#      `bare_vector_add N R`; medians of their medians. Also cudachef's trace overhead.
# Without a usable GPU (cudachef info says the emulator would cook) prints one SKIP line, exits 0.
# A missed goal is reported, not failed; exit 1 if a program failed or a result was wrong.
# Environment: BENCH_N (default 268435456), BENCH_ROUNDS (5), BENCH_REPEAT (20),
# BENCH_MATMUL_SIZES (1024,2048,4096), MAKE, python3.
set -u
build=${1:-build}
bin="$build/cudachef"
n=${BENCH_N:-268435456}
rounds=${BENCH_ROUNDS:-5}
repeat=${BENCH_REPEAT:-20}
make=${MAKE:-make}

if [ ! -x "$bin" ]; then
    echo "bench-gpu: $bin is missing: build cudachef first (make)" >&2
    exit 2
fi

# --- 0. is there a GPU? ---------------------------------------------------------------------------
if ! info=$("$bin" info --format json 2>&1); then
    echo "bench-gpu: SKIP: no usable GPU ($bin info failed: $(printf '%s' "$info" | tail -n 1))"
    exit 0
fi
if command -v python3 >/dev/null 2>&1; then
    backend=$(printf '%s\n' "$info" | python3 -c 'import json,sys; print(json.load(sys.stdin).get("backend",""))' 2>/dev/null)
    reason=$(printf '%s\n' "$info" | python3 -c 'import json,sys; print(json.load(sys.stdin).get("no_gpu_reason") or "")' 2>/dev/null)
else
    backend=$(printf '%s\n' "$info" | sed -n 's/^ *"backend": *"\([a-z]*\)".*/\1/p')
    reason=$(printf '%s\n' "$info" | sed -n 's/^ *"no_gpu_reason": *"\(.*\)".*/\1/p')
fi
if [ "$backend" != gpu ]; then
    echo "bench-gpu: SKIP: no usable GPU (cudachef info: backend ${backend:-unknown}${reason:+; $reason})"
    exit 0
fi
if ! command -v python3 >/dev/null 2>&1; then
    echo "bench-gpu: python3 is needed to read cudachef's JSON reports" >&2
    exit 2
fi

# --- build the two nvcc programs (nothing else) ---------------------------------------------------
if ! $make -s --no-print-directory BUILD="$build" "$build/bench/bench_gpu" "$build/bench/bare_vector_add" \
        "$build/bench/bench_matmul_gpu"; then
    echo "bench-gpu: could not build $build/bench/bench_gpu, bench_matmul_gpu and bare_vector_add (is nvcc installed?)" >&2
    exit 2
fi

status=0

# --- 1. bandwidth against a device-to-device copy --------------------------------------------------
echo
"$build/bench/bench_gpu" "$n" || { echo "bench-gpu: bench_gpu failed (exit $?)" >&2; status=1; }

# --- 1b. the matmul ladder against cuBLAS SGEMM -----------------------------------------------------
echo
"$build/bench/bench_matmul_gpu" "${BENCH_MATMUL_SIZES:-1024,2048,4096}" || { echo "bench-gpu: bench_matmul_gpu failed (exit $?)" >&2; status=1; }

# --- 1c. the program's own sweep: the fair race over sizes and the shipments ------------------------
echo
"$bin" bench --backend gpu --quiet || { echo "bench-gpu: cudachef bench failed (exit $?)" >&2; status=1; }

# --- 2. cudachef's kernel time against a bare CUDA program's -------------------------------------
echo
echo "cudachef's kernel time vs a bare CUDA program's: vector_add, n = $n, 256 threads per block"
echo "  each run: 1 warm-up + $repeat timed launches, median; $rounds runs each, alternating"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-gpu.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
: >"$tmp/rows"
i=1
while [ "$i" -le "$rounds" ]; do
    # alternate which one goes first
    if [ $((i % 2)) -eq 1 ]; then order="chef bare"; else order="bare chef"; fi
    chef_ms="" bare_ms="" overhead=""
    for who in $order; do
        if [ "$who" = chef ]; then
            if ! "$bin" run vector-add --backend gpu --n "$n" --repeat "$repeat" --format json >"$tmp/run.json" 2>"$tmp/run.err"; then
                echo "bench-gpu: cudachef run failed:" >&2
                cat "$tmp/run.err" >&2
                exit 1
            fi
            if ! got=$(python3 -c 'import json,sys
c = json.load(open(sys.argv[1]))["steps"]["cook"]
o = c.get("trace_overhead")
print(c["ms"], "null" if o is None else o)' "$tmp/run.json"); then
                echo "bench-gpu: could not read steps.cook.ms and trace_overhead from cudachef's report" >&2
                exit 1
            fi
            # shellcheck disable=SC2086 # two words: ms and overhead
            set -- $got
            chef_ms=$1 overhead=$2
        else
            if ! out=$("$build/bench/bare_vector_add" "$n" "$repeat"); then
                echo "bench-gpu: bare_vector_add failed: $out" >&2
                exit 1
            fi
            bare_ms=$(printf '%s\n' "$out" | sed -n 's/^BARE kernel_ms=\([0-9.eE+-]*\).*/\1/p')
            [ -n "$bare_ms" ] || { echo "bench-gpu: unexpected output from bare_vector_add: $out" >&2; exit 1; }
        fi
    done
    echo "$i $chef_ms $bare_ms $overhead" >>"$tmp/rows"
    i=$((i + 1))
done

python3 - "$tmp/rows" <<'EOF' || status=1
import statistics, sys
rows = [line.split() for line in open(sys.argv[1]) if line.strip()]
chef = [float(r[1]) for r in rows]
bare = [float(r[2]) for r in rows]
over = [float(r[3]) for r in rows if r[3] != "null"]
print("  %-8s %12s %12s %16s" % ("run", "cudachef ms", "bare ms", "trace overhead"))
for r in rows:
    o = "n/a" if r[3] == "null" else "%+.1f%%" % (100 * float(r[3]))
    print("  %-8s %12.4f %12.4f %16s" % (r[0], float(r[1]), float(r[2]), o))
mc, mb = statistics.median(chef), statistics.median(bare)
mo = statistics.median(over) if over else None
print("  %-8s %12.4f %12.4f %16s" % ("median", mc, mb, "n/a" if mo is None else "%+.1f%%" % (100 * mo)))
ratio = mc / mb
ok = abs(ratio - 1) <= 0.05
print()
print("  %-52s %8s  %-12s" % ("figure", "ratio", "goal"))
print("  %-52s %8.3f  %-12s %s" % ("cudachef's kernel time / the bare program's", ratio, "0.95 - 1.05",
                                  "goal met" if ok else "GOAL MISSED"))
if mo is not None:
    ook = mo < 0.05
    print("  %-52s %8.3f  %-12s %s" % ("traced launch / plain launch (trace overhead)", 1 + mo, "< 1.05",
                                      "goal met" if ook else "GOAL MISSED"))
print()
print("BENCH name=gpu_cudachef_vs_bare_kernel_time ratio=%.3f goal=0.95..1.05 met=%s" % (ratio, "yes" if ok else "no"))
if mo is not None:
    print("BENCH name=gpu_trace_overhead ratio=%.3f goal=<1.05 met=%s" % (1 + mo, "yes" if ook else "no"))
else:
    print("BENCH name=gpu_trace_overhead ratio=nan goal=<1.05 met=no")
    print("  (cudachef reported no trace overhead: steps.cook.trace_overhead was null)")
print("%s: cudachef reports %.1f%% %s than the bare program (goal: within 5%%)" %
      ("goal met" if ok else "goal missed", abs(100 * (ratio - 1)), "more" if ratio >= 1 else "less"))
if mo is not None:
    print("%s: recording the trace costs %+.1f%% of a launch (goal: under 5%%)" %
          ("goal met" if ook else "goal missed", 100 * mo))
EOF
exit $status
