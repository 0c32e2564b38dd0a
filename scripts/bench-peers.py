#!/usr/bin/python3
"""bench-peers.py - what `make bench-peers` runs: cudachef's CPU emulator against two peers.

Usage: /usr/bin/python3 scripts/bench-peers.py [--build BUILD] [--only cudasim|pocl] [--quick]
(--quick: only the first size of each peer, to see that everything runs; about 20 s)

Each peer runs the same kernels as cudachef (kernels/matmul_tiled.cu, kernels/vector_add.cu) at
the same sizes and launch shapes, in the same run as cudachef's emulator, taking turns with it
(docs/BENCHMARKS.md, "Peers"):

  A. Numba's CUDA simulator (bench/peer_cudasim.py, NUMBA_ENABLE_CUDASIM=1): the tiled matmul at
     n = 32, 64, 128 and vector add at n = 10^4, 10^5. A simulator launch takes seconds to a minute,
     so each size is one process (one warm-up, then 3 timed launches, 1 at matmul 128), with
     EMU_RUNS_EACH_SIDE emulator runs of each setting just before it and as many just after.
     Goals (cudachef's default settings): the emulator at least 10,000x faster on the tiled
     matmul, at least 50,000x on vector add.
  B. POCL, OpenCL on the CPU (build/bench/peer_pocl, bench/peer_pocl.c): the tiled matmul at
     n = 64, 128, 256, 512 and vector add at n = 10^6. Rounds are cheap: POCL_ROUNDS rounds, in
     each the three contestants (POCL, the emulator on its default workers, on 1 worker) in an
     order that rotates every round. Goal: the emulator within 2x of POCL on the tiled matmul at
     n = 256 (emulator time / POCL time at most 2).

The emulator's time is `BUILD/cudachef run RECIPE --n N --backend emu --format json --repeat 7`
(and the same with --workers 1): steps.cook.ms, the median of 7 timed launches of the plain build
after the warm-up. A peer's time is the median of its timed launches. Every figure is the median of
a contestant's runs in this run, and every ratio a ratio of two such medians. Every run's result is
checked (the peers against NumPy or a CPU loop, cudachef by its own taste step).

Prints one table per peer, BENCH lines (docs/BENCHMARKS.md), "goal missed:" lines, and the load
average at the start, after each peer and at the end (the benchmark's own processes count in it).
A missed goal is reported, not failed. Exit codes: 0 every contestant ran and every result was
right; 1 a result was wrong; 2 a contestant could not run (a peer not installed, a program that
failed; the line says which) and no result was wrong.
"""
import datetime
import json
import os
import re
import shlex
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

EMU_REPEAT = 7          # cudachef's timed launches per run (--repeat)
EMU_RUNS_EACH_SIDE = 3  # peer A: emulator runs of each setting before, and again after, a simulator run
POCL_REPS = 7           # peer B: POCL's timed launches per run
POCL_ROUNDS = 5         # peer B: rounds per size
TIMEOUT_S = 900         # one program run; past it the contestant counts as unable to run

# Peer A: (recipe, n, timed launches of the simulator, goal: simulator time / emulator time at least)
CUDASIM_WORK = [
    ("matmul-tiled", 32, 3, 10000),
    ("matmul-tiled", 64, 3, 10000),
    ("matmul-tiled", 128, 1, 10000),
    ("vector-add", 10000, 3, 50000),
    ("vector-add", 100000, 3, 50000),
]
# Peer B: (recipe, n, goal: emulator time / POCL time at most, or None for information)
POCL_WORK = [
    ("matmul-tiled", 64, None),
    ("matmul-tiled", 128, None),
    ("matmul-tiled", 256, 2.0),
    ("matmul-tiled", 512, None),
    ("vector-add", 1000000, None),
]


class CannotRun(Exception):
    """A contestant could not run: the message says which and why, on one line."""


class WrongResult(Exception):
    """A contestant's result was wrong: the message says which."""


# The 1-, 5- and 15-minute load averages, as /proc/loadavg gives them.
def load_average():
    try:
        with open("/proc/loadavg", encoding="ascii") as f:
            return " ".join(f.read().split()[:3])
    except OSError as err:
        return f"unknown ({err.strerror})"


# The processor's model name, from /proc/cpuinfo.
def cpu_model():
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown processor"


# One line of progress on standard error (the tables go to standard output).
def progress(text):
    print(f"bench-peers: {text}", file=sys.stderr, flush=True)


# Runs argv; returns (exit code, stdout, stderr), or raises CannotRun when it cannot start or hangs.
def run_program(argv, env=None, label=None):
    label = label or shlex.join(argv)
    try:
        done = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=TIMEOUT_S, check=False)
    except FileNotFoundError:
        raise CannotRun(f"{label}: {argv[0]} not found") from None
    except PermissionError:
        raise CannotRun(f"{label}: {argv[0]} is not executable") from None
    except subprocess.TimeoutExpired:
        raise CannotRun(f"{label}: still running after {TIMEOUT_S} s, stopped") from None
    return done.returncode, done.stdout, done.stderr


# The last non-empty line of a program's standard error (what it said when it failed).
def last_line(text):
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else "(nothing on standard error)"


# The key=value fields of the first line of text starting with tag (values may be "quoted").
def fields_of(text, tag):
    for line in text.splitlines():
        if line.startswith(tag + " "):
            return {k: v.strip('"') for k, v in re.findall(r'(\w+)=("[^"]*"|\S+)', line)}
    return None


# One `cudachef run` on the emulator: (cook ms, the workers it reports).
def emulator_run(build, recipe, n, workers):
    argv = [os.path.join(build, "cudachef"), "run", recipe, "--n", str(n), "--backend", "emu",
            "--format", "json", "--repeat", str(EMU_REPEAT)]
    if workers:
        argv += ["--workers", str(workers)]
    label = "cudachef " + " ".join(argv[1:])
    rc, out, err = run_program(argv, label=label)
    try:
        report = json.loads(out)
    except json.JSONDecodeError:
        raise CannotRun(f"{label}: exit {rc}, no JSON report: {last_line(err)}") from None
    taste = report.get("steps", {}).get("taste") or {}
    if rc == 1 or taste.get("passed") is False:
        raise WrongResult(f"{label}: the taste failed "
                          f"({taste.get('correct')} of {taste.get('checked')} correct)")
    if rc != 0:
        raise CannotRun(f"{label}: exit {rc}: {last_line(err)}")
    try:
        cook_ms = float(report["steps"]["cook"]["ms"])
        got_workers = int(report["backend"]["workers"])
    except (KeyError, TypeError, ValueError):
        raise CannotRun(f"{label}: the report has no steps.cook.ms or backend.workers") from None
    if report["backend"].get("kind") != "emu":
        raise CannotRun(f"{label}: cooked on {report['backend'].get('kind')}, not the emulator")
    if workers and got_workers != workers:
        raise CannotRun(f"{label}: asked for {workers} worker(s), the report says {got_workers}")
    return cook_ms, got_workers


# One peer program run: its PEER line's fields (and DEVICE line's, for POCL).
def peer_run(argv, env, label):
    rc, out, err = run_program(argv, env=env, label=label)
    if rc == 1:
        raise WrongResult(f"{label}: {last_line(err)}")
    if rc != 0:
        raise CannotRun(f"{label}: exit {rc}: {last_line(err)}")
    peer = fields_of(out, "PEER")
    if not peer or peer.get("check") != "passed" or "ms" not in peer:
        raise CannotRun(f"{label}: printed no PEER line with check=passed")
    return peer, fields_of(out, "DEVICE")


# A time in ms, four significant figures at most, as a table cell.
def ms_text(ms):
    if ms >= 1000:
        return f"{ms / 1000:,.2f} s"
    return f"{ms:.4g} ms"


# A ratio as a table cell: thousands separated when large.
def ratio_text(r):
    return f"{r:,.0f}x" if r >= 100 else f"{r:.2f}x"


# Prints a table: header, rule, rows (lists of cells), each column as wide as its widest cell.
def print_table(header, rows):
    widths = [max(len(str(row[i])) for row in [header] + rows) for i in range(len(header))]
    for row in [header, ["-" * w for w in widths]] + rows:
        print("  " + "  ".join(str(c).ljust(w) for c, w in zip(row, widths)).rstrip())


# The emulator's two settings: its default workers (None) and one worker, in a round's order.
def emulator_settings(round_index):
    settings = [None, 1]
    return settings[round_index % 2:] + settings[:round_index % 2]


# Peer A: Numba's CUDA simulator. Returns (header, rows, BENCH lines, goal-missed lines, versions).
def bench_cudasim(build, python):
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1")
    script = os.path.join(ROOT, "bench", "peer_cudasim.py")
    rows, bench, missed = [], [], []
    versions = None
    default_workers = None
    for recipe, n, reps, goal in CUDASIM_WORK:
        progress(f"Numba's CUDA simulator: {recipe} n = {n} (1 warm-up + {reps} timed launch(es)), "
                 f"with cudachef's emulator {EMU_RUNS_EACH_SIDE} times each side")
        emu = {None: [], 1: []}
        for r in range(EMU_RUNS_EACH_SIDE):
            for w in emulator_settings(r):
                ms, got = emulator_run(build, recipe, n, w)
                emu[w].append(ms)
                default_workers = got if w is None else default_workers
        label = f"peer_cudasim.py {recipe} {n} {reps}"
        peer, _ = peer_run([python, script, recipe, str(n), str(reps)], env, label)
        for r in range(EMU_RUNS_EACH_SIDE):
            for w in emulator_settings(r + 1):
                ms, _ = emulator_run(build, recipe, n, w)
                emu[w].append(ms)
        versions = f"Numba {peer.get('numba', '?')}, NumPy {peer.get('numpy', '?')}"
        sim = float(peer["ms"])
        emu_d, emu_1 = statistics.median(emu[None]), statistics.median(emu[1])
        ratio_d, ratio_1 = sim / emu_d, sim / emu_1
        met = ratio_d >= goal
        rows.append([f"{recipe} {n}", ms_text(sim) + f" ({reps})", ms_text(emu_d), ms_text(emu_1),
                     ratio_text(ratio_d), ratio_text(ratio_1), f">= {goal:,}x",
                     "goal met" if met else "GOAL MISSED"])
        key = recipe.replace("-", "_")
        bench.append(f"BENCH name=cudasim_{key}_{n}_vs_emu ratio={ratio_d:.1f} goal=>={goal} "
                     f"met={'yes' if met else 'no'}")
        bench.append(f"BENCH name=cudasim_{key}_{n}_vs_emu_1w ratio={ratio_1:.1f} goal=none met=n/a")
        if not met:
            missed.append(f"goal missed: {recipe} n = {n}: the emulator ({default_workers} workers) is "
                          f"{ratio_text(ratio_d)} faster than Numba's CUDA simulator "
                          f"(goal: at least {goal:,}x)")
    header = ["workload", "simulator (timed launches)", f"emulator {default_workers}w (default)",
              "emulator 1w", "sim/emu", "sim/emu 1w", "goal", ""]
    return header, rows, bench, missed, versions


# Peer B: POCL. Returns (header, rows, BENCH lines, goal-missed lines, the device line).
def bench_pocl(build):
    program = os.path.join(build, "bench", "peer_pocl")
    rows, bench, missed = [], [], []
    device = None
    default_workers = None
    for recipe, n, goal in POCL_WORK:
        progress(f"POCL: {recipe} n = {n}, {POCL_ROUNDS} rounds with cudachef's emulator")
        times = {"pocl": [], None: [], 1: []}
        for r in range(POCL_ROUNDS):
            order = ["pocl", None, 1]
            order = order[r % 3:] + order[:r % 3]
            for who in order:
                if who == "pocl":
                    label = f"peer_pocl {recipe} {n} {POCL_REPS}"
                    peer, dev = peer_run([program, recipe, str(n), str(POCL_REPS)], None, label)
                    if dev:
                        this = (f"{dev.get('name')}, {dev.get('compute_units')} compute units "
                                f"(POCL {dev.get('driver')})")
                        if device and this != device:
                            raise CannotRun(f"{label}: POCL changed device, from {device} to {this}")
                        device = this
                    times["pocl"].append(float(peer["ms"]))
                else:
                    ms, got = emulator_run(build, recipe, n, who)
                    times[who].append(ms)
                    default_workers = got if who is None else default_workers
        pocl = statistics.median(times["pocl"])
        emu_d, emu_1 = statistics.median(times[None]), statistics.median(times[1])
        ratio_d, ratio_1 = emu_d / pocl, emu_1 / pocl
        key = recipe.replace("-", "_")
        if goal is None:
            verdict, goal_text = "for information", "-"
            bench.append(f"BENCH name=emu_{key}_{n}_vs_pocl ratio={ratio_d:.3f} goal=none met=n/a")
        else:
            met = ratio_d <= goal
            verdict, goal_text = ("goal met" if met else "GOAL MISSED"), f"<= {goal:g}x"
            bench.append(f"BENCH name=emu_{key}_{n}_vs_pocl ratio={ratio_d:.3f} goal=<={goal:g} "
                         f"met={'yes' if met else 'no'}")
            if not met:
                missed.append(f"goal missed: {recipe} n = {n}: the emulator ({default_workers} workers) "
                              f"takes {ratio_d:.2f}x POCL's time (goal: at most {goal:g}x)")
        bench.append(f"BENCH name=emu_{key}_{n}_1w_vs_pocl ratio={ratio_1:.3f} goal=none met=n/a")
        rows.append([f"{recipe} {n}", ms_text(pocl), ms_text(emu_d), ms_text(emu_1),
                     ratio_text(ratio_d), ratio_text(ratio_1), goal_text, verdict])
    header = ["workload", "POCL", f"emulator {default_workers}w (default)", "emulator 1w",
              "emu/POCL", "emu 1w/POCL", "goal", ""]
    return header, rows, bench, missed, device


# The commit of the tree, with "+changes" when it has uncommitted changes, or "" outside git.
def tree_version():
    try:
        head = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=False)
        dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, check=False)
    except OSError:
        return ""
    if head.returncode != 0:
        return ""
    return head.stdout.strip() + (" +changes" if dirty.stdout.strip() else "")


# Reads the options; exits 2 with the usage line when they are wrong.
def parse_args(argv):
    usage = "usage: bench-peers.py [--build BUILD] [--only cudasim|pocl] [--quick]"
    build, only, quick = "build", None, False
    i = 1
    while i < len(argv):
        if argv[i] == "--build" and i + 1 < len(argv):
            build, i = argv[i + 1], i + 2
        elif argv[i] == "--only" and i + 1 < len(argv) and argv[i + 1] in ("cudasim", "pocl"):
            only, i = argv[i + 1], i + 2
        elif argv[i] == "--quick":
            quick, i = True, i + 1
        else:
            print(usage, file=sys.stderr)
            sys.exit(2)
    return build, only, quick


# Runs each peer's section, prints its table; returns the exit code.
def main():
    build, only, quick = parse_args(sys.argv)
    if quick:
        del CUDASIM_WORK[1:], POCL_WORK[1:]
    binary = os.path.join(build, "cudachef")
    if not os.access(binary, os.X_OK):
        print(f"bench-peers: {binary} is missing: build cudachef first (make)", file=sys.stderr)
        return 2
    wrong = cannot = False
    start = datetime.datetime.now().astimezone()
    tree = tree_version()
    print(f"cudachef's CPU emulator against two peers ({binary}{', tree ' + tree if tree else ''})")
    print(f"  {start:%Y-%m-%d %H:%M %Z}, {os.cpu_count()} cores ({cpu_model()})")
    print(f"  load average at start: {load_average()}")
    sections = [("cudasim", "A. Numba's CUDA simulator", lambda: bench_cudasim(build, sys.executable)),
                ("pocl", "B. POCL (OpenCL on the CPU)", lambda: bench_pocl(build))]
    for key, title, run in sections:
        if only and key != only:
            continue
        print()
        try:
            header, rows, bench, missed, about = run()
        except WrongResult as err:
            print(f"bench-peers: {title}: stopped, WRONG RESULT: {err}", file=sys.stderr)
            wrong = True
            continue
        except CannotRun as err:
            print(f"bench-peers: {title}: stopped, could not run: {err}", file=sys.stderr)
            cannot = True
            continue
        if key == "cudasim":
            print(f"{title} ({about}) against cudachef's emulator: time per launch, median; "
                  "ratio = simulator / emulator")
            print(f"  simulator: 1 warm-up, then the timed launches in brackets; emulator: median of "
                  f"{2 * EMU_RUNS_EACH_SIDE} runs of each setting ({EMU_RUNS_EACH_SIDE} just before the "
                  f"simulator, {EMU_RUNS_EACH_SIDE} just after), each the median of {EMU_REPEAT} timed launches")
        else:
            print(f"{title} against cudachef's emulator: time per launch, median; ratio = emulator / POCL")
            print(f"  POCL device: {about}")
            print(f"  {POCL_ROUNDS} rounds, the three contestants in rotating order; each run 1 warm-up, "
                  f"then {POCL_REPS} timed launches (POCL) or {EMU_REPEAT} (emulator), median; "
                  "figure: median of the rounds")
        print_table(header, rows)
        print()
        for line in bench:
            print(line)
        for line in missed:
            print(f"  {line}")
        print(f"  load average after {key}: {load_average()}")
        sys.stdout.flush()
    print()
    print(f"  load average at end: {load_average()} "
          f"(took {(datetime.datetime.now().astimezone() - start).total_seconds():.0f} s)")
    if wrong:
        return 1
    return 2 if cannot else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        print("bench-peers: interrupted", file=sys.stderr)
        sys.exit(130)
