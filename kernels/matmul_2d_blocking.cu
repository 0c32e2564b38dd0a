/*
 * matmul_2d_blocking.cu - C = A * B for n x n matrices; each cook makes an 8 x 8 square of C.
 *
 * Rung 5 of the matmul ladder (lesson 12). In matmul_1d_blocking.cu a cook reuses each number of
 * B for 8 rows, but still reads one number of A per multiply-add. Here a cook owns an 8 x 8 square
 * of results: at each step k it copies 8 numbers of A (a column of its rows) and 8 numbers of B
 * (a row of its columns) from the locker into its pockets (registers), then does 8 x 8 = 64
 * multiply-adds with them. 16 locker reads for 64 multiply-adds, where the tiled kernel needed
 * 128: the cooks spend their time cooking, not walking to the locker.
 *
 * Kitchen view: a team of 256 cooks owns a 128 x 128 square of C (256 cooks x 64 results). For
 * each step of 8 along k, the team fills its locker with a 128 x 8 strip of A and an 8 x 128 strip
 * of B: 1024 numbers each, so every cook fetches 4 of each. Cook t owns rows 8 * (t / 16) ... + 7
 * and columns 8 * (t % 16) ... + 7 of the team's square.
 *
 * Any n works (0 loaded past the edges, no write past them). Launch: 256 cooks per team (1D), a
 * grid of ceil(n/128) x ceil(n/128) teams.
 */
#include "kernel.h"

#define BM 128   /* rows of C per team */
#define BN 128   /* columns of C per team */
#define BK 8     /* how far along k one locker fill reaches */
#define TM 8     /* rows of my square of results */
#define TN 8     /* columns of my square of results */
#define COOKS ((BM / TM) * (BN / TN)) /* 256 cooks per team */

__global__ void matmul_2d_blocking(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[BM][BK];
    __shared__ float Bs[BK][BN];

    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    int t = threadIdx.x;
    int my_row = (t / (BN / TN)) * TM;  /* my square's top-left corner in the team's square */
    int my_col = (t % (BN / TN)) * TN;

    float sum[TM][TN];                  /* @mark pockets: 64 running sums in registers */
    float a[TM], b[TN];                 /* this step's numbers of A and B, in registers too */
    for (int i = 0; i < TM; i++)
        for (int j = 0; j < TN; j++)
            sum[i][j] = 0.0f;

    for (int k0 = 0; k0 < n; k0 += BK) {
        /* Fill the locker: 1024 numbers of A and of B, 4 each per cook, neighbours side by side. */
        for (int l = t; l < BM * BK; l += COOKS) {
            int r = l / BK, c = l % BK;
            As[r][c] = (row0 + r < n && k0 + c < n) ? A[(row0 + r) * n + k0 + c] : 0.0f;
        }
        for (int l = t; l < BK * BN; l += COOKS) {
            int r = l / BN, c = l % BN;
            Bs[r][c] = (k0 + r < n && col0 + c < n) ? B[(k0 + r) * n + col0 + c] : 0.0f;
        }
        __syncthreads();

        for (int k = 0; k < BK; k++) {
            for (int i = 0; i < TM; i++)    /* @mark to-pockets: 16 locker reads ... */
                a[i] = As[my_row + i][k];
            for (int j = 0; j < TN; j++)
                b[j] = Bs[k][my_col + j];
            for (int i = 0; i < TM; i++)    /* ... for 64 multiply-adds */
                for (int j = 0; j < TN; j++)
                    sum[i][j] += a[i] * b[j];
        }
        __syncthreads();
    }

    for (int i = 0; i < TM; i++)
        for (int j = 0; j < TN; j++) {
            int row = row0 + my_row + i, col = col0 + my_col + j;
            if (row < n && col < n)
                C[row * n + col] = sum[i][j];
        }
}

#undef BM
#undef BN
#undef BK
#undef TM
#undef TN
#undef COOKS
