/*
 * vector_sin.cu - b[i] = sin(a[i]): one function call per cook.
 *
 * Kitchen view: the same shape as vector_add.cu, with a sine to compute per element. sinf is
 * the float sine. The GPU's sinf is accurate to within 2 units in the last place, not always
 * the same bits as the CPU's: the taste allows for that with a small tolerance. (nvcc's
 * --use_fast_math would swap in __sinf, faster and much less accurate.)
 *
 * Runs on the GPU (nvcc) and on cudachef's CPU emulator (the C compiler) from this one file.
 */
#include "kernel.h"

__global__ void vector_sin(const float *a, float *b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x; /* @mark global-index */
    if (i < n) {         /* @mark bounds-check */
        b[i] = sinf(a[i]); /* @mark the-work */
    }
}
