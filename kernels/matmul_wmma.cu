/*
 * matmul_wmma.cu - C = A x B on the tensor cores through CUDA's warp matrix functions (WMMA), in
 * three precisions: FP16 and BF16 (16 x 16 x 16 tiles) and TF32 (16 x 16 x 8), sums in FP32.
 *
 * A tensor core multiplies small tiles in one instruction, driven by a whole warp: the crew of 32
 * cooks holds the tiles between them as fragments (wmma::fragment), whose layout only the GPU
 * knows. The warp loads fragments from memory together (load_matrix_sync), multiplies and adds
 * them together (mma_sync: D = A x B + C, 16 x 16 x 16 = 4,096 multiply-adds) and stores the
 * result together (store_matrix_sync). Every cook of the warp must make each of these calls.
 *
 * A team of 256 cooks (8 warps) owns a 128 x 128 square of C; each warp a 64 x 32 piece, as
 * 4 x 2 accumulator tiles of 16 x 16. For every strip of 32 numbers of k the team copies A's
 * 128 x 32 rows and B's 32 x 128 columns into the locker, rounding each number to the tile's
 * precision on the way (the recipe's matrices are floats); then each warp loads its fragments
 * from the locker and multiplies. Rows in the locker are padded (8 halves, 4 floats) so that
 * their starts stay 32 bytes apart, as load_matrix_sync asks, without falling in the same banks.
 *
 * The three kernels are written out whole, one per precision, so that each reads on its own: they
 * differ in the types of the locker and the fragments, and TF32 in its k of 8 and its rounding.
 *
 * Any n works: zeros past the edges in the locker; a tile of C that lies whole inside is stored
 * straight into C, one across the edge goes through the warp's own 16 x 16 corner of the locker.
 * Launch: 256 cooks per team (1D), ceil(n/128) x ceil(n/128) teams. On the CPU emulator the same
 * source runs with the WMMA calls emulated in C (src/kit/emu_wmma.h): the same roundings, sums
 * in FP32.
 */
#include "kernel.h"
#include <mma.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
using namespace nvcuda;

#define BM 128
#define BN 128
#define BK 32
#define COOKS 256
#define WM 64 /* a warp's piece: 64 rows ... */
#define WN 32 /* ... and 32 columns: 4 x 2 tiles of 16 x 16 */

/* Element (row, col) of the n x n matrix M, or 0 past its edges. */
__device__ float wmma_fetch(const float *M, int row, int col, int n)
{
    return row < n && col < n ? M[row * n + col] : 0.0f;
}

/* Whether the 16 x 16 tile of C at (row, col) lies whole inside C, with rows a multiple of 16 bytes
   apart (n a multiple of 4): then store_matrix_sync may write it straight into C. */
__device__ int wmma_tile_inside(int row, int col, int n)
{
    return row + 16 <= n && col + 16 <= n && n % 4 == 0;
}

/* Copies the warp's 16 x 16 results from its corner of the locker into C, leaving out what falls
   past the edges: each cook 8 numbers, two rows of C per turn of the warp. The warp meets before
   (the corner is written) and after (the corner may be written again). */
__device__ void wmma_corner_to_c(float *C, const float *corner, int row, int col, int n, int lane)
{
    __syncwarp();
    for (int e = lane; e < 16 * 16; e += 32) {
        int r = row + e / 16, c = col + e % 16;
        if (r < n && c < n)
            C[r * n + c] = corner[e];
    }
    __syncwarp();
}

/* FP16: A and B rounded to half (10 bits of mantissa, 5 of exponent), products summed in FP32. */
__global__ void __launch_bounds__(COOKS) matmul_wmma_fp16(const float *A, const float *B, float *C, int n)
{
    __shared__ __align__(32) half As[BM][BK + 8];
    __shared__ __align__(32) half Bs[BK][BN + 8];
    __shared__ __align__(32) float corner[COOKS / 32][16 * 16];

    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    int t = threadIdx.x, warp = t / 32, lane = t % 32;
    int wm = (warp / (BN / WN)) * WM, wn = (warp % (BN / WN)) * WN;

    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a[WM / 16]; /* @mark fragments */
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b[WN / 16];
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[WM / 16][WN / 16];
    #pragma unroll
    for (int i = 0; i < WM / 16; i++)
        #pragma unroll
        for (int j = 0; j < WN / 16; j++)
            wmma::fill_fragment(acc[i][j], 0.0f);

    for (int k0 = 0; k0 < n; k0 += BK) {
        for (int e = t; e < BM * BK; e += COOKS) { /* @mark round-half: floats in, halves in the locker */
            int r = e / BK, c = e % BK;
            As[r][c] = __float2half(wmma_fetch(A, row0 + r, k0 + c, n));
        }
        for (int e = t; e < BK * BN; e += COOKS) {
            int r = e / BN, c = e % BN;
            Bs[r][c] = __float2half(wmma_fetch(B, k0 + r, col0 + c, n));
        }
        __syncthreads();
        #pragma unroll
        for (int k = 0; k < BK; k += 16) {
            #pragma unroll
            for (int i = 0; i < WM / 16; i++) /* @mark load: ldm is the locker's row, with its padding */
                wmma::load_matrix_sync(a[i], &As[wm + i * 16][k], BK + 8);
            #pragma unroll
            for (int j = 0; j < WN / 16; j++)
                wmma::load_matrix_sync(b[j], &Bs[k][wn + j * 16], BN + 8);
            #pragma unroll
            for (int i = 0; i < WM / 16; i++)
                #pragma unroll
                for (int j = 0; j < WN / 16; j++)
                    wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]); /* @mark mma-sync: 4,096 multiply-adds */
        }
        __syncthreads();
    }

    #pragma unroll
    for (int i = 0; i < WM / 16; i++)
        #pragma unroll
        for (int j = 0; j < WN / 16; j++) {
            int row = row0 + wm + i * 16, col = col0 + wn + j * 16;
            if (wmma_tile_inside(row, col, n)) { /* @mark store: straight into C */
                wmma::store_matrix_sync(&C[row * n + col], acc[i][j], n, wmma::mem_row_major);
            } else {
                wmma::store_matrix_sync(corner[warp], acc[i][j], 16, wmma::mem_row_major);
                wmma_corner_to_c(C, corner[warp], row, col, n, lane);
            }
        }
}

/* BF16: A and B rounded to bfloat16 (7 bits of mantissa, a float's 8 of exponent). The same
   kernel as FP16 but for the type. */
__global__ void __launch_bounds__(COOKS) matmul_wmma_bf16(const float *A, const float *B, float *C, int n)
{
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800 /* BF16 tensor cores: compute capability 8.0 on */
    __shared__ __align__(32) __nv_bfloat16 As[BM][BK + 8];
    __shared__ __align__(32) __nv_bfloat16 Bs[BK][BN + 8];
    __shared__ __align__(32) float corner[COOKS / 32][16 * 16];

    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    int t = threadIdx.x, warp = t / 32, lane = t % 32;
    int wm = (warp / (BN / WN)) * WM, wn = (warp % (BN / WN)) * WN;

    wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> a[WM / 16];
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::row_major> b[WN / 16];
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[WM / 16][WN / 16];
    #pragma unroll
    for (int i = 0; i < WM / 16; i++)
        #pragma unroll
        for (int j = 0; j < WN / 16; j++)
            wmma::fill_fragment(acc[i][j], 0.0f);

    for (int k0 = 0; k0 < n; k0 += BK) {
        for (int e = t; e < BM * BK; e += COOKS) {
            int r = e / BK, c = e % BK;
            As[r][c] = __float2bfloat16(wmma_fetch(A, row0 + r, k0 + c, n));
        }
        for (int e = t; e < BK * BN; e += COOKS) {
            int r = e / BN, c = e % BN;
            Bs[r][c] = __float2bfloat16(wmma_fetch(B, k0 + r, col0 + c, n));
        }
        __syncthreads();
        #pragma unroll
        for (int k = 0; k < BK; k += 16) {
            #pragma unroll
            for (int i = 0; i < WM / 16; i++)
                wmma::load_matrix_sync(a[i], &As[wm + i * 16][k], BK + 8);
            #pragma unroll
            for (int j = 0; j < WN / 16; j++)
                wmma::load_matrix_sync(b[j], &Bs[k][wn + j * 16], BN + 8);
            #pragma unroll
            for (int i = 0; i < WM / 16; i++)
                #pragma unroll
                for (int j = 0; j < WN / 16; j++)
                    wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
        }
        __syncthreads();
    }

    #pragma unroll
    for (int i = 0; i < WM / 16; i++)
        #pragma unroll
        for (int j = 0; j < WN / 16; j++) {
            int row = row0 + wm + i * 16, col = col0 + wn + j * 16;
            if (wmma_tile_inside(row, col, n)) {
                wmma::store_matrix_sync(&C[row * n + col], acc[i][j], n, wmma::mem_row_major);
            } else {
                wmma::store_matrix_sync(corner[warp], acc[i][j], 16, wmma::mem_row_major);
                wmma_corner_to_c(C, corner[warp], row, col, n, lane);
            }
        }
#endif
}

/* TF32: the locker keeps floats; the fragments' numbers are rounded to TF32 (10 bits of mantissa,
   8 of exponent) once loaded. The tiles are 16 x 16 x 8: twice the mma_sync calls per strip. */
__global__ void __launch_bounds__(COOKS) matmul_wmma_tf32(const float *A, const float *B, float *C, int n)
{
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800 /* TF32 tensor cores: compute capability 8.0 on */
    __shared__ __align__(32) float As[BM][BK + 4];
    __shared__ __align__(32) float Bs[BK][BN + 4];
    __shared__ __align__(32) float corner[COOKS / 32][16 * 16];

    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    int t = threadIdx.x, warp = t / 32, lane = t % 32;
    int wm = (warp / (BN / WN)) * WM, wn = (warp % (BN / WN)) * WN;

    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a[WM / 16];
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> b[WN / 16];
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc[WM / 16][WN / 16];
    #pragma unroll
    for (int i = 0; i < WM / 16; i++)
        #pragma unroll
        for (int j = 0; j < WN / 16; j++)
            wmma::fill_fragment(acc[i][j], 0.0f);

    for (int k0 = 0; k0 < n; k0 += BK) {
        for (int e = t; e < BM * BK; e += COOKS) {
            int r = e / BK, c = e % BK;
            As[r][c] = wmma_fetch(A, row0 + r, k0 + c, n);
        }
        for (int e = t; e < BK * BN; e += COOKS) {
            int r = e / BN, c = e % BN;
            Bs[r][c] = wmma_fetch(B, k0 + r, col0 + c, n);
        }
        __syncthreads();
        #pragma unroll
        for (int k = 0; k < BK; k += 8) {
            #pragma unroll
            for (int i = 0; i < WM / 16; i++) {
                wmma::load_matrix_sync(a[i], &As[wm + i * 16][k], BK + 4);
                for (int e = 0; e < a[i].num_elements; e++) /* @mark tf32-round: each cook its own numbers */
                    a[i].x[e] = wmma::__float_to_tf32(a[i].x[e]);
            }
            #pragma unroll
            for (int j = 0; j < WN / 16; j++) {
                wmma::load_matrix_sync(b[j], &Bs[k][wn + j * 16], BN + 4);
                for (int e = 0; e < b[j].num_elements; e++)
                    b[j].x[e] = wmma::__float_to_tf32(b[j].x[e]);
            }
            #pragma unroll
            for (int i = 0; i < WM / 16; i++)
                #pragma unroll
                for (int j = 0; j < WN / 16; j++)
                    wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
        }
        __syncthreads();
    }

    #pragma unroll
    for (int i = 0; i < WM / 16; i++)
        #pragma unroll
        for (int j = 0; j < WN / 16; j++) {
            int row = row0 + wm + i * 16, col = col0 + wn + j * 16;
            if (wmma_tile_inside(row, col, n)) {
                wmma::store_matrix_sync(&C[row * n + col], acc[i][j], n, wmma::mem_row_major);
            } else {
                wmma::store_matrix_sync(corner[warp], acc[i][j], 16, wmma::mem_row_major);
                wmma_corner_to_c(C, corner[warp], row, col, n, lane);
            }
        }
#endif
}

#undef BM
#undef BN
#undef BK
#undef COOKS
#undef WM
#undef WN
