/*
 * matmul_tensor.cu - the tensor-core rung of the matmul ladder: rung 9's strips and warp tiles, the
 * multiply-adds done by the stations' tensor cores in TF32 instead of one by one by the cooks.
 *
 * A team of 128 cooks (4 warps) owns a 128 x 128 square of C; each warp a 64 x 64 piece, as 4 x 8
 * tiles of 16 x 8. For every 8 numbers of k the warp loads, from the locker, a fragment of A for
 * each of its 4 rows of tiles and a fragment of B for each of its 8 columns, and issues 32 mma
 * instructions: 32 x 1,024 multiply-adds. Fragments and their layout are in mma_tf32.h.
 *
 * What made it fast, each measured (docs/PERFORMANCE.md):
 * - Few loads per mma. A's fragments come by `ldmatrix`, four 8 x 4 pieces for the whole warp in
 *   one instruction. B's come by 16-byte loads: the warp's 8 tiles of columns are interleaved, so
 *   that tile j's column c is column 32 (j / 4) + 4 c + j % 4 of the warp's piece, and a cook's
 *   numbers of tiles 0-3 (and of 4-7) lie side by side. The result's columns follow the same
 *   order, so each cook writes 4 neighbours at once.
 * - Rounding to TF32 by one integer add per number (mma_tf32_round), not a conversion.
 * - Strips 16 deep, three in flight (asynchronous copies, one barrier per strip): 48 KiB, all a
 *   team may declare, with no padding. Instead the locker's rows are SWIZZLED: each 16-byte
 *   piece of a row is stored at a place XOR-ed with a few bits of its row, so that the 8 cooks
 *   reading together always fall in 8 different groups of 4 banks (lesson 13).
 * - Teams in an order that shares the L2: 8 rows of blocks at a time, down the columns, so that
 *   the teams working at once read fewer distinct strips of A and B from the pantry.
 *
 * TF32 rounds every input to 10 bits of mantissa: results differ from FP32's by about 1e-3 of
 * their size, as cuBLAS's TF32 mode does (lesson 9). On the CPU emulator the tensor core and
 * `ldmatrix` are emulated with warp shuffles (mma_tf32.h): the same fragments, the same rounding.
 *
 * Any n works (zeros past the edges, no write past them). When n is a multiple of 4 every copy is
 * 16 bytes; otherwise one float at a time, in a copy of the work kept out of line
 * (matmul_tensor_cook_any), so that the fast path's code and pockets are its own.
 * Launch: 128 cooks per team (1D), ceil(n/128) x ceil(n/128) teams.
 */
#include "kernel.h"
#include "matmul_four.h"
#include "mma_tf32.h"

#define BM 128
#define BN 128
#define BK 16
#define STAGES 3
#define WM 64
#define WN 64
#define MT (WM / 16) /* rows of 16 x 8 tiles per warp: 4 */
#define NT (WN / 8)  /* columns of them: 8 */
#define COOKS ((BM / WM) * (BN / WN) * 32) /* 128 */
#define GROUP 8 /* rows of blocks taken together */

/* Where number c (a multiple of 4) of row r of A's strip lives: its 16-byte piece c / 4 of 4,
   swapped with another by bits 1-2 of r. */
__device__ int matmul_tensor_a_col(int r, int c)
{
    return c ^ (((r >> 1) & 3) << 2); /* @mark swizzle: rows 2 apart never share banks */
}

/* And number c of row k of B's strip: piece c / 4 of 32, swapped by bits 0-1 of k. (Only these bits
   of r and k count, so the cooks pass their own place in the tile.) */
__device__ int matmul_tensor_b_col(int k, int c)
{
    return c ^ ((k & 3) << 3);
}

/* Asks for numbers col .. col+3 of row `row` of the n x n matrix M to land at dst: one 16-byte copy
   if `whole` (n a multiple of 4, so every row starts on 16 bytes), else one float at a time; zeros
   past the edges. */
__device__ void matmul_tensor_ask4(float *dst, const float *M, int row, int col, int n, int whole)
{
    if (whole) {
        int inside = row < n && col < n;
        __pipeline_memcpy_async(dst, inside ? &M[row * n + col] : M, 16, inside ? 0 : 16);
        return;
    }
    for (int j = 0; j < 4; j++) {
        int inside = row < n && col + j < n;
        __pipeline_memcpy_async(&dst[j], inside ? &M[row * n + col + j] : M, 4, inside ? 0 : 4);
    }
}

/* Asks for strip k0: A's rows row0 .. +BM, columns k0 .. +BK into As; B's rows k0 .. +BK,
   columns col0 .. +BN into Bs, each 16-byte piece at its swizzled place. */
__device__ void matmul_tensor_ask(float (*As)[BK], float (*Bs)[BN], const float *A, const float *B, int row0,
                                  int col0, int k0, int n, int t, int whole)
{
    #pragma unroll
    for (int q = 0; q < BM * BK / 4 / COOKS; q++) {
        int l = t + q * COOKS, r = l / (BK / 4), c = (l % (BK / 4)) * 4;
        matmul_tensor_ask4(&As[r][matmul_tensor_a_col(r, c)], A, row0 + r, k0 + c, n, whole);
    }
    #pragma unroll
    for (int q = 0; q < BK * BN / 4 / COOKS; q++) {
        int l = t + q * COOKS, r = l / (BN / 4), c = (l % (BN / 4)) * 4;
        matmul_tensor_ask4(&Bs[r][matmul_tensor_b_col(r, c)], B, k0 + r, col0 + c, n, whole);
    }
}

/* The team's work, its locker given: `whole` says every copy may be 16 bytes (n a multiple of 4). */
__device__ __forceinline__ void matmul_tensor_cook(float (*As)[BM][BK], float (*Bs)[BK][BN], const float *A,
                                                   const float *B, float *C, int n, int whole)
{

    /* @mark team-order: team id takes GROUP rows of blocks, column by column */
    int id = blockIdx.y * gridDim.x + blockIdx.x, first = (id / (GROUP * gridDim.x)) * GROUP;
    int rows = min((int)gridDim.y - first, GROUP), in = id % (GROUP * gridDim.x);
    int row0 = (first + in % rows) * BM, col0 = (in / rows) * BN;

    int t = threadIdx.x, lane = t % 32, warp = t / 32;
    int wm = (warp / (BN / WN)) * WM, wn = (warp % (BN / WN)) * WN;
    int g = lane / 4, q4 = lane % 4;                        /* the cook's place in every fragment */
    int a_row = lane % 8 + ((lane / 8) % 2) * 8, a_k = (lane / 16) * 4; /* the row it names to ldmatrix */
    int strips = (n + BK - 1) / BK;

    float d[MT][NT][4]; /* @mark fragments: the warp's 4 x 8 tiles of results, 4 numbers per cook each */
    float a[MT][4], b[NT][2];
    #pragma unroll
    for (int i = 0; i < MT; i++)
        #pragma unroll
        for (int j = 0; j < NT; j++)
            #pragma unroll
            for (int e = 0; e < 4; e++)
                d[i][j][e] = 0.0f;

    #pragma unroll
    for (int s = 0; s < STAGES - 1; s++) {
        if (s < strips)
            matmul_tensor_ask(As[s], Bs[s], A, B, row0, col0, s * BK, n, t, whole);
        __pipeline_commit();
    }

    for (int step = 0; step < strips; step++) {
        int stage = step % STAGES;
        __pipeline_wait_prior(STAGES - 2); /* my copies of this strip have landed */
        __syncthreads();                   /* everyone's have; everyone is done with the oldest stage */
        int ahead = step + STAGES - 1;
        if (ahead < strips)
            matmul_tensor_ask(As[ahead % STAGES], Bs[ahead % STAGES], A, B, row0, col0, ahead * BK, n, t, whole);
        __pipeline_commit();

        #pragma unroll
        for (int k = 0; k < BK; k += 8) {
            #pragma unroll
            for (int i = 0; i < MT; i++) { /* @mark load-fragment: the warp's fragment of A in one load */
                mma_tf32_load_a(a[i], &As[stage][wm + i * 16 + a_row][matmul_tensor_a_col(a_row, k + a_k)]);
                #pragma unroll
                for (int e = 0; e < 4; e++)
                    a[i][e] = mma_tf32_round(a[i][e]);
            }
            #pragma unroll
            for (int half = 0; half < 2; half++)
                #pragma unroll
                for (int e = 0; e < 2; e++) { /* rows k + q4 and k + q4 + 4; tiles 4 half .. + 3 */
                    float4 v = *(const float4 *)&Bs[stage][k + q4 + e * 4][matmul_tensor_b_col(q4, wn + half * 32 + g * 4)];
                    b[half * 4][e] = mma_tf32_round(v.x);
                    b[half * 4 + 1][e] = mma_tf32_round(v.y);
                    b[half * 4 + 2][e] = mma_tf32_round(v.z);
                    b[half * 4 + 3][e] = mma_tf32_round(v.w);
                }
            #pragma unroll
            for (int i = 0; i < MT; i++)
                #pragma unroll
                for (int j = 0; j < NT; j++)
                    mma_tf32_16x8x8(d[i][j], a[i], b[j]); /* @mark mma: 1,024 multiply-adds by the warp */
        }
    }

    /* Result d[i][j][e] is row g (+8 for e >= 2), tile column 2 q4 + e % 2 of tile (i, j): column
       32 (j / 4) + 4 (2 q4 + e % 2) + j % 4 of the warp's piece, so tiles 4 half .. + 3 are 4 neighbours. */
    #pragma unroll
    for (int i = 0; i < MT; i++)
        #pragma unroll
        for (int half = 0; half < 2; half++)
            #pragma unroll
            for (int e = 0; e < 4; e++)
                matmul_store4(C, row0 + wm + i * 16 + g + (e / 2) * 8, col0 + wn + half * 32 + (2 * q4 + e % 2) * 4, n,
                              make_float4(d[i][half * 4][e], d[i][half * 4 + 1][e], d[i][half * 4 + 2][e],
                                          d[i][half * 4 + 3][e]));
}

/* The one-float copies, kept out of line so that the 16-byte path keeps its pockets to itself. */
__device__ __noinline__ void matmul_tensor_cook_any(float (*As)[BM][BK], float (*Bs)[BK][BN], const float *A,
                                                    const float *B, float *C, int n)
{
    matmul_tensor_cook(As, Bs, A, B, C, n, 0);
}

__global__ void __launch_bounds__(COOKS, 2) matmul_tensor(const float *A, const float *B, float *C, int n)
{
    __shared__ __align__(16) float As[STAGES][BM][BK];
    __shared__ __align__(16) float Bs[STAGES][BK][BN];
    if (n % 4 == 0)
        matmul_tensor_cook(As, Bs, A, B, C, n, 1);
    else
        matmul_tensor_cook_any(As, Bs, A, B, C, n);
}

#undef BM
#undef BN
#undef BK
#undef STAGES
#undef WM
#undef WN
#undef MT
#undef NT
#undef COOKS
#undef GROUP
