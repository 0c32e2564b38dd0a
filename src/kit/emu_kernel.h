/*
 * emu_kernel.h - CUDA C's kernel vocabulary for the C compiler (the CPU emulator's side).
 *
 * Included through src/kit/kernel.h when a kernel is compiled as C. Each CUDA word becomes C:
 *   threadIdx, blockIdx   -> per-fiber values the emulator sets before a cook runs;
 *   blockDim, gridDim     -> the launch configuration;
 *   __shared__            -> static _Thread_local: one copy per worker thread, and a worker
 *                            cooks one block at a time, so one copy per running block;
 *   __syncthreads()       -> emu_syncthreads(): the cook waits (its fiber is set aside) until
 *                            every cook of its block has arrived;
 *   atomicAdd             -> real atomic operations (blocks run on several worker threads).
 * __global__ functions become static so that the plain and checked builds can be linked together.
 */
#ifndef CUDACHEF_EMU_KERNEL_H
#define CUDACHEF_EMU_KERNEL_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
/* CUDA C++ programs (src/kit/cxx/cudachef.h) share the emulator's declarations below; the words that
   are C only (_Generic, macros that C++ spells as overloads) are left to this header's C side. */
/* the emulator's variables live in the program that loads the learner's build: initial-exec
   reaches them at a fixed offset, where the default model of a shared object calls the C
   library for each function that touches one */
#define EMU_TLS __thread __attribute__((tls_model("initial-exec")))
extern "C" {
#else
#define EMU_TLS _Thread_local
#endif

typedef struct uint3 {
    unsigned int x, y, z;
} uint3;

#ifndef __cplusplus
typedef uint3 dim3;

/* Kernels read float arrays through float2 and float4 pointers, as CUDA code does: those types
   may alias any memory, so the rest of a kernel keeps C's aliasing rules (a float stored through
   c[i] cannot change blockIdx, which the compiler then keeps in a register). */
typedef struct __attribute__((may_alias)) float2 {
    float x, y;
} float2;
typedef struct __attribute__((may_alias)) float4 {
    float x, y, z, w;
} float4;

/* Constructs a float4 as CUDA's make_float4 does. */
static inline float4 make_float4(float x, float y, float z, float w)
{
    float4 v = {x, y, z, w};
    return v;
}
#endif

extern EMU_TLS uint3 emu_thread_idx;
extern EMU_TLS uint3 emu_block_idx;
extern EMU_TLS uint3 emu_block_dim;
extern EMU_TLS uint3 emu_grid_dim;

#ifndef __cplusplus

#define threadIdx emu_thread_idx
#define blockIdx emu_block_idx
#define blockDim emu_block_dim
#define gridDim emu_grid_dim
enum { warpSize = 32 }; /* an enum, not a macro: a struct may have a warpSize member (cudaDeviceProp) */

#define __global__ static
#define __device__ static inline
#define __host__
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ /* a GPU inlining choice: on the emulator every __device__ function is static inline */
#define __restrict__ restrict
#define __shared__ static _Thread_local
#define __constant__ static const
#define __launch_bounds__(...)
#define __align__(n) __attribute__((aligned(n)))
#endif

/*
 * Shared memory (docs/EMULATOR.md). The source pass (emu_prep.c) turns each __shared__ array into
 * an EMU_SHARED one reached through emu_shared_seen, which poisons and registers it the first time
 * a cook of a new team reaches its declaration (emu_team_serial changes with every team). extern
 * __shared__ arrays are the worker's dynamic shared area, sized by the launch.
 */
#define EMU_SHARED static _Thread_local __attribute__((aligned(16)))
#define EMU_DYNAMIC_SHARED _Thread_local __attribute__((aligned(16)))
#define EMU_DYNAMIC_SHARED_NAME __asm__("emu_dynamic_shared")
extern EMU_TLS unsigned long long emu_team_serial;
void emu_shared_fresh(void *array, size_t bytes, const char *name);
#ifdef EMU_CHECKED
/* In the checked build the compiler must not see which array a pointer reaches, so that it checks
   (and counts) every access, constant indices too. */
#define EMU_OPAQUE(p) __asm__("" : "+r"(p))
#else
#define EMU_OPAQUE(p) ((void)0)
#endif
void *emu_shared_enter(void *array, size_t bytes, unsigned long long *serial, const char *name);
/* What a rewritten __shared__ declaration calls: the array, poisoned for each new team. In the
   checked build the test is the emulator's own function (emu_shared_enter), so that the branch
   only the team's first cook takes is not counted as the kernel's divergence. */
static inline void *emu_shared_seen(void *array, size_t bytes, unsigned long long *serial, const char *name)
{
#ifdef EMU_CHECKED
    array = emu_shared_enter(array, bytes, serial, name);
#else
    if (__builtin_expect(*serial != emu_team_serial, 0)) {
        *serial = emu_team_serial;
        emu_shared_fresh(array, bytes, name);
    }
#endif
    EMU_OPAQUE(array);
    return array;
}

/*
 * The cursor over a block's cooks, kept by each worker thread. The emulator's entry for a kernel
 * loops "while a cook is left: set threadIdx, run the kernel body once" with the body inlined,
 * so a kernel without barriers costs a few instructions per cook beyond its own work.
 */
typedef struct emu_cursor {
    uint32_t next, nthreads;      /* next cook to start (linear), cooks in the block */
    uint32_t barriers;            /* times a cook of this block stopped at __syncthreads() */
    const uint32_t *order;        /* shuffled start order, or NULL for 0, 1, 2, ... */
} emu_cursor;
extern EMU_TLS emu_cursor emu_cur;

/* Starts cook number t of a shuffled order: sets its threadIdx. */
static inline void emu_thread_shuffled(uint32_t t)
{
    uint32_t o = emu_cur.order[t], bx = emu_block_dim.x, by = emu_block_dim.y;
    emu_thread_idx.x = o % bx;
    emu_thread_idx.y = (o / bx) % by;
    emu_thread_idx.z = o / (bx * by);
}

/* Makes the compiler store threadIdx before the cook's body runs (rather than once after the loop),
   so a fault inside the body is blamed on the right cook. Costs no instruction. */
#define EMU_PUBLISH(value) __asm__ __volatile__("" : : "m"(value))

/*
 * EMU_COOK_ALL(body): what the emulator's entry for a kernel does on a runner fiber: start the
 * block's remaining cooks one after another, running body (the kernel, inlined) for each. Cooks
 * start in rows of blockDim.x, so within a row only threadIdx.x changes; the shared cursor
 * (emu_cur.next) is written at the end of each row, and by __syncthreads() when a cook stops to
 * wait (a fresh runner then takes over from the next cook). When a waiting cook resumes and
 * returns, emu_cur.barriers has changed, and its runner stops starting cooks of its row.
 */
#define EMU_COOK_ALL(body)                                                                         \
    do {                                                                                           \
        uint32_t bx_ = emu_block_dim.x, by_ = emu_block_dim.y, n_ = emu_cur.nthreads;              \
        if (emu_cur.order) {                                                                       \
            for (uint32_t t_; (t_ = emu_cur.next) < n_;) {                                         \
                emu_cur.next = t_ + 1;                                                             \
                emu_thread_shuffled(t_);                                                           \
                EMU_PUBLISH(emu_thread_idx);                                                       \
                body;                                                                              \
            }                                                                                      \
            break;                                                                                 \
        }                                                                                          \
        for (uint32_t t_; (t_ = emu_cur.next) < n_;) {                                             \
            uint32_t x_ = t_ % bx_, row_ = t_ / bx_, barriers_ = emu_cur.barriers;                 \
            uint32_t end_ = t_ - x_ + bx_ < n_ ? t_ - x_ + bx_ : n_;                               \
            emu_thread_idx.y = row_ % by_;                                                         \
            emu_thread_idx.z = row_ / by_;                                                         \
            for (; t_ < end_; t_++, x_++) {                                                        \
                emu_thread_idx.x = x_;                                                             \
                EMU_PUBLISH(emu_thread_idx);                                                       \
                body;                                                                              \
                if (emu_cur.barriers != barriers_)                                                 \
                    break;                                                                         \
            }                                                                                      \
            if (t_ == end_)                                                                        \
                emu_cur.next = end_;                                                               \
        }                                                                                          \
    } while (0)

/* The barrier: line says which __syncthreads() call in the kernel was reached. */
void emu_syncthreads(int line);
#ifndef __cplusplus
#define __syncthreads() emu_syncthreads(__LINE__)
#endif

/*
 * Warp collectives: each is a rendezvous of the lanes named in its mask (see docs/EMULATOR.md).
 * emu_warp_op takes the lane's value as bits and returns the lane's result as bits.
 */
enum {
    EMU_WARP_SYNC = 1,   /* __syncwarp */
    EMU_WARP_SHFL_IDX,   /* __shfl_sync */
    EMU_WARP_SHFL_UP,    /* __shfl_up_sync */
    EMU_WARP_SHFL_DOWN,  /* __shfl_down_sync */
    EMU_WARP_SHFL_XOR,   /* __shfl_xor_sync */
    EMU_WARP_BALLOT,     /* __ballot_sync */
    EMU_WARP_ANY,        /* __any_sync */
    EMU_WARP_ALL,        /* __all_sync */
    EMU_WARP_ACTIVE,     /* __activemask */
    EMU_WARP_WMMA_LOAD,  /* wmma::load_matrix_sync (emu_wmma.h) */
    EMU_WARP_WMMA_MMA,   /* wmma::mma_sync */
    EMU_WARP_WMMA_STORE  /* wmma::store_matrix_sync */
};
uint64_t emu_warp_op(int kind, unsigned mask, uint64_t value, int operand, int width, int line);
/* The rules of the warp matrix functions a lane may break (emu_wmma.h; emu.c words them). */
enum {
    EMU_WHY_PARTIAL_WARP,  /* a warp of fewer than 32 cooks */
    EMU_WHY_UNALIGNED,     /* a pointer off a 32-byte boundary */
    EMU_WHY_LDM_16BIT,     /* ldm not a multiple of 8 halves */
    EMU_WHY_LDM_FLOAT,     /* ldm not a multiple of 4 floats */
    EMU_WHY_STORE_AB,      /* a matrix_a or matrix_b fragment stored */
    EMU_WHY_SHAPES         /* fragments that do not make one product */
};
/* Stops the launch: the running lane broke rule why (EMU_WHY_*) of the warp collective kind at line. */
void emu_warp_fault(int kind, int line, int why);

/* One shuffle per value type: the value goes through as its bits. */
#define EMU_SHFL_TYPED(suffix, type)                                                               \
    static inline type emu_shfl_##suffix(int kind, unsigned mask, type v, int operand, int width, int line) \
    {                                                                                              \
        uint64_t bits = 0;                                                                         \
        __builtin_memcpy(&bits, &v, sizeof v);                                                     \
        bits = emu_warp_op(kind, mask, bits, operand, width, line);                                \
        __builtin_memcpy(&v, &bits, sizeof v);                                                     \
        return v;                                                                                  \
    }
EMU_SHFL_TYPED(i, int)
EMU_SHFL_TYPED(u, unsigned int)
EMU_SHFL_TYPED(l, long)
EMU_SHFL_TYPED(ul, unsigned long)
EMU_SHFL_TYPED(ll, long long)
EMU_SHFL_TYPED(ull, unsigned long long)
EMU_SHFL_TYPED(f, float)
EMU_SHFL_TYPED(d, double)
#undef EMU_SHFL_TYPED
#ifndef __cplusplus
#define EMU_SHFL(kind, mask, var, operand, width)                                                  \
    _Generic((var), float: emu_shfl_f, double: emu_shfl_d, unsigned int: emu_shfl_u, long: emu_shfl_l, \
             unsigned long: emu_shfl_ul, long long: emu_shfl_ll, unsigned long long: emu_shfl_ull,  \
             default: emu_shfl_i)(kind, mask, var, operand, width, __LINE__)
/* The optional width argument of the shuffles: 32 when left out. */
#define EMU_WIDTH(...) (32 __VA_OPT__(*0 + (__VA_ARGS__)))
#define __shfl_sync(mask, var, src, ...) EMU_SHFL(EMU_WARP_SHFL_IDX, mask, var, src, EMU_WIDTH(__VA_ARGS__))
#define __shfl_up_sync(mask, var, delta, ...)                                                      \
    EMU_SHFL(EMU_WARP_SHFL_UP, mask, var, delta, EMU_WIDTH(__VA_ARGS__))
#define __shfl_down_sync(mask, var, delta, ...)                                                    \
    EMU_SHFL(EMU_WARP_SHFL_DOWN, mask, var, delta, EMU_WIDTH(__VA_ARGS__))
#define __shfl_xor_sync(mask, var, lane_mask, ...)                                                 \
    EMU_SHFL(EMU_WARP_SHFL_XOR, mask, var, lane_mask, EMU_WIDTH(__VA_ARGS__))
#define __syncwarp(...) ((void)emu_warp_op(EMU_WARP_SYNC, (0xffffffffu __VA_OPT__(&0u | (__VA_ARGS__))), 0, 0, 32, __LINE__))
#define __ballot_sync(mask, pred) ((unsigned int)emu_warp_op(EMU_WARP_BALLOT, mask, (pred) != 0, 0, 32, __LINE__))
#define __any_sync(mask, pred) ((int)emu_warp_op(EMU_WARP_ANY, mask, (pred) != 0, 0, 32, __LINE__))
#define __all_sync(mask, pred) ((int)emu_warp_op(EMU_WARP_ALL, mask, (pred) != 0, 0, 32, __LINE__))
#define __activemask() ((unsigned int)emu_warp_op(EMU_WARP_ACTIVE, 0, 0, 0, 32, __LINE__))
#endif

#ifndef __cplusplus
/* Bit intrinsics that go with the votes. */
#define __popc(x) __builtin_popcount((unsigned int)(x))
#define __popcll(x) __builtin_popcountll((unsigned long long)(x))
#define __ffs(x) __builtin_ffs((int)(x))
#define __clz(x) ((unsigned int)(x) ? __builtin_clz((unsigned int)(x)) : 32)
#endif

int emu_atomic_add_int(int *address, int value);
unsigned int emu_atomic_add_uint(unsigned int *address, unsigned int value);
unsigned long long emu_atomic_add_ull(unsigned long long *address, unsigned long long value);
float emu_atomic_add_float(float *address, float value);
double emu_atomic_add_double(double *address, double value);
int emu_atomic_max_int(int *address, int value);
int emu_atomic_cas_int(int *address, int compare, int value);

/* The address of an atomic, evaluated once: the checked build checks and counts it first (the
   atomics themselves live in the emulator, which is not instrumented). */
#ifdef EMU_CHECKED
void emu_check_atomic(void *address, size_t size);
#define EMU_ATOMIC_AT(address)                                                                     \
    ({                                                                                             \
        __typeof__(address) emu_at_ = (address);                                                   \
        emu_check_atomic((void *)emu_at_, sizeof *emu_at_);                                        \
        emu_at_;                                                                                   \
    })
#else
#define EMU_ATOMIC_AT(address) (address)
#endif

#ifndef __cplusplus
/* atomicAdd returns the old value, like CUDA's; the type of address picks the operation. */
#define atomicAdd(address, value)                                                                  \
    _Generic((address),                                                                            \
        int *: emu_atomic_add_int,                                                                 \
        unsigned int *: emu_atomic_add_uint,                                                       \
        unsigned long long *: emu_atomic_add_ull,                                                  \
        float *: emu_atomic_add_float,                                                             \
        double *: emu_atomic_add_double)(EMU_ATOMIC_AT(address), value)
#define atomicMax(address, value) emu_atomic_max_int(EMU_ATOMIC_AT(address), value)
#define atomicCAS(address, compare, value) emu_atomic_cas_int(EMU_ATOMIC_AT(address), compare, value)
#endif

/*
 * CUDA's pipeline primitives (cuda_pipeline_primitives.h): on a GPU, __pipeline_memcpy_async asks
 * for a copy from global to shared memory (cp.async) that travels while the cook goes on, and
 * __pipeline_wait_prior(k) waits until all but the k latest batches (__pipeline_commit) landed.
 * Here the copy is done at once, as the cook's own loads and stores (so the checked build counts
 * them), and there is nothing to wait for: the order a kernel's barriers give is the same.
 * size is 4, 8 or 16 bytes; the last zfill of them are zeros, not read. zfill may be left out.
 */
static inline void emu_pipeline_copy(void *dst, const void *src, size_t size, size_t zfill)
{
    size_t read = zfill < size ? size - zfill : 0;
    if (read == 16 && size == 16) {
        typedef struct __attribute__((may_alias, aligned(16))) emu_quad {
            float x, y, z, w;
        } emu_quad;
        *(emu_quad *)dst = *(const emu_quad *)src;
        return;
    }
    for (size_t b = 0; b + 4 <= size; b += 4)
        ((float *)dst)[b / 4] = b < read ? ((const float *)src)[b / 4] : 0.0f;
}
#define EMU_ZFILL(...) (0 __VA_OPT__(+(__VA_ARGS__)))
#define __pipeline_memcpy_async(dst, src, size, ...) emu_pipeline_copy(dst, src, size, EMU_ZFILL(__VA_ARGS__))
#define __pipeline_commit() ((void)0)
#define __pipeline_wait_prior(prior) ((void)(prior))

#ifdef __cplusplus
}
#else
/* CUDA's integer min and max. */
static inline int min(int a, int b)
{
    return a < b ? a : b;
}
static inline int max(int a, int b)
{
    return a > b ? a : b;
}
#endif

#endif
