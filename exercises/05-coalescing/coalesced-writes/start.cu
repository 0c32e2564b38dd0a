/*
 * coalesced-writes.cu - your exercise for lesson 5: out = the transpose of in (n x n), with the
 * writes coalesced.
 *
 * This kernel is right, but neighbouring cooks (threadIdx.x) take neighbouring columns of in, so a
 * warp writes down a column of out, n floats apart. A transpose without the locker must scatter one
 * side: let it be the reads, and make each warp write 32 neighbouring floats of a row of out (the
 * TODO). `cudachef grade coalesced-writes` checks the results and the first warp's writes (at most
 * two 128-byte segments) with n = 64, 33, 100 and 1.
 */
#include "kernel.h"

__global__ void transpose_naive(const float *in, float *out, int n)
{
    /* TODO: let threadIdx.x pick the column of out instead, and read the element that belongs
       there: out[r][c] = in[c][r]. */
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < n && col < n)
        out[col * n + row] = in[row * n + col];
}
