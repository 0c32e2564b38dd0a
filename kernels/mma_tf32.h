/*
 * mma_tf32.h - one warp's tensor-core multiply: D (16 x 8) += A (16 x 8) x B (8 x 8), in TF32.
 *
 * A tensor core is a station's machine that multiplies small matrices in one go. It is driven by
 * a whole warp at once: the 32 cooks each hold a few numbers of A, B and the result (a fragment),
 * and one instruction (`mma.sync.m16n8k8` for TF32) makes the warp's 16 x 8 x 8 = 1,024
 * multiply-adds. Which cook holds which number is fixed by the GPU; with g = lane / 4 and
 * t = lane % 4:
 *   a[0] = A[g][t]    a[1] = A[g+8][t]    a[2] = A[g][t+4]    a[3] = A[g+8][t+4]
 *   b[0] = B[t][g]    b[1] = B[t+4][g]
 *   d[0] = D[g][2t]   d[1] = D[g][2t+1]   d[2] = D[g+8][2t]   d[3] = D[g+8][2t+1]
 *
 * TF32 keeps a float's 8-bit exponent but only 10 bits of its 23-bit mantissa: the inputs are
 * rounded (to the nearest, ties away from zero, as cvt.rna does) and the sums stay full floats.
 *
 * On a GPU of compute capability 8.0 or later this is the real instruction. Elsewhere (the CPU
 * emulator, and an sm_75 build) the same fragments are multiplied with warp shuffles: each cook
 * fetches from its neighbours the row of A and the columns of B its four results need. Slower,
 * the same numbers (up to the order of the additions).
 */
#ifndef CUDACHEF_MMA_TF32_H
#define CUDACHEF_MMA_TF32_H

#include "kernel.h"

/* x rounded to TF32 (10 mantissa bits), as a float. */
__device__ float mma_tf32_round(float x)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    unsigned int r;
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
    return __uint_as_float(r);
#else
    union { float f; unsigned int u; } v;
    v.f = x;
    if ((v.u & 0x7f800000u) != 0x7f800000u) /* not inf or NaN: round the 13 dropped bits */
        v.u = (v.u + 0x1000u) & 0xffffe000u;
    return v.f;
#endif
}

/* d += a x b for the warp's 16 x 8 x 8 fragments (every cook of the warp calls it together). */
__device__ void mma_tf32_16x8x8(float *d, const float *a, const float *b)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(__float_as_uint(a[0])), "r"(__float_as_uint(a[1])), "r"(__float_as_uint(a[2])),
                   "r"(__float_as_uint(a[3])), "r"(__float_as_uint(b[0])), "r"(__float_as_uint(b[1])));
#else
    int lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
    for (int k = 0; k < 4; k++) {
        /* A[g][k], A[g+8][k], A[g][k+4], A[g+8][k+4] live with cook 4g + k */
        float a_top = __shfl_sync(0xffffffffu, a[0], g * 4 + k);
        float a_bottom = __shfl_sync(0xffffffffu, a[1], g * 4 + k);
        float a_top4 = __shfl_sync(0xffffffffu, a[2], g * 4 + k);
        float a_bottom4 = __shfl_sync(0xffffffffu, a[3], g * 4 + k);
        /* B[k][c] and B[k+4][c] live with cook 4c + k */
        float b_left = __shfl_sync(0xffffffffu, b[0], (2 * t) * 4 + k);
        float b_left4 = __shfl_sync(0xffffffffu, b[1], (2 * t) * 4 + k);
        float b_right = __shfl_sync(0xffffffffu, b[0], (2 * t + 1) * 4 + k);
        float b_right4 = __shfl_sync(0xffffffffu, b[1], (2 * t + 1) * 4 + k);
        d[0] += a_top * b_left + a_top4 * b_left4;
        d[1] += a_top * b_right + a_top4 * b_right4;
        d[2] += a_bottom * b_left + a_bottom4 * b_left4;
        d[3] += a_bottom * b_right + a_bottom4 * b_right4;
    }
#endif
}

#endif
