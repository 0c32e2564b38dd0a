#include "kernel.h"
/* Vector add with a transposed mapping: neighbouring cooks take elements n/32 apart (uncoalesced). */
__global__ void vector_add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int rows = n / 32;
    if (i < n) {
        int j = (i % 32) * rows + i / 32;
        c[j] = a[j] + b[j];
    }
}
