/*
 * test_kernels.cu - small kernels that exercise one emulator rule each (see tests/test_emu.c).
 */
#include "../../kernels/kernel.h"

/* Every cook writes its own coordinates, encoded, at its global linear index. */
__global__ void write_index_3d(int *out)
{
    unsigned block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    unsigned thread = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    unsigned global = block * (blockDim.x * blockDim.y * blockDim.z) + thread;
    out[global] = (int)(threadIdx.x | threadIdx.y << 8 | threadIdx.z << 16 | blockIdx.x << 24);
}
