/*
 * vector_sqrt.cu - b[i] = sqrt(a[i]): one function call per cook.
 *
 * Kitchen view: the same shape as vector_add.cu (one element per cook, the bounds check for the
 * idle cooks of the last team) with a little more work per element. sqrtf is the float square
 * root; on a GPU it is correctly rounded, as on the CPU, so both give the same bits.
 *
 * Runs on the GPU (nvcc) and on cudachef's CPU emulator (the C compiler) from this one file.
 */
#include "kernel.h"

__global__ void vector_sqrt(const float *a, float *b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x; /* @mark global-index */
    if (i < n) {          /* @mark bounds-check */
        b[i] = sqrtf(a[i]); /* @mark the-work */
    }
}
