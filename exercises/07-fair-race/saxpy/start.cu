/*
 * saxpy.cu - your exercise for lesson 7: out[i] = a * x[i] + y[i] for every i below n.
 *
 * saxpy is the old BLAS name "single-precision a times x plus y". x and y are arrays in the
 * kitchen's pantry; a is one plain float that every cook receives with the launch, like n. The
 * result goes to its own array, out: x and y are only read. The kitchen launches enough teams of
 * 256 cooks to cover n, one element per cook. Complete the TODOs; `cudachef grade saxpy` checks
 * your kernel on n = 1, 1000, 1024 and 100000.
 */
#include "kernel.h"

__global__ void saxpy(const float *x, const float *y, float *out, float a, int n)
{
    /* TODO 1: which element is mine? My team's first element plus my place in the team. */
    int i = 0;

    /* TODO 2: if my element exists (i below n), cook it: a times my x plus my y, into out. */
}
