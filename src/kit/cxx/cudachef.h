/*
 * cudachef.h - CUDA C++'s words for a whole program built for the CPU emulator (docs/EMULATOR.md,
 * "Whole programs"). The program build forces it in before every source file of the learner's
 * program; the headers beside it (cuda_runtime.h, cooperative_groups.h, ...) stand in for the
 * toolkit's, so a program includes what it includes on a GPU and gets these.
 *
 * It shares the emulator's declarations with the C kit (../emu_kernel.h, ../emu_runtime.h): the
 * cooks' coordinates, the cursor that runs a team's cooks, the barrier, the warp rendezvous, the
 * runtime's emu_cuda_* calls. What is C++ here: shuffles, atomics and min/max are overloads, the runtime's calls
 * are functions and templates with CUDA's signatures, and a launch is a function the source pass
 * writes in place of `kernel<<<grid, block, shared, stream>>>(args)`:
 *
 *     ::cudachef::launch<TU, SITE>("kernel", dim3-or-count, ..., [=, a0 = (args)...]() { kernel(a0...); })
 *
 * The closure keeps the arguments' values from the moment of the launch (as CUDA copies them); the
 * entry that cooks a team calls it once per cook, so the kernel is inlined there as a recipe's is.
 * The same source is built twice, plainly and checked (EMU_CHECKED: every access calls the
 * emulator); the record of each launch site (site_of<TU, SITE, closure>::record) has the same name
 * in both builds, which is how a program's first launch at each site runs the checked build.
 */
#ifndef CUDACHEF_CXX_H
#define CUDACHEF_CXX_H

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>
#include <new>
#include <type_traits>

#include "../emu_kernel.h"
#include "../emu_runtime.h"

/* --- the checked build's calls: the compiler's ThreadSanitizer hooks go to the emulator's checks --- */
#include "../emu_check_names.h"
#ifdef EMU_CHECKED
/* what the emulator does not instrument: its own entry and the atomics */
#define CUDACHEF_PLAIN __attribute__((no_sanitize_thread, no_sanitize_coverage))
#else
#define CUDACHEF_PLAIN
#endif

/* --- CUDA's keywords that need no source pass (the pass handles __global__, __shared__,
   __device__, __constant__, __managed__ and __noinline__, and the launches; a host file, which
   the pass does not see as CUDA, gets __global__ as nothing) --- */
#ifndef __CUDACC__
#define __global__
#endif
#define __host__
#define __forceinline__ inline __attribute__((always_inline))
#define __launch_bounds__(...)
#define __maxnreg__(n)
#define __grid_constant__
#define __align__(n) __attribute__((aligned(n)))
#define __builtin_align__(n) __attribute__((aligned(n)))
#define __cudart_builtin__

/* --- the cooks' coordinates: the emulator's per-cook values under CUDA's names --- */
struct dim3 {
    unsigned int x, y, z;
    constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
    constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
    constexpr operator uint3() const { return uint3{x, y, z}; }
};
/* the very variables the entry writes (../emu_kernel.h), by name: under another name for the same
   symbol the compiler would not know a kernel inlined into the entry reads what the entry wrote */
#define threadIdx emu_thread_idx
#define blockIdx emu_block_idx
#define blockDim emu_block_dim
#define gridDim emu_grid_dim
constexpr int warpSize = 32;
/* the worker's dynamic shared area, where every extern __shared__ array starts (prog_prep.c) */
extern EMU_TLS unsigned char cudachef_dynamic_shared[] __asm__("emu_dynamic_shared");

#include "cudachef_types.h"
#include "cudachef_runtime.h"
#ifdef __CUDACC__ /* a .cu file: the device's words; a .cpp that includes cuda_runtime.h gets the host's */
#include "cudachef_device.h"

namespace cudachef {

/* The emulator's entry for one launch site: runs the team's cooks not yet started, calling the
   launch's closure (the kernel with its arguments) once for each. */
template <class F> CUDACHEF_PLAIN void entry(void **args)
{
    if constexpr (sizeof(F) <= 256) {
        /* a local copy the kernel's stores cannot reach (so the compiler keeps the arguments in
           registers), and a copy of it for each cook: a kernel's parameters are each cook's own */
        const F kept = *static_cast<const F *>(args[0]);
        EMU_COOK_ALL((F(kept))());
    } else {
        /* large parameters (CUDA allows 32 KB): one copy, the launch's, for every cook rather than
           one on each cook's small stack (they are __grid_constant__ in practice) */
        F &kept = *static_cast<F *>(args[0]);
        EMU_COOK_ALL(kept());
    }
}

/* One launch site, as the program's two builds both hold it. */
template <int TU, int SITE, class F> struct site_of {
    static const emu_site record;
};
template <int TU, int SITE, class F> const emu_site site_of<TU, SITE, F>::record = {&entry<F>};

/* A launch's grid or block: a dim3, a uint3 or a count. */
inline dim3 shape(dim3 d) { return d; }
inline dim3 shape(uint3 d) { return dim3(d); }
template <class T, class = std::enable_if_t<std::is_integral_v<T> || std::is_enum_v<T>>> inline dim3 shape(T n)
{
    return dim3((unsigned int)n);
}

/* A launch's argument as CUDA passes it: its bytes, copied when the launch is made, with no
   constructor or destructor of the program's run on them by the launch (a class with a destructor
   given by value, as CUDA by Example's Lock, is not destroyed when the launch's closure is). */
template <class T> struct kernel_arg {
    alignas(T) unsigned char bytes[sizeof(T)];
    T &get() { return *std::launder(reinterpret_cast<T *>(bytes)); }
};
/* An argument kept for the launch: a value the compiler may keep in a register when copying it
   runs no code of the program's (a pointer, a number, a plain struct), else its bytes. */
template <class T> inline auto kernel_arg_of(T &&value)
{
    using D = std::decay_t<T>;
    if constexpr (std::is_trivially_copyable_v<D>) {
        return D(value);
    } else {
        kernel_arg<D> a;
        memcpy(a.bytes, (const void *)std::addressof(value), sizeof(D));
        return a;
    }
}
/* What the kernel is called with: the argument kept. */
template <class T> inline T &arg(kernel_arg<T> &a) { return a.get(); }
template <class T> inline T &arg(T &value) { return value; }

/* kernel<<<grid, block, shared, stream>>>(args), as the source pass wrote it. */
template <int TU, int SITE, class G, class B, class F>
inline void launch(const char *kernel, const char *file, int line, G grid, B block, F call,
                          size_t shared = 0, cudaStream_t stream = 0)
{
    dim3 g = shape(grid), b = shape(block);
    emu_cuda_config c = {{g.x, g.y, g.z}, {b.x, b.y, b.z}, shared, stream};
    emu_cuda_launch_site(&site_of<TU, SITE, F>::record, kernel, file, line, c, &call, sizeof call);
}

} // namespace cudachef
#endif

#endif
