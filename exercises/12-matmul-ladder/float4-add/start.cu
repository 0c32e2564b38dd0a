/*
 * float4-add.cu - your exercise for lesson 12: c = a + b, each cook adding four neighbouring
 * elements with one float4 load from each array and one float4 store, as rung 6 loads its tiles.
 *
 * The launch gives one cook per group of four (the last group may be short). Right now each cook
 * adds only the first number of its group. Complete it (the TODOs). `cudachef grade float4-add`
 * checks it with n = 3, 1024, 4097 and 100003.
 */
#include "kernel.h"

__global__ void vector_add_float4(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x; /* my group of four */
    int first = i * 4;                              /* its first element */
    /* TODO 1: when the whole group is inside (first + 3 < n), load a's and b's four numbers as one
       float4 each ((const float4 *)a)[i], add them lane by lane, store one float4 to c. */
    /* TODO 2: otherwise (the short last group), add its elements one at a time, up to n. */
    if (first < n)
        c[first] = a[first] + b[first];
}
