/* y-forgotten - a typical wrong version of this exercise: the fused step forgets to add y.
   Expected diagnosis: wrong-values. */
#include "kernel.h"

__global__ void saxpy(const float *x, const float *y, float *out, float a, int n)
{
    /* My element: the same i that both old kernels gave me. */
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    if (i < n) {
        /* Step 1: a * x[i], kept in my hands (a register). It never goes to the pantry. */
        float scaled = a * x[i];

        /* Step 2, by the same cook, and the dish's one write. The pantry now serves 3 floats per
           element (x, y, out) instead of 5 (x, tmp, then tmp, y, out), in one launch instead of 2. */
        out[i] = scaled;
    }
}
