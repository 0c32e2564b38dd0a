/*
 * walk.h - the "walk" demo (lesson 11, under the hood): the low-level API one call at a time.
 *
 * On a GPU, the CUDA runtime's own calls, each shown with its arguments and what it returned:
 * count the devices and choose one, read its properties, allocate device memory in bytes, ship
 * [1, 2, 3, 4] and [5, 6, 7, 8] in, launch vector_add with one team of 4 cooks, ship [6, 8, 10, 12]
 * back, make an error on purpose (an allocation larger than the device) and read its name and text,
 * carry on. Then a kernel compiled from a string while the program runs: NVRTC (loaded with dlopen,
 * so the program runs without it), loaded with cudaLibraryLoadData, launched with cudaLaunchKernel,
 * checked on the same numbers. Last, free.
 *
 * On the CPU emulator the same steps go through cudachef's backend interface (backend.h), labelled
 * as such; NVRTC needs a GPU and is skipped, not failed.
 */
#ifndef CUDACHEF_WALK_H
#define CUDACHEF_WALK_H

#include <jansson.h>
#include <stdio.h>

#include "demos/demo.h"

#define WALK_N 4
#define WALK_MAX_STEPS 48

typedef enum walk_status {
    WALK_OK = 0,          /* the call did what it should */
    WALK_ERROR_ON_PURPOSE, /* the call failed, as the demo meant it to */
    WALK_FAILED,          /* the call failed and should not have */
    WALK_SKIPPED          /* not run here (NVRTC without a GPU, or without libnvrtc) */
} walk_status;

/* One call of the walk. */
typedef struct walk_step {
    char id[24];          /* stable name for programs: "count-devices", "alloc", "nvrtc-compile", ... */
    char call[256];       /* the call as the program made it */
    char returned[256];   /* what it returned: "cudaSuccess", "NVRTC_SUCCESS", "0", "-1", ... */
    walk_status status;
    char detail[640];     /* what that means, for people (in the learner's language) */
} walk_step;

typedef struct walk_result {
    backend_info backend;         /* the GPU's properties, or the emulator */
    int device_count, device;     /* GPU: devices counted and the one chosen */
    size_t bytes;                 /* bytes of each array: WALK_N * sizeof(float) */
    float a[WALK_N], b[WALK_N], c[WALK_N];
    int verified;                 /* c == a + b, element by element */
    /* the error on purpose */
    size_t error_bytes;           /* the allocation that could not succeed */
    int error_reported;           /* the call returned an error */
    char error_name[64];          /* cudaGetErrorName (GPU); empty on the emulator */
    char error_text[512];         /* cudaGetErrorString, or the emulator's message */
    int error_exit_code;          /* emulator: the exit code its error carries */
    int carried_on;               /* a call after the error worked */
    /* NVRTC: a kernel compiled from a string while the program runs */
    walk_status nvrtc;
    char nvrtc_reason[320];       /* why it was skipped or failed */
    char nvrtc_library[64];       /* the library dlopen found */
    int nvrtc_major, nvrtc_minor;
    char nvrtc_arch[32];          /* "sm_90" (machine code) or "compute_90" (PTX) */
    char nvrtc_code[8];           /* "cubin" or "ptx" */
    size_t nvrtc_code_bytes;
    char nvrtc_log[4096];         /* the compiler's log, often empty */
    float nvrtc_c[WALK_N];
    int nvrtc_verified;
    /* every call, in order */
    walk_step steps[WALK_MAX_STEPS];
    int nsteps;
    walk_step overflow;           /* receives steps past WALK_MAX_STEPS (never shown) */
    int exit_code;
    chef_error error;             /* set when exit_code is neither 0 nor 1 */
} walk_result;

/* Runs the demo. Returns the exit code; *out is set whenever a step ran. */
int walk_run(const demo_params *p, walk_result **out, chef_error *err);

/* Writes the result for people, in the learner's language. */
void walk_text(FILE *out, const walk_result *r);

/* The result for programs (kind "walk", docs/DEMOS.md); the caller owns the reference. */
json_t *walk_json(const walk_result *r);

/* Releases a result. */
void walk_free(walk_result *r);

/* --- shared by walk.c and walk_gpu.c --- */

/* The kernel NVRTC compiles, as a string: the vector add, under the name add_from_string. */
extern const char walk_kernel_source[];

/* Appends a step (status ok, nothing returned yet) whose call is printf-formatted; returns it. */
walk_step *walk_step_add(walk_result *r, const char *id, const char *call_fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Sets a step's explanation for people (printf-formatted). */
void walk_step_detail(walk_step *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Writes "[1, 2, 3, 4]" for WALK_N floats. */
void walk_format_array(const float *v, char *out, size_t size);

/* The GPU walk (walk_gpu.c; walk_gpu_none.c without CUDA). Returns the exit code. */
int walk_gpu(walk_result *r, const demo_params *p);

#endif
