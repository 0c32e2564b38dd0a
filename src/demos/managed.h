/*
 * managed.h - the "managed" demo (lesson 20, unified memory): one recipe cooked three ways, each
 * run on the clock and tasted.
 *
 *   (a) explicit     cudaMalloc in the kitchen's pantry, the inputs shipped in with cudaMemcpy, the
 *                    output shipped out: the five steps, as every other demo cooks;
 *   (b) on demand    cudaMallocManaged: one pointer for both pantries. The head chef writes the
 *                    inputs; during the first launch every page the cooks touch moves to the kitchen
 *                    when they first touch it (a page fault on the GPU), and the output moves back
 *                    when the head chef first reads it. A second launch on the same memory finds
 *                    every page already there;
 *   (c) prefetched   the same managed memory, moved before it is needed with cudaMemPrefetchAsync:
 *                    every buffer to the kitchen before the launch, the output back before the taste.
 *
 * Every way runs once to warm up, then `repeat` times on the clock (the managed ways on fresh memory
 * each time, so every run meets its first touch), and each figure is the median of those runs. The
 * journey is move in + first launch + move out + read: the read is the head chef's first pass over
 * the output, and with managed memory that pass is what moves it back. The second launch is timed
 * apart and is no part of the journey; the taste comes after, untimed. Moves and launches are timed
 * by CUDA events on a GPU; the read and the host clock by the CPU clock.
 *
 * On a GPU the device is asked what it allows (cudaDevAttrManagedMemory,
 * cudaDevAttrConcurrentManagedAccess, cudaDevAttrPageableMemoryAccess): without managed memory (b)
 * and (c) are left out, without concurrent access (c) is (prefetching to the GPU needs it). On the
 * emulator there is one memory: managed memory is ordinary memory, no page moves and nothing is
 * prefetched; the three ways still run the same kernel source and every time is a CPU time. No GPU
 * time is modeled: no device file gives the road's speed or the cost of a page fault.
 * The module has the shape of demo.h: managed_run, managed_text, managed_json, managed_free.
 */
#ifndef CUDACHEF_MANAGED_H
#define CUDACHEF_MANAGED_H

#include <jansson.h>
#include <stdio.h>

#include "demos/demo.h"

#define MANAGED_DEFAULT_REPEAT 5
#define MANAGED_MAX_REPEAT 100
/* Every buffer of the recipe together stays under this: the demo shows page faults, it does not
   fill the card (a GPU machine's operators ask for cudaMalloc, not managed memory, for big data). */
#define MANAGED_MAX_BYTES ((size_t)1 << 30)

typedef enum managed_way { MANAGED_EXPLICIT, MANAGED_ON_DEMAND, MANAGED_PREFETCH, MANAGED_WAYS } managed_way;

/* Why a way did not run. */
typedef enum managed_skip {
    MANAGED_SKIP_NONE,
    MANAGED_SKIP_NO_MANAGED,    /* the device cannot allocate managed memory */
    MANAGED_SKIP_NO_CONCURRENT  /* the device cannot be prefetched to (no concurrent managed access) */
} managed_skip;

/* What a GPU says about managed memory (cudaDeviceGetAttribute); asked is 0 on the emulator. */
typedef struct managed_support {
    int asked;
    int device;                 /* the device ordinal asked */
    int managed_memory;         /* cudaDevAttrManagedMemory: cudaMallocManaged works */
    int concurrent_access;      /* cudaDevAttrConcurrentManagedAccess: pages move on demand while a
                                   kernel runs, and can be prefetched to the GPU */
    int pageable_access;        /* cudaDevAttrPageableMemoryAccess: the GPU reads ordinary (malloc)
                                   host memory coherently */
} managed_support;

/* The figures of one run of one way, in ms. */
typedef struct managed_figures {
    double in, cook, again, out;
    double read;                /* the head chef's first pass over the output */
    double journey;             /* in + cook + out + read */
    double clock;               /* the host clock around the same steps (the second launch left out) */
} managed_figures;

/* One way. Each figure is the median of that figure over the timed runs, taken on its own. */
typedef struct managed_variant {
    managed_way way;
    int ran;                    /* every run ran and was tasted */
    managed_skip skipped;
    int moved;                  /* 1: something was moved on purpose (a copy, a prefetch): in and out
                                   were measured; 0: nothing was (their columns are empty) */
    managed_figures median;
    double journey_runs[MANAGED_MAX_REPEAT]; /* the journey of every timed run, in order */
    int runs;                   /* timed runs behind the medians */
    int tasted, tasted_right;   /* runs tasted (the warm-up too) and those that tasted right */
    verify_result taste;        /* the worst of them */
} managed_variant;

typedef struct managed_result {
    backend_info backend;
    managed_support support;
    const char *recipe, *kernel;
    int64_t n;
    chef_dim3 grid, block;
    uint64_t seed;
    int pinned;                 /* the explicit way's host memory */
    int repeat;
    size_t bytes_in, bytes_out; /* the inputs together, and the output */
    char inputs[64], output[16];/* the buffers' names: "a, b" and "c" */
    double rtol, atol;
    managed_variant variants[MANAGED_WAYS];
    int exit_code;
    chef_error error;           /* set when exit_code is neither 0 nor 1 */
} managed_result;

/* Runs the demo on p->run.backend: recipe p->run.recipe (default vector-add; a recipe with a kernel
   of ours that writes its output whole), n, threads per block, pinned (the explicit way), repeat,
   seed. Returns the exit code (0 every way that ran tasted right, 1 one did not, others: err); *out
   is set whenever the kitchen was opened. */
int managed_run(const demo_params *p, managed_result **out, chef_error *err);

/* Writes the result for people, in the learner's language. */
void managed_text(FILE *out, const managed_result *r);

/* The result for programs (kind "managed", docs/DEMOS.md); the caller owns the reference. */
json_t *managed_json(const managed_result *r);

/* Releases a result. */
void managed_free(managed_result *r);

/* "explicit", "on-demand" or "prefetch". */
const char *managed_way_name(managed_way way);

/*
 * The GPU half (managed_gpu.c; managed_gpu_none.c without CUDA, where each fails with exit 5).
 * Each returns 0, or -1 with err naming the CUDA call and its error.
 */

/* Asks the current device its three managed-memory attributes. */
int managed_gpu_support(managed_support *s, chef_error *err);

/* cudaMallocManaged(ptr, bytes, cudaMemAttachGlobal): memory both the head chef and the cooks use. */
int managed_gpu_alloc(void **ptr, size_t bytes, chef_error *err);

/* cudaFree of managed memory. */
int managed_gpu_free(void *ptr, chef_error *err);

/* Moves count buffers (ptrs[i], bytes[i] each) to device (to_device) or to the host with
   cudaMemPrefetchAsync on the default stream, and waits for them; *ms: CUDA events around them all. */
int managed_gpu_prefetch(void *const *ptrs, const size_t *bytes, int count, int to_device, int device, double *ms,
                         chef_error *err);

#endif
