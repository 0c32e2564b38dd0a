/*
 * fetch-budget.cu - your exercise for lesson 18: this matrix multiply is right, but it is far left
 * of the roofline's ridge. Look inside it first: `cudachef try fetch-budget.cu --n 256` (in your
 * workspace's folder of lesson 18) prints its counters. Divide the global load sectors (Nsight
 * Compute's l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum: the 32-byte sectors its loads asked of
 * device memory) by the n * n * n multiply-adds: the exercise limits that to 0.04 sectors per
 * multiply-add. Then bring it under the limit:
 *   - TODO: fetch each number of A and B once per 16 x 16 tile into the team's shared locker
 *     (__shared__ float tileA[TILE][TILE], tileB[TILE][TILE]; 0 past the edge), wait for the
 *     team, do the tile's 16 multiply-adds from the locker, and wait again before the next tile.
 * `cudachef grade fetch-budget` cooks n = 16, 33, 64 and 70, in shuffled cook orders too.
 */
#include "kernel.h"

#define TILE 16

__global__ void matmul_tiled(const float *A, const float *B, float *C, int n)
{
    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    if (row >= n || col >= n)
        return;
    float sum = 0.0f;
    for (int k = 0; k < n; k++)
        sum += A[row * n + k] * B[k * n + col]; /* two fetches from device memory per multiply-add */
    C[row * n + col] = sum;
}
