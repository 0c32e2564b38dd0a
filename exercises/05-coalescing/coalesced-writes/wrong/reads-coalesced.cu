/* reads-coalesced - a typical wrong version of this exercise: the reads along the rows of in, the writes down a column of out: the start again.
   Expected diagnosis: uncoalesced. */
#include "kernel.h"

__global__ void transpose_naive(const float *in, float *out, int n)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x; /* a column of out: neighbouring cooks, neighbouring floats */
    int r = blockIdx.y * blockDim.y + threadIdx.y; /* a row of out */
    if (r < n && c < n)
        out[c * n + r] = in[r * n + c]; /* the reads go down a column of in: scattered, the writes are not */
}
