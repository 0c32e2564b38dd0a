/*
 * reduction.cu - your exercise for lesson 10: *sum = a[0] + a[1] + ... + a[n-1].
 *
 * Each team of 256 cooks adds up its own 256 numbers in its shared locker, then one cook of the
 * team adds the team's total into *sum (which the kitchen sets to 0 before the launch). Filling
 * the locker and the final atomicAdd are written; the tournament in between is not, so right now
 * each team sends only its first number. Complete the TODO; `cudachef grade reduction` checks
 * your kernel on n = 1, 1000, 4096 and 100000, and on the emulator again with the cooks in
 * shuffled orders.
 */
#include "kernel.h"

#define TEAM 256 /* cooks per team: the locker holds one number per cook */

__global__ void sum_reduce(const float *a, float *sum, int n)
{
    __shared__ float partial[TEAM]; /* the team's shared locker: one slot per cook */

    int t = threadIdx.x;                 /* my place in the team, and my slot */
    int i = blockIdx.x * blockDim.x + t; /* my element */
    partial[t] = i < n ? a[i] : 0.0f;    /* idle cooks bring 0, which changes no sum */
    __syncthreads();                     /* every slot is filled before anyone reads one */

    /* TODO: the tournament. Start with stride = TEAM / 2 and halve it each round, down to 1. In a
       round, each cook t below stride adds its partner's slot, partial[t + stride], into its own.
       Every cook of the team, playing or not, waits at a barrier before the next round starts. */

    /* One cook per team takes the team's total to the pot, with one indivisible add. */
    if (t == 0)
        atomicAdd(sum, partial[0]);
}
