"""peer_cudasim.py - `make bench-peers`, peer A: cudachef's two kernels on Numba's CUDA simulator.

The simulator (NUMBA_ENABLE_CUDASIM=1) runs a CUDA kernel written in Python on the CPU, one Python
thread per CUDA thread of a block, so it is what a learner without a GPU could use instead of
cudachef's emulator. The kernels below are kernels/vector_add.cu (256 threads per block) and
kernels/matmul_tiled.cu written line for line in Numba: 16x16 cuda.shared.array tiles, two
cuda.syncthreads() per tile, zeros past the edges, a grid of ceil(n/16) x ceil(n/16) blocks of
16 x 16 threads. Inputs are on the device before anything is timed (cudachef's cook time leaves the
shipping out too). One warm-up launch, then REPS timed launches, each a launch followed by
cuda.synchronize(); the figure is their median. Every launch's output (NaN before it) is checked
against NumPy (vector add exactly, the product within 1e-3 of a float64 product) outside the timed
part.

Usage: NUMBA_ENABLE_CUDASIM=1 /usr/bin/python3 bench/peer_cudasim.py vector-add|matmul-tiled N REPS
(the script sets NUMBA_ENABLE_CUDASIM=1 itself when it is not set, so it never runs on a real GPU).
Prints one line: PEER peer=cudasim recipe=R n=N reps=REPS ms=MEDIAN min=MIN warmup_ms=W runs=...
numba=V numpy=V check=passed. Exit codes: 0 passed, 1 a wrong result, 2 the simulator could not run.
scripts/bench-peers.py runs it and compares it with cudachef's emulator (docs/BENCHMARKS.md).
"""
import os
import statistics
import sys
import time

os.environ.setdefault("NUMBA_ENABLE_CUDASIM", "1")

try:
    import numba
    import numpy as np
    from numba import cuda, float32
    from numba.core import config as numba_config
except ImportError as err:  # the Debian packages python3-numba and python3-numpy
    print(f"peer_cudasim: {sys.executable} cannot import Numba or NumPy ({err}): run it with Debian's "
          "/usr/bin/python3 after apt-get install python3-numba python3-numpy", file=sys.stderr)
    sys.exit(2)

TILE = 16
THREADS_PER_BLOCK = 256
MATMUL_TOL = 1e-3


# kernels/vector_add.cu: every thread adds one pair; the threads past the end stay idle.
@cuda.jit
def vector_add(a, b, c, n):
    i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x

    if i < n:
        c[i] = a[i] + b[i]


# kernels/matmul_tiled.cu: a block of TILE x TILE threads computes a TILE x TILE square of C,
# through one square of A and one of B in shared memory per step, guarded by two barriers.
@cuda.jit
def matmul_tiled(A, B, C, n):
    tileA = cuda.shared.array((TILE, TILE), dtype=float32)
    tileB = cuda.shared.array((TILE, TILE), dtype=float32)

    row = cuda.blockIdx.y * TILE + cuda.threadIdx.y
    col = cuda.blockIdx.x * TILE + cuda.threadIdx.x
    sum = float32(0.0)

    for t in range((n + TILE - 1) // TILE):
        a_col = t * TILE + cuda.threadIdx.x
        b_row = t * TILE + cuda.threadIdx.y
        # Each thread brings one number of A and one of B into shared memory (0 past the edge).
        tileA[cuda.threadIdx.y, cuda.threadIdx.x] = A[row * n + a_col] if (row < n and a_col < n) else float32(0.0)
        tileB[cuda.threadIdx.y, cuda.threadIdx.x] = B[b_row * n + col] if (b_row < n and col < n) else float32(0.0)
        cuda.syncthreads()

        for k in range(TILE):
            sum += tileA[cuda.threadIdx.y, k] * tileB[k, cuda.threadIdx.x]
        cuda.syncthreads()
    if row < n and col < n:
        C[row * n + col] = sum


# The arguments of a program line: recipe, n, reps; exits 2 with the usage line when they are wrong.
def parse_args(argv):
    usage = "usage: peer_cudasim.py vector-add|matmul-tiled N REPS"
    if len(argv) != 4 or argv[1] not in ("vector-add", "matmul-tiled"):
        print(usage, file=sys.stderr)
        sys.exit(2)
    try:
        n, reps = int(argv[2]), int(argv[3])
    except ValueError:
        print(usage, file=sys.stderr)
        sys.exit(2)
    if n < 1 or reps < 1:
        print(usage, file=sys.stderr)
        sys.exit(2)
    return argv[1], n, reps


# The launch, its inputs on the device and the expected output, for one recipe at size n.
def prepare(recipe, n):
    rng = np.random.default_rng(1)
    if recipe == "vector-add":
        a = rng.uniform(-1, 1, n).astype(np.float32)
        b = rng.uniform(-1, 1, n).astype(np.float32)
        expected = a + b  # float32, rounded once per element as on the device: exact
        blocks = (n + THREADS_PER_BLOCK - 1) // THREADS_PER_BLOCK
        d_c = cuda.to_device(np.full(n, np.nan, np.float32))
        d_a, d_b = cuda.to_device(a), cuda.to_device(b)
        return vector_add[blocks, THREADS_PER_BLOCK], (d_a, d_b, d_c, n), d_c, expected, 0.0
    A = rng.uniform(-1, 1, n * n).astype(np.float32)
    B = rng.uniform(-1, 1, n * n).astype(np.float32)
    expected = (A.astype(np.float64).reshape(n, n) @ B.astype(np.float64).reshape(n, n)).reshape(-1)
    side = (n + TILE - 1) // TILE
    d_C = cuda.to_device(np.full(n * n, np.nan, np.float32))
    d_A, d_B = cuda.to_device(A), cuda.to_device(B)
    return matmul_tiled[(side, side), (TILE, TILE)], (d_A, d_B, d_C, n), d_C, expected, MATMUL_TOL


# One launch followed by cuda.synchronize(), in milliseconds.
def timed_launch(launch, args):
    t0 = time.perf_counter()
    launch(*args)
    cuda.synchronize()
    return (time.perf_counter() - t0) * 1e3


# Checks the output against the expected values (within tol; 0: exactly), then fills it with NaN
# for the next launch, so that a launch that writes nothing cannot pass; returns the largest
# error, or exits 1 naming the first wrong element.
def check_and_poison(d_out, expected, tol):
    got = d_out.copy_to_host()
    err = np.abs(got.astype(np.float64) - expected.astype(np.float64))
    bad = np.flatnonzero(~(err <= tol))  # NaN is wrong too
    if bad.size:
        i = int(bad[0])
        print(f"peer_cudasim: wrong result: {bad.size} of {got.size} elements, first [{i}] = {got[i]!r}, "
              f"expected {expected[i]!r}", file=sys.stderr)
        sys.exit(1)
    d_out.copy_to_device(np.full_like(got, np.nan))
    return float(err.max()) if err.size else 0.0


# Warm-up, REPS timed launches, every output checked; prints the PEER line.
def main():
    recipe, n, reps = parse_args(sys.argv)
    if not numba_config.ENABLE_CUDASIM:
        print("peer_cudasim: Numba's CUDA simulator is off (set NUMBA_ENABLE_CUDASIM=1)", file=sys.stderr)
        return 2
    launch, args, d_out, expected, tol = prepare(recipe, n)
    warmup_ms = timed_launch(launch, args)
    max_err = check_and_poison(d_out, expected, tol)
    runs = []
    for _ in range(reps):
        runs.append(timed_launch(launch, args))
        max_err = max(max_err, check_and_poison(d_out, expected, tol))
    print(f"PEER peer=cudasim recipe={recipe} n={n} reps={reps} ms={statistics.median(runs):.3f} "
          f"min={min(runs):.3f} warmup_ms={warmup_ms:.3f} runs={','.join(f'{r:.3f}' for r in runs)} "
          f"max_abs_error={max_err:.3g} numba={numba.__version__} numpy={np.__version__} check=passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
