/*
 * register-blocking.cu - your exercise for lesson 12: C = A * B for n x n matrices, each cook making
 * 8 results of one column, its running sums kept in its pockets (registers).
 *
 * A team of 512 cooks owns a 64 x 64 square of C. Cook t owns column my_col = t % 64 of the square
 * and the 8 rows my_row .. my_row + 7 below each other. The team walks along k 8 at a time: it fills
 * its locker with a 64 x 8 strip of A and an 8 x 64 strip of B (each cook brings one number of
 * each), waits at a barrier, cooks, waits again. The filling and the barriers are written; the
 * cooking and the serving are yours (the TODOs). `cudachef grade register-blocking` checks your
 * kernel on n = 1, 64, 70 and 130, and on the emulator again with the cooks in shuffled orders.
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

    int row0 = blockIdx.y * BM; /* this team's square of C starts at (row0, col0) */
    int col0 = blockIdx.x * BN;
    int t = threadIdx.x;
    int my_col = t % BN;             /* the column I compute */
    int my_row = (t / BN) * RESULTS; /* the first of my RESULTS rows */

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
            /* TODO 1: read this step's number of B from the locker ONCE, into a variable of your
               own (your pockets): the one in row k of Bs, in your column. */

            /* TODO 2: use it for RESULTS multiply-adds, one for each of your rows: add
               (row my_row + i of As, at step k) x (your number of B) to sum[i]. */
        }
        __syncthreads();
    }

    /* TODO 3: serve your RESULTS elements of C. sum[i] belongs to row row0 + my_row + i and to
       column col0 + my_col. Write only those inside the n x n matrix: the teams at the right and
       bottom edges stick out past it. */
}
