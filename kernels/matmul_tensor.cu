/*
 * matmul_tensor.cu - the tensor-core rung of the matmul ladder: rung 9's strips and warp tiles, the
 * multiply-adds done by the stations' tensor cores in TF32 instead of one by one by the cooks.
 *
 * A team of 128 cooks (4 warps) owns a 128 x 128 square of C; each warp a 64 x 64 piece, as 4 x 8
 * tiles of 16 x 8. For every 8 numbers of k the warp loads, from the locker, a fragment of A for
 * each of its 4 rows of tiles and a fragment of B for each of its 8 columns, and issues 32 mma
 * instructions: 32 x 1,024 multiply-adds. Fragments and their layout are in mma_tf32.h.
 *
 * The strips come by asynchronous copies (rung 9's porters) into a ring of STAGES stages, one barrier
 * per strip. Here both strips keep the pantry's layout (A's rows of k, B's rows of n), since the
 * fragments read A along k: every copy is 16 bytes. Rows are padded (A by 4 numbers, B by 8) so that
 * a warp's fragment loads fall in 32 different banks.
 *
 * TF32 rounds every input to 10 bits of mantissa: results differ from FP32's by about 1e-3 of
 * their size, as cuBLAS's TF32 mode does (lesson 9). On the CPU emulator the tensor core is
 * emulated with warp shuffles (mma_tf32.h): the same fragments, the same rounding.
 *
 * Any n works (zeros past the edges, no write past them; 16-byte copies when n is a multiple of
 * 4, one float at a time otherwise). Launch: 128 cooks per team (1D), ceil(n/128) x ceil(n/128).
 */
#include "kernel.h"
#include "mma_tf32.h"

#define BM 128
#define BN 128
#define BK 16
#define STAGES 2
#define APAD 4
#define BPAD 8
#define WM 64
#define WN 64
#define MT (WM / 16) /* rows of 16 x 8 tiles per warp: 4 */
#define NT (WN / 8)  /* columns of them: 8 */
#define COOKS ((BM / WM) * (BN / WN) * 32) /* 128 */

/* Asks for 4 numbers from row `row`, columns col .. col+3 of the n x n matrix M to land at dst:
   one 16-byte copy when n is a multiple of 4, else one float at a time; zeros past the edges. */
__device__ void matmul_tensor_ask4(float *dst, const float *M, int row, int col, int n)
{
    if (n % 4 == 0) {
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
   columns col0 .. +BN into Bs. */
__device__ void matmul_tensor_ask(float (*As)[BK + APAD], float (*Bs)[BN + BPAD], const float *A, const float *B,
                                  int row0, int col0, int k0, int n, int t)
{
    #pragma unroll
    for (int q = 0; q < BM * BK / 4 / COOKS; q++) {
        int l = t + q * COOKS, r = l / (BK / 4), c = (l % (BK / 4)) * 4;
        matmul_tensor_ask4(&As[r][c], A, row0 + r, k0 + c, n);
    }
    #pragma unroll
    for (int q = 0; q < BK * BN / 4 / COOKS; q++) {
        int l = t + q * COOKS, r = l / (BN / 4), c = (l % (BN / 4)) * 4;
        matmul_tensor_ask4(&Bs[r][c], B, k0 + r, col0 + c, n);
    }
}

__global__ void __launch_bounds__(COOKS, 2) matmul_tensor(const float *A, const float *B, float *C, int n)
{
    __shared__ __align__(16) float As[STAGES][BM][BK + APAD];
    __shared__ __align__(16) float Bs[STAGES][BK][BN + BPAD];

    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    int t = threadIdx.x, lane = t % 32, warp = t / 32;
    int wm = (warp / (BN / WN)) * WM, wn = (warp % (BN / WN)) * WN;
    int g = lane / 4, q4 = lane % 4; /* the cook's place in every fragment */
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
            matmul_tensor_ask(As[s], Bs[s], A, B, row0, col0, s * BK, n, t);
        __pipeline_commit();
    }

    for (int step = 0; step < strips; step++) {
        int stage = step % STAGES;
        __pipeline_wait_prior(STAGES - 2);
        __syncthreads();
        int ahead = step + STAGES - 1;
        if (ahead < strips)
            matmul_tensor_ask(As[ahead % STAGES], Bs[ahead % STAGES], A, B, row0, col0, ahead * BK, n, t);
        __pipeline_commit();

        #pragma unroll
        for (int k = 0; k < BK; k += 8) {
            #pragma unroll
            for (int i = 0; i < MT; i++) { /* @mark load-fragment: each cook its 4 numbers of A's tile */
                a[i][0] = mma_tf32_round(As[stage][wm + i * 16 + g][k + q4]);
                a[i][1] = mma_tf32_round(As[stage][wm + i * 16 + g + 8][k + q4]);
                a[i][2] = mma_tf32_round(As[stage][wm + i * 16 + g][k + q4 + 4]);
                a[i][3] = mma_tf32_round(As[stage][wm + i * 16 + g + 8][k + q4 + 4]);
            }
            #pragma unroll
            for (int j = 0; j < NT; j++) {
                b[j][0] = mma_tf32_round(Bs[stage][k + q4][wn + j * 8 + g]);
                b[j][1] = mma_tf32_round(Bs[stage][k + q4 + 4][wn + j * 8 + g]);
            }
            #pragma unroll
            for (int i = 0; i < MT; i++)
                #pragma unroll
                for (int j = 0; j < NT; j++)
                    mma_tf32_16x8x8(d[i][j], a[i], b[j]); /* @mark mma: 1,024 multiply-adds by the warp */
        }
    }

    #pragma unroll
    for (int i = 0; i < MT; i++)
        #pragma unroll
        for (int j = 0; j < NT; j++)
            #pragma unroll
            for (int e = 0; e < 4; e++) {
                int row = row0 + wm + i * 16 + g + (e / 2) * 8, col = col0 + wn + j * 8 + q4 * 2 + e % 2;
                if (row < n && col < n)
                    C[row * n + col] = d[i][j][e];
            }
}

#undef BM
#undef BN
#undef BK
#undef STAGES
#undef APAD
#undef BPAD
#undef WM
#undef WN
#undef MT
#undef NT
#undef COOKS
