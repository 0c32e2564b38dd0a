/* no-bounds-test - a typical wrong version of this exercise: no bounds test: with n = 33 cooks past the edge touch memory outside the matrices.
   Expected diagnosis: out-of-bounds. */
#include "kernel.h"

__global__ void transpose_naive(const float *in, float *out, int n)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x; /* a column of out: neighbouring cooks, neighbouring floats */
    int r = blockIdx.y * blockDim.y + threadIdx.y; /* a row of out */
        out[r * n + c] = in[c * n + r]; /* the reads go down a column of in: scattered, the writes are not */
}
