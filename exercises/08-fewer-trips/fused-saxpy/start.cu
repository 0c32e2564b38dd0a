/*
 * fused-saxpy.cu - your exercise for lesson 8: out[i] = a * x[i] + y[i], in one kernel instead
 * of two.
 *
 * The first version of this dish had two steps, each a kernel of its own (kept in the comment
 * below): scale wrote a * x into a buffer tmp in the kitchen's pantry, then add_y read tmp back,
 * added y and wrote out. Two launches, and the middle result went out to the pantry and came
 * back. In both steps cook i works on element i only, so one cook can do both: keep a * x[i] in
 * hand, add y[i], write out[i] once. The kernel below does step 1 so far. Complete the TODO;
 * `cudachef grade fused-saxpy` checks your kernel on n = 1, 1000, 4096 and 250000.
 */
#include "kernel.h"

/* Before: two kernels, launched one after the other, with a buffer tmp of n floats between them.

__global__ void scale(const float *x, float *tmp, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        tmp[i] = a * x[i];
}

__global__ void add_y(const float *tmp, const float *y, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tmp[i] + y[i];
}
*/

__global__ void saxpy(const float *x, const float *y, float *out, float a, int n)
{
    /* My element: the same i that both old kernels gave me. */
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    if (i < n) {
        /* Step 1, as scale did it, but the result stays in my hands (a register), not in tmp. */
        float scaled = a * x[i];

        /* TODO: step 2, as add_y did it, by the same cook: add my element of y to what I hold
           before the one write to out. No tmp, no second launch. */
        out[i] = scaled;
    }
}
