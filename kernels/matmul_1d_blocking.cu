/*
 * matmul_1d_blocking.cu - C = A * B for n x n matrices; each cook makes 8 results of one column.
 *
 * Rung 4 of the matmul ladder (lesson 12). The tiled kernel (matmul_tiled.cu) brings squares of A
 * and B into the shared locker, but then every cook still reads two locker numbers for each
 * multiply-add it does: the locker, not the arithmetic, sets the pace. Here each cook keeps
 * RESULTS running sums in its own registers (its pockets, the fastest storage there is) for
 * RESULTS elements of C one below the other. At each step k it fetches ONE number of B from the
 * locker and reuses it for RESULTS multiply-adds, one per row: fewer locker trips per result.
 *
 * Kitchen view: a team of 512 cooks owns a 64 x 64 square of C. The team walks along A's rows
 * and B's columns 8 at a time: it copies a 64 x 8 strip of A and an 8 x 64 strip of B into the
 * locker (each cook fetches one number of each), waits at a barrier, computes, waits again.
 * Cook t owns column t % 64 of the square and rows 8 * (t / 64) to 8 * (t / 64) + 7.
 * A warp is 32 cooks with neighbouring threadIdx.x: neighbouring columns of C, so its reads of B
 * and its writes of C are coalesced; all of them read the same numbers of A (one fetch, shared).
 *
 * Any n works: numbers past the edge of the matrices are loaded as 0 and results past the edge
 * are not written. Launch: 512 cooks per team (1D), a grid of ceil(n/64) x ceil(n/64) teams.
 */
#include "kernel.h"

#define BM 64     /* rows of C per team */
#define BN 64     /* columns of C per team */
#define BK 8      /* how far along k one locker fill reaches */
#define RESULTS 8 /* results per cook, one below the other: BM * BN / RESULTS = 512 cooks */

__global__ void matmul_1d_blocking(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[BM][BK]; /* a 64 x 8 strip of A */
    __shared__ float Bs[BK][BN]; /* an 8 x 64 strip of B */

    int row0 = blockIdx.y * BM;  /* this team's square of C starts at (row0, col0) */
    int col0 = blockIdx.x * BN;
    int t = threadIdx.x;
    int my_col = t % BN;                 /* the column I compute */
    int my_row = (t / BN) * RESULTS;     /* the first of my RESULTS rows */

    float sum[RESULTS];                  /* @mark pockets: my running sums live in registers */
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
            float b = Bs[k][my_col];             /* @mark reuse: one locker read ... */
            for (int i = 0; i < RESULTS; i++)
                sum[i] += As[my_row + i][k] * b; /* ... serves RESULTS multiply-adds */
        }
        __syncthreads();
    }

    for (int i = 0; i < RESULTS; i++) {
        int row = row0 + my_row + i, col = col0 + my_col;
        if (row < n && col < n)
            C[row * n + col] = sum[i];
    }
}

/* The next rungs reuse these short names with other values. */
#undef BM
#undef BN
#undef BK
#undef RESULTS
