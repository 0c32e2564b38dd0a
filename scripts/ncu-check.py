#!/usr/bin/env python3
"""ncu-check.py - what `make ncu-check` runs: the emulator's counters beside Nsight Compute's.

Usage: scripts/ncu-check.py [BUILD] [--out FILE] [--recipes a,b,...]
       scripts/ncu-check.py [BUILD] --sass DUMP   (the widths table alone, from a saved cuobjdump -sass)

On a machine with an NVIDIA GPU and Nsight Compute (NCU, default /usr/local/cuda/bin/ncu; run as
root or with access to the GPU's counters), every recipe runs once at a small size on the CPU
emulator (its counters, docs/EMULATOR.md) and once on the GPU under ncu (the same launch, the
plain kernel's warm-up: --launch-skip 1 --launch-count 1, with --clock-control none), and one
table puts each counter beside the hardware's, with the ratio. A second table gives each kernel's
global and shared loads and stores by width, read from `cuobjdump -sass` (CUOBJDUMP), so that a
difference is explained (nvcc merging four float loads into one LDS.128, say), never tuned away.

Goal (docs/PERFORMANCE.md): global load and store requests and sectors equal within 1% for every
recipe whose addresses do not depend on the data. The script reports the goal; it fails (exit 1)
only when a program fails. Without a GPU or ncu it prints one SKIP line and exits 0. Uses the
prebuilt BUILD/cudachef and never compiles.
"""
import csv
import io
import json
import os
import re
import subprocess
import sys

NCU = os.environ.get("NCU", "/usr/local/cuda/bin/ncu")
CUOBJDUMP = os.environ.get("CUOBJDUMP", "/usr/local/cuda/bin/cuobjdump")

# emulator counter -> the ncu metrics whose sum (with weights) is the same quantity
PAIRS = [
    ("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", [("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", 1)]),
    ("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", [("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 1)]),
    ("l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", [("l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", 1)]),
    ("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", [("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", 1)]),
    ("cudachef__t_requests_mem_global_op_atomic.sum", [("l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum", 1),
                                                        ("l1tex__t_requests_pipe_lsu_mem_global_op_red.sum", 1)]),
    ("smsp__sass_inst_executed_op_shared_ld.sum", [("smsp__sass_inst_executed_op_shared_ld.sum", 1)]),
    ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", [("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", 1)]),
    ("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", [("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", 1)]),
    ("smsp__sass_inst_executed_op_shared_st.sum", [("smsp__sass_inst_executed_op_shared_st.sum", 1)]),
    ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", [("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", 1)]),
    ("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", [("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", 1)]),
    ("cudachef__thread_fp32_flops.sum", [("smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", 1),
                                         ("smsp__sass_thread_inst_executed_op_fmul_pred_on.sum", 1),
                                         ("smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", 2)]),
    ("cudachef__global_sectors_distinct.sum", [("dram__sectors_read.sum", 1), ("dram__sectors_write.sum", 1)]),
    ("cudachef__warp_memory_instructions_divergent.sum", [("smsp__sass_branch_targets_threads_divergent.sum", 1)]),
]
GOAL = {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
        "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"}
SKIP = {"vector-add-unguarded"}  # reads past its buffers: the emulator stops it


def run(cmd, **kw):
    """Runs cmd, returns (exit code, stdout, stderr)."""
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)
    return p.returncode, p.stdout, p.stderr


def small_n(recipe):
    """The size every recipe is checked at: small, but many teams."""
    return 256 if recipe["name"].startswith("matmul") else 100000


def ncu_metrics():
    """The ncu metric names this GPU knows (base names, without .sum)."""
    code, out, err = run([NCU, "--query-metrics", "--csv"])
    if code != 0:
        return None
    return {row[0] for row in csv.reader(io.StringIO(out)) if row}


def ncu_values(binary, recipe, n, metrics):
    """Runs the recipe's plain kernel once on the GPU under ncu: {metric: value}."""
    cmd = [NCU, "--clock-control", "none", "--launch-skip", "1", "--launch-count", "1", "--csv", "--page", "raw",
           "--metrics", ",".join(metrics), binary, "run", recipe, "--n", str(n), "--backend", "gpu", "--repeat", "1"]
    code, out, err = run(cmd)
    rows = [r for r in csv.reader(io.StringIO(out)) if r]
    head = next((i for i, r in enumerate(rows) if "ID" in r and metrics[0] in r), None)
    if head is None or head + 2 > len(rows):
        sys.stderr.write("ncu-check: no ncu figures for %s: %s\n" % (recipe, (err or out).strip()[-400:]))
        return None
    names, values = rows[head], rows[-1]
    got = {}
    for name, value in zip(names, values):
        if name in metrics:
            try:
                got[name] = float(value.replace(",", ""))
            except ValueError:
                pass
    return got


def emu_values(binary, recipe, n):
    """The emulator's counters for the same launch."""
    code, out, err = run([binary, "run", recipe, "--n", str(n), "--backend", "emu", "--repeat", "1", "--format", "json"])
    try:
        return json.loads(out)["steps"]["cook"]["counters"] or {}
    except (ValueError, KeyError, TypeError):
        sys.stderr.write("ncu-check: no emulator figures for %s: %s\n" % (recipe, err.strip()[-300:]))
        return None


def sass_widths(binary, dump=None):
    """{function name: {"LDG": {width: count}, ...}} from cuobjdump -sass (or a saved dump)."""
    if dump:
        with open(dump) as f:
            out = f.read()
    else:
        code, out, err = run([CUOBJDUMP, "-sass", binary])
    kernels, current, arch = {}, None, ""
    for line in out.splitlines():
        m = re.search(r"code for (sm_\d+)", line)
        if m:
            arch = m.group(1)
            continue
        m = re.search(r"Function : (\S+)", line)
        if m:  # the Hopper code only (the binary holds several GPU targets)
            current = kernels.setdefault(m.group(1), {}) if arch in ("", "sm_90") else None
            continue
        m = re.search(r"\b(LDG|STG|LDS|STS|ATOMG|ATOMS|ATOM|REDG|RED)(\.[A-Z0-9_.]+)?\s", line)
        if current is not None and m:
            suffix = m.group(2) or ""
            width = next((w for w in ("128", "64", "U8", "S8", "U16", "S16") if "." + w in suffix + "."), "32")
            current.setdefault(m.group(1), {}).setdefault(width, 0)
            current[m.group(1)][width] += 1
    return kernels


def sass_for(kernels, name):
    """The plain build's SASS entry for kernel name (mangled or not; not the traced copy)."""
    for fn, widths in kernels.items():
        if fn == name or re.fullmatch(r"_Z(N10chef_plain)?%d%sE?\w*" % (len(name), re.escape(name)), fn):
            return widths
    return None


def widths_table(recipes, kernels):
    """The markdown table of each recipe kernel's loads and stores by width."""
    lines = ["| kernel | global loads | global stores | shared loads | shared stores | atomics |",
             "| --- | --- | --- | --- | --- | --- |"]
    for r in recipes:
        w = sass_for(kernels, r["kernel"])
        if w is None:
            continue

        def cell(*ops):
            parts = ["%s.%s x%d" % (op, width, count) for op in ops for width, count in sorted(w.get(op, {}).items())]
            return ", ".join(parts) or "-"
        lines.append("| %s | %s | %s | %s | %s | %s |" % (r["kernel"], cell("LDG"), cell("STG"), cell("LDS"),
                                                        cell("STS"), cell("ATOMG", "ATOM", "REDG", "RED", "ATOMS")))
    return lines


def main():
    args = sys.argv[1:]
    build, out_path, only, sass_dump = "build", None, None, None
    while args:
        a = args.pop(0)
        if a == "--out":
            out_path = args.pop(0)
        elif a == "--sass":
            sass_dump = args.pop(0)
        elif a == "--recipes":
            only = set(args.pop(0).split(","))
        else:
            build = a
    binary = os.path.join(build, "cudachef")
    if not os.access(binary, os.X_OK):
        sys.stderr.write("ncu-check: %s is missing: build cudachef first (make)\n" % binary)
        return 2
    if sass_dump:  # only the widths table, from a saved `cuobjdump -sass` (no GPU needed)
        recipes = [r for r in json.loads(run([binary, "list", "--format", "json"])[1])["items"] if r["kind"] == "recipe"]
        sys.stdout.write("\n".join(widths_table(recipes, sass_widths(binary, sass_dump))) + "\n")
        return 0
    code, out, err = run([binary, "info", "--format", "json"])
    if code != 0 or json.loads(out or "{}").get("backend") != "gpu":
        print("ncu-check: SKIP: no usable GPU (cudachef info says the emulator would cook)")
        return 0
    if not os.access(NCU, os.X_OK):
        print("ncu-check: SKIP: no Nsight Compute at %s (set NCU)" % NCU)
        return 0
    known = ncu_metrics()
    wanted = sorted({m for _, parts in PAIRS for m, _ in parts})
    metrics = [m for m in wanted if known is None or m.rsplit(".", 1)[0] in known]
    dropped = sorted(set(wanted) - set(metrics))
    recipes = [r for r in json.loads(run([binary, "list", "--format", "json"])[1])["items"]
               if r["kind"] == "recipe" and "library" not in r["name"] and r["name"] not in SKIP
               and (only is None or r["name"] in only)]
    lines = ["| recipe | n | counter | emulator | Nsight Compute | ratio |", "| --- | --- | --- | --- | --- | --- |"]
    goal_ok, goal_all, failed = 0, 0, 0
    for r in recipes:
        n = small_n(r)
        emu = emu_values(binary, r["name"], n)
        hw = ncu_values(binary, r["name"], n, metrics)
        if emu is None or hw is None:
            failed += 1
            continue
        for key, parts in PAIRS:
            if not all(m in hw for m, _ in parts):
                continue
            h = sum(hw[m] * w for m, w in parts)
            e = emu.get(key)
            if e is None or (h == 0 and e == 0):
                continue
            ratio = e / h if h else float("inf")
            mark = ""
            if key in GOAL:
                goal_all += 1
                ok = abs(ratio - 1) <= 0.01
                goal_ok += ok
                mark = " ok" if ok else " **differs**"
            lines.append("| %s | %d | `%s` | %.0f | %.0f | %.3f%s |" % (r["name"], n, key, e, h, ratio, mark))
    lines += [""] + widths_table(recipes, sass_widths(binary))
    lines.append("")
    lines.append("global requests and sectors within 1%%: %d of %d" % (goal_ok, goal_all))
    if dropped:
        lines.append("metrics this ncu does not know (left out): %s" % ", ".join(dropped))
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    if out_path:
        with open(out_path, "w") as f:
            f.write(text)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
