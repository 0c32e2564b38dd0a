/*
 * exercise_check.h - checking a learner's kernel: build it on its own (exercise_build.c), run it
 * in a child process under limits (exercise_check.c, exercise_runner.c), and say what went wrong
 * in words a beginner can act on (exercise_diagnose.c). The TUI and `cudachef grade` share it.
 */
#ifndef CUDACHEF_EXERCISE_CHECK_H
#define CUDACHEF_EXERCISE_CHECK_H

#include <stdint.h>

#include "base/cancel.h"
#include "base/counters.h"
#include "engine/backend.h"
#include "grading/exercise.h"
#include "engine/verify.h"

/* How an exercise came out; each has its exit code (docs/EXIT-CODES.md). */
typedef enum exercise_status {
    EXERCISE_PASSED = 0,  /* exit 0 */
    EXERCISE_WRONG,       /* exit 1: it ran, some results are wrong (or it broke the exercise's rule) */
    EXERCISE_BUILD,       /* exit 3: it did not compile */
    EXERCISE_CRASH,       /* exit 4: it crashed, wrote out of bounds, or a barrier was not reached */
    EXERCISE_TIMEOUT,     /* exit 4: it did not finish in time */
    EXERCISE_ENVIRONMENT  /* exit 5: no compiler, no GPU when one was asked for, ... */
} exercise_status;

#define EXERCISE_MAX_RUNS (EXERCISE_MAX_CASES * 9)

/* One run of the learner's kernel: a size, a team size and (emulator) a cook order. */
typedef struct exercise_run {
    int64_t n;
    int threads_per_block;
    int64_t blocks;
    uint64_t shuffle;         /* 0: the natural order */
    int code;                 /* kitchen_run's exit code */
    int cause;                /* chef_cause */
    char message[600];        /* the kitchen's error, when it stopped */
    verify_result taste;
    uint64_t teams;           /* teams in the grid */
    int segments;             /* the first warp's writes: 128-byte segments touched (-1: not traced) */
    int64_t conflicts;        /* emulator: the shared locker's bank conflicts the launch's count found
                                 (loads and stores; -1: not counted) */
    double cook_ms;
    /* a host exercise's run (ex->host): */
    int host;                 /* 1: the learner's host function ran (the fields below say how) */
    int fault_op;             /* host_fault_op planned to fail (0: none, a plain run) */
    int fault_call;           /* ... its call number, from 1 */
    int returned;             /* what the learner's host function returned */
    int injected;             /* the planned call was made, and failed */
    int leaked;               /* device allocations still held when it returned */
    int wrong_copies;         /* copies whose kind disagreed with where their pointers are */
    /* ... what the runtime recorded for check = timed and one-trip (the child's word: advisory) */
    int nouts;
    float outs[EXERCISE_MAX_OUTS]; /* the host-out values it wrote (NaN: never written) */
    int launches;             /* launches that went out */
    int64_t bytes_in, bytes_out; /* bytes shipped into the kitchen, and back out */
    int not_ready;            /* cudaEventElapsedTime calls refused with cudaErrorNotReady */
    int span;                 /* which elapsed time the first out is (-1: none the events gave) */
    int span_launches, span_copies, span_warm; /* ... its span: launches, copies, a launch before it */
    int library_calls;        /* cublasSgemm calls that cooked (check = library) */
    int library_refused, library_status; /* ... refused, and the first refusal's status */
    int handles_left;         /* cuBLAS handles never destroyed */
    int operand_first;        /* the first call multiplied the recipe's first input first, untransposed */
    char nonce[36];           /* the check's nonce, as the child's line gave it ("" when none) */
    /* ... its streams and managed memory (host_runtime_stats says each) */
    int launch_streams, copy_streams, default_launches, pageable_copies, unwaited, unmanaged_args, managed_args;
    long page_faults, page_faults_host;
    /* the emulator's launch counters (a plain run of a kernel exercise; counted: 0 where none) */
    int counted;
    double counter[COUNTER_COUNT];
} exercise_run;

/* What checking one exercise found. */
typedef struct exercise_result {
    exercise_status status;
    char backend[300];        /* who cooked: "NVIDIA H200", "CPU emulator" */
    int on_gpu;
    char *build_log;          /* the compiler's own words (may be NULL or empty) */
    int cached;               /* the build was reused: same source, same compiler, same program */
    double build_ms, run_ms;
    exercise_run runs[EXERCISE_MAX_RUNS];
    int nruns;
    char *output;             /* what the kernel printed (the first EXERCISE_OUTPUT_KEEP bytes) */
    size_t output_bytes;      /* how much it printed in all */
    int flooded;              /* it printed more than EXERCISE_OUTPUT_LIMIT and was stopped */
    char summary[600];        /* one line: what happened */
    char explanation[1200];   /* what it probably means and what to do (empty when passed) */
    char diagnosis[32];       /* the mistake's stable code ("race", "bounds-test", ...; docs/EXERCISES.md),
                                 "" when passed */
    char signature[300];      /* the kernel the exercise cooks: "vector_add(const float *, ...)" */
    double timeout_s;         /* the time limit the runs had */
    int sandboxed;            /* the kernel ran in the bubblewrap sandbox (0: no sandbox here, or
                                 --sandbox none) */
    int process_failed;       /* the process that ran the kernel did not end by itself after its last
                                 run (time limit, signal, too many processes, flood, exit()): grading
                                 credits none of its checks, even those whose taste passed */
} exercise_result;

#define EXERCISE_OUTPUT_KEEP 4096
#define EXERCISE_OUTPUT_LIMIT (4 << 20) /* printing more than this ends the run: a flood */

/* How to check. */
typedef struct exercise_options {
    backend_kind backend;     /* auto, gpu or emu */
    double timeout_s;         /* <= 0: the exercise's own */
    uint64_t seed;            /* inputs' seed (0: a fixed default, so two checks see the same data) */
    const char *model;        /* try: the device file the emulator's counts are modeled on (NULL: h200) */
    int registers;            /* try on the emulator: the kernel's registers for the model (0: unknown) */
    chef_cancel *cancel;      /* NULL, or a token whose stop ends the build or the run at once: the
                                 check then fails with err's cause CHEF_CAUSE_CANCELLED */
    const char *visible_gpu;  /* NULL, or grade --class's worker's own GPU, which the sandboxed run may
                                 see: its UUID where the driver lists it, else the CUDA_VISIBLE_DEVICES
                                 entry (an index or a UUID) */
} exercise_options;

/* Checks source (a .cu file written to the exercise's convention) for ex. 0 once result is filled
   (whatever the learner's kernel did), or -1 with err when checking itself could not be done. */
int exercise_check(const exercise *ex, const char *source, const exercise_options *opt, exercise_result *result,
                   chef_error *err);

/* `cudachef try`: builds source as ex's kernel and cooks it once (ex->sizes[0], 0 for the recipe's
   default) in a child under the same limits, which writes the full kitchen report in format
   ("text" or "json") into *report (the caller frees it). *code gets the run's exit code. result
   says how the build and the child went (a build error, a crash, a time-out). 0, or -1 with err. */
int exercise_try(const exercise *ex, const char *source, const exercise_options *opt, const char *format,
                 exercise_result *result, char **report, int *code, chef_error *err);

/* Frees what exercise_check allocated in result. */
void exercise_result_free(exercise_result *result);

/* A host exercise's fault runs (each the first size with one runtime call failing): ops[] gets
   each run's host_fault_op (1 alloc, 2 copy, 3 launch), calls[] the call's number; returns how
   many (0 for a kernel exercise), at most max. */
int exercise_fault_plan(const exercise *ex, int *ops, int *calls, int max);

/* The bytes a host exercise's run must ship for its recipe: *in every input once, *out the
   output once (check = one-trip). 0, or -1 when the run's sizes plan nothing. */
int exercise_host_bytes(const exercise *ex, const exercise_run *run, int64_t *in, int64_t *out);
/* A host run's practice of what its exercise's checks 'streams' and 'managed' ask
   (docs/EXERCISES.md): NULL when it did it, else the diagnosis code of what it did not do. */
const char *exercise_practice_miss(const exercise *ex, const exercise_run *run);

/* The first of the exercise's limits (limit = METRIC MAX) the run's counters break, or -1: the
   counter per multiply-add of the recipe (its work for the run's n) above MAX (*per_work). */
int exercise_limit_miss(const exercise *ex, const exercise_run *run, double *per_work);

/* The exit code of a status. */
int exercise_status_exit(exercise_status status);

/* "passed", "wrong", "build-error", "crash", "timeout", "environment". */
const char *exercise_status_name(exercise_status status);

/* --- inside the package --- */

/* Builds source for ex into the build cache (exercise_build.c): *module gets the module's path
   (a shared object for the emulator, a fatbin for the GPU). 0 built, 1 the compiler refused it
   (*log has its words), -1 with err when no build could be tried. */
int exercise_build(const exercise *ex, const char *source, int gpu, const backend_info *info, char *module,
                   size_t size, char **log, int *cached, chef_cancel *cancel, chef_error *err);

/* Reads the learner's file for a build into *text (*size bytes; the caller frees it): a regular
   file of its own, opened without following a link; a symbolic or hard link is refused. 0, or -1
   with err (exit 2 for a link or a missing file, 5 for one that cannot be read). */
int exercise_source_read(const char *source, char **text, size_t *size, chef_error *err);

/* The registers a cook of the learner's kernel uses on a GPU of compute capability cc (9.0), from
   nvcc's ptxas (a build for it, cached); 0 when not known (no nvcc). */
int exercise_registers(const exercise *ex, const char *source, double cc, chef_cancel *cancel);

/* The nvcc to run: $NVCC, else the toolkit's that cudachef was built with when it is there, else
   "nvcc" (looked up in PATH by whoever runs it). The exercises' GPU builds and `cudachef inside`. */
const char *exercise_nvcc(void);

/* The kernel ex cooks, as "NAME(types)" from kernels.def, into out ("" when unknown). */
void exercise_signature(const exercise *ex, char *out, size_t size);

/* The child's side (the hidden command `cudachef __check`): loads the module, cooks every run,
   writes the results as JSON to fd. Returns the exit code. */
int exercise_runner_main(int argc, char **argv);

/* Loads a GPU module (fatbin) and registers its kernels under "exercise:NAME"; 0 or -1 with err
   (exercise_module_gpu.c; without CUDA, always -1). */
int exercise_module_gpu_load(const char *path, const char *kernel, const char *recipe_name, chef_error *err);

/* Loads a built module (exercise_build) into this process and registers the learner's kernel as
   "exercise:KERNEL" (emulator or GPU): 0, or -1 with err. Used by the child, and by
   `try --kitchen`, which cooks in the full-screen kitchen after the child's run came through. */
int exercise_module_load(const char *module, int gpu, const char *kernel, const char *recipe_name, chef_error *err);

/* Appends to result the runs the checking child reported on its result pipe, one JSON object a
   line (text is cut into lines in place; lines that are not such an object are skipped). */
void exercise_runs_parse(char *text, exercise_result *result);

/* Fills result->summary, result->explanation and result->diagnosis from the runs (exercise_diagnose.c). */
void exercise_diagnose(const exercise *ex, exercise_result *result);

/* 1 when code is one of the stable diagnosis codes exercise_diagnose gives (docs/EXERCISES.md). */
int exercise_diagnosis_known(const char *code);

#endif
