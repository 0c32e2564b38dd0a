/*
 * clock.c - the "clock" demo: a cold first launch, warm launches and their median, and what a
 * timer reads when the program forgets to synchronize (see clock.h).
 *
 * The recipe's own plan, fill, arguments and CPU reference (recipes.h) are reused; the launches go
 * through the backend one by one, because kitchen_run warms up before it times and this demo is
 * about that very first launch. The GPU-only part of (c) (a launch timed without synchronizing)
 * needs the CUDA runtime itself and lives in clock_gpu.c.
 */
#include "demos/clock.h"

#include <stdlib.h>
#include <string.h>

#include "base/i18n.h"
#include "engine/recipes.h"
#include "engine/report.h"

/* Sorts doubles ascending. */
static int clock_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Min, median, max and mean of n timings; all zero when n < 1 (see clock.h). */
clock_stats clock_summarize(const double *runs, int n)
{
    clock_stats s = {0, 0, 0, 0};
    double *sorted = malloc((size_t)n * sizeof *sorted);
    if (!sorted || n < 1) {
        free(sorted);
        return s;
    }
    double sum = 0;
    for (int i = 0; i < n; i++) {
        sorted[i] = runs[i];
        sum += runs[i];
    }
    qsort(sorted, (size_t)n, sizeof *sorted, clock_cmp_double);
    s.min = sorted[0];
    s.max = sorted[n - 1];
    s.median = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
    s.mean = sum / n;
    free(sorted);
    return s;
}

/* Checks that the buffers fit in host and device memory before anything is allocated. */
static int clock_check_memory(const kitchen_plan *plan, const backend_info *info, chef_error *err)
{
    size_t device = 0, output = 0;
    for (int i = 0; i < plan->nbuffers; i++) {
        device += plan->buffers[i].count * sizeof(float);
        if (plan->buffers[i].is_output)
            output += plan->buffers[i].count * sizeof(float);
    }
    /* the emulator's device memory is host memory too */
    return demo_check_memory(device + output + (info->kind == BACKEND_EMU ? device : 0), device, info, err);
}

/* Allocates, fills and ships in the inputs; poisons the output on the device with NaN so that an
   element no launch wrote fails the taste. Returns 0 or -1 with err. */
static int clock_prepare(backend *be, const recipe *rc, kitchen_plan *plan, int pinned, chef_error *err)
{
    for (int i = 0; i < plan->nbuffers; i++) {
        kitchen_buffer *b = &plan->buffers[i];
        size_t bytes = b->count * sizeof(float);
        if (be->host_alloc(be, (void **)&b->host, bytes, pinned, err) != 0 ||
            be->device_alloc(be, &b->device, bytes, b->name, sizeof(float), err) != 0)
            return -1;
        if (b->is_output)
            memset(b->host, 0xFF, bytes); /* all bits set: a NaN */
    }
    rc->fill(plan);
    for (int i = 0; i < plan->nbuffers; i++) {
        kitchen_buffer *b = &plan->buffers[i];
        if (be->copy(be, b->device, b->host, b->count * sizeof(float), COPY_TO_DEVICE, NULL, err) != 0)
            return -1;
    }
    return 0;
}

/* Launches once and reads both clocks: the kitchen's timer and the host clock around the call. */
static int clock_launch(backend *be, const recipe *rc, kitchen_plan *plan, void **args, const demo_params *p,
                        double *kernel_ms, double *host_ms, chef_error *err)
{
    if (demo_stopped(p, err) != 0)
        return -1;
    launch_options opt = {0};
    opt.workers = p->run.workers;
    opt.cancel = p->cancel;
    double t0 = chef_now_ms();
    int rc_code = be->launch(be, rc->kernel, plan->grid, plan->block, args, &opt, kernel_ms, err);
    *host_ms = chef_now_ms() - t0;
    return rc_code;
}

/* Measures (a), (b) and (c). Returns 0 or -1 with r->error. */
static int clock_measure(backend *be, const demo_params *p, const recipe *rc, kitchen_plan *plan, clock_result *r)
{
    void *args[8];
    rc->args(plan, args);
    double *host_runs = malloc((size_t)r->repeat * sizeof *host_runs);
    if (!host_runs)
        return chef_fail(&r->error, CHEF_EXIT_ENVIRONMENT, NULL, _("out of host memory"));
    if (p->progress)
        p->progress(p->progress_ctx, _("the first launch"));
    int code = clock_launch(be, rc, plan, args, p, &r->first_kernel_ms, &r->first_host_ms, &r->error);
    if (code == 0 && p->progress)
        p->progress(p->progress_ctx, _("warm launches"));
    for (int i = 0; i < r->repeat && code == 0; i++)
        code = clock_launch(be, rc, plan, args, p, &r->warm_runs[i], &host_runs[i], &r->error);
    if (code != 0) {
        free(host_runs);
        return -1;
    }
    r->warm = clock_summarize(r->warm_runs, r->repeat);
    r->warm_host = clock_summarize(host_runs, r->repeat);
    r->cold_ratio = r->warm_host.median > 0 ? r->first_host_ms / r->warm_host.median : 0;
    if (be->info.kind != BACKEND_GPU) {
        /* the emulator's launch returns when every cook is done: stopping the clock when the call
           returns and after synchronizing is one and the same reading */
        r->sync_separate = 0;
        r->launches = 1 + r->repeat;
        r->no_sync = r->with_sync = r->warm_host;
        free(host_runs);
        return 0;
    }
    if (p->progress)
        p->progress(p->progress_ctx, _("stopping the clock with and without synchronizing"));
    double *no_sync = malloc(3 * (size_t)r->repeat * sizeof *no_sync);
    if (!no_sync) {
        free(host_runs);
        return chef_fail(&r->error, CHEF_EXIT_ENVIRONMENT, NULL, _("out of host memory"));
    }
    double *with_sync = no_sync + r->repeat, *events = with_sync + r->repeat;
    code = clock_gpu_stop_watch(rc->kernel, plan->grid, plan->block, args, r->repeat, no_sync, with_sync, events,
                                &r->error);
    if (code == 0) {
        r->sync_separate = 1;
        r->launches = 1 + 3 * r->repeat;
        r->no_sync = clock_summarize(no_sync, r->repeat);
        r->with_sync = clock_summarize(with_sync, r->repeat);
        r->events = clock_summarize(events, r->repeat);
    }
    free(no_sync);
    free(host_runs);
    return code;
}

/* Ships the output back and tastes it against the recipe's CPU reference. */
static int clock_taste(backend *be, const recipe *rc, kitchen_plan *plan, clock_result *r)
{
    kitchen_buffer *out = &plan->buffers[plan->nbuffers - 1];
    if (be->copy(be, out->host, out->device, out->count * sizeof(float), COPY_TO_HOST, NULL, &r->error) != 0)
        return -1;
    float *expected = malloc(out->count * sizeof *expected);
    if (!expected)
        return chef_fail(&r->error, CHEF_EXIT_ENVIRONMENT, NULL, _("out of host memory for the reference"));
    rc->reference(plan, expected);
    verify_compare(out->host, expected, out->count, r->rtol, r->atol, &r->taste);
    free(expected);
    return 0;
}

/* Runs the demo. Returns the exit code; *out is set whenever the kitchen was opened. */
int clock_run(const demo_params *p, clock_result **out, chef_error *err)
{
    *out = NULL;
    kitchen_params kp = p->run;
    const recipe *rc = recipe_find(kp.recipe ? kp.recipe : "vector-add");
    if (!rc) {
        chef_fail(err, CHEF_EXIT_USAGE, _("`cudachef list` shows what can be run"), _("unknown recipe '%s'"),
                  kp.recipe);
        return CHEF_EXIT_USAGE;
    }
    if (kp.n == 0)
        kp.n = rc->default_n;
    if (kp.threads_per_block == 0)
        kp.threads_per_block = rc->default_threads_per_block;
    int repeat = kp.repeat > 0 ? kp.repeat : CLOCK_DEFAULT_REPEAT;
    if (repeat > CLOCK_MAX_REPEAT) {
        chef_fail(err, CHEF_EXIT_USAGE, _("use 1 to 1000"), _("--repeat %d is out of range"), repeat);
        return CHEF_EXIT_USAGE;
    }
    backend *be;
    clock_result *r = demo_open(kp.backend, sizeof *r, &be, err);
    if (!r)
        return err->exit_code;
    *out = r;
    r->backend = be->info;
    r->recipe = rc->name;
    r->kernel = rc->kernel;
    r->repeat = repeat;
    r->pinned = kp.pinned;
    r->rtol = kp.rtol >= 0 ? kp.rtol : rc->rtol;
    r->atol = kp.atol >= 0 ? kp.atol : rc->atol * (rc->atol_scales_with_n ? (double)kp.n : 1.0);

    kitchen_plan plan;
    memset(&plan, 0, sizeof plan);
    plan.seed = kp.seed;
    int code = rc->plan(&kp, &be->info, &plan, &r->error) == 0 && clock_check_memory(&plan, &be->info, &r->error) == 0
                   ? 0 : -1;
    if (code == 0) {
        /* small vectors without a seed use the counting example, as `cudachef run` does */
        plan.counting = !kp.seed_given && plan.n <= 16 && strncmp(rc->name, "vector", 6) == 0;
        r->n = plan.n;
        r->grid = plan.grid;
        r->block = plan.block;
        r->seed = plan.seed;
        if (kp.note && be->info.kind == BACKEND_EMU) {
            uint64_t teams = (uint64_t)plan.grid.x * plan.grid.y * plan.grid.z;
            kitchen_wait w = {rc->kernel, teams * plan.block.x * plan.block.y * plan.block.z, teams,
                              p->run.workers > 0 ? p->run.workers : be->info.workers, 0, repeat + 1, 0};
            kitchen_note_wait(rc, &plan, &w, kp.note);
        }
        code = clock_prepare(be, rc, &plan, kp.pinned, &r->error);
    }
    if (code == 0)
        code = clock_measure(be, p, rc, &plan, r);
    if (code == 0)
        code = clock_taste(be, rc, &plan, r);
    r->ran = code == 0;
    kitchen_release(be, &plan, kp.pinned);
    backend_close(be);
    if (code != 0)
        return r->exit_code = demo_error_exit(&r->error, CHEF_EXIT_INTERNAL, err);
    return r->exit_code = r->taste.passed ? CHEF_EXIT_OK : CHEF_EXIT_WRONG;
}

/* Writes the result for people, in the learner's language. */
void clock_text(FILE *out, const clock_result *r)
{
    char t1[24], t2[24], t3[24], t4[24];
    int gpu = r->backend.kind == BACKEND_GPU;
    unsigned teams = r->grid.x * r->grid.y * r->grid.z, cooks = r->block.x * r->block.y * r->block.z;
    if (r->n > 0) {
        const char *fmt; /* a count of one has its own sentence */
        if (teams == 1)
            fmt = cooks == 1 ? _("clock: timing %s honestly (%s, n = %lld, %u team of %u cook)\n")
                             : _("clock: timing %s honestly (%s, n = %lld, %u team of %u cooks)\n");
        else
            fmt = cooks == 1 ? _("clock: timing %s honestly (%s, n = %lld, %u teams of %u cook)\n")
                             : _("clock: timing %s honestly (%s, n = %lld, %u teams of %u cooks)\n");
        fprintf(out, fmt, r->kernel, r->recipe, (long long)r->n, teams, cooks);
    } else
        fprintf(out, _("clock: timing %s honestly (%s)\n"), r->kernel, r->recipe);
    report_backend_text(out, &r->backend);
    if (!r->ran) {
        demo_stopped_text(out, _("\nThe kitchen stopped: %s\n"), &r->error);
        return;
    }

    fprintf(out, "%s", _("\n(a) The first launch and warm launches (host clock, from the launch call until the cooks are done)\n"));
    chef_format_ms(r->first_host_ms, t1, sizeof t1);
    chef_format_ms(r->warm_host.median, t2, sizeof t2);
    fprintf(out, _("    first launch of this run     %s\n"), t1);
    if (r->repeat == 1)
        fprintf(out, _("    one warm launch              %s\n"), t2);
    else
        fprintf(out, _("    warm launches, median        %s (%d launches)\n"), t2, r->repeat);
    if (r->cold_ratio > 0)
        fprintf(out, _("    the first launch took %.1fx as long as a warm one\n"), r->cold_ratio);
    if (gpu)
        fprintf(out, "%s", _("    On a GPU the first launch of a kernel also loads its machine code onto the device\n"
                             "    (CUDA loads kernels lazily, at their first launch). Warm up before you time, or your\n"
                             "    first figure measures the loading, not the cooking.\n"));
    else
        fprintf(out, "%s", _("    On the emulator the first launch also starts the worker threads and touches fresh\n"
                             "    memory; on a GPU it would load the kernel's machine code. Warm up before you time.\n"));
    fprintf(out, "%s", _("    If this program cooked before this demo, part of that one-time work was already done.\n"));

    const char *timer = gpu ? _("CUDA events") : _("the CPU clock");
    if (r->repeat == 1)
        fprintf(out, _("\n(b) one warm launch on the kitchen's own timer (%s)\n"), timer);
    else
        fprintf(out, _("\n(b) %d warm launches on the kitchen's own timer (%s)\n"), r->repeat, timer);
    chef_format_ms(r->warm.min, t1, sizeof t1);
    chef_format_ms(r->warm.median, t2, sizeof t2);
    chef_format_ms(r->warm.max, t3, sizeof t3);
    chef_format_ms(r->warm.mean, t4, sizeof t4);
    fprintf(out, _("    min %s   median %s   max %s   mean %s\n"), t1, t2, t3, t4);
    fprintf(out, "%s", _("    We report the median: one launch slowed down by something else on the machine moves the\n"
                         "    mean and the max, but hardly moves the median. The min is the best the kitchen did once,\n"
                         "    not what you can expect.\n"));

    fprintf(out, "%s", _("\n(c) Stopping the clock\n"));
    if (r->sync_separate) {
        chef_format_ms(r->no_sync.median, t1, sizeof t1);
        chef_format_ms(r->with_sync.median, t2, sizeof t2);
        chef_format_ms(r->events.median, t3, sizeof t3);
        fprintf(out, _("    host timer stopped when cudaLaunchKernel returns     %s   (wrong: the cooks were not done)\n"), t1);
        fprintf(out, _("    host timer stopped after cudaDeviceSynchronize()     %s\n"), t2);
        fprintf(out, _("    CUDA events recorded around the launch              %s\n"), t3);
        if (r->repeat == 1)
            fprintf(out, "%s", _("    (one launch each)\n"));
        else
            fprintf(out, _("    (medians of %d launches each)\n"), r->repeat);
        fprintf(out, "%s", _("    cudaLaunchKernel only places the order: it returns as soon as the launch is queued,\n"
                             "    before the cooks finish. A timer stopped there measures the order, not the cooking.\n"
                             "    Synchronize before you stop the clock, or use events: they are recorded on the GPU's\n"
                             "    own clock, without the host's cost of waiting and waking up.\n"));
    } else {
        chef_format_ms(r->no_sync.median, t1, sizeof t1);
        fprintf(out, _("    host timer, with or without synchronizing             %s\n"), t1);
        fprintf(out, "%s", _("    On the emulator the launch call returns only when every cook is done, so a timer stopped\n"
                             "    without synchronizing reads the same figure as one stopped after: one row, one reading.\n"
                             "    A GPU is different: cudaLaunchKernel returns as soon as the order is queued, before the\n"
                             "    cooks finish, and a timer stopped there reads only the time to place the order. Run this\n"
                             "    demo on a GPU to measure the difference; cudachef does not invent GPU figures.\n"));
    }

    const char *taste =
        r->taste.checked == 1
            ? _("\ntaste: %zu of %zu element correct after all %d launches (tolerance %.0e + %.0e x |expected|)\n")
            : _("\ntaste: %zu of %zu elements correct after all %d launches (tolerance %.0e + %.0e x |expected|)\n");
    fprintf(out, taste, r->taste.correct, r->taste.checked, r->launches, r->atol, r->rtol);
    fprintf(out, "%s\n", r->taste.passed ? _("PASS: the dish tastes right") : _("FAIL: the dish tastes wrong"));
}

/* {"min", "median", "max", "mean"} in ms. */
static json_t *clock_stats_json(const clock_stats *s)
{
    return json_pack("{s:o, s:o, s:o, s:o}", "min_ms", demo_real(s->min), "median_ms", demo_real(s->median),
                     "max_ms", demo_real(s->max), "mean_ms", demo_real(s->mean));
}

/* The result for programs (kind "clock", docs/DEMOS.md); the caller owns the reference. */
json_t *clock_json(const clock_result *r)
{
    int gpu = r->backend.kind == BACKEND_GPU;
    json_t *o = demo_json_begin("clock", &r->backend);
    json_object_set_new(o, "recipe", json_string(r->recipe ? r->recipe : ""));
    json_object_set_new(o, "kernel", json_string(r->kernel ? r->kernel : ""));
    json_object_set_new(o, "n", json_integer((json_int_t)r->n));
    json_object_set_new(o, "grid", demo_dim3_json(r->grid));
    json_object_set_new(o, "block", demo_dim3_json(r->block));
    json_object_set_new(o, "pinned", json_boolean(r->pinned));
    json_object_set_new(o, "repeat", json_integer(r->repeat));
    json_object_set_new(o, "first", json_pack("{s:o, s:o}", "host_ms", demo_real(r->first_host_ms), "kernel_ms",
                                              demo_real(r->first_kernel_ms)));
    json_t *runs = json_array();
    for (int i = 0; i < r->repeat && r->warm.median > 0; i++)
        json_array_append_new(runs, demo_real(r->warm_runs[i]));
    json_t *warm = clock_stats_json(&r->warm);
    json_object_set_new(warm, "timer", json_string(gpu ? "cuda-events" : "cpu-clock"));
    json_object_set_new(warm, "runs_ms", runs);
    json_object_set_new(warm, "host", clock_stats_json(&r->warm_host));
    json_object_set_new(o, "warm", warm);
    json_object_set_new(o, "cold_ratio", r->cold_ratio > 0 ? json_real(r->cold_ratio) : json_null());
    json_t *sync = json_object();
    json_object_set_new(sync, "measured_apart", json_boolean(r->sync_separate));
    json_object_set_new(sync, "no_sync", clock_stats_json(&r->no_sync));
    json_object_set_new(sync, "with_sync", clock_stats_json(&r->with_sync));
    json_object_set_new(sync, "events", r->sync_separate ? clock_stats_json(&r->events) : json_null());
    json_object_set_new(o, "stop_the_clock", sync);
    json_t *taste = json_null();
    if (r->ran) {
        taste = demo_taste_json(&r->taste);
        json_object_set_new(taste, "tolerance", json_pack("{s:f, s:f}", "rtol", r->rtol, "atol", r->atol));
    }
    json_object_set_new(o, "taste", taste);
    demo_status_json(o, r->exit_code, &r->error);
    return o;
}

/* Releases a result. */
void clock_free(clock_result *r)
{
    free(r);
}
