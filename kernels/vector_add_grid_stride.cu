/*
 * vector_add_grid_stride.cu - vector add where each cook handles several elements.
 *
 * Kitchen view: when there are more elements than cooks (or we launch just enough teams to keep
 * every station busy), each cook starts at its global index and then jumps ahead by the size of
 * the whole kitchen (gridDim.x * blockDim.x cooks) until it passes the end. Neighbouring cooks
 * still touch neighbouring elements at every step, so memory accesses stay coalesced.
 */
#include "kernel.h"

__global__ void vector_add_grid_stride(const float *a, const float *b, float *c, int n)
{
    int stride = gridDim.x * blockDim.x;            /* @mark kitchen-size */
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) { /* @mark stride-loop */
        c[i] = a[i] + b[i];
    }
}
