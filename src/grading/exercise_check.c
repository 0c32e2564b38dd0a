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

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/model.h"
#include "grading/child.h"
#include "lessons/lesson.h"

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
    run->n = json_integer_value(json_object_get(doc, "n"));
    run->threads_per_block = (int)json_integer_value(json_object_get(doc, "threads_per_block"));
    run->blocks = json_integer_value(json_object_get(doc, "blocks"));
    run->shuffle = (uint64_t)json_integer_value(json_object_get(doc, "shuffle"));
    run->code = (int)json_integer_value(json_object_get(doc, "code"));
    run->cause = (int)json_integer_value(json_object_get(doc, "cause"));
    snprintf(run->message, sizeof run->message, "%s", message ? message : "");
    run->teams = (uint64_t)json_integer_value(json_object_get(doc, "teams"));
    run->segments = (int)json_integer_value(json_object_get(doc, "segments"));
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

/* Decides who cooks: 0, or -1 with err when the GPU was asked for and there is none. */
static int check_backend(const exercise_options *opt, backend_info *info, int *gpu, char *name, size_t size,
                         chef_error *err)
{
    memset(info, 0, sizeof *info);
    *gpu = 0;
    if (opt->backend != BACKEND_EMU && backend_gpu_probe(info) == 0)
        *gpu = 1;
    else if (opt->backend == BACKEND_GPU)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("use --backend emu (the CPU emulator), or a machine with a GPU"),
                         _("no GPU to cook on: %s"), info->no_gpu_reason[0] ? info->no_gpu_reason : "?");
    snprintf(name, size, "%s", *gpu ? info->name : _("CPU emulator"));
    return 0;
}

static int check_spawn(const exercise *ex, const char *module, int gpu, int nsizes, int shuffles, const char *report,
                       const exercise_options *opt, double timeout, exercise_result *res, int *nruns,
                       child_outcome *out, chef_error *err);

/* Runs the learner's module in a child cudachef: the first nsizes sizes, each also in shuffles
   shuffled cook orders; appends each run reported to res (*nruns gets how many were asked) and
   fills *out (its output buffer is the caller's to free). 0, or -1 with err. */
static int check_child(const exercise *ex, const char *module, int gpu, int nsizes, int shuffles,
                       const exercise_options *opt, double timeout, exercise_result *res, int *nruns,
                       child_outcome *out, chef_error *err)
{
    return check_spawn(ex, module, gpu, nsizes, shuffles, NULL, opt, timeout, res, nruns, out, err);
}

/* check_child's work, or with report ("text", "json") the child's full report of the first run. */
static int check_spawn(const exercise *ex, const char *module, int gpu, int nsizes, int shuffles, const char *report,
                       const exercise_options *opt, double timeout, exercise_result *res, int *nruns,
                       child_outcome *out, chef_error *err)
{
    char self[4096];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, _("cannot find the cudachef program itself"));
    self[len] = '\0';
    char *argv[26 + 2 * EXERCISE_MAX_RUNS], runs[EXERCISE_MAX_RUNS][96], seed[32], rtol[32], atol[32], regs[16];
    int argc = 0;
    *nruns = 0;
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)(opt->seed ? opt->seed : 2026));
    char *head[] = {self,        "__check",  "--module", (char *)module, "--backend", gpu ? "gpu" : "emu",
                    "--recipe",  ex->recipe, "--kernel", ex->kernel,    "--seed",    seed,
                    "--lang",    (char *)i18n_code(i18n_current())}; /* the child speaks the learner's language */
    for (size_t i = 0; i < sizeof head / sizeof *head; i++)
        argv[argc++] = head[i];
    if (ex->coalesced)
        argv[argc++] = "--coalesced";
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
    for (int s = 0; s < nsizes; s++)
        for (int k = 0; k <= shuffles && *nruns < EXERCISE_MAX_RUNS; k++) {
            snprintf(runs[*nruns], sizeof runs[*nruns], "%lld:%d:%lld:%d", (long long)ex->sizes[s],
                     ex->threads_per_block, (long long)ex->blocks, k == 0 ? 0 : 1000 * (s + 1) + k);
            argv[argc++] = "--run";
            argv[argc++] = runs[(*nruns)++];
        }
    argv[argc] = NULL;
    child_spec spec = {.argv = argv,
                       .timeout_s = timeout,
                       .keep = EXERCISE_OUTPUT_KEEP,
                       .flood = EXERCISE_OUTPUT_LIMIT,
                       .result_pipe = 1,
                       .limit_cpu_s = (int)timeout + 5,
                       .limit_memory_mb = gpu ? 0 : CHECK_MEMORY_MB,
                       .limit_file_mb = 64,
                       .cancel = opt->cancel};
    if (child_run(&spec, out, err) != 0)
        return -1;
    if (out->cancelled) {
        child_outcome_free(out);
        chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, "the check was stopped while the kernel ran");
        err->cause = CHEF_CAUSE_CANCELLED;
        return -1;
    }
    if (report)
        return 0; /* the result pipe holds the report, not runs */
    exercise_runs_parse(out->result, res);
    return 0;
}

/* Appends the runs of the child's result pipe to res (text is cut into lines in place). */
void exercise_runs_parse(char *text, exercise_result *res)
{
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
        check_child(ex, module, 0, 1, 0, opt, ex->timeout_s, &traced, &nruns, &out, &err) == 0) {
        if (traced.nruns == 1 && traced.runs[0].segments > 2 && res->nruns > 0) {
            res->runs[0].segments = traced.runs[0].segments;
            res->status = EXERCISE_WRONG;
        }
        child_outcome_free(&out);
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
    }
    return built;
}

/* Checks source for ex. */
int exercise_check(const exercise *ex, const char *source, const exercise_options *opt, exercise_result *res,
                   chef_error *err)
{
    memset(res, 0, sizeof *res);
    backend_info info;
    chef_error why = {0};
    if (check_backend(opt, &info, &res->on_gpu, res->backend, sizeof res->backend, &why) != 0) {
        res->status = EXERCISE_ENVIRONMENT;
        snprintf(res->summary, sizeof res->summary, "%s", why.message);
        snprintf(res->explanation, sizeof res->explanation, "%s", why.hint);
        return 0;
    }
    exercise_signature(ex, res->signature, sizeof res->signature);
    res->timeout_s = opt->timeout_s > 0 ? opt->timeout_s : ex->timeout_s;
    /* 0. the kernel the exercise cooks must be there, with its name (else the glue's own error) */
    char *text = lesson_read_file(source, NULL), found[128];
    if (text && exercise_kernel_name(text, ex->kernel, found, sizeof found) != 0) {
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
    if (check_child(ex, module, res->on_gpu, ex->nsizes, again, opt, res->timeout_s, res, &nruns, &out, err) != 0)
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
    for (int i = 0; i < res->nruns && res->status == EXERCISE_PASSED; i++) {
        const exercise_run *r = &res->runs[i];
        if (r->code == CHEF_EXIT_CRASH)
            res->status = EXERCISE_CRASH;
        else if (r->code == CHEF_EXIT_WRONG || (ex->coalesced && r->segments > 2))
            res->status = EXERCISE_WRONG;
        else if (r->code != CHEF_EXIT_OK)
            res->status = r->code == CHEF_EXIT_ENVIRONMENT ? EXERCISE_ENVIRONMENT : EXERCISE_CRASH;
    }
    /* a GPU does not trace where each cook wrote: a coalescing exercise is also traced on the emulator */
    if (res->on_gpu && ex->coalesced && res->status == EXERCISE_PASSED)
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
    backend_info info;
    chef_error why = {0};
    if (check_backend(opt, &info, &res->on_gpu, res->backend, sizeof res->backend, &why) != 0) {
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
    if (check_spawn(ex, module, res->on_gpu, 1, 0, format, &with, res->timeout_s, res, &nruns, &out, err) != 0)
        return -1;
    *report = out.result;
    out.result = NULL;
    check_take(res, &out);
    res->status = out.timed_out ? EXERCISE_TIMEOUT : out.flooded || !out.exited ? EXERCISE_CRASH : EXERCISE_PASSED;
    if (res->status == EXERCISE_PASSED && out.status == CHEF_EXIT_OK && (!*report || !**report))
        check_ended_early(res, &out); /* "passed" with no report: the kernel ended the process */
    *code = res->status == EXERCISE_PASSED ? out.status : CHEF_EXIT_CRASH;
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
