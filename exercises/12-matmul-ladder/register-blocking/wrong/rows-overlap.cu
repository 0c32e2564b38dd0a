/* rows-overlap - a typical wrong version of this exercise: my first row forgets to step by RESULTS: cooks compute overlapping rows and leave others.
   Expected diagnosis: shared-index. */
#include "kernel.h"

#define BM 64     /* rows of C per team */
#define BN 64     /* columns of C per team */
#define BK 8      /* how far along k one locker fill reaches */
#define RESULTS 8 /* results per cook, one below the other: BM * BN / RESULTS = 512 cooks */

__global__ void matmul_1d_blocking(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[BM][BK]; /* a 64 x 8 strip of A */
    __shared__ float Bs[BK][BN]; /* an 8 x 64 strip of B */

    int row0 = blockIdx.y * BM; /* this team's square of C starts at (row0, col0) */
    int col0 = blockIdx.x * BN;
    int t = threadIdx.x;
    int my_col = t % BN;             /* the column I compute */
    int my_row = t / BN; /* the first of my RESULTS rows */

    float sum[RESULTS]; /* my running sums, in my pockets (registers) */
    for (int i = 0; i < RESULTS; i++)
        sum[i] = 0.0f;

    for (int k0 = 0; k0 < n; k0 += BK) {
        /* Every cook brings one number of A and one of B into the locker (0 past the edge). */
        int a_row = t / BK, a_col = t % BK;
        int b_row = t / BN, b_col = t % BN;
        As[a_row][a_col] = (row0 + a_row < n && k0 + a_col < n) ? A[(row0 + a_row) * n + k0 + a_col] : 0.0f;
        Bs[b_row][b_col] = (k0 + b_row < n && col0 + b_col < n) ? B[(k0 + b_row) * n + col0 + b_col] : 0.0f;
        __syncthreads();

        for (int k = 0; k < BK; k++) {
            /* One locker read of B, into my pockets... */
            float b = Bs[k][my_col];
            /* ...serves RESULTS multiply-adds, one for each of my rows. */
            for (int i = 0; i < RESULTS; i++)
                sum[i] += As[my_row + i][k] * b;
        }
        __syncthreads();
    }

    /* My RESULTS elements of C: one column, RESULTS rows one below the other; none past the edge. */
    for (int i = 0; i < RESULTS; i++) {
        int row = row0 + my_row + i, col = col0 + my_col;
        if (row < n && col < n)
            C[row * n + col] = sum[i];
    }
}
