/*
 * add_chain.cu - lesson 8's chain of eight vector adds in one kernel: c[i] = a[i] + b[i] + ... + b[i],
 * b added eight times, one add after the other.
 *
 * Kitchen view: the chain x[k+1] = x[k] + b, run as eight launches of vector_add on data that stays
 * in the kitchen, gives the same dish; here each cook keeps its running value in its own hands (a
 * register) for all eight steps, so the middle results never even go back to the pantry. The
 * adds are made in the same order as the eight launches make them, so both give the same floats.
 *
 * Runs on the GPU (nvcc) and on cudachef's CPU emulator (the C compiler) from this one file.
 */
#include "kernel.h"

#define ADD_CHAIN_STEPS 8

__global__ void add_chain(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = a[i];
        for (int s = 0; s < ADD_CHAIN_STEPS; s++) /* @mark the-work */
            x = x + b[i];
        c[i] = x;
    }
}
