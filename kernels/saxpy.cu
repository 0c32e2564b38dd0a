/*
 * saxpy.cu - out[i] = a * x[i] + y[i] ("single-precision a times x plus y").
 *
 * Kitchen view: one element per cook, like vector_add.cu, and one more ingredient: the number a
 * is not an array but a plain float handed to every cook with the launch (kernel parameters are
 * copied to each cook; no shipment needed). nvcc turns a * x + y into one fused multiply-add
 * (rounded once), which is why the CPU's reference rounds once too.
 *
 * Runs on the GPU (nvcc) and on cudachef's CPU emulator (the C compiler) from this one file.
 */
#include "kernel.h"

__global__ void saxpy(const float *x, const float *y, float *out, float a, int n) /* @mark scalar-parameter */
{
    int i = blockIdx.x * blockDim.x + threadIdx.x; /* @mark global-index */
    if (i < n) {                 /* @mark bounds-check */
        out[i] = a * x[i] + y[i]; /* @mark the-work */
    }
}
