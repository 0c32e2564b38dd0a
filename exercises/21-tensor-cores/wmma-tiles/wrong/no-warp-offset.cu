/* no-warp-offset - a typical wrong version of this exercise: A's tiles start at row 16 i of the strip, without the warp's own rows wm: the warps of the second row of pieces multiply the first rows of A again.
   Expected diagnosis: wrong-values. */
#include "kernel.h"
#include <mma.h>
using namespace nvcuda;

#define BM 128
#define BN 128
#define BK 32
#define COOKS 256
#define WM 64
#define WN 32
#define LDA (BK + 8) /* a row of As, padded: 40 halves */
#define LDB (BN + 8) /* a row of Bs, padded: 136 halves */

__global__ void matmul_wmma_fp16(const float *A, const float *B, float *C, int n)
{
    __shared__ __align__(32) half As[BM][LDA];
    __shared__ __align__(32) half Bs[BK][LDB];
    __shared__ __align__(32) float corner[COOKS / 32][16 * 16];

    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    int t = threadIdx.x, warp = t / 32, lane = t % 32;
    int wm = (warp / (BN / WN)) * WM, wn = (warp % (BN / WN)) * WN;

    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a[WM / 16];
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b[WN / 16];
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[WM / 16][WN / 16];
    for (int i = 0; i < WM / 16; i++)
        for (int j = 0; j < WN / 16; j++)
            wmma::fill_fragment(acc[i][j], 0.0f);

    for (int k0 = 0; k0 < n; k0 += BK) {
        for (int e = t; e < BM * BK; e += COOKS) {
            int r = e / BK, c = e % BK;
            As[r][c] = __float2half(row0 + r < n && k0 + c < n ? A[(row0 + r) * n + k0 + c] : 0.0f);
        }
        for (int e = t; e < BK * BN; e += COOKS) {
            int r = e / BN, c = e % BN;
            Bs[r][c] = __float2half(k0 + r < n && col0 + c < n ? B[(k0 + r) * n + col0 + c] : 0.0f);
        }
        __syncthreads();
        for (int k = 0; k < BK; k += 16) {
            for (int i = 0; i < WM / 16; i++)
                wmma::load_matrix_sync(a[i], &As[i * 16][k], LDA);
            for (int j = 0; j < WN / 16; j++)
                wmma::load_matrix_sync(b[j], &Bs[k][wn + j * 16], LDB);
            for (int i = 0; i < WM / 16; i++)
                for (int j = 0; j < WN / 16; j++)
                    wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
        }
        __syncthreads();
    }

    /* serving: each tile through the warp's corner of the locker, then what lies inside C */
    for (int i = 0; i < WM / 16; i++)
        for (int j = 0; j < WN / 16; j++) {
            int row = row0 + wm + i * 16, col = col0 + wn + j * 16;
            wmma::store_matrix_sync(corner[warp], acc[i][j], 16, wmma::mem_row_major);
            __syncwarp();
            for (int e = lane; e < 16 * 16; e += 32)
                if (row + e / 16 < n && col + e % 16 < n)
                    C[(row + e / 16) * n + col + e % 16] = corner[warp][e];
            __syncwarp();
        }
}
