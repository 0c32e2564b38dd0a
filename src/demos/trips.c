/*
 * trips.c - the "trips" demo: a chain of kernels on data that stays in the kitchen against a round
 * trip per step, with pageable and pinned host memory (see trips.h).
 *
 * Everything goes through the backend interface: host_alloc (pinned or not), device_alloc, copy and
 * launch of the vector_add kernel, each timed by the backend (CUDA events on a GPU, the CPU clock on
 * the emulator). As lesson 7 teaches, one run is no measurement: each variant writes its device
 * buffers once (fresh memory costs its first touch), runs the whole chain once to warm up (the
 * first variant's warm-up also loads the kernel), then runs it `repeat` times on the clock, and
 * every figure is the median of those runs. Allocations, the first write, putting x back before
 * each run and the tastes are not timed; every run's result is tasted.
 */
#include "demos/trips.h"

#include <float.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "demos/clock.h"
#include "base/i18n.h"
#include "engine/recipes.h"
#include "engine/report.h"
#include "base/text.h"

/* What every variant shares: the backend, the inputs and the expected result. */
typedef struct trips_ctx {
    backend *be;
    int n_int;
    size_t n;
    int steps;
    chef_dim3 grid, block;
    int workers;
    const float *x0, *b, *expected;
    const demo_params *p;  /* the demo's parameters: its stop token */
} trips_ctx;

/* GB/s of bytes moved in ms (decimal gigabytes, as bandwidths are quoted). */
static double trips_gbps(size_t bytes, double ms)
{
    return ms > 0 ? (double)bytes / (ms * 1e6) : 0.0;
}

/* Ships bytes and adds them to a side of the journey. */
static int trips_ship(trips_ctx *c, void *dst, const void *src, size_t bytes, copy_direction dir, trips_variant *v,
                      chef_error *err)
{
    double ms = 0;
    if (c->be->copy(c->be, dst, src, bytes, dir, &ms, err) != 0)
        return -1;
    if (dir == COPY_TO_DEVICE) {
        v->in_ms += ms;
        v->bytes_in += bytes;
        v->shipments_in++;
    } else {
        v->out_ms += ms;
        v->bytes_out += bytes;
        v->shipments_out++;
    }
    return 0;
}

/* One step of the chain: out = in + b on the device. */
static int trips_cook(trips_ctx *c, void *in, void *b, void *out, trips_variant *v, chef_error *err)
{
    void *args[4] = {&in, &b, &out, &c->n_int};
    if (demo_stopped(c->p, err) != 0)
        return -1;
    launch_options opt = {0};
    opt.workers = c->workers;
    opt.cancel = c->p->cancel;
    double ms = 0;
    if (c->be->launch(c->be, "vector_add", c->grid, c->block, args, &opt, &ms, err) != 0)
        return -1;
    v->cook_ms += ms;
    v->launches++;
    return 0;
}

/* The chain with the data staying in the kitchen: in once, all steps, out once. */
static int trips_stay(trips_ctx *c, float *hx, float *hb, void *dx[2], void *db, trips_variant *v, chef_error *err)
{
    size_t bytes = c->n * sizeof(float);
    if (trips_ship(c, dx[0], hx, bytes, COPY_TO_DEVICE, v, err) != 0 ||
        trips_ship(c, db, hb, bytes, COPY_TO_DEVICE, v, err) != 0)
        return -1;
    for (int k = 0; k < c->steps; k++) /* x[k+1] = x[k] + b, the two buffers taking turns */
        if (trips_cook(c, dx[k % 2], db, dx[(k + 1) % 2], v, err) != 0)
            return -1;
    return trips_ship(c, hx, dx[c->steps % 2], bytes, COPY_TO_HOST, v, err);
}

/* The chain with a round trip per step: in, one step, out, again and again. */
static int trips_round_trip(trips_ctx *c, float *hx, float *hb, void *dx[2], void *db, trips_variant *v,
                            chef_error *err)
{
    size_t bytes = c->n * sizeof(float);
    for (int k = 0; k < c->steps; k++) {
        if (trips_ship(c, dx[0], hx, bytes, COPY_TO_DEVICE, v, err) != 0 ||
            trips_ship(c, db, hb, bytes, COPY_TO_DEVICE, v, err) != 0 ||
            trips_cook(c, dx[0], db, dx[1], v, err) != 0 ||
            trips_ship(c, hx, dx[1], bytes, COPY_TO_HOST, v, err) != 0)
            return -1;
    }
    return 0;
}

/* Runs the chain once from x0 into one run's figures and tastes the result. */
static int trips_chain(trips_ctx *c, float *hx, float *hb, void *dx[2], void *db, trips_variant *one, double atol,
                       verify_result *taste, chef_error *err)
{
    memcpy(hx, c->x0, c->n * sizeof(float)); /* the chain leaves its result in hx: start afresh */
    double t0 = chef_now_ms();
    int code = one->round_trip ? trips_round_trip(c, hx, hb, dx, db, one, err)
                               : trips_stay(c, hx, hb, dx, db, one, err);
    one->wall_ms = chef_now_ms() - t0;
    if (code == 0)
        verify_compare(hx, c->expected, c->n, 0.0, atol, taste);
    return code;
}

/* Times the chain: one warm-up run, then `repeat` timed runs; the medians go into v. */
static int trips_time(trips_ctx *c, float *hx, float *hb, void *dx[2], void *db, trips_variant *v, int repeat,
                      double atol, chef_error *err)
{
    enum { IN, COOK, OUT, WALL, GBPS, SHARE, FIGURES };
    double *runs = malloc((size_t)FIGURES * (size_t)repeat * sizeof *runs);
    if (!runs)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("use a smaller --n"), _("out of host memory"));
    int code = 0;
    for (int k = 0; k <= repeat && code == 0; k++) { /* k = 0: the warm-up, not counted */
        trips_variant one = {0};
        one.round_trip = v->round_trip;
        one.pinned = v->pinned;
        verify_result taste;
        code = trips_chain(c, hx, hb, dx, db, &one, atol, &taste, err);
        if (code != 0)
            break;
        demo_keep_worst_taste(&v->taste, &taste, k == 0);
        v->tasted++;
        v->tasted_right += taste.passed;
        if (k == 0)
            continue;
        double total = one.in_ms + one.cook_ms + one.out_ms, road = one.in_ms + one.out_ms;
        double *row = runs + (size_t)(k - 1);
        row[IN * repeat] = one.in_ms;
        row[COOK * repeat] = one.cook_ms;
        row[OUT * repeat] = one.out_ms;
        row[WALL * repeat] = one.wall_ms;
        row[GBPS * repeat] = trips_gbps(one.bytes_in + one.bytes_out, road);
        row[SHARE * repeat] = total > 0 ? road / total : 0;
        v->total_runs[k - 1] = total;
        /* the counts are the same in every run: keep one run's */
        v->bytes_in = one.bytes_in;
        v->bytes_out = one.bytes_out;
        v->shipments_in = one.shipments_in;
        v->shipments_out = one.shipments_out;
        v->launches = one.launches;
    }
    if (code == 0) {
        v->runs = repeat;
        v->in_ms = clock_summarize(runs + IN * repeat, repeat).median;
        v->cook_ms = clock_summarize(runs + COOK * repeat, repeat).median;
        v->out_ms = clock_summarize(runs + OUT * repeat, repeat).median;
        v->wall_ms = clock_summarize(runs + WALL * repeat, repeat).median;
        v->gb_per_s = clock_summarize(runs + GBPS * repeat, repeat).median;
        v->road_share = clock_summarize(runs + SHARE * repeat, repeat).median;
        v->total_ms = clock_summarize(v->total_runs, repeat).median;
    }
    free(runs);
    return code;
}

/* Runs one variant: allocates its host and device memory, times the chain, tastes every run. */
static int trips_variant_run(trips_ctx *c, trips_variant *v, int repeat, double atol, chef_error *err)
{
    backend *be = c->be;
    size_t bytes = c->n * sizeof(float);
    float *hx = NULL, *hb = NULL;
    void *dx[2] = {NULL, NULL}, *db = NULL;
    int code = 0;
    if (be->host_alloc(be, (void **)&hx, bytes, v->pinned, err) != 0)
        return -1;
    if (be->host_alloc(be, (void **)&hb, bytes, v->pinned, err) != 0) {
        be->host_free(be, hx, v->pinned);
        return -1;
    }
    if (be->device_alloc(be, &dx[0], bytes, "x", sizeof(float), err) != 0 ||
        be->device_alloc(be, &dx[1], bytes, "x_next", sizeof(float), err) != 0 ||
        be->device_alloc(be, &db, bytes, "b", sizeof(float), err) != 0)
        code = -1;
    if (code == 0) {
        memcpy(hx, c->x0, bytes);
        memcpy(hb, c->b, bytes);
        /* one untimed shipment into every device buffer first: fresh memory costs its first touch
           (page faults on the emulator), which is not the road this demo measures */
        if (be->copy(be, dx[0], hx, bytes, COPY_TO_DEVICE, NULL, err) != 0 ||
            be->copy(be, dx[1], hx, bytes, COPY_TO_DEVICE, NULL, err) != 0 ||
            be->copy(be, db, hb, bytes, COPY_TO_DEVICE, NULL, err) != 0)
            code = -1;
    }
    if (code == 0)
        code = trips_time(c, hx, hb, dx, db, v, repeat, atol, err);
    if (code == 0)
        v->ran = 1;
    if (db)
        be->device_free(be, db);
    if (dx[1])
        be->device_free(be, dx[1]);
    if (dx[0])
        be->device_free(be, dx[0]);
    be->host_free(be, hb, v->pinned);
    be->host_free(be, hx, v->pinned);
    return code;
}

/* Checks the parameters and fills the result's sizes. Returns 0 or -1 with err. */
static int trips_plan(const demo_params *p, const backend_info *info, trips_result *r, chef_error *err)
{
    int64_t n = p->run.n > 0 ? p->run.n : TRIPS_DEFAULT_N;
    if (p->run.n < 0 || n > INT_MAX)
        return chef_fail(err, CHEF_EXIT_USAGE, _("the kernel counts elements with an int: use 1 to 2147483647"),
                         _("--n %lld is outside 1..%d"), (long long)p->run.n, INT_MAX);
    int steps = p->steps > 0 ? p->steps : TRIPS_DEFAULT_STEPS;
    if (p->steps < 0 || steps > TRIPS_MAX_STEPS)
        return chef_fail(err, CHEF_EXIT_USAGE, _("use 1 to 1000 steps"), _("%d steps is out of range"), p->steps);
    int repeat = p->run.repeat > 0 ? p->run.repeat : TRIPS_DEFAULT_REPEAT;
    if (p->run.repeat < 0 || repeat > TRIPS_MAX_REPEAT)
        return chef_fail(err, CHEF_EXIT_USAGE, _("use 1 to 1000"), _("--repeat %d is out of range"), p->run.repeat);
    int tpb = p->run.threads_per_block > 0 ? p->run.threads_per_block : 256;
    int limit = info->max_threads_per_block > 0 ? info->max_threads_per_block : 1024;
    if (tpb > limit)
        return chef_fail(err, CHEF_EXIT_USAGE, _("`cudachef info` shows the limit; 256 is a good start"),
                         _("--threads-per-block %d is outside 1..%d"), tpb, limit);
    int64_t blocks = (n + tpb - 1) / tpb;
    if (info->max_grid_dim[0] > 0 && blocks > info->max_grid_dim[0])
        return chef_fail(err, CHEF_EXIT_USAGE, _("use more threads per block"),
                         _("%lld blocks exceed the grid limit of %d"), (long long)blocks, info->max_grid_dim[0]);
    r->n = n;
    r->steps = steps;
    r->repeat = repeat;
    r->block = (chef_dim3){(unsigned)tpb, 1, 1};
    r->grid = (chef_dim3){(unsigned)blocks, 1, 1};
    r->seed = p->run.seed;
    /* each of the steps adds rounds by at most half a unit in the last place of a value below
       steps + 1 (inputs are in [-1, 1)): a bound with room to spare */
    r->atol = (double)(steps + 1) * (steps + 2) * FLT_EPSILON;
    /* host: x0, b, expected and a variant's x and b; the emulator's device memory is host memory too */
    size_t bytes = (size_t)n * sizeof(float);
    return demo_check_memory(5 * bytes + (info->kind == BACKEND_EMU ? 3 * bytes : 0), 3 * bytes, info, err);
}

/* Makes x0 and b from the seed and the CPU's expected result x0 + steps * b. */
static int trips_inputs(const trips_result *r, float **x0, float **b, float **expected, chef_error *err)
{
    size_t n = (size_t)r->n;
    *x0 = malloc(n * sizeof(float));
    *b = malloc(n * sizeof(float));
    *expected = malloc(n * sizeof(float));
    if (!*x0 || !*b || !*expected)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("use a smaller --n"), _("out of host memory"));
    uint64_t s = r->seed;
    for (size_t i = 0; i < n; i++)
        (*x0)[i] = recipe_random(&s);
    for (size_t i = 0; i < n; i++)
        (*b)[i] = recipe_random(&s);
    for (size_t i = 0; i < n; i++)
        (*expected)[i] = (float)((double)(*x0)[i] + (double)r->steps * (double)(*b)[i]);
    return 0;
}

/* A variant's name for people. */
static const char *trips_name(const trips_variant *v)
{
    if (v->round_trip)
        return v->pinned ? _("round trip, pinned memory") : _("round trip, pageable memory");
    return v->pinned ? _("stay, pinned memory") : _("stay, pageable memory");
}

/* Runs the demo. Returns the exit code; *out is set whenever the kitchen was opened. */
int trips_run(const demo_params *p, trips_result **out, chef_error *err)
{
    *out = NULL;
    backend *be;
    trips_result *r = demo_open(p->run.backend, sizeof *r, &be, err);
    if (!r)
        return err->exit_code;
    *out = r;
    r->backend = be->info;
    float *x0 = NULL, *b = NULL, *expected = NULL;
    int code = trips_plan(p, &be->info, r, &r->error);
    if (code == 0)
        code = trips_inputs(r, &x0, &b, &expected, &r->error);
    trips_ctx c = {be, (int)r->n, (size_t)r->n, r->steps, r->grid, r->block, p->run.workers, x0, b, expected, p};
    for (int i = 0; i < TRIPS_VARIANTS && code == 0; i++) {
        trips_variant *v = &r->variants[i];
        v->round_trip = i % 2;
        v->pinned = i / 2;
        if (p->progress)
            p->progress(p->progress_ctx, trips_name(v));
        code = trips_variant_run(&c, v, r->repeat, r->atol, &r->error);
        if (code == 0)
            r->nvariants++;
    }
    free(x0);
    free(b);
    free(expected);
    backend_close(be);
    if (code != 0)
        return r->exit_code = demo_error_exit(&r->error, CHEF_EXIT_INTERNAL, err);
    const trips_variant *v = r->variants;
    r->ratio_pageable = v[0].total_ms > 0 ? v[1].total_ms / v[0].total_ms : 0;
    r->ratio_pinned = v[2].total_ms > 0 ? v[3].total_ms / v[2].total_ms : 0;
    double pageable = trips_gbps(v[0].bytes_in + v[0].bytes_out + v[1].bytes_in + v[1].bytes_out,
                                 v[0].in_ms + v[0].out_ms + v[1].in_ms + v[1].out_ms);
    double pinned = trips_gbps(v[2].bytes_in + v[2].bytes_out + v[3].bytes_in + v[3].bytes_out,
                               v[2].in_ms + v[2].out_ms + v[3].in_ms + v[3].out_ms);
    r->pinned_speedup = pageable > 0 ? pinned / pageable : 0;
    int passed = 1;
    for (int i = 0; i < TRIPS_VARIANTS; i++)
        passed = passed && r->variants[i].taste.passed;
    return r->exit_code = passed ? CHEF_EXIT_OK : CHEF_EXIT_WRONG;
}

/* Writes the result for people, in the learner's language. */
void trips_text(FILE *out, const trips_result *r)
{
    char bytes[32], cell[48];
    chef_format_bytes((double)r->n * sizeof(float), bytes, sizeof bytes);
    if (r->n > 0 && r->steps == 1)
        fprintf(out, _("trips: a chain of one kernel, x[1] = x[0] + b, n = %lld (%s of floats per array)\n"),
                (long long)r->n, bytes);
    else if (r->n > 0)
        fprintf(out, _("trips: a chain of %d kernels, x[k+1] = x[k] + b, n = %lld (%s of floats per array)\n"),
                r->steps, (long long)r->n, bytes);
    else
        fprintf(out, "%s", _("trips: a chain of kernels, x[k+1] = x[k] + b\n"));
    report_backend_text(out, &r->backend);
    if (r->nvariants == 0) {
        demo_stopped_text(out, _("\nThe kitchen stopped: %s\n"), &r->error);
        return;
    }
    if (r->repeat == 1)
        fprintf(out, "%s", _("\nEach variant ran the chain once to warm up, then once on the clock: the figures below come\n"
                             "from that one run (give --repeat 5 or more for medians).\n"));
    else
        fprintf(out, _("\nEach variant ran the chain once to warm up, then %d times on the clock: each figure below is\n"
                       "the median of %d runs, taken on its own (a total need not be the sum of its three parts).\n"),
                r->repeat, r->repeat);
    fprintf(out, "\n");
    const int col = 10;
    int label = 0; /* the widest variant name, plus room */
    for (int i = 0; i < r->nvariants; i++) {
        const char *name = trips_name(&r->variants[i]);
        int width = text_width(name, strlen(name));
        if (width > label)
            label = width;
    }
    label += 2;
    demo_cell(out, "", label);
    const char *heads[] = {_("ship in"), _("cook"), _("ship out"), _("total"), _("shipped"), _("GB/s"), _("on the road")};
    for (size_t i = 0; i < sizeof heads / sizeof heads[0]; i++) {
        fputc(' ', out);
        demo_cell(out, heads[i], i == 6 ? -12 : -col);
    }
    fputc('\n', out);
    for (int i = 0; i < r->nvariants; i++) {
        const trips_variant *v = &r->variants[i];
        demo_cell(out, trips_name(v), label);
        double ms[4] = {v->in_ms, v->cook_ms, v->out_ms, v->total_ms};
        for (int k = 0; k < 4; k++) {
            chef_format_ms(ms[k], cell, sizeof cell);
            fprintf(out, " %*s", col, cell);
        }
        chef_format_bytes((double)(v->bytes_in + v->bytes_out), cell, sizeof cell);
        fprintf(out, " %*s %*.3g %11.0f%%\n", col, cell, col, v->gb_per_s, 100.0 * v->road_share);
    }
    if (r->nvariants < TRIPS_VARIANTS) {
        demo_stopped_text(out, _("\nThe kitchen stopped: %s\n"), &r->error);
        return;
    }
    const trips_variant *v = r->variants;
    fprintf(out, _("\nround trip / stay, median total time: %.1fx with pageable memory, %.1fx with pinned memory\n"),
            r->ratio_pageable, r->ratio_pinned);
    fprintf(out, _("shipping speed, pinned / pageable: %.2fx\n"), r->pinned_speedup);
    if (r->steps == 1) {
        fprintf(out, _("\nstay: x and b shipped in once (%d shipments), one kernel on the kitchen's pantry, the result\n"
                       "shipped out once (%d shipment).\n"),
                v[0].shipments_in, v[0].shipments_out);
        fprintf(out, _("round trip: for the one step, x and b shipped in, one kernel, x shipped out: %d shipments in,\n"
                       "%d out. With a single step both ways ship the same bytes.\n"),
                v[1].shipments_in, v[1].shipments_out);
    } else {
        fprintf(out, _("\nstay: x and b shipped in once (%d shipments), %d kernels on the kitchen's pantry, the result\n"
                       "shipped out once (%d shipment).\n"),
                v[0].shipments_in, v[0].launches, v[0].shipments_out);
        fprintf(out, _("round trip: for each of the %d steps, x and b shipped in, one kernel, x shipped out: %d\n"
                       "shipments in, %d out, %d times the bytes on the road.\n"),
                r->steps, v[1].shipments_in, v[1].shipments_out, r->steps);
    }
    if (r->backend.kind == BACKEND_GPU)
        fprintf(out, "%s", _("Pageable memory may be moved by the operating system, so the driver first copies it into a\n"
                             "pinned staging buffer; pinned (page-locked) memory is shipped by the GPU's copy engine\n"
                             "directly.\n"));
    else
        fprintf(out, "%s", _("On the emulator a shipment is a memcpy within host memory and pinned memory is ordinary\n"
                             "memory: pinned changes nothing here, and the road is far shorter than a GPU's bus. Run on\n"
                             "a GPU to see how much time the road takes there.\n"));
    int passed = 0;
    for (int i = 0; i < TRIPS_VARIANTS; i++)
        passed += v[i].taste.passed;
    fprintf(out, _("\ntaste: x[%d] = x[0] + %d b on the CPU, every element of every run (the warm-up too) of every\n"
                   "variant within %.1e: %d of %d variants correct\n"),
            r->steps, r->steps, r->atol, passed, TRIPS_VARIANTS);
    for (int i = 0; i < TRIPS_VARIANTS; i++) {
        const verify_result *t = &v[i].taste;
        if (t->passed)
            continue;
        fprintf(out, t->checked == 1 ? _("  %s: %d of %d runs right; the worst: %zu of %zu element correct\n")
                                     : _("  %s: %d of %d runs right; the worst: %zu of %zu elements correct\n"),
                trips_name(&v[i]), v[i].tasted_right, v[i].tasted, t->correct, t->checked);
        for (size_t k = 0; k < t->nmismatches && k < 3; k++)
            fprintf(out, _("    wrong at [%zu]: expected %g, got %g\n"), t->mismatches[k].index,
                    t->mismatches[k].expected, t->mismatches[k].got);
    }
    fprintf(out, "%s\n", passed == TRIPS_VARIANTS ? _("PASS: the dish tastes right") : _("FAIL: the dish tastes wrong"));
}

/* One variant as JSON. */
static json_t *trips_variant_json(const trips_variant *v)
{
    json_t *o = json_pack("{s:s, s:s, s:I, s:I, s:i, s:i, s:i, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "way",
                          v->round_trip ? "round-trip" : "stay", "memory", v->pinned ? "pinned" : "pageable",
                          "bytes_in", (json_int_t)v->bytes_in, "bytes_out", (json_int_t)v->bytes_out, "shipments_in",
                          v->shipments_in, "shipments_out", v->shipments_out, "launches", v->launches, "ship_in_ms",
                          demo_real(v->in_ms), "cook_ms", demo_real(v->cook_ms), "ship_out_ms", demo_real(v->out_ms),
                          "total_ms", demo_real(v->total_ms), "wall_ms", demo_real(v->wall_ms), "gb_per_s",
                          demo_real(v->gb_per_s), "road_share", demo_real(v->road_share));
    json_t *runs = json_array();
    for (int i = 0; i < v->runs; i++)
        json_array_append_new(runs, demo_real(v->total_runs[i]));
    json_object_set_new(o, "total_runs_ms", runs);
    json_object_set_new(o, "tasted_runs", json_integer(v->tasted));
    json_object_set_new(o, "tasted_right_runs", json_integer(v->tasted_right));
    json_object_set_new(o, "taste", demo_taste_json(&v->taste));
    return o;
}

/* The result for programs (kind "trips", docs/DEMOS.md); the caller owns the reference. */
json_t *trips_json(const trips_result *r)
{
    int gpu = r->backend.kind == BACKEND_GPU;
    json_t *o = demo_json_begin("trips", &r->backend);
    json_object_set_new(o, "kernel", json_string("vector_add"));
    json_object_set_new(o, "n", json_integer((json_int_t)r->n));
    json_object_set_new(o, "steps", json_integer(r->steps));
    json_object_set_new(o, "repeat", json_integer(r->repeat));
    json_object_set_new(o, "warm_up_runs", json_integer(1));
    json_object_set_new(o, "grid", demo_dim3_json(r->grid));
    json_object_set_new(o, "block", demo_dim3_json(r->block));
    json_object_set_new(o, "seed", json_integer((json_int_t)r->seed));
    json_object_set_new(o, "tolerance", json_pack("{s:f, s:f}", "rtol", 0.0, "atol", r->atol));
    json_object_set_new(o, "pinned_is_ordinary_memory", json_boolean(!gpu));
    json_t *variants = json_array();
    for (int i = 0; i < r->nvariants; i++)
        json_array_append_new(variants, trips_variant_json(&r->variants[i]));
    json_object_set_new(o, "variants", variants);
    int done = r->nvariants == TRIPS_VARIANTS;
    json_object_set_new(o, "ratio_round_trip_to_stay",
                        done ? json_pack("{s:o, s:o}", "pageable", demo_real(r->ratio_pageable), "pinned",
                                         demo_real(r->ratio_pinned))
                             : json_null());
    json_object_set_new(o, "pinned_speedup", done ? demo_real(r->pinned_speedup) : json_null());
    demo_status_json(o, r->exit_code, &r->error);
    return o;
}

/* Releases a result. */
void trips_free(trips_result *r)
{
    free(r);
}
