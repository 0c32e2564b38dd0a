/*
 * matmul_vectorized.cu - rung 6 of the matmul ladder: the 8 x 8 squares of matmul_2d_blocking.cu,
 * with every trip to memory carrying four numbers at once (float4).
 *
 * Two changes to rung 5, the arithmetic unchanged:
 *   - from the pantry (global memory) a cook fetches A and B four neighbours at a time, one 16-byte
 *     request instead of four (matmul_four.h);
 *   - the team stores its strip of A in the locker turned on its side (transposed: As[k][row]), so
 *     that the 8 numbers of A a cook needs at step k sit side by side, like its 8 numbers of B:
 *     each cook then fills its pockets with four float4 reads instead of sixteen float reads.
 *
 * Kitchen view: as in rung 5, a team of 256 cooks owns a 128 x 128 square of C and each cook an
 * 8 x 8 square of it. A strip of A (128 x 8) is 256 float4s and so is a strip of B (8 x 128):
 * one of each per cook per locker fill.
 *
 * Any n works; the 16-byte trips need n to be a multiple of 4 (see matmul_four.h), otherwise the
 * cooks fetch one number at a time. Launch: 256 cooks per team, ceil(n/128) x ceil(n/128) teams.
 */
#include "kernel.h"
#include "matmul_four.h"

#define BM 128
#define BN 128
#define BK 8
#define TM 8
#define TN 8

__global__ void matmul_vectorized(const float *A, const float *B, float *C, int n)
{
    __shared__ __align__(16) float As[BK][BM]; /* @mark transposed: a strip of A on its side */
    __shared__ __align__(16) float Bs[BK][BN];

    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    int t = threadIdx.x;
    int my_row = (t / (BN / TN)) * TM;
    int my_col = (t % (BN / TN)) * TN;
    /* The float4 of A and of B I fetch at every locker fill. */
    int a_row = t / (BK / 4), a_col = (t % (BK / 4)) * 4;
    int b_row = t / (BN / 4), b_col = (t % (BN / 4)) * 4;

    float sum[TM][TN];
    float a[TM], b[TN];
    for (int i = 0; i < TM; i++)
        for (int j = 0; j < TN; j++)
            sum[i][j] = 0.0f;

    for (int k0 = 0; k0 < n; k0 += BK) {
        float4 va = matmul_load4(A, row0 + a_row, k0 + a_col, n);
        As[a_col + 0][a_row] = va.x; /* four numbers of a row of A become a column of As */
        As[a_col + 1][a_row] = va.y;
        As[a_col + 2][a_row] = va.z;
        As[a_col + 3][a_row] = va.w;
        *(float4 *)&Bs[b_row][b_col] = matmul_load4(B, k0 + b_row, col0 + b_col, n);
        __syncthreads();

        for (int k = 0; k < BK; k++) {
            matmul_unpack4(&a[0], *(const float4 *)&As[k][my_row]); /* @mark four-reads */
            matmul_unpack4(&a[4], *(const float4 *)&As[k][my_row + 4]);
            matmul_unpack4(&b[0], *(const float4 *)&Bs[k][my_col]);
            matmul_unpack4(&b[4], *(const float4 *)&Bs[k][my_col + 4]);
            for (int i = 0; i < TM; i++)
                for (int j = 0; j < TN; j++)
                    sum[i][j] += a[i] * b[j];
        }
        __syncthreads();
    }

    for (int i = 0; i < TM; i++)
        for (int j = 0; j < TN; j += 4)
            matmul_store4(C, row0 + my_row + i, col0 + my_col + j, n,
                          make_float4(sum[i][j], sum[i][j + 1], sum[i][j + 2], sum[i][j + 3]));
}

#undef BM
#undef BN
#undef BK
#undef TM
#undef TN
