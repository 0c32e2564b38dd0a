/*
 * matmul_four.h - moving four neighbouring floats at once, for the vectorised matmul rungs.
 *
 * A float4 is four floats side by side, 16 bytes. A cook that loads or stores one float4 makes one
 * 16-byte memory request where four float loads would make four: fewer instructions, the same
 * bytes. The GPU requires the address to be a multiple of 16 bytes. Every matrix here is n x n
 * floats, row by row, starting at an address cudaMalloc made (a multiple of 256 bytes): when n is
 * a multiple of 4, every row starts at a multiple of 16 bytes, and so does every 4th column.
 * Otherwise (or at the matrices' edges) the helpers fall back to one float at a time.
 */
#ifndef CUDACHEF_MATMUL_FOUR_H
#define CUDACHEF_MATMUL_FOUR_H

#include "kernel.h"

/* Numbers col .. col+3 of row `row` of the n x n matrix M (col a multiple of 4); 0 past the edges. */
__device__ float4 matmul_load4(const float *M, int row, int col, int n)
{
    if (row < n && n % 4 == 0 && col + 3 < n)
        return *(const float4 *)&M[row * n + col]; /* @mark load-four: one 16-byte load */
    float4 v;
    v.x = (row < n && col < n) ? M[row * n + col] : 0.0f;
    v.y = (row < n && col + 1 < n) ? M[row * n + col + 1] : 0.0f;
    v.z = (row < n && col + 2 < n) ? M[row * n + col + 2] : 0.0f;
    v.w = (row < n && col + 3 < n) ? M[row * n + col + 3] : 0.0f;
    return v;
}

/* Writes v to columns col .. col+3 of row `row` of the n x n matrix M, none past the edges. */
__device__ void matmul_store4(float *M, int row, int col, int n, float4 v)
{
    if (row >= n)
        return;
    if (n % 4 == 0 && col + 3 < n) {
        *(float4 *)&M[row * n + col] = v; /* one 16-byte store */
        return;
    }
    if (col < n)
        M[row * n + col] = v.x;
    if (col + 1 < n)
        M[row * n + col + 1] = v.y;
    if (col + 2 < n)
        M[row * n + col + 2] = v.z;
    if (col + 3 < n)
        M[row * n + col + 3] = v.w;
}

/* Copies the four numbers of v into dst[0] .. dst[3] (a cook's pockets). */
__device__ void matmul_unpack4(float *dst, float4 v)
{
    dst[0] = v.x;
    dst[1] = v.y;
    dst[2] = v.z;
    dst[3] = v.w;
}

#endif
