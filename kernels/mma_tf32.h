/*
 * mma_tf32.h - one warp's tensor-core multiply: D (16 x 8) += A (16 x 8) x B (8 x 8), in TF32, and
 * the warp's load of a fragment of A from the locker.
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
 * TF32 keeps a float's 8-bit exponent but only 10 bits of its 23-bit mantissa. The tensor core
 * reads the top 19 bits of each input and drops the other 13; adding half of the last kept place
 * first (mma_tf32_round) makes that drop a rounding to the nearest, ties away from zero, as
 * `cvt.rna.tf32.f32` rounds, for one integer add. The sums stay full floats.
 *
 * A fragment of A is four 8 x 4 pieces of the tile, each 8 rows of 16 bytes: `ldmatrix` loads the
 * four for the whole warp in one instruction, each cook naming one row (mma_tf32_load_a).
 *
 * On a GPU of compute capability 8.0 or later these are the real instructions. Elsewhere (the CPU
 * emulator, and an sm_75 build) the same fragments are made with warp shuffles: each cook fetches
 * from its neighbours the numbers its part needs. Slower, the same numbers (up to the order of the
 * additions).
 */
#ifndef CUDACHEF_MMA_TF32_H
#define CUDACHEF_MMA_TF32_H

#include "kernel.h"

/* The bits of a float, and the float of some bits. */
__device__ unsigned int mma_tf32_bits(float x)
{
    union { float f; unsigned int u; } v;
    v.f = x;
    return v.u;
}

__device__ float mma_tf32_float(unsigned int u)
{
    union { float f; unsigned int u; } v;
    v.u = u;
    return v.f;
}

/* x with half of TF32's last place added: what the tensor core then reads of it is x rounded to
   TF32 (to the nearest, ties away from zero). For finite x. */
__device__ float mma_tf32_round(float x)
{
    return mma_tf32_float(mma_tf32_bits(x) + 0x1000u); /* @mark half-place: one integer add */
}

/* What the tensor core reads of x: its top 19 bits (the emulator's multiply uses it). */
__device__ float mma_tf32_read(float x)
{
    return mma_tf32_float(mma_tf32_bits(x) & 0xffffe000u);
}

/* The warp's fragment of a 16 x 8 tile of A in the locker (every cook of the warp calls it
   together). Cook l names the 16 bytes holding row l % 8 + 8 ((l / 8) % 2), numbers
   4 (l / 16) .. + 3 of the tile: piece l / 8 of the fragment is rows 0-7 or 8-15, numbers 0-3 or
   4-7, and each cook gets number t of row g of every piece. */
__device__ void mma_tf32_load_a(float *a, const float *row_piece)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    unsigned int r0, r1, r2, r3, at = (unsigned int)__cvta_generic_to_shared(row_piece);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
                 : "r"(at));
    a[0] = __uint_as_float(r0);
    a[1] = __uint_as_float(r1);
    a[2] = __uint_as_float(r2);
    a[3] = __uint_as_float(r3);
#else
    int lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
    for (int piece = 0; piece < 4; piece++) {
        float mine = 0.0f; /* number t of the row that cook 8 piece + g named */
        for (int e = 0; e < 4; e++) {
            float v = __shfl_sync(0xffffffffu, row_piece[e], piece * 8 + g);
            if (e == t)
                mine = v;
        }
        a[piece] = mine;
    }
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
        float a_top = mma_tf32_read(__shfl_sync(0xffffffffu, a[0], g * 4 + k));
        float a_bottom = mma_tf32_read(__shfl_sync(0xffffffffu, a[1], g * 4 + k));
        float a_top4 = mma_tf32_read(__shfl_sync(0xffffffffu, a[2], g * 4 + k));
        float a_bottom4 = mma_tf32_read(__shfl_sync(0xffffffffu, a[3], g * 4 + k));
        /* B[k][c] and B[k+4][c] live with cook 4c + k */
        float b_left = mma_tf32_read(__shfl_sync(0xffffffffu, b[0], (2 * t) * 4 + k));
        float b_left4 = mma_tf32_read(__shfl_sync(0xffffffffu, b[1], (2 * t) * 4 + k));
        float b_right = mma_tf32_read(__shfl_sync(0xffffffffu, b[0], (2 * t + 1) * 4 + k));
        float b_right4 = mma_tf32_read(__shfl_sync(0xffffffffu, b[1], (2 * t + 1) * 4 + k));
        d[0] += a_top * b_left + a_top4 * b_left4;
        d[1] += a_top * b_right + a_top4 * b_right4;
        d[2] += a_bottom * b_left + a_bottom4 * b_left4;
        d[3] += a_bottom * b_right + a_bottom4 * b_right4;
    }
#endif
}

#endif
