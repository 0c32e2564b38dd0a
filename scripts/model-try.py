#!/usr/bin/env python3
"""model-try.py - the model against the GPU on kernels that are not recipes of the tree.

Each kernel of scripts/model-try/ is a learner's kind of kernel, named and shaped like a recipe's
(docs/TRY.md) but written differently from every kernel of kernels/: a vector add whose
neighbouring cooks take elements n/32 apart, a tiled multiply with padded tiles and two partial
sums, a sum with warp shuffles and one atomic per warp. For each at two or three sizes it runs
`cudachef try` on the GPU four times (the median of their medians, 20 launches in all) and once
on the emulator, whose report models the H200 from its counts, and prints one line per run: the
GPU's time, the model's, their ratio and what the model says bounds it.

Usage: scripts/model-try.py [BUILD]   (a GPU machine; run from the repository's root)
"""
import json
import statistics
import subprocess
import sys

CASES = [("transposed_add", [1 << 20, 1 << 24]), ("padded_tiled", [256, 1024, 2048]),
         ("shuffle_sum", [1 << 20, 1 << 24])]


def run(build, kernel, n, backend):
    """One `cudachef try` of the kernel, its JSON report (None, said on stderr, when none came)."""
    p = subprocess.run([f"{build}/cudachef", "try", f"scripts/model-try/{kernel}.cu", "--n", str(n), "--backend",
                        backend, "--format", "json", "--timeout", "400"], capture_output=True, text=True, timeout=450)
    if not p.stdout.strip():
        print(f"model-try: {kernel} at {n} on {backend}: exit {p.returncode}: {p.stderr.strip()[:300]}",
              file=sys.stderr)
        return None
    return json.loads(p.stdout)


def main():
    """Prints the table; exit 1 when a run gave no report."""
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    status = 0
    print("kernel\tn\tgpu_ms\tmodel_ms\tmodel/gpu\tbound")
    for kernel, sizes in CASES:
        for n in sizes:
            gpu = [run(build, kernel, n, "gpu") for _ in range(4)]
            emu = run(build, kernel, n, "emu")
            if None in gpu or not emu or not emu["steps"]["cook"]["model"]:
                status = 1
                continue
            g = statistics.median(d["steps"]["cook"]["ms"] for d in gpu)
            m = emu["steps"]["cook"]["model"]
            print(f"{kernel}\t{n}\t{g:.4f}\t{m['ms']:.4f}\t{m['ms'] / g:.2f}\t{m['bound']}", flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
