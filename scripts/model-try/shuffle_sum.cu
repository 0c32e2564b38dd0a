#include "kernel.h"
/* One sum with warp shuffles: each warp adds its 32 values in registers, one atomic per warp. */
__global__ void sum_reduce(const float *a, float *sum, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? a[i] : 0.0f;
    for (int d = 16; d > 0; d /= 2)
        v += __shfl_down_sync(0xffffffff, v, d);
    if ((threadIdx.x & 31) == 0)
        atomicAdd(sum, v);
}
