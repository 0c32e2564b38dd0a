/*
 * vector_add_float4.cu - vector add where each cook adds four neighbouring elements with 16-byte
 * loads and stores (float4).
 *
 * Vector add does one addition per 12 bytes moved, so its speed is the pantry's (memory's) speed.
 * vector_add.cu already keeps a warp's requests side by side (coalesced); what is left is the number
 * of requests. Here each cook moves four floats per trip: a quarter of the load and store
 * instructions for the same bytes, and more bytes in flight per cook, which is what keeps the
 * memory busy.
 *
 * Kitchen view: cook i (counted over the whole grid) owns elements 4i .. 4i+3. The arrays start
 * at addresses from cudaMalloc (multiples of 256 bytes), so element 4i sits at a multiple of 16
 * bytes: the float4 trips are allowed. The last cook may find fewer than four elements left: it
 * adds them one at a time. Launch: ceil(n / 4 / threads) teams.
 */
#include "kernel.h"

__global__ void vector_add_float4(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x; /* my group of four */
    int first = i * 4;                              /* @mark four-per-cook */
    if (first + 3 < n) {
        float4 x = ((const float4 *)a)[i];          /* @mark float4-load: one 16-byte load */
        float4 y = ((const float4 *)b)[i];
        ((float4 *)c)[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
    } else {
        for (int k = first; k < n; k++)             /* the tail: fewer than four left */
            c[k] = a[k] + b[k];
    }
}
