/*
 * exercise_runner.c - the child's side of checking an exercise: `cudachef-check __check` (and
 * `cudachef __check --report` for try; hidden; run only by exercise_check.c, in a process of its
 * own under limits). It loads the learner's built
 * module, cooks the recipe with the learner's kernel for every run asked, and writes what each did
 * as JSON to fd 3. Whatever the kernel does to this process (a crash, an endless loop, a flood of
 * output) stays in it: the parent only reads the results.
 *
 * A host exercise (--host NAME) calls the learner's host function instead, on the inputs from the
 * trusted side's shared memory copied into the head chef's buffers (guarded), with the runtime
 * call a run names planned to fail (engine/host_runtime.h), and says what the function returned
 * and what the runtime saw it do.
 *
 * The runs come in the shared memory's header (verifier.h), with the check's nonce: they are read
 * and the header wiped before the learner's module is loaded, and every result line carries the
 * nonce, so a line the learner's code writes to fd 3 without it is not taken. A host exercise's
 * runs each load the module in a process of their own (runner_host_apart), without fd 3: its
 * function is called once per process, and cannot count its way to the fault runs.
 *
 * Usage: cudachef-check __check --module PATH --backend emu|gpu --recipe R --kernel NAME --seed S
 *        [--coalesced] [--host NAME] [--host-outs K] [--report text|json] [--model DEVICE] [--registers R]
 *        [--visible-gpu GPU] [--run N:THREADS:BLOCKS:SHUFFLE:OFFSET:FLOATS[:FAULT_OP:FAULT_CALL] ...]
 */
#include "grading/exercise_check.h"

#include <dlfcn.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "demos/access.h"
#include "engine/host_runtime.h"
#include "engine/kitchen.h"
#include "engine/recipes.h"
#include "engine/report.h"
#include "grading/verifier.h"

void emu_kernels_register(const void *fast_rows, const void *checked_rows);

/* The runs asked for, and where the module is. */
typedef struct runner_args {
    const char *module, *recipe, *kernel;
    const char *report;       /* "text" or "json": cook the first run and write its full kitchen report */
    const char *model;        /* the device file the report's model uses (NULL: the default) */
    int registers;            /* the learner's kernel's registers on that device, from nvcc (0: unknown) */
    int gpu, coalesced;
    const char *host;         /* a host exercise: the learner's host function */
    int host_outs;            /* its float * parameters after the kernel's (host-out) */
    uint64_t seed;
    double rtol, atol;        /* < 0: the recipe's */
    exercise_run runs[EXERCISE_MAX_RUNS];
    size_t offsets[EXERCISE_MAX_RUNS], floats[EXERCISE_MAX_RUNS]; /* each run's place in the shared memory */
    int nruns;
    float *shared;            /* the trusted side's shared memory (fd 4), NULL without one */
    size_t shared_floats;
    char nonce[36];           /* the check's nonce, from the header ("" when none) */
} runner_args;

/* Reads one run, N:THREADS:BLOCKS:SHUFFLE:OFFSET:FLOATS[:FAULT_OP:FAULT_CALL]; 0, or -1. */
static int runner_parse_run(runner_args *a, const char *spec)
{
    if (a->nruns >= EXERCISE_MAX_RUNS)
        return -1;
    exercise_run *r = &a->runs[a->nruns];
    long long n, b;
    unsigned long long sh;
    int got = sscanf(spec, "%lld:%d:%lld:%llu:%zu:%zu:%d:%d", &n, &r->threads_per_block, &b, &sh, &a->offsets[a->nruns],
                     &a->floats[a->nruns], &r->fault_op, &r->fault_call);
    if (got != 6 && got != 8) {
        fprintf(stderr, "__check: bad run %s\n", spec);
        return -1;
    }
    a->nruns++;
    r->n = n;
    r->blocks = b;
    r->shuffle = sh;
    return 0;
}

/* Reads the command line; 0, or -1 (a message on stderr). */
static int runner_parse(int argc, char **argv, runner_args *a)
{
    memset(a, 0, sizeof *a);
    a->rtol = a->atol = -1;
    for (int i = 1; i < argc; i++) {
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(argv[i], "--coalesced") == 0) {
            a->coalesced = 1;
            continue;
        }
        if (!next) {
            fprintf(stderr, "__check: %s needs a value\n", argv[i]);
            return -1;
        }
        i++;
        if (strcmp(argv[i - 1], "--module") == 0)
            a->module = next;
        else if (strcmp(argv[i - 1], "--backend") == 0)
            a->gpu = strcmp(next, "gpu") == 0;
        else if (strcmp(argv[i - 1], "--recipe") == 0)
            a->recipe = next;
        else if (strcmp(argv[i - 1], "--kernel") == 0)
            a->kernel = next;
        else if (strcmp(argv[i - 1], "--host") == 0)
            a->host = next;
        else if (strcmp(argv[i - 1], "--host-outs") == 0)
            a->host_outs = atoi(next) < 0 ? 0 : atoi(next) > EXERCISE_MAX_OUTS ? EXERCISE_MAX_OUTS : atoi(next);
        else if (strcmp(argv[i - 1], "--report") == 0)
            a->report = next;
        else if (strcmp(argv[i - 1], "--model") == 0)
            a->model = next;
        else if (strcmp(argv[i - 1], "--registers") == 0)
            a->registers = atoi(next);
        else if (strcmp(argv[i - 1], "--rtol") == 0)
            a->rtol = strtod(next, NULL);
        else if (strcmp(argv[i - 1], "--atol") == 0)
            a->atol = strtod(next, NULL);
        else if (strcmp(argv[i - 1], "--seed") == 0)
            a->seed = strtoull(next, NULL, 10);
        else if (strcmp(argv[i - 1], "--visible-gpu") == 0)
            setenv("CUDA_VISIBLE_DEVICES", next, 1); /* before CUDA starts: the one GPU this worker has */
        else if (strcmp(argv[i - 1], "--run") == 0) {
            if (runner_parse_run(a, next) != 0)
                return -1;
        } else {
            fprintf(stderr, "__check: unknown option %s\n", argv[i - 1]);
            return -1;
        }
    }
    if (!a->module || !a->recipe || !a->kernel) {
        fprintf(stderr, "__check: --module, --recipe and --kernel are needed\n");
        return -1;
    }
    return 0;
}

/* Loads a built module into this process and registers the learner's kernel as "exercise:NAME". */
int exercise_module_load(const char *module, int gpu, const char *kernel, const char *recipe_name, chef_error *err)
{
    if (gpu)
        return exercise_module_gpu_load(module, kernel, recipe_name, err);
    void *lib = dlopen(module, RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, "%s", dlerror());
    const void *fast = dlsym(lib, "exercise_kernels_fast"), *checked = dlsym(lib, "exercise_kernels_checked");
    if (!fast || !checked)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, "%s has no kernel table", module);
    emu_kernels_register(fast, checked);
    return 0;
}

/* Loads the module and registers the learner's kernel; 0, or -1 (a message on stderr). */
static int runner_load(const runner_args *a)
{
    chef_error err = {0};
    if (exercise_module_load(a->module, a->gpu, a->kernel, a->recipe, &err) != 0) {
        fprintf(stderr, "%s\n", err.message);
        return -1;
    }
    return 0;
}

/* One run's results as JSON, with the check's nonce. */
static json_t *runner_json(const exercise_run *r, const char *a_nonce)
{
    json_t *mism = json_array();
    for (size_t i = 0; i < r->taste.nmismatches; i++)
        json_array_append_new(mism, json_pack("{s:I, s:f, s:o}", "index", (json_int_t)r->taste.mismatches[i].index,
                                              "expected", (double)r->taste.mismatches[i].expected, "got",
                                              isnan(r->taste.mismatches[i].got) ? json_null() /* never written */
                                                  : json_real(r->taste.mismatches[i].got)));
    json_t *doc = json_pack("{s:I, s:i, s:I, s:I, s:i, s:i, s:s, s:I, s:i, s:I, s:f, s:{s:I, s:I, s:b, s:I, s:I, s:I, s:I, s:I, "
                     "s:I, s:I, s:I, s:o}}",
                     "n", (json_int_t)r->n, "threads_per_block", r->threads_per_block, "blocks", (json_int_t)r->blocks,
                     "shuffle", (json_int_t)r->shuffle, "code", r->code, "cause", r->cause, "message", r->message,
                     "teams", (json_int_t)r->teams, "segments", r->segments, "conflicts", (json_int_t)r->conflicts, "cook_ms", r->cook_ms, "taste", "checked",
                     (json_int_t)r->taste.checked, "correct", (json_int_t)r->taste.correct, "passed", r->taste.passed,
                     "first_wrong", (json_int_t)r->taste.first_wrong, "last_wrong", (json_int_t)r->taste.last_wrong,
                     "never_written", (json_int_t)r->taste.never_written, "zeros", (json_int_t)r->taste.zeros,
                     "correct_prefix", (json_int_t)r->taste.correct_prefix, "stride", (json_int_t)r->taste.stride,
                     "right_run", (json_int_t)r->taste.right_run, "right_period", (json_int_t)r->taste.right_period,
                     "mismatches", mism);
    if (doc && a_nonce[0])
        json_object_set_new(doc, "nonce", json_string(a_nonce));
    if (doc && r->counted) {
        json_t *counted = json_object();
        for (int c = 0; c < COUNTER_COUNT; c++)
            json_object_set_new(counted, counter_table[c].metric, json_real(r->counter[c]));
        json_object_set_new(doc, "counters", counted);
    }
    if (doc && r->host) {
        json_t *h = json_pack("{s:i, s:i, s:i, s:i, s:i, s:i}", "fault_op", r->fault_op, "fault_call", r->fault_call,
                              "returned", r->returned, "injected", r->injected, "leaked", r->leaked, "wrong_copies",
                              r->wrong_copies);
        json_object_update_new(h, json_pack("{s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:I, s:I}", "launch_streams",
                                             r->launch_streams, "copy_streams", r->copy_streams, "default_launches",
                                             r->default_launches, "pageable_copies", r->pageable_copies, "unwaited",
                                             r->unwaited, "unmanaged_args", r->unmanaged_args, "managed_args",
                                             r->managed_args, "page_faults", (json_int_t)r->page_faults,
                                             "page_faults_host", (json_int_t)r->page_faults_host));
        json_t *outs = json_array();
        for (int k = 0; k < r->nouts; k++)
            json_array_append_new(outs, isfinite(r->outs[k]) ? json_real(r->outs[k]) : json_null());
        json_object_set_new(h, "outs", outs);
        json_t *rec = json_pack("{s:i, s:I, s:I, s:i, s:i, s:i, s:i, s:i}", "launches", r->launches, "bytes_in",
                                (json_int_t)r->bytes_in, "bytes_out", (json_int_t)r->bytes_out, "not_ready",
                                r->not_ready, "span", r->span, "span_launches", r->span_launches, "span_copies",
                                r->span_copies, "span_warm", r->span_warm);
        json_object_update_new(rec, json_pack("{s:i, s:i, s:i, s:i, s:i}", "library_calls", r->library_calls,
                                              "library_refused", r->library_refused, "library_status",
                                              r->library_status, "handles_left", r->handles_left, "operand_first",
                                              r->operand_first));
        json_object_set_new(h, "record", rec);
        json_object_set_new(doc, "host", h);
    }
    return doc;
}

/* The parameters of one run of the recipe with the learner's kernel (kernel gets its registered
   name, "exercise:NAME", and must outlive p). */
static void runner_params(const runner_args *a, int i, char *kernel, size_t size, kitchen_params *p)
{
    const exercise_run *run = &a->runs[i];
    snprintf(kernel, size, "exercise:%s", a->kernel);
    kitchen_params_default(p);
    p->recipe = a->recipe;
    p->kernel = kernel;
    p->n = run->n;
    p->threads_per_block = run->threads_per_block;
    p->blocks = run->blocks;
    p->backend = a->gpu ? BACKEND_GPU : BACKEND_EMU;
    p->rtol = a->rtol;
    p->atol = a->atol;
    if (a->shared && a->offsets[i] + a->floats[i] <= a->shared_floats) {
        p->exchange = a->shared + a->offsets[i];
        p->exchange_floats = a->floats[i];
    }
}

/* Maps the trusted side's shared memory, fd 4 (absent when the parent gave none). */
static void runner_map_shared(runner_args *a)
{
    struct stat st;
    if (fstat(4, &st) != 0 || st.st_size <= 0)
        return;
    if ((size_t)st.st_size <= VERIFIER_HEADER_BYTES)
        return;
    char *p = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, 4, 0);
    close(4);
    if (p == MAP_FAILED)
        return;
    a->shared = (float *)(p + VERIFIER_HEADER_BYTES);
    a->shared_floats = ((size_t)st.st_size - VERIFIER_HEADER_BYTES) / sizeof(float);
    /* the header: the nonce and the runs, then wiped, before the learner's code is loaded */
    char text[VERIFIER_HEADER_BYTES];
    memcpy(text, p, sizeof text);
    memset(p, 0, VERIFIER_HEADER_BYTES);
    text[sizeof text - 1] = '\0';
    for (char *save = NULL, *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (strncmp(line, "nonce ", 6) == 0)
            snprintf(a->nonce, sizeof a->nonce, "%s", line + 6);
        else if (strncmp(line, "run ", 4) == 0 && runner_parse_run(a, line + 4) != 0)
            break;
    }
    memset(text, 0, sizeof text);
}

/* Cooks one run with the learner's kernel. */
static void runner_cook(const runner_args *a, int i)
{
    exercise_run *run = (exercise_run *)&a->runs[i];
    char kernel[200];
    kitchen_params p;
    runner_params(a, i, kernel, sizeof kernel, &p);
    p.taste_outside = p.exchange != NULL; /* the trusted side tastes */
    p.seed = a->seed ? a->seed : 2026;
    p.seed_given = 1;
    p.repeat = 1;
    p.shuffle_seed = run->shuffle;
    p.workers = 2;
    kitchen_report *r = calloc(1, sizeof *r);
    if (!r) {
        run->code = CHEF_EXIT_INTERNAL;
        return;
    }
    run->code = kitchen_run(&p, r);
    run->cause = r->error.cause;
    snprintf(run->message, sizeof run->message, "%s", r->error.message);
    run->taste = r->taste;
    run->teams = r->teams;
    run->cook_ms = r->cook_ms;
    run->segments = -1;
    run->conflicts = !a->gpu && r->counters.valid
                         ? (int64_t)(r->counters.value[COUNTER_SHARED_LD_CONFLICTS] +
                                     r->counters.value[COUNTER_SHARED_ST_CONFLICTS])
                         : -1;
    run->counted = !a->gpu && r->counters.valid;
    for (int c = 0; run->counted && c < COUNTER_COUNT; c++)
        run->counter[c] = counters_scaled(&r->counters, (counter_id)c);
    kitchen_report_free(r);
    free(r);
    if (a->coalesced && !a->gpu && run->code == CHEF_EXIT_OK && run->shuffle == 0) {
        access_pattern ap;
        chef_error err = {0};
        if (access_trace_kernel(a->recipe, kernel, run->n, run->threads_per_block, &ap, &err) == 0)
            run->segments = ap.segments;
    }
}

/* What the runtime recorded of a host run for the checks of lessons 7 to 9 (check = timed,
   one-trip, library): the outs written, launches, bytes each way, elapsed times refused, the span of
   the events whose elapsed time is exactly the first out (-1: none gave it), and cuBLAS's calls and
   handles, with whether its first product began with the recipe's first input untransposed. */
static void runner_host_record(exercise_run *run, const host_runtime_stats *st, float *const *outs, int nouts,
                               const char *first_input)
{
    run->library_calls = st->library_calls;
    run->library_refused = st->library_refused;
    run->library_status = st->library_status;
    run->handles_left = st->handles_left;
    run->operand_first = st->library_calls > 0 && !st->first_transposed && strcmp(st->first_operand, first_input) == 0;
    run->nouts = nouts;
    for (int k = 0; k < nouts; k++)
        run->outs[k] = *outs[k];
    run->launches = st->launches;
    run->bytes_in = (int64_t)st->bytes_in;
    run->bytes_out = (int64_t)st->bytes_out;
    run->not_ready = st->not_ready;
    run->span = -1;
    for (int t = 0; nouts > 0 && t < st->ntimings && run->span < 0; t++)
        if (memcmp(&st->timings[t].ms, outs[0], sizeof(float)) == 0) {
            run->span = t;
            run->span_launches = st->timings[t].launches;
            run->span_copies = st->timings[t].copies;
            run->span_warm = st->timings[t].warm;
        }
}

/* A host exercise's run: the recipe's buffers as the head chef's (guarded host memory, the inputs
   from the trusted side's shared memory), the learner's host function called with them as the
   recipe's kernel takes its arguments, with the run's fault planned; the output goes back into the
   shared memory, and the runtime's record of what the function did into the run. */
static void runner_host(const runner_args *a, int i, int (*entry)(void **))
{
    exercise_run *run = (exercise_run *)&a->runs[i];
    char kernel[200];
    kitchen_params p;
    runner_params(a, i, kernel, sizeof kernel, &p);
    run->host = 1;
    run->segments = -1;
    run->conflicts = -1;
    const recipe *rc = recipe_find(a->recipe);
    kitchen_plan plan;
    memset(&plan, 0, sizeof plan);
    plan.seed = a->seed ? a->seed : 2026;
    backend_info info;
    memset(&info, 0, sizeof info);
    chef_error err = {0};
    if (p.n == 0 && rc)
        p.n = rc->default_n;
    if (p.threads_per_block == 0 && rc)
        p.threads_per_block = rc->default_threads_per_block;
    if (!rc || !entry || rc->plan(&p, &info, &plan, &err) != 0) {
        run->code = CHEF_EXIT_USAGE;
        snprintf(run->message, sizeof run->message, "%s", err.message[0] ? err.message : "no host function to call");
        return;
    }
    size_t total = 0;
    for (int b = 0; b < plan.nbuffers; b++)
        total += plan.buffers[b].count;
    if (!p.exchange || total != p.exchange_floats) {
        run->code = CHEF_EXIT_INTERNAL;
        snprintf(run->message, sizeof run->message, "the shared memory does not hold the run's buffers");
        return;
    }
    float *at = p.exchange;
    int ok = 1;
    for (int b = 0; b < plan.nbuffers; b++) {
        kitchen_buffer *kb = &plan.buffers[b];
        kb->host = host_runtime_host_alloc(kb->count * sizeof(float), kb->name);
        ok &= kb->host != NULL;
        if (kb->host)
            memcpy(kb->host, at, kb->count * sizeof(float)); /* an output: NaN, as the trusted side left it */
        kb->device = kb->host; /* the host function gets the head chef's pointers */
        at += kb->count;
    }
    float *outs[EXERCISE_MAX_OUTS] = {NULL};
    for (int k = 0; k < a->host_outs; k++) { /* host-out: one float each, NaN until written */
        outs[k] = host_runtime_host_alloc(sizeof(float), "host-out");
        ok &= outs[k] != NULL;
        if (outs[k])
            *outs[k] = NAN;
    }
    if (ok) {
        void *args[KITCHEN_MAX_BUFFERS + 4 + EXERCISE_MAX_OUTS] = {NULL};
        rc->args(&plan, args);
        int nargs = 0; /* the kernel's arguments are addresses, none NULL: the outs come after them */
        while (args[nargs])
            nargs++;
        for (int k = 0; k < a->host_outs; k++)
            args[nargs + k] = &outs[k];
        host_runtime_stats st;
        host_runtime_begin((host_fault_op)run->fault_op, run->fault_call);
        double t0 = chef_now_ms();
        run->returned = entry(args);
        run->cook_ms = chef_now_ms() - t0;
        host_runtime_end(&st);
        run->injected = st.injected;
        run->leaked = st.leaked;
        run->wrong_copies = st.wrong_copies;
        run->launch_streams = st.launch_streams;
        run->default_launches = st.default_launches;
        run->copy_streams = st.copy_streams;
        run->managed_args = st.managed_args;
        run->pageable_copies = st.pageable_copies;
        run->unwaited = st.unwaited;
        run->unmanaged_args = st.unmanaged_args;
        run->page_faults = st.page_faults;
        run->page_faults_host = st.page_faults_host;
        run->teams = plan.grid.x;
        run->cause = st.cause;
        snprintf(run->message, sizeof run->message, "%s", st.message);
        runner_host_record(run, &st, outs, a->host_outs, plan.buffers[0].name);
        /* a plain run whose copy or kernel went outside the pantry crashed, as the kitchen's would */
        run->code = (st.out_of_bounds || st.kernel_faulted) && run->fault_op == HOST_FAULT_NONE ? CHEF_EXIT_CRASH : CHEF_EXIT_OK;
        at = p.exchange + (total - plan.buffers[plan.nbuffers - 1].count);
        const kitchen_buffer *out = &plan.buffers[plan.nbuffers - 1];
        memcpy(at, out->host, out->count * sizeof(float));
    } else {
        run->code = CHEF_EXIT_ENVIRONMENT;
        snprintf(run->message, sizeof run->message, "out of host memory");
    }
    for (int b = 0; b < plan.nbuffers; b++)
        host_runtime_host_free(plan.buffers[b].host);
    for (int k = 0; k < a->host_outs; k++)
        host_runtime_host_free(outs[k]);
}

/* A host exercise's run i in a process of its own: the learner's module is loaded there, after
   fd 3 and the nonce are gone, its function called once, and the run's record comes back through a
   pipe; the run's plan is this process's, whatever comes back. A process that ended without a
   record crashed. */
static void runner_host_apart(runner_args *a, int i)
{
    exercise_run plan = a->runs[i], *run = &a->runs[i];
    int fds[2];
    fflush(NULL);
    pid_t pid = pipe(fds) == 0 ? fork() : -1;
    if (pid == 0) {
        close(fds[0]);
        close(3);
        memset(a->nonce, 0, sizeof a->nonce);
        int code = CHEF_EXIT_ENVIRONMENT;
        if (runner_load(a) == 0) {
            void *lib = dlopen(a->module, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
            int (*entry)(void **) = lib ? (int (*)(void **))dlsym(lib, "emu_host_entry") : NULL;
            if (entry) {
                runner_host(a, i, entry);
                code = write(fds[1], run, sizeof *run) == (ssize_t)sizeof *run ? 0 : CHEF_EXIT_INTERNAL;
            }
        }
        fflush(NULL);
        _exit(code);
    }
    size_t got = 0;
    if (pid > 0) {
        close(fds[1]);
        for (ssize_t k; got < sizeof *run && (k = read(fds[0], (char *)run + got, sizeof *run - got)) != 0;)
            if (k > 0)
                got += (size_t)k;
            else if (errno != EINTR)
                break;
        char more; /* one record, and nothing beside it (a record the function wrote itself) */
        ssize_t extra;
        while ((extra = read(fds[0], &more, 1)) < 0 && errno == EINTR)
            ;
        if (extra != 0)
            got = 0;
        close(fds[0]);
    }
    int status = 0;
    while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (got != sizeof *run) {
        *run = plan;
        run->host = 1;
        run->code = CHEF_EXIT_CRASH;
        if (pid > 0 && WIFSIGNALED(status))
            snprintf(run->message, sizeof run->message, "the host function ended its process (signal %d, %s)",
                     WTERMSIG(status), strsignal(WTERMSIG(status)));
        else
            snprintf(run->message, sizeof run->message, "the host function ended its process (exit status %d)",
                     pid > 0 && WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    }
    /* the plan is this process's own */
    run->n = plan.n;
    run->threads_per_block = plan.threads_per_block;
    run->blocks = plan.blocks;
    run->shuffle = plan.shuffle;
    run->fault_op = plan.fault_op;
    run->fault_call = plan.fault_call;
    run->host = 1;
    run->message[sizeof run->message - 1] = '\0';
}

/* `--report`: cooks the first run with the learner's kernel and writes the same report as
   `cudachef run` (text or JSON) to out; returns kitchen_run's exit code. */
static int runner_report(const runner_args *a, FILE *out)
{
    char kernel[200];
    kitchen_params p;
    runner_params(a, 0, kernel, sizeof kernel, &p); /* the report tastes too; the trusted side's taste decides */
    p.model = a->model;
    p.registers_per_cook = a->registers;
    if (a->seed) {
        p.seed = a->seed;
        p.seed_given = 1;
    }
    kitchen_report *r = calloc(1, sizeof *r);
    if (!r)
        return CHEF_EXIT_INTERNAL;
    int code = kitchen_run(&p, r);
    if (code > CHEF_EXIT_WRONG) { /* as `cudachef run` does: the one line on standard error (the output) */
        fflush(stdout);           /* after what the kernel printed */
        chef_error_print(&r->error);
    }
    if (strcmp(a->report, "json") == 0) {
        json_t *doc = report_run_json(r);
        report_json_write(out, doc);
        json_decref(doc);
    } else if (r->started) { /* as `cudachef run`: a run stopped before it began has its one line only */
        report_run_text(out, r);
    }
    kitchen_report_free(r);
    free(r);
    return code;
}

/* `cudachef __check`: load, cook every run, and write each run's JSON to fd 3 as one line as
   soon as it is done, so the runs before a crash or a time-out still reach the parent. */
int exercise_runner_main(int argc, char **argv)
{
    runner_args a;
    if (runner_parse(argc, argv, &a) != 0)
        return CHEF_EXIT_ENVIRONMENT;
    runner_map_shared(&a); /* before the learner's module loads */
    if (a.nruns == 0) {
        fprintf(stderr, "__check: no runs asked (none in the shared memory, no --run)\n");
        return CHEF_EXIT_ENVIRONMENT;
    }
    if (!a.host && runner_load(&a) != 0) /* a host exercise's runs load it each in their own process */
        return CHEF_EXIT_ENVIRONMENT;
    FILE *out = fdopen(3, "w");
    if (!out)
        return CHEF_EXIT_INTERNAL;
    if (a.report) {
        int code = runner_report(&a, out);
        return fclose(out) == 0 ? code : CHEF_EXIT_INTERNAL;
    }
    for (int i = 0; i < a.nruns; i++) {
        if (a.host)
            runner_host_apart(&a, i);
        else
            runner_cook(&a, i);
        json_t *doc = runner_json(&a.runs[i], a.nonce);
        char *text = json_dumps(doc, JSON_COMPACT);
        json_decref(doc);
        fflush(stdout);
        if (!text || fprintf(out, "%s\n", text) < 0 || fflush(out) != 0) {
            free(text);
            return CHEF_EXIT_INTERNAL;
        }
        free(text);
    }
    return fclose(out) == 0 ? 0 : CHEF_EXIT_INTERNAL;
}
