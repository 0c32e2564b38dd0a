/*
 * transpose_padded.cu - transpose_shared.cu with one extra column in the locker: no bank conflicts.
 *
 * Kitchen view: the locker has 32 banks, and four-byte word w sits in bank w % 32. In a tile of 32
 * columns, tile[k][y] is word 32k + y: the same bank for every k, so a warp reading a column asks
 * one bank 32 times. With 33 columns, tile[k][y] is word 33k + y, in bank (k + y) % 32: the warp's
 * 32 reads of a column land in 32 different banks, one pass. The 33rd column is never used; it
 * only shifts every row one bank along. (32 cooks reading the same word is no conflict either: the
 * bank hands that one word to all of them at once, a broadcast.)
 */
#include "kernel.h"

#define TRANSPOSE_TILE 32

__global__ void transpose_padded(const float *in, float *out, int n)
{
    __shared__ float tile[TRANSPOSE_TILE][TRANSPOSE_TILE + 1]; /* @mark padding */

    int col = blockIdx.x * TRANSPOSE_TILE + threadIdx.x;
    int row = blockIdx.y * TRANSPOSE_TILE + threadIdx.y;
    if (row < n && col < n)
        tile[threadIdx.y][threadIdx.x] = in[row * n + col];

    __syncthreads();

    col = blockIdx.y * TRANSPOSE_TILE + threadIdx.x;
    row = blockIdx.x * TRANSPOSE_TILE + threadIdx.y;
    if (row < n && col < n)
        out[row * n + col] = tile[threadIdx.x][threadIdx.y]; /* word 33x + y: bank (x + y) % 32 */
}
