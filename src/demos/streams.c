/*
 * streams.c - the "streams" demo: the chain of lesson 8 kept in the kitchen, done in one stream and
 * in K streams, from pinned and from pageable memory, drawn as timelines (see streams.h).
 *
 * On a GPU, streams_gpu.c issues each run with cudaMemcpyAsync and events. On the emulator every
 * chunk goes through the backend interface (its shipments are memcpys, its launches the emulator's)
 * and is tasted; the times are the model's: each chunk's launch counted once on the emulator and
 * turned into a GPU time by model.c, each shipment from the device file's copy figures, all placed by
 * timeline_schedule. No time on the emulator's clock is shown: it would be a CPU's.
 */
#include "demos/streams.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "base/i18n.h"
#include "base/text.h"
#include "demos/trips.h"
#include "engine/model.h"
#include "engine/report.h"
#include "engine/resources.h"

/* What every version shares: the backend, the device buffers, the inputs and the expected result,
   and on the emulator the modeled GPU. */
typedef struct streams_ctx {
    backend *be;
    const demo_params *p;
    streams_result *r;
    void *dx[2], *db;
    const float *x0, *b, *expected;
    model_device device;             /* the modeled GPU (emulator only) */
    int64_t modeled_count[3];        /* launches of these sizes were modeled: */
    double modeled_ms[3];            /* their modeled time, one launch */
    int nmodeled;
} streams_ctx;

/* Chunk k's first element and count: n cut into chunks, the first n % chunks one longer. */
void streams_chunk(int64_t n, int chunks, int k, int64_t *first, int64_t *count)
{
    int64_t base = n / chunks, extra = n % chunks;
    *first = k * base + (k < extra ? k : extra);
    *count = base + (k < extra ? 1 : 0);
}

/* A version's name for people. */
static const char *streams_name(const streams_version *v)
{
    if (v->streams == 1)
        return _("(a) one stream, pinned memory: all in, cook, all out");
    return v->pinned ? _("(b) %d streams, pinned memory: chunk k in stream k")
                     : _("(c) %d streams, pageable memory: the same from malloc's memory");
}

/* The modeled time of one launch of the chain's kernel on count elements: the launch counted on the
   emulator (about KITCHEN_BESIDE_TEAMS teams of it, evenly spaced, cooked and counted), turned into
   a GPU time by the model, as the kitchen models a counted launch. Remembered per size. */
static int streams_model_launch(streams_ctx *c, int64_t count, double *ms, chef_error *err)
{
    for (int i = 0; i < c->nmodeled; i++)
        if (c->modeled_count[i] == count) {
            *ms = c->modeled_ms[i];
            return 0;
        }
    int tpb = (int)c->r->block.x, m = (int)count;
    uint64_t teams = (uint64_t)((count + tpb - 1) / tpb);
    counters counted;
    memset(&counted, 0, sizeof counted);
    launch_options o = {0};
    o.checked = 1;
    o.counters = &counted;
    o.counted_only = 1;
    o.count_every = (uint32_t)((teams + KITCHEN_BESIDE_TEAMS - 1) / KITCHEN_BESIDE_TEAMS);
    o.workers = c->p->run.workers;
    o.cancel = c->p->cancel;
    void *in = c->dx[0], *out = c->dx[1], *b = c->db;
    void *args[4] = {&in, &b, &out, &m};
    if (c->be->launch(c->be, STREAMS_KERNEL, (chef_dim3){(unsigned)teams, 1, 1}, c->r->block, args, &o, NULL, err) != 0)
        return -1;
    model_launch ml = {.teams = teams, .cooks_per_team = (uint64_t)tpb,
                       .shared_bytes_per_team = counted.shared_bytes_per_team,
                       .registers_per_cook = resources_registers(STREAMS_KERNEL, c->device.compute_capability)};
    model_result res;
    if (model_predict(&c->device, &counted, &ml, &res) != 0)
        return chef_fail(err, CHEF_EXIT_INTERNAL, NULL, "the counted launch of %s left no counts", STREAMS_KERNEL);
    if (c->nmodeled < 3) {
        c->modeled_count[c->nmodeled] = count;
        c->modeled_ms[c->nmodeled++] = res.ms;
    }
    *ms = res.ms;
    return 0;
}

/* A modeled shipment of bytes: the device file's fixed cost plus the bytes at its speed. */
static double streams_model_copy(const streams_ctx *c, size_t bytes, int pinned)
{
    double gb_s = pinned ? c->device.pinned_gb_s : c->device.pageable_gb_s;
    return c->device.copy_us * 1e-3 + (double)bytes / (gb_s * 1e6);
}

/* One run of a version on the emulator: every chunk shipped, cooked and shipped back through the
   backend, one after another; the modeled operations in v->ops, placed by timeline_schedule. */
static int streams_emu_run(streams_ctx *c, streams_version *v, float *hx, float *hb, chef_error *err)
{
    backend *be = c->be;
    const streams_result *r = c->r;
    int tpb = (int)r->block.x;
    v->nops = 0;
    for (int k = 0; k < v->streams; k++) {
        int64_t first, count;
        streams_chunk(r->n, v->streams, k, &first, &count);
        size_t bytes = (size_t)count * sizeof(float);
        float *dx[2] = {(float *)c->dx[0] + first, (float *)c->dx[1] + first}, *db = (float *)c->db + first;
        if (demo_stopped(c->p, err) != 0 ||
            be->copy(be, dx[0], hx + first, bytes, COPY_TO_DEVICE, NULL, err) != 0 ||
            be->copy(be, db, hb + first, bytes, COPY_TO_DEVICE, NULL, err) != 0)
            return -1;
        int m = (int)count;
        launch_options o = {0};
        o.workers = c->p->run.workers;
        o.cancel = c->p->cancel;
        for (int j = 0; j < r->steps; j++) {
            float *in = dx[j % 2], *out = dx[(j + 1) % 2];
            void *args[4] = {&in, &db, &out, &m};
            if (be->launch(be, STREAMS_KERNEL, (chef_dim3){(unsigned)((count + tpb - 1) / tpb), 1, 1}, r->block, args,
                           &o, NULL, err) != 0)
                return -1;
        }
        if (be->copy(be, hx + first, dx[r->steps % 2], bytes, COPY_TO_HOST, NULL, err) != 0)
            return -1;
        double launch_ms = 0;
        if (streams_model_launch(c, count, &launch_ms, err) != 0)
            return -1;
        double lengths[TIMELINE_LANES] = {2 * streams_model_copy(c, bytes, v->pinned), r->steps * launch_ms,
                                          streams_model_copy(c, bytes, v->pinned)};
        for (int lane = 0; lane < TIMELINE_LANES; lane++) {
            timeline_op *op = &v->ops[v->nops++];
            memset(op, 0, sizeof *op);
            op->stream = k;
            op->chunk = k;
            op->lane = (timeline_lane)lane;
            op->ms = lengths[lane];
            op->blocks_host = !v->pinned && lane != TIMELINE_COOK;
        }
    }
    v->total_ms = timeline_schedule(v->ops, v->nops, &v->host_ms);
    return 0;
}

/* Index of the median of n totals (the lower middle one for an even n). */
static int streams_median_run(const double *totals, int n)
{
    int best = 0;
    for (int i = 0; i < n; i++) {
        int below = 0, same_before = 0;
        for (int j = 0; j < n; j++) {
            below += totals[j] < totals[i];
            same_before += totals[j] == totals[i] && j < i;
        }
        if (below + same_before == (n - 1) / 2)
            best = i;
    }
    return best;
}

/* The runs of a version: on a GPU one warm-up and r->repeat timed runs, each tasted, the median
   run's timeline kept; on the emulator one modeled run, tasted. */
static int streams_runs(streams_ctx *c, streams_version *v, float *hx, float *hb, chef_error *err)
{
    const streams_result *r = c->r;
    size_t bytes = (size_t)r->n * sizeof(float);
    int gpu = !r->modeled, runs = gpu ? r->repeat : 1;
    double host_runs[STREAMS_MAX_REPEAT];
    timeline_op *kept = gpu ? malloc((size_t)runs * STREAMS_MAX_OPS * sizeof *kept) : NULL;
    if (gpu && !kept)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("use a smaller --n"), _("out of host memory"));
    int code = 0;
    for (int k = gpu ? 0 : 1; k <= runs && code == 0; k++) { /* k = 0: the GPU's warm-up, not counted */
        memcpy(hx, c->x0, bytes); /* the run leaves its result in hx: start afresh */
        if (demo_stopped(c->p, err) != 0) {
            code = -1;
            break;
        }
        if (gpu) {
            streams_job job = {hx, hb, {c->dx[0], c->dx[1]}, c->db, r->n, v->streams, r->steps, (int)r->block.x};
            double total = 0, host = 0;
            code = streams_gpu_run(&job, v->ops, &total, &host, err);
            v->nops = 3 * v->streams;
            if (code == 0 && k > 0) {
                v->total_runs[k - 1] = total;
                host_runs[k - 1] = host;
                memcpy(kept + (size_t)(k - 1) * STREAMS_MAX_OPS, v->ops, (size_t)v->nops * sizeof *kept);
            }
        } else {
            code = streams_emu_run(c, v, hx, hb, err);
            v->total_runs[0] = v->total_ms;
        }
        if (code != 0)
            break;
        verify_result taste;
        verify_compare(hx, c->expected, (size_t)r->n, 0.0, r->atol, &taste);
        demo_keep_worst_taste(&v->taste, &taste, v->tasted == 0);
        v->tasted++;
        v->tasted_right += taste.passed;
    }
    if (code == 0) {
        v->runs = runs;
        if (gpu) {
            int median = streams_median_run(v->total_runs, runs);
            memcpy(v->ops, kept + (size_t)median * STREAMS_MAX_OPS, (size_t)v->nops * sizeof *kept);
            v->host_ms = host_runs[median];
            v->total_ms = v->total_runs[median];
        }
        v->serial_ms = timeline_serial_ms(v->ops, v->nops);
        v->overlap_ms = timeline_overlap_ms(v->ops, v->nops);
        for (int lane = 0; lane < TIMELINE_LANES; lane++)
            v->busy_ms[lane] = timeline_busy_ms(v->ops, v->nops, (timeline_lane)lane);
        v->ran = 1;
    }
    free(kept);
    return code;
}

/* One version: its host memory, its runs. */
static int streams_version_run(streams_ctx *c, streams_version *v, chef_error *err)
{
    backend *be = c->be;
    size_t bytes = (size_t)c->r->n * sizeof(float);
    float *hx = NULL, *hb = NULL;
    if (be->host_alloc(be, (void **)&hx, bytes, v->pinned, err) != 0)
        return -1;
    if (be->host_alloc(be, (void **)&hb, bytes, v->pinned, err) != 0) {
        be->host_free(be, hx, v->pinned);
        return -1;
    }
    memcpy(hb, c->b, bytes);
    int code = streams_runs(c, v, hx, hb, err);
    be->host_free(be, hb, v->pinned);
    be->host_free(be, hx, v->pinned);
    return code;
}

/* Checks the parameters and fills the result's sizes. Returns 0 or -1 with err. */
static int streams_plan(const demo_params *p, const backend_info *info, streams_result *r, chef_error *err)
{
    trips_sizes z;
    if (trips_chain_plan(p, info, STREAMS_DEFAULT_N, STREAMS_DEFAULT_STEPS, STREAMS_DEFAULT_REPEAT, &z, err) != 0)
        return -1;
    int64_t n = z.n;
    int streams = p->streams > 0 ? p->streams : STREAMS_DEFAULT_STREAMS;
    if (p->streams < 0 || streams < 2 || streams > STREAMS_MAX_STREAMS)
        return chef_fail(err, CHEF_EXIT_USAGE, _("use 2 to 16 streams"), _("%d streams is out of range"), streams);
    if (n < streams)
        return chef_fail(err, CHEF_EXIT_USAGE, _("use a larger --n: every stream needs a chunk"),
                         _("n = %lld is less than the %d streams"), (long long)n, streams);
    r->n = n;
    r->streams = streams;
    r->steps = z.steps;
    r->repeat = z.repeat;
    r->block = (chef_dim3){(unsigned)z.threads_per_block, 1, 1};
    r->seed = p->run.seed;
    r->atol = trips_chain_atol(z.steps);
    return 0;
}

/* On the emulator: the modeled GPU, which must give the shipments' figures. 0, or -1 with err. */
static int streams_open_model(const demo_params *p, streams_ctx *c, chef_error *err)
{
    streams_result *r = c->r;
    if (model_device_open(p->run.model, &c->device, err) != 0)
        return -1;
    if (!(c->device.copy_us > 0 && c->device.pinned_gb_s > 0 && c->device.pageable_gb_s > 0))
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("model a GPU whose file has them, as h200.ini"),
                         _("assets/devices/%s.ini gives no shipment figures (copy_us, pinned_gb_s, pageable_gb_s)"),
                         c->device.id);
    snprintf(r->device_id, sizeof r->device_id, "%s", c->device.id);
    snprintf(r->device_name, sizeof r->device_name, "%s", c->device.name);
    r->copy_us = c->device.copy_us;
    r->pinned_gb_s = c->device.pinned_gb_s;
    r->pageable_gb_s = c->device.pageable_gb_s;
    return 0;
}

/* The device buffers, each shipped into once untimed (fresh memory costs its first touch). */
static int streams_device_buffers(streams_ctx *c, chef_error *err)
{
    backend *be = c->be;
    size_t bytes = (size_t)c->r->n * sizeof(float);
    if (be->device_alloc(be, &c->dx[0], bytes, "x", sizeof(float), err) != 0 ||
        be->device_alloc(be, &c->dx[1], bytes, "x_next", sizeof(float), err) != 0 ||
        be->device_alloc(be, &c->db, bytes, "b", sizeof(float), err) != 0)
        return -1;
    if (be->copy(be, c->dx[0], c->x0, bytes, COPY_TO_DEVICE, NULL, err) != 0 ||
        be->copy(be, c->dx[1], c->x0, bytes, COPY_TO_DEVICE, NULL, err) != 0 ||
        be->copy(be, c->db, c->b, bytes, COPY_TO_DEVICE, NULL, err) != 0)
        return -1;
    return 0;
}

/* Runs the demo. Returns the exit code; *out is set whenever the kitchen was opened. */
int streams_run(const demo_params *p, streams_result **out, chef_error *err)
{
    *out = NULL;
    backend *be;
    streams_result *r = demo_open(p->run.backend, sizeof *r, &be, err);
    if (!r)
        return err->exit_code;
    *out = r;
    r->backend = be->info;
    r->modeled = be->info.kind != BACKEND_GPU;
    streams_ctx c;
    memset(&c, 0, sizeof c);
    c.be = be;
    c.p = p;
    c.r = r;
    float *x0 = NULL, *b = NULL, *expected = NULL;
    int code = streams_plan(p, &be->info, r, &r->error);
    if (code == 0 && r->modeled)
        code = streams_open_model(p, &c, &r->error);
    if (code == 0)
        code = trips_chain_inputs(r->n, r->steps, r->seed, &x0, &b, &expected, &r->error);
    c.x0 = x0;
    c.b = b;
    c.expected = expected;
    if (code == 0)
        code = streams_device_buffers(&c, &r->error);
    for (int i = 0; i < STREAMS_VERSIONS && code == 0; i++) {
        streams_version *v = &r->versions[i];
        v->streams = i == 0 ? 1 : r->streams;
        v->pinned = i < 2;
        if (p->progress) {
            char name[160];
            snprintf(name, sizeof name, streams_name(v), v->streams);
            p->progress(p->progress_ctx, name);
        }
        code = streams_version_run(&c, v, &r->error);
        if (code == 0)
            r->nversions++;
    }
    for (int i = 1; i >= 0; i--)
        if (c.dx[i])
            be->device_free(be, c.dx[i]);
    if (c.db)
        be->device_free(be, c.db);
    free(x0);
    free(b);
    free(expected);
    backend_close(be);
    if (code != 0)
        return r->exit_code = demo_error_exit(&r->error, CHEF_EXIT_INTERNAL, err);
    const streams_version *v = r->versions;
    r->speedup = v[1].total_ms > 0 ? v[0].total_ms / v[1].total_ms : 0;
    r->pageable_ratio = v[1].total_ms > 0 ? v[2].total_ms / v[1].total_ms : 0;
    int passed = 1;
    for (int i = 0; i < STREAMS_VERSIONS; i++)
        passed = passed && v[i].taste.passed;
    return r->exit_code = passed ? CHEF_EXIT_OK : CHEF_EXIT_WRONG;
}

/* The widest line of the report: it fits a terminal of 80 columns. */
#define STREAMS_TEXT_COLS 78

/* "modeled" or "measured", in the learner's language. */
static const char *streams_how(const streams_result *r)
{
    return r->modeled ? _("modeled") : _("measured");
}

/* Prints a paragraph wrapped to the report's width, indented by indent. */
static void streams_para(FILE *out, const char *text, int indent)
{
    fprintf(out, "%*s", indent, "");
    demo_wrap(out, text, indent, indent, STREAMS_TEXT_COLS);
}

/* The label of a timeline row: stream k + 1, or a lane. */
static void streams_label(int stream, timeline_lane lane, char *out, size_t size)
{
    if (stream >= 0)
        snprintf(out, size, _("stream %d"), stream + 1);
    else
        snprintf(out, size, "%s", lane == TIMELINE_IN ? _("ship in") : lane == TIMELINE_COOK ? _("cook") : _("ship out"));
}

/* The widest row label of the report, in columns. */
static int streams_label_width(const streams_result *r)
{
    char label[64];
    int widest = 0;
    for (int row = -TIMELINE_LANES; row < r->streams; row++) {
        streams_label(row, (timeline_lane)(row + TIMELINE_LANES), label, sizeof label);
        int w = text_width(label, strlen(label));
        widest = w > widest ? w : widest;
    }
    return widest;
}

/* Draws a version's timeline: the time axis, a row per stream and, with several streams, a row
   per lane; span_ms (the slowest version's) fills the width, so the versions compare by length. */
static void streams_timeline_text(FILE *out, const streams_result *r, const streams_version *v, double span_ms)
{
    int label = streams_label_width(r) + 2;
    int cells = STREAMS_TEXT_COLS - 2 - label - 2;
    char end[64], right[96], row[STREAMS_TEXT_COLS + 1], name[64];
    chef_format_ms(span_ms, end, sizeof end);
    snprintf(right, sizeof right, "%s, %s", end, streams_how(r));
    int rw = text_width(right, strlen(right));
    fprintf(out, "  %*s0", label, "");
    fprintf(out, "%*s%s\n", cells + 1 - rw > 1 ? cells + 1 - rw : 1, "", right);
    for (int k = 0; k < v->streams; k++) {
        streams_label(k, TIMELINE_IN, name, sizeof name);
        timeline_row(v->ops, v->nops, k, TIMELINE_IN, span_ms, cells, row);
        fprintf(out, "  ");
        demo_cell(out, name, label);
        fprintf(out, "|%s|\n", row);
    }
    if (v->streams < 2)
        return;
    for (int lane = 0; lane < TIMELINE_LANES; lane++) {
        streams_label(-1, (timeline_lane)lane, name, sizeof name);
        timeline_row(v->ops, v->nops, -1, (timeline_lane)lane, span_ms, cells, row);
        fprintf(out, "  ");
        demo_cell(out, name, label);
        fprintf(out, "|%s|\n", row);
    }
}

/* One version: its name, its total and the head chef's time, its timeline and its overlap. */
static void streams_version_text(FILE *out, const streams_result *r, const streams_version *v, double span_ms)
{
    char total[32], host[32], overlap[32], serial[32];
    fprintf(out, "\n");
    fprintf(out, streams_name(v), v->streams);
    fprintf(out, "\n");
    chef_format_ms(v->total_ms, total, sizeof total);
    chef_format_ms(v->host_ms, host, sizeof host);
    /* one figure or two a line, each line saying how it was made: nothing here is wrapped */
    if (r->modeled) {
        fprintf(out, _("  total %s, modeled; the head chef waited %s for shipments, modeled\n"), total, host);
    } else {
        if (v->runs == 1)
            fprintf(out, _("  total %s, measured in one run\n"), total);
        else
            fprintf(out, _("  total %s, measured: the median of %d runs\n"), total, v->runs);
        fprintf(out, _("  the head chef issued every call in %s, measured on the host clock\n"), host);
    }
    streams_timeline_text(out, r, v, span_ms);
    chef_format_ms(v->overlap_ms, overlap, sizeof overlap);
    chef_format_ms(v->serial_ms, serial, sizeof serial);
    fprintf(out, _("  two lanes busy at once: %s, %.0f%% of the total, %s\n"), overlap,
            v->total_ms > 0 ? 100.0 * v->overlap_ms / v->total_ms : 0.0, streams_how(r));
    fprintf(out, _("  one after another, the same operations take %s, %s\n"), serial, streams_how(r));
}

/* The taste of every version, then PASS or FAIL. */
static void streams_taste_text(FILE *out, const streams_result *r)
{
    int passed = 0;
    for (int i = 0; i < r->nversions; i++)
        passed += r->versions[i].taste.passed;
    char text[512];
    snprintf(text, sizeof text,
             _("taste: x[%d] = x[0] + %d b on the CPU, every element of every run of each version within %.1e: %d "
               "of %d versions correct"),
             r->steps, r->steps, r->atol, passed, r->nversions);
    fprintf(out, "\n");
    streams_para(out, text, 0);
    for (int i = 0; i < r->nversions; i++) {
        const streams_version *v = &r->versions[i];
        const verify_result *t = &v->taste;
        if (t->passed)
            continue;
        char name[160];
        snprintf(name, sizeof name, streams_name(v), v->streams);
        fprintf(out, t->checked == 1 ? _("  %s: %d of %d runs right; the worst: %zu of %zu element correct\n")
                                     : _("  %s: %d of %d runs right; the worst: %zu of %zu elements correct\n"),
                name, v->tasted_right, v->tasted, t->correct, t->checked);
        for (size_t k = 0; k < t->nmismatches && k < 3; k++)
            fprintf(out, _("    wrong at [%zu]: expected %g, got %g\n"), t->mismatches[k].index,
                    t->mismatches[k].expected, t->mismatches[k].got);
    }
    fprintf(out, "%s\n", passed == STREAMS_VERSIONS ? _("PASS: the dish tastes right") : _("FAIL: the dish tastes wrong"));
}

/* Who cooked, and how the times below were made: modeled on the emulator, measured on a GPU. */
static void streams_how_text(FILE *out, const streams_result *r)
{
    char text[1400];
    const backend_info *b = &r->backend;
    if (!r->modeled) {
        report_backend_text(out, b);
        if (r->repeat == 1)
            snprintf(text, sizeof text, "%s",
                     _("Measured on the GPU with CUDA events recorded in each stream. A bar starts when its stream "
                       "reached the event before it and ends at the event after it, so it may include waiting for an "
                       "engine that another stream holds. Each version ran once to warm up, then once on the clock."));
        else
            snprintf(text, sizeof text,
                     _("Measured on the GPU with CUDA events recorded in each stream. A bar starts when its stream "
                       "reached the event before it and ends at the event after it, so it may include waiting for an "
                       "engine that another stream holds. Each version ran once to warm up, then %d times: its total "
                       "is the median, and its timeline the median run's."),
                     r->repeat);
    } else {
        if (b->no_gpu_reason[0])
            fprintf(out, _("cooked on the CPU emulator (%d workers): no GPU used, %s\n"), b->workers, b->no_gpu_reason);
        else
            fprintf(out, _("cooked on the CPU emulator (%d workers)\n"), b->workers);
        fprintf(out, "\n");
        snprintf(text, sizeof text,
                 _("There is no GPU here, so nothing below was measured: the emulator cooked and tasted every chunk "
                   "on the CPU, and every time shown is MODELED for the %s (assets/devices/%s.ini), as a GPU with one "
                   "copy engine each way and one kernel at a time would run the work:"),
                 r->device_name, r->device_id);
        streams_para(out, text, 0);
        char copy[32];
        chef_format_ms(r->copy_us * 1e-3, copy, sizeof copy);
        fprintf(out, _("  shipping, modeled: %s a copy plus %.0f GB/s (pinned) or %.0f GB/s (pageable)\n"),
                copy, r->pinned_gb_s, r->pageable_gb_s);
        if (r->steps == 1)
            fprintf(out, "%s", _("  a chunk's cooking, modeled: the model's time for its counted launch\n"));
        else
            fprintf(out, _("  a chunk's cooking, modeled: %d times the model's time for its counted launch\n"), r->steps);
        streams_para(out, _("A copy from pageable memory is modeled as keeping the head chef waiting until it is done."),
                     0);
        return;
    }
    fprintf(out, "\n");
    streams_para(out, text, 0);
}

/* Writes the result for people, in the learner's language. */
void streams_text(FILE *out, const streams_result *r)
{
    char bytes[32], text[512];
    chef_format_bytes((double)r->n * sizeof(float), bytes, sizeof bytes);
    if (r->n > 0 && r->steps == 1)
        snprintf(text, sizeof text, _("streams: one step x[1] = x[0] + b on n = %lld floats (%s per array), in one "
                                      "stream and in %d"),
                 (long long)r->n, bytes, r->streams);
    else if (r->n > 0)
        snprintf(text, sizeof text, _("streams: a chain of %d steps x[k+1] = x[k] + b on n = %lld floats (%s per "
                                      "array), in one stream and in %d"),
                 r->steps, (long long)r->n, bytes, r->streams);
    else
        snprintf(text, sizeof text, "%s", _("streams: a chain of steps x[k+1] = x[k] + b, in one stream and in several"));
    streams_para(out, text, 0);
    streams_how_text(out, r);
    if (r->nversions == 0) {
        demo_stopped_text(out, _("\nThe kitchen stopped: %s\n"), &r->error);
        return;
    }
    if (r->steps == 1)
        snprintf(text, sizeof text, "%s", _("> ship in (x and b)   # cook (one launch of vector_add)   < ship out (x)"));
    else
        snprintf(text, sizeof text, _("> ship in (x and b)   # cook (%d launches of vector_add)   < ship out (x)"),
                 r->steps);
    fprintf(out, "\n  %s\n", text);
    /* (a) and (b) on one scale, so that their lengths compare; (c) on its own when it is longer */
    double span = 0;
    for (int i = 0; i < r->nversions && i < 2; i++)
        span = r->versions[i].total_ms > span ? r->versions[i].total_ms : span;
    for (int i = 0; i < r->nversions; i++)
        streams_version_text(out, r, &r->versions[i],
                             r->versions[i].total_ms > span ? r->versions[i].total_ms : span);
    if (r->nversions < STREAMS_VERSIONS) {
        demo_stopped_text(out, _("\nThe kitchen stopped: %s\n"), &r->error);
        return;
    }
    fprintf(out, "\n");
    snprintf(text, sizeof text, _("%d streams against one: %.2f times as fast, %s"), r->streams, r->speedup,
             streams_how(r));
    streams_para(out, text, 0);
    snprintf(text, sizeof text, _("%d streams from pageable memory: %.2f times the time from pinned memory, %s"),
             r->streams, r->pageable_ratio, streams_how(r));
    streams_para(out, text, 0);
    fprintf(out, "\n");
    streams_para(out,
                 _("With pinned memory cudaMemcpyAsync only queues the copy and returns: the head chef issues every "
                   "chunk at once, and the copy engines ship one chunk while the stations cook another. From pageable "
                   "memory the driver first copies the bytes into a pinned buffer of its own, and the call returns "
                   "only once that is done (shipping out, once the whole copy is): the head chef waits, the next "
                   "stream's work is issued late, and little overlaps."),
                 0);
    streams_taste_text(out, r);
}

/* The name of a lane, for programs. */
static const char *streams_lane_code(timeline_lane lane)
{
    return lane == TIMELINE_IN ? "ship-in" : lane == TIMELINE_COOK ? "cook" : "ship-out";
}

/* One version as JSON. */
static json_t *streams_version_json(const streams_version *v)
{
    json_t *o = json_pack("{s:s, s:i, s:s, s:o, s:o, s:o, s:o}", "version",
                          v->streams == 1 ? "one-stream" : v->pinned ? "streams" : "streams-pageable", "streams",
                          v->streams, "memory", v->pinned ? "pinned" : "pageable", "total_ms", demo_real(v->total_ms),
                          "host_ms", demo_real(v->host_ms), "serial_ms", demo_real(v->serial_ms), "overlap_ms",
                          demo_real(v->overlap_ms));
    json_object_set_new(o, "busy_ms",
                        json_pack("{s:o, s:o, s:o}", "ship_in", demo_real(v->busy_ms[TIMELINE_IN]), "cook",
                                  demo_real(v->busy_ms[TIMELINE_COOK]), "ship_out", demo_real(v->busy_ms[TIMELINE_OUT])));
    json_t *runs = json_array();
    for (int i = 0; i < v->runs; i++)
        json_array_append_new(runs, demo_real(v->total_runs[i]));
    json_object_set_new(o, "total_runs_ms", runs);
    json_t *ops = json_array();
    for (int i = 0; i < v->nops; i++) {
        const timeline_op *op = &v->ops[i];
        json_array_append_new(ops, json_pack("{s:i, s:i, s:s, s:o, s:o}", "stream", op->stream, "chunk", op->chunk,
                                             "lane", streams_lane_code(op->lane), "start_ms", demo_real(op->start_ms),
                                             "end_ms", demo_real(op->end_ms)));
    }
    json_object_set_new(o, "operations", ops);
    json_object_set_new(o, "tasted_runs", json_integer(v->tasted));
    json_object_set_new(o, "tasted_right_runs", json_integer(v->tasted_right));
    json_object_set_new(o, "taste", demo_taste_json(&v->taste));
    return o;
}

/* The result for programs (kind "streams", docs/DEMOS.md); the caller owns the reference. */
json_t *streams_json(const streams_result *r)
{
    json_t *o = demo_json_begin("streams", &r->backend);
    json_object_set_new(o, "timeline", json_string(r->modeled ? "modeled" : "measured"));
    json_object_set_new(o, "model",
                        r->modeled && r->device_id[0]
                            ? json_pack("{s:s, s:s, s:o, s:o, s:o}", "device", r->device_id, "name", r->device_name,
                                        "copy_us", demo_real(r->copy_us), "pinned_gb_s", demo_real(r->pinned_gb_s),
                                        "pageable_gb_s", demo_real(r->pageable_gb_s))
                            : json_null());
    json_object_set_new(o, "kernel", json_string(STREAMS_KERNEL));
    json_object_set_new(o, "n", json_integer((json_int_t)r->n));
    json_object_set_new(o, "streams", json_integer(r->streams));
    json_object_set_new(o, "steps", json_integer(r->steps));
    json_object_set_new(o, "repeat", json_integer(r->modeled ? 1 : r->repeat));
    json_object_set_new(o, "warm_up_runs", json_integer(r->modeled ? 0 : 1));
    json_object_set_new(o, "block", demo_dim3_json(r->block));
    json_object_set_new(o, "seed", json_integer((json_int_t)r->seed));
    json_object_set_new(o, "tolerance", json_pack("{s:f, s:f}", "rtol", 0.0, "atol", r->atol));
    json_t *versions = json_array();
    for (int i = 0; i < r->nversions; i++)
        json_array_append_new(versions, streams_version_json(&r->versions[i]));
    json_object_set_new(o, "versions", versions);
    int done = r->nversions == STREAMS_VERSIONS;
    json_object_set_new(o, "speedup", done ? demo_real(r->speedup) : json_null());
    json_object_set_new(o, "pageable_ratio", done ? demo_real(r->pageable_ratio) : json_null());
    demo_status_json(o, r->exit_code, &r->error);
    return o;
}

/* Releases a result. */
void streams_free(streams_result *r)
{
    free(r);
}
