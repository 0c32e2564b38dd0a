/*
 * kitchen.c - the five steps, measured.
 *
 * Order of work in the cook step: on the emulator the first launch is the traced one (with the
 * checked kernel build when the grid is small enough: it names any cook that reaches outside a
 * buffer before the fast launches run), then `repeat` timed launches. On the GPU: one warm-up
 * launch of each version (CUDA loads a kernel at its first launch), `repeat` timed launches of the
 * kernel as written, then one launch of the traced wrapper; the ratio of the two times is the
 * trace's overhead, measured in every run.
 */
#include "engine/kitchen.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/i18n.h"
#include "emu/emu.h"
#include "engine/blas.h"
#include "engine/rates.h"
#include "engine/resources.h"
#include "engine/recipes.h"

/* Sets params to the defaults. */
void kitchen_params_default(kitchen_params *p)
{
    memset(p, 0, sizeof *p);
    p->recipe = "vector-add";
    p->backend = BACKEND_AUTO;
    p->seed = 1;
    p->repeat = 5;
    p->rtol = -1;
    p->atol = -1;
}

/* Sorts doubles ascending (for the median). */
static int kitchen_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* GB/s of bytes moved in ms (decimal gigabytes, as bandwidths are quoted). */
static double kitchen_gbps(size_t bytes, double ms)
{
    return ms > 0 ? (double)bytes / (ms * 1e6) : 0.0;
}

/* Checks that the run fits in host and device memory before allocating anything. */
static int kitchen_check_memory(const kitchen_plan *plan, const backend *be, kitchen_report *r)
{
    size_t device = 0, output = 0;
    for (int i = 0; i < plan->nbuffers; i++) {
        size_t bytes = plan->buffers[i].count * sizeof(float);
        device += bytes;
        if (plan->buffers[i].is_output)
            output += bytes;
    }
    size_t host = device + output; /* host copies plus the reference */
    if (be->info.kind == BACKEND_EMU)
        host += device;            /* the emulator's device memory is host memory too */
    r->host_bytes = device;
    size_t avail = chef_host_memory_available();
    char need[32], have[32];
    if (avail > 0 && host > avail) {
        chef_format_bytes((double)host, need, sizeof need);
        chef_format_bytes((double)avail, have, sizeof have);
        return chef_fail(&r->error, CHEF_EXIT_ENVIRONMENT, _("use a smaller --n"),
                         _("this run needs %s of host memory, but only %s is available"), need, have);
    }
    if (be->info.kind == BACKEND_GPU && be->info.memory_free > 0 && device > be->info.memory_free) {
        chef_format_bytes((double)device, need, sizeof need);
        chef_format_bytes((double)be->info.memory_free, have, sizeof have);
        return chef_fail(&r->error, CHEF_EXIT_ENVIRONMENT, _("use a smaller --n"),
                         _("this run needs %s of GPU memory, but only %s is free"), need, have);
    }
    return 0;
}

/* Releases the buffers of a plan on both sides. */
void kitchen_release(backend *be, kitchen_plan *plan, int pinned)
{
    for (int i = 0; i < plan->nbuffers; i++) {
        if (plan->buffers[i].host)
            be->host_free(be, plan->buffers[i].host, pinned);
        if (plan->buffers[i].device)
            be->device_free(be, plan->buffers[i].device);
        plan->buffers[i].host = NULL;
        plan->buffers[i].device = NULL;
    }
}

/* Idle cooks of a kernel whose teams own blocks of C (square x square, or square rows x square_cols
   columns), each cook several results:
   a team whose block lies inside the matrix has every cook busy (cooks x results = the block); in
   a team at the right or bottom edge, a cook is idle when none of its results is inside. Asks the
   recipe's owner of every element inside the edge teams (at most 2 n square elements). */
static void kitchen_count_square_cooks(const recipe *rc, const kitchen_plan *plan, kitchen_report *r)
{
    uint64_t n = (uint64_t)plan->n, side = (uint64_t)rc->square, per_team = r->cooks_per_team;
    uint64_t cols = rc->square_cols > 0 ? (uint64_t)rc->square_cols : side;
    unsigned char *busy = calloc(per_team, 1);
    r->idle_cooks = r->idle_cooks_last_team = r->uncooked = 0;
    if (!busy)
        return;
    for (uint64_t ty = 0; ty < plan->grid.y; ty++)
        for (uint64_t tx = 0; tx < plan->grid.x; tx++) {
            uint64_t row0 = ty * side, col0 = tx * cols;
            if (row0 + side <= n && col0 + cols <= n)
                continue; /* a full block: every cook has results */
            memset(busy, 0, per_team);
            uint64_t used = 0, block, thread;
            for (uint64_t row = row0; row < n && row < row0 + side; row++)
                for (uint64_t col = col0; col < n && col < col0 + cols; col++)
                    if (rc->owner(plan, (size_t)(row * n + col), &block, &thread) && thread < per_team &&
                        !busy[thread]) {
                        busy[thread] = 1;
                        used++;
                    }
            r->idle_cooks += per_team - used;
            if (ty == plan->grid.y - 1u && tx == plan->grid.x - 1u)
                r->idle_cooks_last_team = per_team - used;
        }
    free(busy);
}

/* Works out the teams, cooks and idle cooks of a 1D launch over n elements (one per cook, even when
   the output is shorter, as a sum's is) or a 2D launch over an n x n matrix. A library picks its
   own launch: nothing is counted idle then. */
static void kitchen_count_cooks(const recipe *rc, const kitchen_plan *plan, kitchen_report *r)
{
    r->teams = (uint64_t)plan->grid.x * plan->grid.y * plan->grid.z;
    r->cooks_per_team = (uint64_t)plan->block.x * plan->block.y * plan->block.z;
    r->cooks = r->teams * r->cooks_per_team;
    uint64_t elements = (uint64_t)plan->n;
    if (rc->library) {
        r->idle_cooks = r->idle_cooks_last_team = r->uncooked = 0;
    } else if (rc->square > 0) {
        kitchen_count_square_cooks(rc, plan, r);
    } else if (plan->grid.y == 1 && plan->block.y == 1) {
        r->idle_cooks = r->cooks > elements ? r->cooks - elements : 0;
        r->idle_cooks_last_team = r->idle_cooks < r->cooks_per_team ? r->idle_cooks : r->cooks_per_team;
        r->uncooked = elements > r->cooks && !rc->strides ? elements - r->cooks : 0;
    } else {
        /* 2D: a cook is idle when its row or column falls past the edge of the matrix. */
        uint64_t side_x = (uint64_t)plan->grid.x * plan->block.x, side_y = (uint64_t)plan->grid.y * plan->block.y;
        uint64_t n = (uint64_t)plan->n;
        r->idle_cooks = side_x * side_y - (n < side_x ? n : side_x) * (n < side_y ? n : side_y);
        uint64_t last_x = n - (plan->grid.x - 1) * (uint64_t)plan->block.x;
        uint64_t last_y = n - (plan->grid.y - 1) * (uint64_t)plan->block.y;
        r->idle_cooks_last_team = r->cooks_per_team - last_x * last_y;
        r->uncooked = 0;
    }
}

/* What every launch of one run shares: the backend, the recipe, its plan and arguments, and the
   zeros shipped into the output first when the kernel adds into it (NULL otherwise). */
typedef struct kitchen_launcher {
    backend *be;
    kitchen_plan *plan;
    void *args[8];
    const float *zeros;
    const char *kernel;     /* the kernel launched: the recipe's, or the one the parameters name */
    kitchen_report *report; /* the run, whose parameters may ask it to stop */
} kitchen_launcher;

/* -1 with the run's error set when a stop was asked (params.cancel), else 0: the run checks it
   between its steps and launches. */
static int kitchen_stopped(kitchen_report *r)
{
    if (!cancel_requested(r->params.cancel))
        return 0;
    chef_fail(&r->error, CHEF_EXIT_ENVIRONMENT, NULL, "%s", _("the run was stopped before it finished"));
    r->error.cause = CHEF_CAUSE_CANCELLED;
    return -1;
}

/* One launch (its time in *ms when not NULL), after shipping zeros into the output if the recipe
   asks: the shipment is outside the timed region, so only the kernel is timed. */
static int kitchen_launch(kitchen_launcher *l, const launch_options *opt, double *ms, chef_error *err)
{
    kitchen_plan *plan = l->plan;
    if (kitchen_stopped(l->report) != 0)
        return -1;
    for (int i = 0; l->zeros && i < plan->nbuffers; i++) {
        kitchen_buffer *b = &plan->buffers[i];
        if (b->is_output &&
            l->be->copy(l->be, b->device, l->zeros, b->count * sizeof(float), COPY_TO_DEVICE, NULL, err) != 0)
            return -1;
    }
    return l->be->launch(l->be, l->kernel, plan->grid, plan->block, l->args, opt, ms, err);
}

/* The modeled GPU time of the counted launch (model.c), when the device file was read. */
static void kitchen_model(const recipe *rc, kitchen_report *r)
{
    if (!r->model_device.name[0] || !r->counters.valid)
        return;
    model_launch ml = {.teams = r->teams, .cooks_per_team = r->cooks_per_team,
                       .shared_bytes_per_team = r->counters.shared_bytes_per_team,
                       .registers_per_cook = r->params.registers_per_cook > 0
                                                 ? r->params.registers_per_cook
                                                 : resources_registers(r->kernel, r->model_device.compute_capability),
                       .tensor_tf32 = rc->tensor_tf32, .tensor_half = rc->tensor_half};
    r->modeled = model_predict(&r->model_device, &r->counters, &ml, &r->model) == 0;
}

/* Every how many teams the checked launch counts one (1: all): past KITCHEN_CHECKED_COOKS cooks or
   KITCHEN_COUNTED_WORK, evenly spaced teams with about that much in all. */
static uint32_t kitchen_count_every(const recipe *rc, const kitchen_plan *plan, uint64_t cooks, uint64_t teams)
{
    double every = (double)cooks / KITCHEN_CHECKED_COOKS, by_work = rc->work(plan->n) / KITCHEN_COUNTED_WORK;
    every = by_work > every ? by_work : every;
    if (every > teams)
        every = (double)teams;
    return every > 1 ? (uint32_t)ceil(every) : 1;
}

/* On a GPU: the same launch counted on the emulator, on this run's inputs, only its counted teams
   cooked (about KITCHEN_BESIDE_TEAMS, evenly spaced, or fewer as on the emulator), so that the
   model stands beside the measurement with its error. Quietly nothing when the emulator cannot (a
   kernel it does not have, as a learner's built for the GPU alone; too little host memory). The
   emulator is opened directly, not through backend_open: it is not the run's backend, and the
   fault hook (CUDACHEF_FAULT) tests what the run depends on. */
static void kitchen_count_beside(const recipe *rc, const kitchen_plan *plan, kitchen_report *r)
{
    size_t bytes = 0, avail = chef_host_memory_available();
    for (int i = 0; i < plan->nbuffers; i++)
        bytes += plan->buffers[i].count * sizeof(float);
    if (avail && bytes > avail / 2)
        return;
    chef_error err = {0};
    backend *emu = backend_emu_open(&err);
    if (!emu)
        return;
    kitchen_plan ep = *plan; /* the same plan, with the emulator's copies of the buffers */
    int ok = 1;
    for (int i = 0; i < ep.nbuffers; i++)
        ep.buffers[i].device = NULL;
    for (int i = 0; i < ep.nbuffers && ok; i++) {
        kitchen_buffer *b = &ep.buffers[i];
        ok = emu->device_alloc(emu, &b->device, b->count * sizeof(float), b->name, sizeof(float), &err) == 0 &&
             emu->copy(emu, b->device, b->host, b->count * sizeof(float), COPY_TO_DEVICE, NULL, &err) == 0;
    }
    void *args[8];
    rc->args(&ep, args);
    launch_options o = {0};
    o.checked = 1;
    o.counters = &r->counters;
    o.counted_only = 1;
    o.workers = r->params.workers;
    o.cancel = r->params.cancel;
    uint32_t every = kitchen_count_every(rc, plan, r->cooks, r->teams);
    uint32_t few = (uint32_t)((r->teams + KITCHEN_BESIDE_TEAMS - 1) / KITCHEN_BESIDE_TEAMS);
    o.count_every = few > every ? few : every;
    memset(&r->counters, 0, sizeof r->counters);
    if (ok && emu->launch(emu, r->kernel, plan->grid, plan->block, args, &o, &r->counted_beside_ms, &err) == 0 &&
        r->counters.valid) {
        r->counted_beside = 1;
        kitchen_model(rc, r);
    } else {
        memset(&r->counters, 0, sizeof r->counters);
    }
    for (int i = 0; i < ep.nbuffers; i++)
        if (ep.buffers[i].device)
            emu->device_free(emu, ep.buffers[i].device);
    backend_close(emu);
}

/* The emulator's wait for the parts of a run that grow with n, predicted from this recipe's
   measured pace (rates.c) into ms[0] the checked launch, ms[1] the plain launches, ms[2] the CPU
   reference; returns 2 measured here, 1 on the reference machine, 0 not known (a kernel not the
   recipe's own: a learner's). */
static int kitchen_predict(const recipe *rc, const kitchen_plan *plan, const kitchen_wait *w, double ms[3])
{
    rates_entry e;
    int found = strcmp(w->kernel, rc->kernel) == 0 ? rates_find(rc->name, &e) : 0;
    if (!found || e.plain_ns <= 0)
        return 0;
    double counted_ns = e.counted_ns > 0 ? e.counted_ns : e.plain_ns; /* a library's: no checked build */
    double work_ms = rc->work(plan->n) * 1e-6; /* ns per unit, times units, in ms */
    double workers = w->workers > 0 ? w->workers : 1, scale = e.workers / workers;
    double f = 1.0 / kitchen_count_every(rc, plan, w->cooks, w->teams);
    ms[0] = w->checked ? work_ms * (f * counted_ns + (1 - f) * e.plain_ns) * scale : 0;
    ms[1] = work_ms * e.plain_ns * w->launches * scale;
    /* a reference whose pace is not known: OpenBLAS takes milliseconds where launches take
       seconds, the plain loop about a ns a step */
    ms[2] = work_ms * (w->use_blas ? e.blas_ns : e.loop_ns > 0 ? e.loop_ns : 1);
    return found;
}

/* After an emulator run of a recipe's own kernel: its pace, from the parts long enough to time
   (a median of plain launches or a reference of 2 ms or more, a checked launch of 10 ms), into
   this machine's rates. */
static void kitchen_record_rates(const recipe *rc, const kitchen_plan *plan, const kitchen_report *r)
{
    double work = rc->work(plan->n);
    if (work <= 0 || strcmp(r->kernel, rc->kernel) != 0)
        return;
    rates_entry e;
    memset(&e, 0, sizeof e);
    snprintf(e.recipe, sizeof e.recipe, "%s", rc->name);
    e.workers = r->backend.workers > 0 ? r->backend.workers : 1;
    e.work = work;
    if (r->cook_ms >= 2)
        e.plain_ns = r->cook_ms * 1e6 / work;
    double f = r->counters.teams_counted > 0 && r->teams > 0 ? (double)r->counters.teams_counted / r->teams : 1;
    if (r->traced_ms >= 10 && e.plain_ns > 0) {
        double counted_ms = r->traced_ms - (1 - f) * work * e.plain_ns * 1e-6;
        e.counted_ns = counted_ms > 0 ? counted_ms * 1e6 / (f * work) : 0;
    }
    if (r->reference_ms >= 2)
        *(r->reference_blas ? &e.blas_ns : &e.loop_ns) = r->reference_ms * 1e6 / work;
    if (e.plain_ns > 0 || e.loop_ns > 0 || e.blas_ns > 0)
        rates_record(&e);
}

/* Before an emulator run predicted to take over KITCHEN_NOTE_MS: a note of how long, from the
   recipe's measured pace, or (a kernel of the learner's, or no pace yet) from about 10^9 simple
   steps a second over every launch and the plain-loop reference. */
void kitchen_note_wait(const struct recipe *rc, const kitchen_plan *plan, const kitchen_wait *w, void (*note)(const char *text))
{
    double ms[3] = {0, 0, 0}, work = rc->work(plan->n);
    int found = kitchen_predict(rc, plan, w, ms);
    if (!found) {
        ms[0] = rc->library || !w->checked ? 0 : work * 1e-6;
        ms[1] = rc->library ? 0 : work * 1e-6 * w->launches;
        ms[2] = w->use_blas ? 0 : work * 1e-6;
    }
    double total = ms[0] + ms[1] + ms[2];
    if (total <= KITCHEN_NOTE_MS)
        return;
    char wait[32], parts[3][32], text[800];
    chef_format_ms(total, wait, sizeof wait);
    for (int i = 0; i < 3; i++)
        chef_format_ms(ms[i], parts[i], sizeof parts[i]);
    snprintf(text, sizeof text,
             _("note: %s at n = %lld on the CPU emulator should take about %s (the checked launch %s, %d timed "
               "launches %s, the CPU reference %s; %s); --repeat 1 or a smaller --n is quicker"),
             rc->name, (long long)plan->n, wait, parts[0], w->launches, parts[1], parts[2],
             found == 2   ? _("this recipe's pace measured on this machine")
             : found == 1 ? _("this recipe's pace on the reference machine: this one's is measured once it runs")
                          : _("at about 10^9 simple steps a second: this kernel's pace is not measured"));
    note(text);
}

/* Step 3: warm-up, timed launches and the traced launch. Returns 0 or -1 (r->error set). */
static int kitchen_cook(backend *be, const recipe *rc, kitchen_plan *plan, kitchen_report *r)
{
    kitchen_launcher l = {be, plan, {0}, NULL, r->kernel, r};
    rc->args(plan, l.args);
    float *zeros = NULL;
    if (rc->zero_output) {
        size_t count = 0;
        for (int i = 0; i < plan->nbuffers; i++)
            if (plan->buffers[i].is_output && plan->buffers[i].count > count)
                count = plan->buffers[i].count;
        if (!(zeros = calloc(count, sizeof *zeros)))
            return chef_fail(&r->error, CHEF_EXIT_ENVIRONMENT, NULL, "%s", _("out of host memory"));
        l.zeros = zeros;
    }
    int rc_code = -1;
    launch_options plain = {0}, traced = {0};
    plain.workers = traced.workers = r->params.workers;
    plain.cancel = traced.cancel = r->params.cancel;
    traced.trace = &r->trace;
    int emu = be->info.kind == BACKEND_EMU;
    if (emu) {
        plain.shuffle_seed = traced.shuffle_seed = r->params.shuffle_seed;
        traced.checked = 1;
        traced.counters = &r->counters;
        /* past KITCHEN_CHECKED_COOKS cooks or KITCHEN_COUNTED_WORK, evenly spaced teams with about
           that much in all are counted (in the checked build), the rest cook plainly, and the
           totals are scaled; only a launch checked whole records every cook */
        traced.count_every = kitchen_count_every(rc, plan, r->cooks, r->teams);
        r->trace_checked = traced.count_every == 1;
        if (r->trace_checked) { /* a sampled launch leaves the plain build's cooks unrecorded */
            r->trace.threads_capacity = (size_t)r->cooks;
            r->trace.threads = calloc((size_t)r->cooks, sizeof *r->trace.threads);
        }
        /* team 0 is always counted: its warps' memory instructions, for the memory view */
        r->trace.accesses_capacity = KITCHEN_WATCHED_ACCESSES;
        r->trace.accesses = calloc(KITCHEN_WATCHED_ACCESSES, sizeof *r->trace.accesses);
        r->trace.accesses_capacity = r->trace.accesses ? KITCHEN_WATCHED_ACCESSES : 0;
        r->trace.watched_team = 0;
        if (kitchen_launch(&l, &traced, &r->traced_ms, &r->error) != 0)
            goto done;
        kitchen_model(rc, r);
    } else if (kitchen_launch(&l, &traced, NULL, &r->error) != 0 || kitchen_launch(&l, &plain, NULL, &r->error) != 0) {
        goto done; /* warm-ups of both versions: CUDA loads each kernel lazily, at its first launch */
    }
    double sorted[KITCHEN_MAX_REPEAT];
    for (int i = 0; i < r->repeat; i++) {
        if (kitchen_launch(&l, &plain, &r->cook_runs[i], &r->error) != 0)
            goto done;
        sorted[i] = r->cook_runs[i];
    }
    qsort(sorted, (size_t)r->repeat, sizeof *sorted, kitchen_cmp_double);
    r->cook_ms = r->repeat % 2 ? sorted[r->repeat / 2]
                               : 0.5 * (sorted[r->repeat / 2 - 1] + sorted[r->repeat / 2]);
    r->cook_ms_min = sorted[0];
    r->cook_ms_max = sorted[r->repeat - 1];
    if (!emu && kitchen_launch(&l, &traced, &r->traced_ms, &r->error) != 0)
        goto done;
    r->trace_summary = trace_summarize(&r->trace);
    rc_code = 0;
done:
    free(zeros);
    return rc_code;
}

/* Marks the recorded cooks whose first or last element written tastes wrong (the recipes' kernels
   write only their output, whose elements got and expected hold). */
static void kitchen_mark_wrong(kitchen_report *r, const float *got, const float *expected, size_t count)
{
    if (r->taste.passed)
        return;
    for (size_t i = 0; i < r->trace.nthreads; i++) {
        trace_thread *t = &r->trace.threads[i];
        if (r->trace.has_output && t->buffer != r->trace.output_buffer)
            continue; /* its writes went to another buffer (an input written by mistake) */
        int64_t first = t->element, last = t->last_element;
        t->wrong = (first >= 0 && (uint64_t)first < count && !verify_close(got[first], expected[first], r->rtol, r->atol)) ||
                   (last >= 0 && (uint64_t)last < count && !verify_close(got[last], expected[last], r->rtol, r->atol));
    }
}

/* Fills the report's small samples of every buffer (inputs from the host, output from the device). */
static void kitchen_keep_samples(const kitchen_plan *plan, kitchen_report *r)
{
    for (int i = 0; i < plan->nbuffers; i++) {
        size_t count = plan->buffers[i].count, n = count < KITCHEN_SAMPLE ? count : KITCHEN_SAMPLE;
        r->sample_counts[i] = n;
        memcpy(r->samples[i], plan->buffers[i].host, n * sizeof(float));
        r->sample_last[i] = plan->buffers[i].host[count - 1];
    }
    r->sample_count = r->sample_counts[0];
}

/* The taste's tolerances. */
void kitchen_tolerance(const recipe *rc, const kitchen_params *params, int64_t n, double *rtol, double *atol)
{
    *rtol = params->rtol >= 0 ? params->rtol : rc->rtol;
    *atol = params->atol >= 0 ? params->atol : rc->atol * (rc->atol_scales_with_n ? (double)n : 1.0);
}

/* Whether the taste uses OpenBLAS: the plain loop tastes up to 1.5e8 multiply-adds (about a
   second); past that a recipe with a fast reference uses it (without OpenBLAS, the loop). */
int kitchen_use_blas(const recipe *rc, const kitchen_params *params, const kitchen_plan *plan)
{
    return rc->reference_fast && (params->fast_reference || rc->work(plan->n) > KITCHEN_LOOP_REFERENCE_WORK) &&
           blas_load(NULL) == 0;
}

/* The exchange with a trusted process: the inputs from it (to_host 1), or the output into it. */
static int kitchen_exchange(const kitchen_params *params, kitchen_plan *plan, int inputs, chef_error *err)
{
    size_t total = 0;
    for (int i = 0; i < plan->nbuffers; i++)
        total += plan->buffers[i].count;
    if (total != params->exchange_floats)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL,
                         _("the shared memory holds %zu floats, the run's buffers %zu"), params->exchange_floats,
                         total);
    float *at = params->exchange;
    for (int i = 0; i < plan->nbuffers; i++) {
        kitchen_buffer *b = &plan->buffers[i];
        if (inputs && !b->is_output)
            memcpy(b->host, at, b->count * sizeof(float));
        else if (!inputs && b->is_output)
            memcpy(at, b->host, b->count * sizeof(float));
        at += b->count;
    }
    return 0;
}

/* Runs the five steps. Returns the exit code (0 passed, 1 wrong, others: report->error). */
int kitchen_run(const kitchen_params *params, kitchen_report *r)
{
    memset(r, 0, sizeof *r);
    r->params = *params;
    const recipe *rc = recipe_find(params->recipe);
    if (!rc) {
        chef_fail(&r->error, CHEF_EXIT_USAGE, _("`cudachef list` shows what can be run"),
                  _("unknown recipe '%s'"), params->recipe);
        return r->exit_code = CHEF_EXIT_USAGE;
    }
    r->recipe = rc->name;
    r->kernel = params->kernel ? params->kernel : rc->kernel;
    if (r->params.n == 0)
        r->params.n = rc->default_n;
    if (r->params.threads_per_block == 0)
        r->params.threads_per_block = rc->default_threads_per_block;
    if (r->params.repeat < 1 || r->params.repeat > KITCHEN_MAX_REPEAT) {
        chef_fail(&r->error, CHEF_EXIT_USAGE, _("use 1 to 1000"), _("--repeat %d is out of range"), r->params.repeat);
        return r->exit_code = CHEF_EXIT_USAGE;
    }
    r->repeat = r->params.repeat;
    kitchen_tolerance(rc, params, r->params.n, &r->rtol, &r->atol);

    /* the GPU to model: a device named wrongly is a usage error before anything runs; without
       the default's file (a broken install) the run goes on unmodeled */
    chef_error model_err = {0};
    if (model_device_open(params->model, &r->model_device, &model_err) != 0) {
        memset(&r->model_device, 0, sizeof r->model_device);
        if (params->model) {
            r->error = model_err;
            return r->exit_code = r->error.exit_code;
        }
    }
    backend *be = backend_open(params->backend, &r->error);
    if (!be)
        return r->exit_code = r->error.exit_code;
    r->backend = be->info;
    if (r->backend.kind == BACKEND_EMU && r->params.workers > 0)
        r->backend.workers = r->params.workers; /* --workers N: the stations this run may use */

    kitchen_plan *plan = &r->plan;
    plan->seed = r->params.seed;
    if (rc->plan(&r->params, &be->info, plan, &r->error) != 0 || kitchen_check_memory(plan, be, r) != 0) {
        backend_close(be);
        return r->exit_code = r->error.exit_code;
    }
    /* small vectors without --seed use the counting example: [1, 2, 3, 4] + [5, 6, 7, 8] */
    plan->counting = !params->seed_given && plan->n <= 16 && rc->counting;
    kitchen_count_cooks(rc, plan, r);
    /* the plain loop tastes up to 1.5e8 multiply-adds (about a second); past that a recipe
       with a fast reference (OpenBLAS) uses it, and the report says so */
    int use_blas = !params->taste_outside && kitchen_use_blas(rc, params, plan);
    if (params->note && be->info.kind == BACKEND_EMU) {
        kitchen_wait w = {r->kernel, r->cooks, r->teams, r->backend.workers, 1, r->repeat, use_blas};
        kitchen_note_wait(rc, plan, &w, params->note);
    }

    float *expected = NULL;
    int rc_code = 0;
    /* 1. prepare: host arrays filled from the seed */
    r->started = 1;
    double t0 = chef_now_ms();
    for (int i = 0; i < plan->nbuffers && rc_code == 0; i++) {
        kitchen_buffer *b = &plan->buffers[i];
        size_t bytes = b->count * sizeof(float);
        if (be->host_alloc(be, (void **)&b->host, bytes, params->pinned, &r->error) != 0 ||
            be->device_alloc(be, &b->device, bytes, b->name, sizeof(float), &r->error) != 0)
            rc_code = -1;
        else if (b->is_output)
            memset(b->host, 0, bytes);
    }
    if (rc_code == 0) {
        rc->fill(plan);
        if (params->exchange)
            rc_code = kitchen_exchange(params, plan, 1, &r->error);
        r->prepare_ms = chef_now_ms() - t0;
        kitchen_keep_samples(plan, r); /* the inputs as prepared; the outputs again once shipped back */
    }
    /* 2. ship in */
    if (rc_code == 0)
        rc_code = kitchen_stopped(r);
    for (int i = 0; i < plan->nbuffers && rc_code == 0; i++) {
        kitchen_buffer *b = &plan->buffers[i];
        double ms = 0;
        if (b->is_output)
            continue;
        rc_code = be->copy(be, b->device, b->host, b->count * sizeof(float), COPY_TO_DEVICE, &ms, &r->error);
        r->ship_in.bytes += b->count * sizeof(float);
        r->ship_in.ms += ms;
    }
    if (rc_code == 0) {
        r->ship_in.gb_per_s = kitchen_gbps(r->ship_in.bytes, r->ship_in.ms);
        /* poison the output on the device (not timed): an element no cook writes stays NaN */
        for (int i = 0; i < plan->nbuffers && rc_code == 0; i++) {
            kitchen_buffer *b = &plan->buffers[i];
            if (b->is_output) {
                float *nan = malloc(b->count * sizeof(float));
                if (!nan) {
                    rc_code = chef_fail(&r->error, CHEF_EXIT_ENVIRONMENT, NULL, "%s", _("out of host memory"));
                    break;
                }
                memset(nan, 0xFF, b->count * sizeof(float));
                rc_code = be->copy(be, b->device, nan, b->count * sizeof(float), COPY_TO_DEVICE, NULL, &r->error);
                free(nan);
            }
        }
    }
    /* 3. cook */
    if (rc_code == 0)
        rc_code = kitchen_cook(be, rc, plan, r);
    r->ran = rc_code == 0;
    /* 4. ship out */
    if (rc_code == 0)
        rc_code = kitchen_stopped(r);
    for (int i = 0; i < plan->nbuffers && rc_code == 0; i++) {
        kitchen_buffer *b = &plan->buffers[i];
        if (!b->is_output)
            continue;
        rc_code = be->copy(be, b->host, b->device, b->count * sizeof(float), COPY_TO_HOST, &r->ship_out.ms, &r->error);
        r->ship_out.bytes += b->count * sizeof(float);
        r->ship_out.gb_per_s = kitchen_gbps(r->ship_out.bytes, r->ship_out.ms);
    }
    if (rc_code == 0 && params->exchange)
        rc_code = kitchen_exchange(params, plan, 0, &r->error);
    /* 5. taste */
    if (rc_code == 0)
        rc_code = kitchen_stopped(r);
    if (rc_code == 0 && params->taste_outside) {
        kitchen_keep_samples(plan, r);
        r->shipping_ms = r->ship_in.ms + r->ship_out.ms;
        r->total_ms = r->shipping_ms + r->cook_ms;
    } else if (rc_code == 0) {
        kitchen_buffer *out = &plan->buffers[plan->nbuffers - 1];
        expected = rc->reference ? malloc(out->count * sizeof(float)) : NULL;
        if (!rc->reference) { /* cudachef-check's recipes hold none: the trusted side tastes */
            rc_code = chef_fail(&r->error, CHEF_EXIT_INTERNAL, NULL, "%s",
                                _("this program holds no CPU reference: only cudachef tastes its runs"));
        } else if (!expected) {
            rc_code = chef_fail(&r->error, CHEF_EXIT_ENVIRONMENT, NULL, "%s", _("out of host memory for the reference"));
        } else {
            r->reference_blas = use_blas;
            /* its pages touched first: the first write to each would fault it in, and that cost
               (three times the loop's own for a vector) is the operating system's, not the CPU's */
            memset(expected, 0, out->count * sizeof(float));
            double t1 = chef_now_ms();
            (r->reference_blas ? rc->reference_fast : rc->reference)(plan, expected);
            r->reference_ms = chef_now_ms() - t1;
            verify_compare(out->host, expected, out->count, r->rtol, r->atol, &r->taste);
            float *product = rc->exact ? malloc(out->count * sizeof(float)) : NULL;
            if (product) { /* inputs rounded by the kernel: its error against the inputs as given */
                verify_result exact;
                rc->exact(plan, product, r->reference_blas);
                verify_compare(out->host, product, out->count, r->rtol, r->atol, &exact);
                r->exact_known = 1;
                r->exact_abs_error = exact.max_abs_error;
                r->exact_rel_error = exact.max_rel_error;
                free(product);
            }
            if (be->info.kind == BACKEND_EMU && r->trace.threads) { /* which of the cooks' buffers is c */
                r->trace.output_buffer = emu_memory_index(out->device);
                r->trace.has_output = r->trace.output_buffer >= 0;
            }
            kitchen_mark_wrong(r, out->host, expected, out->count);
        }
        kitchen_keep_samples(plan, r);
        if (be->info.kind == BACKEND_EMU && !r->error.exit_code)
            kitchen_record_rates(rc, plan, r);
        else if (be->info.kind == BACKEND_GPU && r->model_device.name[0] && !rc->library)
            kitchen_count_beside(rc, plan, r);
        r->shipping_ms = r->ship_in.ms + r->ship_out.ms;
        r->total_ms = r->shipping_ms + r->cook_ms;
        r->shipping_share = r->total_ms > 0 ? r->shipping_ms / r->total_ms : 0;
    }
    free(expected);
    kitchen_release(be, plan, params->pinned);
    backend_close(be);
    if (rc_code != 0)
        return r->exit_code = r->error.exit_code ? r->error.exit_code : CHEF_EXIT_INTERNAL;
    return r->exit_code = r->taste.passed || params->taste_outside ? CHEF_EXIT_OK : CHEF_EXIT_WRONG;
}

/* Which team and cook (linear indices) should have cooked output element index. */
int kitchen_owner(const kitchen_report *r, size_t index, uint64_t *block, uint64_t *thread)
{
    const recipe *rc = recipe_find(r->recipe);
    return rc->owner(&r->plan, index, block, thread);
}

/* Releases what a report holds (its trace). */
void kitchen_report_free(kitchen_report *r)
{
    trace_free(&r->trace);
}
