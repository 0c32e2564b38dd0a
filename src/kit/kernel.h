/*
 * kernel.h - the one header every kernel in kernels/ includes.
 *
 * The same kernel file is compiled two ways:
 *   - by nvcc for the GPU: then CUDA C is understood as it is (this header adds only CUDA's own
 *     pipeline primitives, the asynchronous copies to shared memory);
 *   - by the C compiler for cudachef's CPU emulator: then it pulls in emu_kernel.h, which
 *     gives threadIdx, blockIdx, __shared__, __syncthreads() and atomicAdd GPU meaning on the CPU,
 *     and emu_runtime.h, the CUDA runtime's host words (cudaMalloc, cudaMemcpy, ...) on the emulator.
 * So kernels are written in the part of CUDA C that is also C: no templates, no references,
 * C casts instead of reinterpret_cast.
 *
 * A comment `@mark NAME` on a line tags it as one that matters: lessons point at it and the
 * reader highlights it. It changes nothing in the kernel.
 */
#ifndef CUDACHEF_KERNEL_H
#define CUDACHEF_KERNEL_H

#if defined(CUDACHEF_CXX_H)
/* a whole program on the emulator (cxx/cudachef.h is already in): it has every word this header
   would bring, so a program can include a recipe's kernel file unchanged (make bench does) */
#elif !defined(__CUDACC__)
#include "emu_kernel.h"
#include "emu_runtime.h" /* the host's CUDA runtime on the emulator: cudaMalloc, cudaMemcpy, ... */
#else
#include <cuda_pipeline_primitives.h> /* __pipeline_memcpy_async & co (matmul_async.cu) */
/* half, __nv_bfloat16 and the warp matrix functions (matmul_wmma.cu), included here at file scope:
   the GPU's table includes every kernel inside a namespace, where a kernel's own includes of these
   headers then find them already read */
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>
#endif

#endif
