/*
 * transpose_shared.cu - the transpose through the team's shared locker: both trips coalesced.
 *
 * Kitchen view: the team first copies its 32 x 32 square of in into the locker, a row per warp,
 * neighbouring cooks reading neighbouring numbers. After the barrier, each warp writes a row of
 * out's square, again neighbouring cooks to neighbouring numbers; what it writes is a column of
 * the locker's square. So the turning happens inside the locker, where a scattered read is cheap...
 * almost: the locker has 32 banks, and a column of a 32 x 32 float tile lies entirely in one bank.
 * The warp's 32 reads of that column queue at one bank: a 32-way bank conflict, 32 passes where one
 * would do. transpose_padded.cu fixes it with one extra column.
 */
#include "kernel.h"

#define TRANSPOSE_TILE 32

__global__ void transpose_shared(const float *in, float *out, int n)
{
    __shared__ float tile[TRANSPOSE_TILE][TRANSPOSE_TILE]; /* @mark tile */

    /* Bring: cook (x, y) copies in[row][col] of the team's square into tile[y][x]. */
    int col = blockIdx.x * TRANSPOSE_TILE + threadIdx.x;
    int row = blockIdx.y * TRANSPOSE_TILE + threadIdx.y;
    if (row < n && col < n)
        tile[threadIdx.y][threadIdx.x] = in[row * n + col];

    __syncthreads(); /* the whole square is in the locker before anyone reads it */

    /* Write: the team's square goes to the mirrored place, teams (bx, by) to (by, bx); cook (x, y)
       writes out[row][col] of that square, which is tile[x][y]: a column of the locker. */
    col = blockIdx.y * TRANSPOSE_TILE + threadIdx.x;
    row = blockIdx.x * TRANSPOSE_TILE + threadIdx.y;
    if (row < n && col < n)
        out[row * n + col] = tile[threadIdx.x][threadIdx.y]; /* @mark column-read */
}
