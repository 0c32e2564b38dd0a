/*
 * matmul_prefetch.cu - rung 8 of the matmul ladder: the warp tiles of matmul_warptile.cu, with the
 * next strips of A and B already on their way while the cooks compute with the current ones.
 *
 * In rung 7 a team's day has two phases that never overlap: fetch a strip from the pantry (global
 * memory, hundreds of cycles away), wait at the barrier, cook, wait again. While the strip travels
 * the cooks stand idle, and with few teams on a station (each cook holds many running sums, so few
 * teams fit) there is little other work to hide the wait. Here each cook asks for its part of the
 * NEXT strip first, into its pockets (registers), then cooks with the current strip from the
 * locker, and only then puts the new numbers into the locker. The locker has two halves used in
 * turn (double buffering): the cooks write one half while their teammates may still read the other,
 * so one barrier per strip is enough:
 *   step i:  load strip i+1 into pockets | cook with half i%2 | pockets -> half (i+1)%2 | barrier
 * Nobody reads half (i+1)%2 during step i: every cook finished reading it at step i-1, before the
 * barrier that ended that step.
 *
 * Kitchen view: as in rung 7, a team of 256 cooks (8 warps) owns a 128 x 128 square of C, each warp
 * a 64 x 32 piece, each cook 8 x 8 results; the locker holds two strips of A (128 x 8, on its side)
 * and two of B (8 x 128): 16 KiB. A strip of each is 256 float4s: one of each per cook per step.
 * (Strips 8 deep rather than rung 7's 16 leave each cook fewer numbers in flight to keep in its
 * pockets, so two teams fit on a station: on an H200 that measured faster.)
 *
 * Any n works (0 past the edges, no write past them; 16-byte trips when n is a multiple of 4).
 * Launch: 256 cooks per team (1D), ceil(n/128) x ceil(n/128) teams.
 */
#include "kernel.h"
#include "matmul_four.h"

#define BM 128
#define BN 128
#define BK 8
#define WM 64
#define WN 32
#define WNITER 2
#define TM 8
#define TN 4
#define WSUBN (WN / WNITER)
#define COOKS ((BM / WM) * (BN / WN) * 32)  /* 256 */
#define A_TRIPS (BM * BK / 4 / COOKS)       /* float4s of A each cook fetches per strip: 1 */
#define B_TRIPS (BK * BN / 4 / COOKS)       /* and of B: 1 */

__global__ void matmul_prefetch(const float *A, const float *B, float *C, int n)
{
    __shared__ __align__(16) float As[2][BK][BM]; /* @mark two-halves: two strips of A, used in turn */
    __shared__ __align__(16) float Bs[2][BK][BN];

    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    int t = threadIdx.x;
    int warp = t / 32, lane = t % 32;
    int warp_row = (warp / (BN / WN)) * WM;
    int warp_col = (warp % (BN / WN)) * WN;
    int lane_row = (lane / (WSUBN / TN)) * TM;
    int lane_col = (lane % (WSUBN / TN)) * TN;

    float sum[TM][WNITER * TN];
    float a[TM], b[WNITER * TN];
    float4 next_a[A_TRIPS], next_b[B_TRIPS]; /* @mark pockets-for-next: the next strip, on its way */
    #pragma unroll
    for (int i = 0; i < TM; i++)
        #pragma unroll
        for (int j = 0; j < WNITER * TN; j++)
            sum[i][j] = 0.0f;

    /* Before the first step: fetch strip 0 and put it in half 0. */
    #pragma unroll
    for (int q = 0; q < A_TRIPS; q++) {
        int l = t + q * COOKS, r = l / (BK / 4), c = (l % (BK / 4)) * 4;
        next_a[q] = matmul_load4(A, row0 + r, c, n);
    }
    #pragma unroll
    for (int q = 0; q < B_TRIPS; q++) {
        int l = t + q * COOKS, r = l / (BN / 4), c = (l % (BN / 4)) * 4;
        next_b[q] = matmul_load4(B, r, col0 + c, n);
    }
    int half = 0;
    for (int step = 0;; step++) {
        /* Pockets -> locker half `half` (A on its side). */
        #pragma unroll
        for (int q = 0; q < A_TRIPS; q++) {
            int l = t + q * COOKS, r = l / (BK / 4), c = (l % (BK / 4)) * 4;
            As[half][c + 0][r] = next_a[q].x;
            As[half][c + 1][r] = next_a[q].y;
            As[half][c + 2][r] = next_a[q].z;
            As[half][c + 3][r] = next_a[q].w;
        }
        #pragma unroll
        for (int q = 0; q < B_TRIPS; q++) {
            int l = t + q * COOKS, r = l / (BN / 4), c = (l % (BN / 4)) * 4;
            *(float4 *)&Bs[half][r][c] = next_b[q];
        }
        __syncthreads(); /* @mark one-barrier: half `half` is full; the other is free */

        /* Ask for the next strip now: it travels while we cook. */
        int k_next = (step + 1) * BK;
        int more = k_next < n;
        if (more) { /* @mark prefetch */
            #pragma unroll
            for (int q = 0; q < A_TRIPS; q++) {
                int l = t + q * COOKS, r = l / (BK / 4), c = (l % (BK / 4)) * 4;
                next_a[q] = matmul_load4(A, row0 + r, k_next + c, n);
            }
            #pragma unroll
            for (int q = 0; q < B_TRIPS; q++) {
                int l = t + q * COOKS, r = l / (BN / 4), c = (l % (BN / 4)) * 4;
                next_b[q] = matmul_load4(B, k_next + r, col0 + c, n);
            }
        }

        #pragma unroll
        for (int k = 0; k < BK; k++) {
            matmul_unpack4(&a[0], *(const float4 *)&As[half][k][warp_row + lane_row]);
            matmul_unpack4(&a[4], *(const float4 *)&As[half][k][warp_row + lane_row + 4]);
            #pragma unroll
            for (int s = 0; s < WNITER; s++)
                matmul_unpack4(&b[s * TN], *(const float4 *)&Bs[half][k][warp_col + s * WSUBN + lane_col]);
            #pragma unroll
            for (int i = 0; i < TM; i++)
                #pragma unroll
                for (int j = 0; j < WNITER * TN; j++)
                    sum[i][j] += a[i] * b[j];
        }
        if (!more)
            break;
        half ^= 1; /* the next strip goes into the other half */
    }

    #pragma unroll
    for (int i = 0; i < TM; i++)
        #pragma unroll
        for (int s = 0; s < WNITER; s++)
            matmul_store4(C, row0 + warp_row + lane_row + i, col0 + warp_col + s * WSUBN + lane_col, n,
                          make_float4(sum[i][s * TN], sum[i][s * TN + 1], sum[i][s * TN + 2], sum[i][s * TN + 3]));
}

#undef BM
#undef BN
#undef BK
#undef WM
#undef WN
#undef WNITER
#undef TM
#undef TN
#undef WSUBN
#undef COOKS
#undef A_TRIPS
#undef B_TRIPS
