/*
 * matmul_async.cu - rung 9 of the matmul ladder: rung 8's warp tiles, with the strips of A and B
 * shipped straight from the pantry into the locker by the kitchen's own porters, three strips deep.
 *
 * In rung 8 every number of the next strip travels pantry -> a cook's pockets (registers) -> the
 * locker (shared memory): the cook must wait for it to land in its pockets before it can put it in
 * the locker, and the pockets it holds it in are pockets it cannot cook with. Since Ampere a cook
 * can instead ASK for a copy from global to shared memory and go on cooking: the copy (cp.async,
 * written here with CUDA's pipeline primitives) travels on its own, and the cook only waits for it
 * when it needs the numbers. A request is put in a batch (__pipeline_commit), and
 * __pipeline_wait_prior(k) waits until all but the k latest batches have landed.
 *
 * The locker holds three strips (stages) of A and of B used in turn, a ring:
 *   before the loop: ask for strips 0 and 1
 *   step i:  wait for strip i | barrier | ask for strip i+2 (into the stage strip i-1 used) | cook strip i
 * One barrier per strip is enough: it says "strip i has landed for everyone" and also "everyone has
 * finished cooking strip i-1", so its stage may be filled again. Two strips are always on the way
 * while the cooks work on a third.
 *
 * A arrives on its side (the locker keeps A's strip as BK rows of BM numbers, so a cook reads 4 of
 * its rows in one 16-byte load): copies of one float each, which can land anywhere. Each row of the
 * A strip is 4 numbers longer than BM (padding), so that the 32 copies of a warp land in 32
 * different banks. B's strip is copied 16 bytes at a time, as it is laid out in the pantry.
 *
 * Kitchen view: a team of 256 cooks (8 warps) owns a block of C of 128 rows and 256 columns, each
 * warp a 64 x 64 piece, each cook 8 x 16 results: twice rung 8's, so every number a cook reads from
 * the locker serves more multiply-adds (8 + 16 numbers per step for 128, against 8 + 8 for 64).
 * A cook's rows are two groups of 4, 32 apart, and its columns four groups of 4, 16 apart, so
 * that the 32 cooks of a warp read each step's numbers side by side from the locker. Its 128 sums
 * take most of a cook's pockets (up to 255 registers), so one team has a station to itself.
 * The locker holds 3 strips of A (8 x 132) and 3 of B (8 x 256): 36.4 KiB.
 * On the emulator the copies are done at once, as plain copies: the order of the steps is the same.
 *
 * Any n works (zeros past the edges, no write past them; 16-byte copies of B when n is a multiple
 * of 4). Launch: 256 cooks per team (1D), ceil(n/256) x ceil(n/128) teams (x along the columns).
 */
#include "kernel.h"
#include "matmul_four.h"

#define BM 128
#define BN 256
#define BK 8
#define STAGES 3
#define APAD 4
#define WM 64
#define WN 64
#define ROW_GROUPS 2                       /* a cook's rows: 2 groups of 4, WM / 2 apart */
#define COL_GROUPS 4                       /* its columns: 4 groups of 4, WN / 4 apart */
#define TM (ROW_GROUPS * 4)                /* 8 */
#define TN (COL_GROUPS * 4)                /* 16 */
#define COOKS ((BM / WM) * (BN / WN) * 32) /* 256 */
#define A_TRIPS (BM * BK / 4 / COOKS)      /* rows of 4 numbers of A each cook asks for per strip: 1 */
#define B_TRIPS (BK * BN / 4 / COOKS)      /* and of B: 2 */

/* Asks for numbers k0 .. k0+BK-1 of rows row0 .. row0+BM-1 of A, to land in As on its side, and
   rows k0 .. k0+BK-1, columns col0 .. col0+BN-1 of B, to land in Bs; zeros past the edges. */
__device__ void matmul_async_ask(float (*As)[BM + APAD], float (*Bs)[BN], const float *A, const float *B,
                                 int row0, int col0, int k0, int n, int t)
{
    #pragma unroll
    for (int q = 0; q < A_TRIPS; q++) {
        int l = t + q * COOKS, r = l / (BK / 4), c = (l % (BK / 4)) * 4;
        #pragma unroll
        for (int j = 0; j < 4; j++) {
            int inside = row0 + r < n && k0 + c + j < n;
            const float *from = inside ? &A[(row0 + r) * n + k0 + c + j] : A;
            /* @mark ask-copy: 4 bytes from the pantry to the locker; none read (zeros) outside */
            __pipeline_memcpy_async(&As[c + j][r], from, 4, inside ? 0 : 4);
        }
    }
    #pragma unroll
    for (int q = 0; q < B_TRIPS; q++) {
        int l = t + q * COOKS, r = l / (BN / 4), c = (l % (BN / 4)) * 4;
        if (n % 4 == 0) {
            int inside = k0 + r < n && col0 + c < n;
            const float *from = inside ? &B[(k0 + r) * n + col0 + c] : B;
            __pipeline_memcpy_async(&Bs[r][c], from, 16, inside ? 0 : 16); /* @mark copy-16: 16 bytes */
        } else {
            #pragma unroll
            for (int j = 0; j < 4; j++) {
                int inside = k0 + r < n && col0 + c + j < n;
                const float *from = inside ? &B[(k0 + r) * n + col0 + c + j] : B;
                __pipeline_memcpy_async(&Bs[r][c + j], from, 4, inside ? 0 : 4);
            }
        }
    }
}

__global__ void __launch_bounds__(COOKS, 1) matmul_async(const float *A, const float *B, float *C, int n)
{
    __shared__ __align__(16) float As[STAGES][BK][BM + APAD]; /* @mark ring: three strips, used in turn */
    __shared__ __align__(16) float Bs[STAGES][BK][BN];

    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    int t = threadIdx.x;
    int warp = t / 32, lane = t % 32;
    int warp_row = (warp / (BN / WN)) * WM;
    int warp_col = (warp % (BN / WN)) * WN;
    int lane_row = (lane / 4) * 4; /* @mark spread-rows: 8 lanes' rows side by side, then the next group */
    int lane_col = (lane % 4) * 4;
    int strips = (n + BK - 1) / BK;

    float sum[TM][TN]; /* @mark sums-8x16: 128 running sums in the pockets */
    float a[TM], b[TN];
    #pragma unroll
    for (int i = 0; i < TM; i++)
        #pragma unroll
        for (int j = 0; j < TN; j++)
            sum[i][j] = 0.0f;

    /* Before the first step: ask for strips 0 .. STAGES-2, one batch each (an empty batch past
       the last strip, so that every step counts batches the same way). */
    #pragma unroll
    for (int s = 0; s < STAGES - 1; s++) {
        if (s < strips)
            matmul_async_ask(As[s], Bs[s], A, B, row0, col0, s * BK, n, t);
        __pipeline_commit();
    }

    for (int step = 0; step < strips; step++) {
        int stage = step % STAGES;
        __pipeline_wait_prior(STAGES - 2); /* @mark wait-strip: my copies of strip `step` have landed */
        __syncthreads(); /* @mark one-barrier: everyone's have; everyone is done with strip step-1 */

        int ahead = step + STAGES - 1; /* into the stage strip step-1 used */
        if (ahead < strips)
            matmul_async_ask(As[ahead % STAGES], Bs[ahead % STAGES], A, B, row0, col0, ahead * BK, n, t);
        __pipeline_commit(); /* @mark commit: this step's requests are one batch */

        #pragma unroll
        for (int k = 0; k < BK; k++) {
            #pragma unroll
            for (int g = 0; g < ROW_GROUPS; g++)
                matmul_unpack4(&a[g * 4], *(const float4 *)&As[stage][k][warp_row + lane_row + g * (WM / ROW_GROUPS)]);
            #pragma unroll
            for (int g = 0; g < COL_GROUPS; g++)
                matmul_unpack4(&b[g * 4], *(const float4 *)&Bs[stage][k][warp_col + lane_col + g * (WN / COL_GROUPS)]);
            #pragma unroll
            for (int i = 0; i < TM; i++)
                #pragma unroll
                for (int j = 0; j < TN; j++)
                    sum[i][j] += a[i] * b[j];
        }
    }

    #pragma unroll
    for (int i = 0; i < TM; i++)
        #pragma unroll
        for (int g = 0; g < COL_GROUPS; g++)
            matmul_store4(C, row0 + warp_row + lane_row + (i / 4) * (WM / ROW_GROUPS) + i % 4,
                          col0 + warp_col + lane_col + g * (WN / COL_GROUPS), n,
                          make_float4(sum[i][g * 4], sum[i][g * 4 + 1], sum[i][g * 4 + 2], sum[i][g * 4 + 3]));
}

#undef BM
#undef BN
#undef BK
#undef STAGES
#undef APAD
#undef WM
#undef WN
#undef ROW_GROUPS
#undef COL_GROUPS
#undef TM
#undef TN
#undef COOKS
#undef A_TRIPS
#undef B_TRIPS
