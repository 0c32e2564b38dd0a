/*
 * exercise_check.c - checks a learner's kernel for an exercise: decides who cooks, builds the
 * kernel on its own (exercise_build.c), runs it in a child cudachef (`__check`,
 * exercise_runner.c) under a time limit, CPU and memory limits and an output limit, in its own
 * process group, reads back each run's results, and has exercise_diagnose.c explain them.
 *
 * The runs: every size of the exercise with its team size; on the emulator each size again with
 * the team's cooks in `shuffles` seeded random orders (between barriers), so a missing
 * __syncthreads or a race changes the results and shows. A GPU picks its own order: there each
 * size of such an exercise is simply run again (up to twice), and results that differ from run to
 * run show the race the same way.
 */
#include "grading/exercise_check.h"
#include "grading/gpu_nodes.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "engine/host_runtime.h"
#include "engine/model.h"
#include "engine/recipes.h"
#include "grading/child.h"
#include "grading/sandbox.h"
#include "grading/verifier.h"
#include "lessons/lesson.h"
#include "kit/planted.h"

#define CHECK_MEMORY_MB 8192 /* the emulator child's address space (its workers' stacks included) */

/* The exit code of a status. */
int exercise_status_exit(exercise_status status)
{
    static const int codes[] = {CHEF_EXIT_OK,    CHEF_EXIT_WRONG, CHEF_EXIT_BUILD,
                                CHEF_EXIT_CRASH, CHEF_EXIT_CRASH, CHEF_EXIT_ENVIRONMENT};
    return codes[status];
}

/* The status's name, as JSON and the other formats write it. */
const char *exercise_status_name(exercise_status status)
{
    static const char *names[] = {"passed", "wrong", "build-error", "crash", "timeout", "environment"};
    return names[status];
}

/* Reads one run's JSON line into run; 0, or -1. */
static int check_parse_run(const char *line, exercise_run *run)
{
    json_error_t jerr;
    json_t *doc = json_loads(line, 0, &jerr);
    if (!doc)
        return -1;
    json_t *t = json_object_get(doc, "taste");
    const char *message = json_string_value(json_object_get(doc, "message"));
    const char *nonce = json_string_value(json_object_get(doc, "nonce"));
    snprintf(run->nonce, sizeof run->nonce, "%s", nonce ? nonce : "");
    run->n = json_integer_value(json_object_get(doc, "n"));
    run->threads_per_block = (int)json_integer_value(json_object_get(doc, "threads_per_block"));
    run->blocks = json_integer_value(json_object_get(doc, "blocks"));
    run->shuffle = (uint64_t)json_integer_value(json_object_get(doc, "shuffle"));
    run->code = (int)json_integer_value(json_object_get(doc, "code"));
    run->cause = (int)json_integer_value(json_object_get(doc, "cause"));
    snprintf(run->message, sizeof run->message, "%s", message ? message : "");
    run->teams = (uint64_t)json_integer_value(json_object_get(doc, "teams"));
    run->segments = (int)json_integer_value(json_object_get(doc, "segments"));
    json_t *conflicts = json_object_get(doc, "conflicts");
    run->conflicts = json_is_integer(conflicts) ? (int64_t)json_integer_value(conflicts) : -1;
    run->cook_ms = json_number_value(json_object_get(doc, "cook_ms"));
    verify_result *v = &run->taste;
    v->checked = (size_t)json_integer_value(json_object_get(t, "checked"));
    v->correct = (size_t)json_integer_value(json_object_get(t, "correct"));
    v->passed = json_is_true(json_object_get(t, "passed"));
    v->first_wrong = (size_t)json_integer_value(json_object_get(t, "first_wrong"));
    v->last_wrong = (size_t)json_integer_value(json_object_get(t, "last_wrong"));
    v->never_written = (size_t)json_integer_value(json_object_get(t, "never_written"));
    v->zeros = (size_t)json_integer_value(json_object_get(t, "zeros"));
    v->correct_prefix = (size_t)json_integer_value(json_object_get(t, "correct_prefix"));
    v->stride = (size_t)json_integer_value(json_object_get(t, "stride"));
    v->right_run = (size_t)json_integer_value(json_object_get(t, "right_run"));
    v->right_period = (size_t)json_integer_value(json_object_get(t, "right_period"));
    json_t *counted = json_object_get(doc, "counters");
    run->counted = json_is_object(counted);
    for (int c = 0; run->counted && c < COUNTER_COUNT; c++)
        run->counter[c] = json_number_value(json_object_get(counted, counter_table[c].metric));
    json_t *h = json_object_get(doc, "host");
    if (json_is_object(h)) {
        run->host = 1;
        run->fault_op = (int)json_integer_value(json_object_get(h, "fault_op"));
        run->fault_call = (int)json_integer_value(json_object_get(h, "fault_call"));
        run->returned = (int)json_integer_value(json_object_get(h, "returned"));
        run->injected = (int)json_integer_value(json_object_get(h, "injected"));
        run->leaked = (int)json_integer_value(json_object_get(h, "leaked"));
        run->wrong_copies = (int)json_integer_value(json_object_get(h, "wrong_copies"));
        json_t *outs = json_object_get(h, "outs"), *rec = json_object_get(h, "record");
        for (size_t k = 0; k < json_array_size(outs) && k < EXERCISE_MAX_OUTS; k++) {
            json_t *o = json_array_get(outs, k);
            run->outs[k] = json_is_number(o) ? (float)json_number_value(o) : NAN;
            run->nouts = (int)k + 1;
        }
        run->launches = (int)json_integer_value(json_object_get(rec, "launches"));
        run->bytes_in = (int64_t)json_integer_value(json_object_get(rec, "bytes_in"));
        run->bytes_out = (int64_t)json_integer_value(json_object_get(rec, "bytes_out"));
        run->not_ready = (int)json_integer_value(json_object_get(rec, "not_ready"));
        json_t *span = json_object_get(rec, "span");
        run->span = json_is_integer(span) ? (int)json_integer_value(span) : -1;
        run->span_launches = (int)json_integer_value(json_object_get(rec, "span_launches"));
        run->span_copies = (int)json_integer_value(json_object_get(rec, "span_copies"));
        run->span_warm = (int)json_integer_value(json_object_get(rec, "span_warm"));
        run->library_calls = (int)json_integer_value(json_object_get(rec, "library_calls"));
        run->library_refused = (int)json_integer_value(json_object_get(rec, "library_refused"));
        run->library_status = (int)json_integer_value(json_object_get(rec, "library_status"));
        run->handles_left = (int)json_integer_value(json_object_get(rec, "handles_left"));
        run->operand_first = (int)json_integer_value(json_object_get(rec, "operand_first"));
        run->launch_streams = (int)json_integer_value(json_object_get(h, "launch_streams"));
        run->default_launches = (int)json_integer_value(json_object_get(h, "default_launches"));
        run->pageable_copies = (int)json_integer_value(json_object_get(h, "pageable_copies"));
        run->unwaited = (int)json_integer_value(json_object_get(h, "unwaited"));
        run->unmanaged_args = (int)json_integer_value(json_object_get(h, "unmanaged_args"));
        run->managed_args = (int)json_integer_value(json_object_get(h, "managed_args"));
        run->copy_streams = (int)json_integer_value(json_object_get(h, "copy_streams"));
        run->page_faults = (long)json_integer_value(json_object_get(h, "page_faults"));
        run->page_faults_host = (long)json_integer_value(json_object_get(h, "page_faults_host"));
    }
    json_t *m = json_object_get(t, "mismatches");
    for (size_t i = 0; i < json_array_size(m) && i < VERIFY_MAX_MISMATCHES; i++) {
        json_t *e = json_array_get(m, i);
        json_t *got = json_object_get(e, "got");
        v->mismatches[i].index = (size_t)json_integer_value(json_object_get(e, "index"));
        v->mismatches[i].expected = (float)json_number_value(json_object_get(e, "expected"));
        v->mismatches[i].got = json_is_null(got) ? NAN : (float)json_number_value(got);
        v->nmismatches = i + 1;
    }
    json_decref(doc);
    return 0;
}

/* Decides who cooks (host: a host exercise, always the emulator): 0, or -1 with err when the GPU
   was asked for and there is none. */
static int check_backend(const exercise_options *opt, int host, backend_info *info, int *gpu, char *name, size_t size,
                         chef_error *err)
{
    memset(info, 0, sizeof *info);
    *gpu = 0;
    if (host) { /* a host exercise runs the learner's five steps on the emulator's runtime */
        snprintf(name, size, "%s", _("CPU emulator"));
        return 0;
    }
    if (opt->backend == BACKEND_GPU && gpu_nodes_fake()) /* a fake list's runs stay on the emulator */
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("unset CUDACHEF_GPU_PROC, or use --backend emu"),
                         "%s", _("CUDACHEF_GPU_PROC (a fake list of GPUs, for tests) is set: runs stay on the emulator"));
    if (opt->backend != BACKEND_EMU && !gpu_nodes_fake() && backend_gpu_probe(info) == 0)
        *gpu = 1;
    else if (opt->backend == BACKEND_GPU)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("use --backend emu (the CPU emulator), or a machine with a GPU"),
                         _("no GPU to cook on: %s"), info->no_gpu_reason[0] ? info->no_gpu_reason : "?");
    snprintf(name, size, "%s", *gpu ? info->name : _("CPU emulator"));
    return 0;
}

static int check_spawn(const exercise *ex, const char *module, const backend_info *info, int gpu, int nsizes,
                       int shuffles, const char *report, const exercise_options *opt, double timeout,
                       exercise_result *res, int *nruns, child_outcome *out, verifier *v, chef_error *err);

/* Runs the learner's module in a child cudachef: the first nsizes sizes, each also in shuffles
   shuffled cook orders; res gets each run the child reported, tasted by this process (*nruns gets
   how many were asked) and fills *out (its output buffer is the caller's to free). 0, or -1 with err. */
static int check_child(const exercise *ex, const char *module, const backend_info *info, int gpu, int nsizes,
                       int shuffles, const exercise_options *opt, double timeout, exercise_result *res, int *nruns,
                       child_outcome *out, chef_error *err)
{
    verifier v;
    int rc = check_spawn(ex, module, info, gpu, nsizes, shuffles, NULL, opt, timeout, res, nruns, out, &v, err);
    if (rc == 0)
        verifier_free(&v);
    return rc;
}

/* 1 when the child's line is about the run asked. */
static int check_same_run(const exercise_run *got, const exercise_run *asked)
{
    return got->n == asked->n && got->threads_per_block == asked->threads_per_block && got->blocks == asked->blocks &&
           got->shuffle == asked->shuffle && got->fault_op == asked->fault_op && got->fault_call == asked->fault_call;
}

/* The recipe's plan of a host exercise's run (its buffers and their sizes): 0, or -1. */
static int check_host_plan(const exercise *ex, const exercise_run *run, kitchen_plan *plan)
{
    const recipe *rc = recipe_find(ex->recipe);
    kitchen_params p;
    backend_info info;
    memset(plan, 0, sizeof *plan);
    memset(&info, 0, sizeof info);
    if (!rc)
        return -1;
    verifier_params(ex, run, 2026, &p);
    if (p.threads_per_block == 0)
        p.threads_per_block = rc->default_threads_per_block;
    chef_error why = {0};
    return rc->plan(&p, &info, plan, &why);
}

/* 1 when a plain host run kept the rules its exercise checks (the runtime's record of the learner's
   process: advisory): check = timed, the first out is an elapsed time the events gave, never
   refused, for a span of one launch after a warm-up and no copy; check = one-trip, every input
   shipped in once and the output out once, nothing more, and the kitchen launched; launches = N,
   at least N launches; check = library, the product by cublasSgemm, every call accepted and every
   handle destroyed. */
static int check_host_rules(const exercise *ex, const exercise_run *r)
{
    if (ex->timed && (r->not_ready > 0 || r->span < 0 || r->span_launches != 1 || r->span_copies != 0 ||
                      !r->span_warm || !(r->nouts > 0 && isfinite(r->outs[0]) && r->outs[0] >= 0)))
        return 0;
    int64_t in, out;
    if (r->launches < ex->min_launches ||
        (ex->library && (r->library_calls < 1 || r->library_refused > 0 || r->handles_left > 0)))
        return 0;
    if (ex->one_trip && (exercise_host_bytes(ex, r, &in, &out) != 0 || r->launches < 1 || r->bytes_in != in ||
                         r->bytes_out != out))
        return 0;
    return 1;
}

/* The bytes a host run must ship: every input in, the output out (exercise_check.h). */
int exercise_host_bytes(const exercise *ex, const exercise_run *run, int64_t *in, int64_t *out)
{
    kitchen_plan plan;
    *in = *out = 0;
    if (check_host_plan(ex, run, &plan) != 0)
        return -1;
    for (int b = 0; b < plan.nbuffers; b++)
        *(plan.buffers[b].is_output ? out : in) += (int64_t)(plan.buffers[b].count * sizeof(float));
    return 0;
}

/* A host exercise's fault runs, each the first size with one runtime call failing: the call-th
   cudaMalloc for each buffer of the recipe, the call-th cudaMemcpy for each buffer (the inputs in,
   the output back), and the launch. Fills ops[] (host_fault_op) and calls[], returns how many. */
int exercise_fault_plan(const exercise *ex, int *ops, int *calls, int max)
{
    exercise_run first = {.n = ex->nsizes ? ex->sizes[0] : 0, .threads_per_block = ex->threads_per_block,
                          .blocks = ex->blocks};
    kitchen_plan plan;
    if (!ex->host || ex->nsizes == 0 || check_host_plan(ex, &first, &plan) != 0)
        return 0;
    const int each[][2] = {{HOST_FAULT_ALLOC, plan.nbuffers}, {HOST_FAULT_COPY, plan.nbuffers}, {HOST_FAULT_LAUNCH, 1}};
    int n = 0, asked = ex->faults_given ? ex->faults : ~0;
    for (int o = 0; o < 3; o++)
        for (int call = 1; (asked & (1 << each[o][0])) && call <= each[o][1] && n < max; call++, n++) {
            ops[n] = each[o][0];
            calls[n] = call;
        }
    return n;
}

/* Appends a host exercise's fault runs (exercise_fault_plan) to the nasked runs asked; returns how
   many runs there are now. */
static int check_fault_runs(const exercise *ex, exercise_run *asked, int nasked)
{
    int ops[EXERCISE_MAX_RUNS], calls[EXERCISE_MAX_RUNS];
    int n = nasked > 0 ? exercise_fault_plan(ex, ops, calls, EXERCISE_MAX_RUNS - nasked) : 0;
    for (int k = 0; k < n; k++) {
        exercise_run *a = &asked[nasked + k];
        *a = asked[0];
        a->fault_op = ops[k];
        a->fault_call = calls[k];
    }
    return nasked + n;
}

/* The order the runs go to the child in (order[j]: the run asked that goes j-th): as asked, or
   shuffled (from the kernel's random numbers), and the check's nonce, 32 hex digits. 0, or -1. */
static int check_order(int *order, int n, int shuffled, char *nonce, size_t size)
{
    unsigned char bytes[16];
    uint32_t pick[EXERCISE_MAX_RUNS];
    if (getrandom(bytes, sizeof bytes, 0) != (ssize_t)sizeof bytes ||
        getrandom(pick, sizeof pick, 0) != (ssize_t)sizeof pick || size < 2 * sizeof bytes + 1)
        return -1;
    for (size_t i = 0; i < sizeof bytes; i++)
        snprintf(nonce + 2 * i, 3, "%02x", bytes[i]);
    for (int i = 0; i < n; i++)
        order[i] = i;
    for (int i = n - 1; shuffled && i > 0; i--) { /* Fisher-Yates */
        int j = (int)(pick[i] % (uint32_t)(i + 1)), t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    return 0;
}

/* The shared memory's header: "nonce HEX", then "run N:THREADS:BLOCKS:SHUFFLE:OFFSET:FLOATS:FAULT_OP:
   FAULT_CALL" for each run, in order. 0, or -1 when it does not fit. */
static int check_header(verifier *v, const exercise_run *asked, const int *order, int n, const char *nonce)
{
    char text[VERIFIER_HEADER_BYTES];
    size_t used = (size_t)snprintf(text, sizeof text, "nonce %s\n", nonce);
    for (int j = 0; j < n && used < sizeof text; j++) {
        const exercise_run *a = &asked[order[j]];
        used += (size_t)snprintf(text + used, sizeof text - used, "run %lld:%d:%lld:%llu:%zu:%zu:%d:%d\n", (long long)a->n,
                                 a->threads_per_block, (long long)a->blocks, (unsigned long long)a->shuffle,
                                 v->runs[order[j]].offset, v->runs[order[j]].floats, a->fault_op, a->fault_call);
    }
    return used < sizeof text ? verifier_header_set(v, text) : -1;
}

/* check_child's work, or with report ("text", "json") the child's full report of the first run;
   v is left prepared (the caller frees it) for the caller's own taste of a report's run. */
static int check_spawn(const exercise *ex, const char *module, const backend_info *info, int gpu, int nsizes,
                       int shuffles, const char *report, const exercise_options *opt, double timeout,
                       exercise_result *res, int *nruns, child_outcome *out, verifier *v, chef_error *err)
{
    char self[4096];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, _("cannot find the cudachef program itself"));
    self[len] = '\0';
    /* the checks run in cudachef-check, beside this program: no kernel or CPU reference of the
       program's own is in the process the learner's code shares; try's report is made by cudachef
       itself (its taste the learner's process's word; the exit code comes from this process's) */
    if (!report) {
        char *slash = strrchr(self, '/');
        if (!slash || snprintf(slash + 1, sizeof self - (size_t)(slash + 1 - self), "cudachef-check") >=
                          (int)(sizeof self - (size_t)(slash + 1 - self)))
            return chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, _("cannot find the cudachef program itself"));
        if (access(self, X_OK) != 0)
            return chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("install cudachef again (make install), or build it (make)"),
                             _("%s is missing: it runs the learner's kernels"), self);
    }
    char *argv[32], seed[32], rtol[32], atol[32], regs[16];
    int argc = 0;
    *nruns = 0;
    uint64_t seed_value = opt->seed ? opt->seed : 2026;
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)seed_value);
    char *head[] = {self,        "__check",  "--module", (char *)module, "--backend", gpu ? "gpu" : "emu",
                    "--recipe",  ex->recipe, "--kernel", ex->kernel,    "--seed",    seed,
                    "--lang",    (char *)i18n_code(i18n_current())}; /* the child speaks the learner's language */
    for (size_t i = 0; i < sizeof head / sizeof *head; i++)
        argv[argc++] = head[i];
    if (ex->coalesced)
        argv[argc++] = "--coalesced";
    char outs[16];
    if (ex->host) {
        snprintf(outs, sizeof outs, "%d", ex->nouts);
        argv[argc++] = "--host";
        argv[argc++] = ex->host;
        argv[argc++] = "--host-outs";
        argv[argc++] = outs;
    }
    snprintf(rtol, sizeof rtol, "%.9g", ex->rtol);
    snprintf(atol, sizeof atol, "%.9g", ex->atol);
    char *tolerances[] = {"--rtol", rtol, "--atol", atol};
    for (int i = 0; i < 4; i++)
        argv[argc++] = tolerances[i];
    if (report) {
        argv[argc++] = "--report";
        argv[argc++] = (char *)report;
    }
    if (opt->model) {
        argv[argc++] = "--model";
        argv[argc++] = (char *)opt->model;
    }
    if (opt->registers > 0) {
        snprintf(regs, sizeof regs, "%d", opt->registers);
        argv[argc++] = "--registers";
        argv[argc++] = regs;
    }
    if (gpu && opt->visible_gpu) { /* the worker's one GPU (its UUID: grade --class resolved it), boxed or not */
        argv[argc++] = "--visible-gpu";
        argv[argc++] = (char *)opt->visible_gpu;
    }
    /* the runs asked, planned and filled by this process, in shared memory the child cooks into */
    static __thread exercise_run asked[EXERCISE_MAX_RUNS];
    int nasked = 0;
    for (int s = 0; s < nsizes; s++)
        for (int k = 0; k <= shuffles && nasked < EXERCISE_MAX_RUNS; k++) {
            exercise_run *a = &asked[nasked++];
            memset(a, 0, sizeof *a);
            a->n = ex->sizes[s];
            a->threads_per_block = ex->threads_per_block;
            a->blocks = ex->blocks;
            a->shuffle = k == 0 ? 0 : (uint64_t)(1000 * (s + 1) + k);
        }
    if (ex->host && !report) /* the five steps again, each runtime call they should make failing once */
        nasked = check_fault_runs(ex, asked, nasked);
    if (verifier_prepare(v, ex, asked, nasked, info, seed_value, err) != 0)
        return -1;
    /* the runs go to the child in the shared memory's header, not on its command line, with a nonce
       its result lines must carry; a host exercise's runs in a new random order each check, so that
       the learner's code cannot tell a fault run by its place (exercise_runner.c runs each of them
       in a process of its own) */
    int order[EXERCISE_MAX_RUNS];
    char nonce[36];
    if (check_order(order, nasked, ex->host && !report, nonce, sizeof nonce) != 0 ||
        check_header(v, asked, order, nasked, nonce) != 0) {
        verifier_free(v);
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, "cannot plan the check's runs");
    }
    *nruns = nasked;
    argv[argc] = NULL;
    /* the box: the build's own entry of the cache, read-only, and the GPU's nodes for a GPU run */
    int boxed = sandbox_decide(err);
    res->sandboxed = boxed > 0;
    if (boxed < 0) {
        verifier_free(v);
        return -1;
    }
    char entry[4600];
    snprintf(entry, sizeof entry, "%s", module);
    char *slash = strrchr(entry, '/');
    if (slash)
        *slash = '\0';
    sandbox_spec box = {.ro = {entry}, .nro = 1, .gpu = gpu, .visible_gpu = opt->visible_gpu, .wall_s = timeout + 2,
                        .max_procs = 32};
    child_spec spec = {.argv = argv,
                       .sandbox = boxed ? &box : NULL,
                       .shared_fd = v->fd,
                       .timeout_s = timeout,
                       .keep = EXERCISE_OUTPUT_KEEP,
                       .flood = EXERCISE_OUTPUT_LIMIT,
                       .result_pipe = 1,
                       .limit_cpu_s = (int)timeout + 5,
                       .limit_memory_mb = gpu ? 0 : CHECK_MEMORY_MB,
                       .limit_file_mb = 64,
                       .cancel = opt->cancel};
    if (child_run(&spec, out, err) != 0) {
        verifier_free(v);
        return -1;
    }
    if (out->cancelled) {
        child_outcome_free(out);
        verifier_free(v);
        chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, "the check was stopped while the kernel ran");
        err->cause = CHEF_CAUSE_CANCELLED;
        return -1;
    }
    if (report)
        return 0; /* the result pipe holds the report, not runs */
    /* the child's lines say how each run went; only lines with the nonce, about the runs asked, in
       the order asked, count (each put back in its place), and every run's taste is this process's
       own */
    exercise_result *said = calloc(1, sizeof *said);
    if (said)
        exercise_runs_parse(out->result, said);
    int base = res->nruns, got = 0, have[EXERCISE_MAX_RUNS] = {0};
    for (int k = 0; said && k < said->nruns && got < nasked && base + got < EXERCISE_MAX_RUNS; k++) {
        if (strcmp(said->runs[k].nonce, nonce) != 0)
            continue; /* not the child's own line */
        int i = order[got];
        if (!check_same_run(&said->runs[k], &asked[i]))
            break;
        got++;
        have[i] = 1;
        exercise_run *r = &res->runs[base + i];
        *r = said->runs[k];
        if (r->host && r->fault_op && r->injected) {
            /* a fault run: its output is not tasted; the function must have said it failed, and
               have freed what it held (the child's word: advisory) */
            memset(&r->taste, 0, sizeof r->taste);
            r->taste.passed = r->returned != 0 && r->leaked == 0 && r->wrong_copies == 0 && r->handles_left == 0;
        } else if (r->host && r->fault_op) {
            /* a fault run whose planned call never came: the five steps were not all made (the
               work done without the kitchen, or a step left out); its output is not tasted */
            memset(&r->taste, 0, sizeof r->taste);
        } else {
            verifier_taste(v, ex, i, r);
            if (r->host && (r->returned != 0 || r->leaked > 0 || r->wrong_copies > 0 || !check_host_rules(ex, r)))
                r->taste.passed = 0; /* right values, but an error said, memory kept or a rule broken */
            if (r->host && exercise_practice_miss(ex, r))
                r->taste.passed = 0; /* right values, but not the way the lesson teaches */
        }
        if (r->code == CHEF_EXIT_OK && !r->taste.passed)
            r->code = CHEF_EXIT_WRONG;
    }
    while (res->nruns - base < nasked && have[res->nruns - base]) /* the runs asked, in their order, up to the first missing */
        res->nruns++;
    free(said);
    return 0;
}

/* Appends the runs of the child's result pipe to res (text is cut into lines in place). */
void exercise_runs_parse(char *text, exercise_result *res)
{
    PLANTED_FAULTS("grading");
    for (char *line = text, *next; line && *line && res->nruns < EXERCISE_MAX_RUNS; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        if (check_parse_run(line, &res->runs[res->nruns]) == 0)
            res->nruns++;
        if (!next)
            break;
    }
}

/* A coalescing exercise whose record of the first warp's writes could not be made: no pass
   without it (a check that cannot be made fails closed). */
static void check_no_record(exercise_result *res)
{
    res->status = EXERCISE_ENVIRONMENT;
    snprintf(res->summary, sizeof res->summary, "%s",
             _("no record of where the first warp wrote, or of the locker's bank conflicts, could be made, so "
               "the exercise's memory check cannot pass"));
}

/* After a GPU pass of a coalescing exercise: builds the kernel for the emulator too and traces
   where the first warp of the first size writes; more than 2 segments makes the result wrong. */
static void check_coalescing_on_emulator(const exercise *ex, const char *source, const exercise_options *opt,
                                         exercise_result *res)
{
    char module[4600], *log = NULL;
    int cached = 0, nruns = 0;
    chef_error err = {0};
    backend_info none;
    memset(&none, 0, sizeof none);
    exercise_result traced;
    memset(&traced, 0, sizeof traced);
    child_outcome out;
    if (exercise_build(ex, source, 0, &none, module, sizeof module, &log, &cached, opt->cancel, &err) == 0 &&
        check_child(ex, module, &none, 0, 1, 0, opt, ex->timeout_s, &traced, &nruns, &out, &err) == 0) {
        if (traced.nruns == 1 && res->nruns > 0 &&
            ((ex->coalesced && traced.runs[0].segments > 2) || (ex->conflict_free && traced.runs[0].conflicts > 0) ||
             exercise_limit_miss(ex, &traced.runs[0], NULL) >= 0)) {
            res->runs[0].segments = traced.runs[0].segments;
            res->runs[0].conflicts = traced.runs[0].conflicts;
            res->runs[0].counted = traced.runs[0].counted;
            memcpy(res->runs[0].counter, traced.runs[0].counter, sizeof res->runs[0].counter);
            res->status = EXERCISE_WRONG;
        } else if (traced.nruns != 1 || (ex->coalesced && traced.runs[0].segments < 0) ||
                   (ex->conflict_free && traced.runs[0].conflicts < 0)) {
            check_no_record(res);
        }
        child_outcome_free(&out);
    } else {
        check_no_record(res);
    }
    free(log);
}

/* Takes the child's output and time into res, and says in the summary when the child itself ended
   badly: a flood of output, or a signal (out's output becomes res's). */
static void check_take(exercise_result *res, child_outcome *out)
{
    res->run_ms = out->ms;
    res->output = out->output;
    out->output = NULL;
    res->output_bytes = out->output_bytes;
    res->flooded = out->flooded;
    if (out->flooded)
        snprintf(res->summary, sizeof res->summary, _("the kernel printed more than %d MiB: stopped"),
                 EXERCISE_OUTPUT_LIMIT >> 20);
    else if (!out->exited && !out->timed_out)
        snprintf(res->summary, sizeof res->summary, _("the kernel crashed the process (signal %d, %s)"), out->status,
                 strsignal(out->status));
}

/* A child that exited by itself before reporting what it was asked: the kernel called exit(), or
   the child could not load it (its own words are in the output). */
static void check_ended_early(exercise_result *res, const child_outcome *out)
{
    res->status = EXERCISE_CRASH;
    if (!res->summary[0])
        snprintf(res->summary, sizeof res->summary,
                 _("the process ended (exit status %d) before the kitchen could taste the kernel's work: a kernel "
                   "must not call exit()"),
                 out->status);
}

/* Fills res for a check that stopped before the kernel ran, with err's words. */
static void check_refused(exercise_result *res, exercise_status status, const chef_error *err)
{
    res->status = status;
    snprintf(res->summary, sizeof res->summary, "%s", err->message);
    snprintf(res->explanation, sizeof res->explanation, "%s", err->hint);
}

/* Builds source for ex (or finds its build) into module, timed into res->build_ms: 0 built, 1 the
   compiler refused it (res says so, diagnosed), -1 with err when no build could be tried. */
static int check_build(const exercise *ex, const char *source, const backend_info *info, const exercise_options *opt,
                       exercise_result *res, char *module, size_t size, chef_error *err)
{
    double t0 = chef_now_ms();
    int built = exercise_build(ex, source, res->on_gpu, info, module, size, &res->build_log, &res->cached, opt->cancel,
                               err);
    res->build_ms = chef_now_ms() - t0;
    if (built > 0) {
        res->status = EXERCISE_BUILD;
        exercise_diagnose(ex, res);
    } else if (built < 0 && err->cause != CHEF_CAUSE_CANCELLED) {
        /* this exercise's build could not be tried: its row says why, the others go on */
        check_refused(res, err->exit_code == CHEF_EXIT_BUILD ? EXERCISE_BUILD : EXERCISE_ENVIRONMENT, err);
        return 1;
    }
    return built;
}

/* Checks source for ex. */
int exercise_check(const exercise *ex, const char *source, const exercise_options *opt, exercise_result *res,
                   chef_error *err)
{
    memset(res, 0, sizeof *res);
    if (ex->broken) { /* the exercise's own files: its row says so, and the others grade */
        res->status = EXERCISE_ENVIRONMENT;
        snprintf(res->summary, sizeof res->summary, _("the exercise is broken: %s"), ex->broken);
        snprintf(res->explanation, sizeof res->explanation, "%s",
                 _("Tell the exercise's author: cudachef list --check names every problem."));
        return 0;
    }
    backend_info info;
    chef_error why = {0};
    if (check_backend(opt, ex->host != NULL, &info, &res->on_gpu, res->backend, sizeof res->backend, &why) != 0) {
        res->status = EXERCISE_ENVIRONMENT;
        snprintf(res->summary, sizeof res->summary, "%s", why.message);
        snprintf(res->explanation, sizeof res->explanation, "%s", why.hint);
        return 0;
    }
    exercise_signature(ex, res->signature, sizeof res->signature);
    res->timeout_s = opt->timeout_s > 0 ? opt->timeout_s : ex->timeout_s;
    /* no sandbox where grading insists on one: the whole grade stops, in one line */
    if (sandbox_decide(err) < 0)
        return -1;
    /* 0. the learner's own file (never a link), and the kernel the exercise cooks must be there,
       with its name (else the glue's own error) */
    char *text = NULL, found[128];
    size_t text_size = 0;
    chef_error unread = {0};
    if (exercise_source_read(source, &text, &text_size, &unread) != 0) {
        check_refused(res, unread.exit_code == CHEF_EXIT_ENVIRONMENT ? EXERCISE_ENVIRONMENT : EXERCISE_BUILD, &unread);
        return 0;
    }
    if (exercise_kernel_name(text, ex->kernel, found, sizeof found) != 0) {
        free(text);
        res->status = EXERCISE_BUILD;
        snprintf(res->summary, sizeof res->summary, _("there is no __global__ function %s in the file%s%s"),
                 ex->kernel, found[0] ? _(", only ") : "", found);
        snprintf(res->explanation, sizeof res->explanation,
                 _("The exercise cooks __global__ void %s: keep that name and those parameters."), res->signature);
        return 0;
    }
    free(text);
    /* 1. build on its own */
    char module[4600];
    int built = check_build(ex, source, &info, opt, res, module, sizeof module, err);
    if (built != 0)
        return built < 0 ? -1 : 0;
    /* 2. run in a child cudachef under limits */
    child_outcome out;
    int nruns = 0;
    int again = res->on_gpu && ex->shuffles > 2 ? 2 : ex->shuffles; /* a GPU: the same run again */
    if (check_child(ex, module, &info, res->on_gpu, ex->nsizes, again, opt, res->timeout_s, res, &nruns, &out, err) != 0)
        return -1;
    check_take(res, &out);
    /* 3. how it ended */
    if (out.timed_out)
        res->status = EXERCISE_TIMEOUT;
    else if (out.flooded || !out.exited)
        res->status = EXERCISE_CRASH;
    else if (res->nruns < nruns)
        check_ended_early(res, &out);
    else
        res->status = EXERCISE_PASSED;
    res->process_failed = res->status != EXERCISE_PASSED;
    /* a crash in any run outranks a wrong one before it (diagnose_first_bad explains the crash) */
    for (int i = 0; i < res->nruns && (res->status == EXERCISE_PASSED || res->status == EXERCISE_WRONG); i++) {
        const exercise_run *r = &res->runs[i];
        if (r->code == CHEF_EXIT_CRASH)
            res->status = EXERCISE_CRASH;
        else if (r->code == CHEF_EXIT_WRONG || (ex->coalesced && r->segments > 2) ||
                 (ex->conflict_free && r->conflicts > 0) || exercise_limit_miss(ex, r, NULL) >= 0)
            res->status = EXERCISE_WRONG;
        else if (r->code != CHEF_EXIT_OK)
            res->status = r->code == CHEF_EXIT_ENVIRONMENT ? EXERCISE_ENVIRONMENT : EXERCISE_CRASH;
    }
    if (!res->on_gpu && res->status == EXERCISE_PASSED &&
        ((ex->coalesced && (res->nruns == 0 || res->runs[0].segments < 0)) ||
         (ex->conflict_free && (res->nruns == 0 || res->runs[0].conflicts < 0))))
        check_no_record(res);
    /* a GPU neither traces where each cook wrote nor counts bank conflicts in the learner's process:
       such an exercise is also traced and counted on the emulator */
    if (res->on_gpu && (ex->coalesced || ex->conflict_free || ex->nlimits) && res->status == EXERCISE_PASSED)
        check_coalescing_on_emulator(ex, source, opt, res);
    child_outcome_free(&out);
    exercise_diagnose(ex, res);
    return 0;
}

/* Builds source and cooks it once, for `cudachef try`. */
int exercise_try(const exercise *ex, const char *source, const exercise_options *opt, const char *format,
                 exercise_result *res, char **report, int *code, chef_error *err)
{
    memset(res, 0, sizeof *res);
    *report = NULL;
    *code = CHEF_EXIT_INTERNAL;
    if (ex->host)
        return chef_fail(err, CHEF_EXIT_USAGE, _("grade it: cudachef grade NAME"),
                         _("%s is a host exercise: try cooks a kernel alone, not the head chef's five steps"), ex->name);
    backend_info info;
    chef_error why = {0};
    if (check_backend(opt, ex->host != NULL, &info, &res->on_gpu, res->backend, sizeof res->backend, &why) != 0) {
        *err = why;
        return -1;
    }
    res->timeout_s = opt->timeout_s > 0 ? opt->timeout_s : ex->timeout_s;
    char module[4600];
    int built = check_build(ex, source, &info, opt, res, module, sizeof module, err);
    if (built != 0) {
        *code = CHEF_EXIT_BUILD;
        return built < 0 ? -1 : 0;
    }
    /* on the emulator, the model of the learner's kernel gets its registers from nvcc where nvcc is */
    exercise_options with = *opt;
    model_device target;
    chef_error no = {0};
    if (!res->on_gpu && model_device_open(opt->model, &target, &no) == 0)
        with.registers = exercise_registers(ex, source, target.compute_capability, opt->cancel);
    child_outcome out;
    int nruns = 0;
    verifier v;
    if (check_spawn(ex, module, &info, res->on_gpu, 1, 0, format, &with, res->timeout_s, res, &nruns, &out, &v, err) !=
        0)
        return -1;
    *report = out.result;
    out.result = NULL;
    check_take(res, &out);
    chef_clean_text(res->output);
    res->status = out.timed_out ? EXERCISE_TIMEOUT : out.flooded || !out.exited ? EXERCISE_CRASH : EXERCISE_PASSED;
    /* what the child wrote is the learner's process's word: a report must be one (JSON that
       parses, text without control sequences), its exit code one that `run` documents, and the
       taste is this process's own */
    int said = out.exited ? out.status : CHEF_EXIT_CRASH;
    if (*report && strcmp(format, "json") == 0) {
        json_error_t jerr;
        json_t *doc = json_loads(*report, 0, &jerr);
        free(*report);
        *report = NULL;
        if (doc) {
            char *again = json_dumps(doc, JSON_INDENT(2));
            json_decref(doc);
            if (again) {
                size_t len = strlen(again);
                *report = realloc(again, len + 2);
                if (!*report)
                    *report = again;
                else
                    memcpy(*report + len, "\n", 2);
            }
        }
    } else if (*report) {
        chef_clean_text(*report);
    }
    exercise_run tasted = {0};
    if (v.nruns > 0) {
        tasted.n = ex->sizes[0];
        verifier_taste(&v, ex, 0, &tasted);
    }
    int refused = v.nruns > 0 && !v.runs[0].planned; /* the recipe refuses the size: a usage error */
    verifier_free(&v);
    if (res->status == EXERCISE_PASSED && said != CHEF_EXIT_OK && said != CHEF_EXIT_WRONG &&
        said != CHEF_EXIT_CRASH && said != CHEF_EXIT_ENVIRONMENT && !(said == CHEF_EXIT_USAGE && refused))
        check_ended_early(res, &out); /* an exit status `run` never gives: the kernel ended the process */
    else if (res->status == EXERCISE_PASSED && (said == CHEF_EXIT_OK || said == CHEF_EXIT_WRONG) &&
             (!*report || !**report))
        check_ended_early(res, &out); /* a taste with no report: the kernel ended the process */
    if (res->status == EXERCISE_PASSED && (said == CHEF_EXIT_OK || said == CHEF_EXIT_WRONG)) {
        *code = tasted.taste.passed ? CHEF_EXIT_OK : CHEF_EXIT_WRONG;
        if (said == CHEF_EXIT_OK && !tasted.taste.passed)
            fprintf(stderr, _("cudachef: the report says passed, but cudachef's own taste of the output found %zu of "
                              "%zu elements right: wrong\n"),
                    tasted.taste.correct, tasted.taste.checked);
    } else {
        *code = res->status == EXERCISE_PASSED ? said : CHEF_EXIT_CRASH;
    }
    if (res->status != EXERCISE_PASSED)
        exercise_diagnose(ex, res);
    child_outcome_free(&out);
    return 0;
}

/* Frees the result's buffers. */
void exercise_result_free(exercise_result *res)
{
    free(res->build_log);
    free(res->output);
    res->build_log = res->output = NULL;
}
