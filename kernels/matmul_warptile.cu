/*
 * matmul_warptile.cu - rung 7 of the matmul ladder: the team's square of C split between its warps,
 * each warp's piece split between its 32 cooks.
 *
 * The hardware schedules cooks 32 at a time (a warp). In rung 6 the cooks of one warp own 8 x 8
 * squares spread over the team's square, so together they read a wide band of the locker at every
 * step. Here the square is cut in three levels, each matching a level of the kitchen:
 *   team  (block)   a BM x BN square of C; its locker holds strips of A and B, BK deep;
 *   warp            a WM x WN piece of the team's square, walked as WNITER sub-pieces side by side;
 *   cook  (thread)  in each sub-piece, a TM x TN square; the warp's 32 cooks stand 8 rows x 4
 *                   columns, neighbours in a sub-piece, so a warp's locker reads are few and close.
 * Each cook keeps (TM) x (WNITER * TN) = 8 x 8 = 64 running sums in registers, loads its numbers
 * of A and B from the locker four at a time, and the team fills the locker with 16-byte trips to the
 * pantry (matmul_four.h), as in rung 6.
 *
 * Kitchen view: a team of 256 cooks (8 warps) owns a 128 x 128 square of C; warp w owns the 64 x 32
 * piece in row w / 4, column w % 4 of pieces. Per locker fill (BK = 16 along k) the team brings a
 * 128 x 16 strip of A and a 16 x 128 strip of B: 512 float4s each, 2 of each per cook.
 *
 * `#pragma unroll` asks nvcc to write each loop out in full: only then can sum[][] and a[], b[]
 * live in registers (an array indexed by a loop counter that is not known when compiling must sit
 * in slow local memory).
 *
 * Any n works (0 past the edges, no write past them; 16-byte trips when n is a multiple of 4).
 * Launch: 256 cooks per team (1D), ceil(n/128) x ceil(n/128) teams.
 */
#include "kernel.h"
#include "matmul_four.h"

#define BM 128              /* the team's square of C */
#define BN 128
#define BK 16               /* locker depth along k */
#define WM 64               /* each warp's piece */
#define WN 32
#define WNITER 2            /* sub-pieces per warp, side by side: WN / WNITER = 16 columns each */
#define TM 8                /* each cook's square in a sub-piece */
#define TN 4
#define WSUBN (WN / WNITER)
#define COOKS ((BM / WM) * (BN / WN) * 32) /* 8 warps of 32 = 256 cooks */

__global__ void matmul_warptile(const float *A, const float *B, float *C, int n)
{
    __shared__ __align__(16) float As[BK][BM]; /* a strip of A on its side (transposed) */
    __shared__ __align__(16) float Bs[BK][BN];

    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    int t = threadIdx.x;
    int warp = t / 32, lane = t % 32;               /* @mark warp-index: which warp, which cook in it */
    int warp_row = (warp / (BN / WN)) * WM;         /* my warp's piece of the team's square */
    int warp_col = (warp % (BN / WN)) * WN;
    int lane_row = (lane / (WSUBN / TN)) * TM;      /* my square in each sub-piece: 8 rows x 4 cols of cooks */
    int lane_col = (lane % (WSUBN / TN)) * TN;

    float sum[TM][WNITER * TN];
    float a[TM], b[WNITER * TN];
    #pragma unroll
    for (int i = 0; i < TM; i++)
        #pragma unroll
        for (int j = 0; j < WNITER * TN; j++)
            sum[i][j] = 0.0f;

    for (int k0 = 0; k0 < n; k0 += BK) {
        /* Fill the locker: every cook fetches 2 float4s of A and 2 of B. */
        for (int l = t; l < BM * BK / 4; l += COOKS) {
            int r = l / (BK / 4), c = (l % (BK / 4)) * 4;
            float4 v = matmul_load4(A, row0 + r, k0 + c, n);
            As[c + 0][r] = v.x;
            As[c + 1][r] = v.y;
            As[c + 2][r] = v.z;
            As[c + 3][r] = v.w;
        }
        for (int l = t; l < BK * BN / 4; l += COOKS) {
            int r = l / (BN / 4), c = (l % (BN / 4)) * 4;
            *(float4 *)&Bs[r][c] = matmul_load4(B, k0 + r, col0 + c, n);
        }
        __syncthreads();

        #pragma unroll
        for (int k = 0; k < BK; k++) {
            /* My 8 numbers of A (one column of my rows), then 4 numbers of B per sub-piece. */
            matmul_unpack4(&a[0], *(const float4 *)&As[k][warp_row + lane_row]);
            matmul_unpack4(&a[4], *(const float4 *)&As[k][warp_row + lane_row + 4]);
            #pragma unroll
            for (int s = 0; s < WNITER; s++) /* @mark sub-pieces */
                matmul_unpack4(&b[s * TN], *(const float4 *)&Bs[k][warp_col + s * WSUBN + lane_col]);
            #pragma unroll
            for (int i = 0; i < TM; i++)
                #pragma unroll
                for (int j = 0; j < WNITER * TN; j++)
                    sum[i][j] += a[i] * b[j];
        }
        __syncthreads();
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
