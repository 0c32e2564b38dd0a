#!/usr/bin/env python3
"""model-calibrate.py - what `make model-check` runs: the model's time beside the GPU's, per recipe.

Usage: scripts/model-calibrate.py [BUILD] [--out FILE] [--workers W] [--sizes lesson|large|all]
       scripts/model-calibrate.py [BUILD] --recount TSV [--out FILE]

On a machine with an NVIDIA GPU, every recipe of our own kernels runs at its lesson size (its
default n) and at a size where the GPU takes 100 us or more: on the GPU (cudachef's CUDA-event
median of 21 launches after a warm-up) and on the CPU emulator (its counted launch and the model
of the GPU found, docs/PERFORMANCE.md, "The model"). It prints one line per run as TSV (recipe, n,
GPU ms, modeled ms, bound, and the emulator's counters as JSON) and then the goals: pairs of
recipes of one size whose GPU times differ by 1.3x or more ranked the same way by the model, and
the share of runs modeled within 2x. --out also writes the TSV (tests/data/ keeps the H200's).
Without a GPU it prints SKIP and exits 0. Uses the prebuilt BUILD/cudachef and never compiles.
--recount takes the GPU times of a TSV written before (tests/data/h200-calibration.tsv) and runs
only the emulator again, so a changed device file or counter is checked without a GPU.
"""
import json
import os
import subprocess
import sys

LARGE = {"vector": 1 << 25, "sum": 1 << 24, "matmul": 1024}
SKIP = {"vector-add-unguarded", "matmul-library", "matmul-library-tf32"}


def run_json(cmd):
    """Runs a cudachef command with --format json: its document, or None."""
    p = subprocess.run(cmd + ["--format", "json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        return json.loads(p.stdout)
    except ValueError:
        sys.stderr.write("model-calibrate: %s: %s\n" % (" ".join(cmd), p.stderr.strip()[-300:]))
        return None


def sizes_of(recipe, which):
    """The sizes a recipe runs at."""
    name = recipe["name"]
    large = LARGE["matmul" if name.startswith("matmul") else "sum" if name.startswith("sum") else "vector"]
    out = []
    if which in ("lesson", "all"):
        out.append(recipe["default_n"])
    if which in ("large", "all"):
        out += [large] + ([2048] if name.startswith("matmul") else [])
    return out


def goals(rows):
    """(pairs ranked the same, pairs, runs within 2x, runs) over rows (recipe, n, gpu, model)."""
    same = pairs = within = 0
    for i, a in enumerate(rows):
        within += 0.5 <= a[3] / a[2] <= 2
        for b in rows[i + 1:]:
            if a[1] != b[1]:
                continue
            hi, lo = max(a[2], b[2]), min(a[2], b[2])
            if hi / lo < 1.3:
                continue
            pairs += 1
            same += (a[2] < b[2]) == (a[3] < b[3])
    return same, pairs, within, len(rows)


def main():
    args = sys.argv[1:]
    build, out_path, workers, which, recount = "build", None, None, "all", None
    while args:
        a = args.pop(0)
        if a == "--out":
            out_path = args.pop(0)
        elif a == "--workers":
            workers = args.pop(0)
        elif a == "--recount":
            recount = args.pop(0)
        elif a == "--sizes":
            which = args.pop(0)
        else:
            build = a
    binary = os.path.join(build, "cudachef")
    measured = {}
    if recount:
        with open(recount) as f:
            for line in f:
                if line.startswith("#") or not line.strip():
                    continue
                cells = line.split("\t")
                measured[(cells[0], int(cells[1]))] = float(cells[2])
    info = run_json([binary, "info"]) or {}
    if not recount and info.get("backend") != "gpu":
        print("model-calibrate: SKIP: no usable GPU (cudachef info says the emulator would cook)")
        return 0
    recipes = [r for r in run_json([binary, "list"])["items"] if r["kind"] == "recipe" and r["name"] not in SKIP]
    lines, rows = ["# recipe\tn\tgpu_ms\tmodel_ms\tbound\tcounters"], []
    for r in recipes:
        for n in sizes_of(r, which):
            if recount:
                if (r["name"], n) not in measured:
                    continue
                gpu = {"steps": {"cook": {"ms": measured[(r["name"], n)]}}}
            else:
                gpu = run_json([binary, "run", r["name"], "--n", str(n), "--backend", "gpu", "--repeat", "21"])
            emu_cmd = [binary, "run", r["name"], "--n", str(n), "--backend", "emu", "--repeat", "1"]
            if workers:
                emu_cmd += ["--workers", workers]
            emu = run_json(emu_cmd)
            if not gpu or not emu:
                continue
            cook = emu["steps"]["cook"]
            model = cook.get("model")
            if not model:
                continue
            g = gpu["steps"]["cook"]["ms"]
            counted = {"counters": cook["counters"], "counting": cook["counting"], "teams": cook["teams"],
                       "cooks_per_team": cook["cooks_per_team"],
                       "shared_bytes_per_team": cook["counting"].get("shared_bytes_per_team", 0)}
            lines.append("%s\t%d\t%.6f\t%.6f\t%s\t%s" % (r["name"], n, g, model["ms"], model["bound"],
                                                       json.dumps(counted, separators=(",", ":"))))
            rows.append((r["name"], n, g, model["ms"]))
            sys.stderr.write("%s n=%d: GPU %.4f ms, modeled %.4f ms (%s)\n" % (r["name"], n, g, model["ms"], model["bound"]))
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    if out_path:
        with open(out_path, "w") as f:
            f.write(text)
    same, pairs, within, total = goals(rows)
    print("ranked as the GPU ranks them: %d of %d pairs (of one size, 1.3x or more apart)" % (same, pairs))
    print("modeled within 2x: %d of %d runs" % (within, total))
    return 0


if __name__ == "__main__":
    sys.exit(main())
