/*
 * report.c - text and JSON for runs and for `cudachef info`.
 *
 * Only figures from the run are printed; where the emulator cooked, the text says that the times
 * are CPU times. Numbers in JSON are plain (milliseconds, bytes, GB/s = 1e9 bytes per second).
 */
#include "engine/report.h"

#include <math.h>
#include <string.h>

#include "base/i18n.h"
#include "engine/recipes.h"

/* Writes a float for people: NaN (an element nobody wrote) as "NaN", not "-nan". */
static void report_float(char *out, size_t size, float v)
{
    if (isnan(v))
        snprintf(out, size, "NaN");
    else
        snprintf(out, size, "%g", v);
}

/* Prints a few elements of an array: all when small, else the first four and the last. */
static void report_array(FILE *out, const char *name, const float *sample, size_t shown, size_t n,
                         float last)
{
    char v[32];
    fprintf(out, "               %s = [", name);
    for (size_t i = 0; i < shown; i++) {
        report_float(v, sizeof v, sample[i]);
        fprintf(out, "%s%s", i ? ", " : "", v);
    }
    if (n > shown) {
        report_float(v, sizeof v, last);
        fprintf(out, ", ..., %s", v);
    }
    fprintf(out, "]\n");
}

/* How many leading elements of a buffer to show: all when small, else four. */
static size_t report_shown(const kitchen_buffer *b)
{
    return b->count <= KITCHEN_SAMPLE ? b->count : 4;
}

/* A count with thousands separated by commas ("8,912,896"), rounded. */
static void report_count(double v, char *out, size_t size)
{
    char digits[32];
    snprintf(digits, sizeof digits, "%.0f", v < 0 ? 0 : v);
    size_t n = strlen(digits), j = 0;
    for (size_t i = 0; i < n && j + 2 < size; i++) {
        if (i > 0 && (n - i) % 3 == 0)
            out[j++] = ',';
        out[j++] = digits[i];
    }
    out[j] = '\0';
}

/* The counters of a counted launch (the emulator's checked build): memory per warp, as Nsight
   Compute counts it (docs/EMULATOR.md). */
static void report_counters_text(FILE *out, const kitchen_report *r)
{
    const counters *c = &r->counters;
    if ((r->backend.kind != BACKEND_EMU && !r->counted_beside) || !r->recipe || !r->kernel || r->cooks == 0)
        return;
    const recipe *rc = recipe_find(r->recipe);
    if (rc && rc->library)
        return;
    if (!c->valid) {
        fprintf(out, "%s\n", _("               counters: not counted (no team could be: too many accesses between two barriers, "
                            "or no memory)"));
        return;
    }
    char a[32], b[32], d[32];
    if (r->counted_beside) {
        chef_format_ms(r->counted_beside_ms, a, sizeof a);
        fprintf(out, _("               counted per warp on the CPU emulator, the same launch on the same inputs (%llu "
                       "of %llu teams, totals scaled; %s), as Nsight Compute names them:\n"),
                (unsigned long long)c->teams_counted, (unsigned long long)c->teams, a);
    } else if (c->teams_counted < c->teams)
        fprintf(out, _("               counted per warp, as Nsight Compute names them (%llu of %llu teams "
                       "counted, totals scaled):\n"),
                (unsigned long long)c->teams_counted, (unsigned long long)c->teams);
    else
        fprintf(out, "%s\n", _("               counted per warp, as Nsight Compute names them:"));
    double ldr = counters_scaled(c, COUNTER_GLOBAL_LD_REQUESTS), lds = counters_scaled(c, COUNTER_GLOBAL_LD_SECTORS);
    double str = counters_scaled(c, COUNTER_GLOBAL_ST_REQUESTS), sts = counters_scaled(c, COUNTER_GLOBAL_ST_SECTORS);
    report_count(ldr, a, sizeof a);
    report_count(lds, b, sizeof b);
    fprintf(out, _("                 global loads   %s requests, %s sectors of 32 bytes (%.1f per request)\n"), a, b,
            ldr > 0 ? lds / ldr : 0.0);
    report_count(str, a, sizeof a);
    report_count(sts, b, sizeof b);
    fprintf(out, _("                 global stores  %s requests, %s sectors (%.1f per request)\n"), a, b,
            str > 0 ? sts / str : 0.0);
    static const counter_id shared[2][3] = {
        {COUNTER_SHARED_LD_INSTRUCTIONS, COUNTER_SHARED_LD_WAVEFRONTS, COUNTER_SHARED_LD_CONFLICTS},
        {COUNTER_SHARED_ST_INSTRUCTIONS, COUNTER_SHARED_ST_WAVEFRONTS, COUNTER_SHARED_ST_CONFLICTS}};
    for (int i = 0; i < 2; i++) {
        if (counters_scaled(c, shared[i][0]) == 0)
            continue;
        report_count(counters_scaled(c, shared[i][0]), a, sizeof a);
        report_count(counters_scaled(c, shared[i][1]), b, sizeof b);
        report_count(counters_scaled(c, shared[i][2]), d, sizeof d);
        fprintf(out, i == 0 ? _("                 shared loads   %s instructions, %s wavefronts, %s bank conflicts\n")
                            : _("                 shared stores  %s instructions, %s wavefronts, %s bank conflicts\n"),
                a, b, d);
    }
    if (counters_scaled(c, COUNTER_GLOBAL_ATOMICS) > 0 || counters_scaled(c, COUNTER_SHARED_ATOMICS) > 0) {
        report_count(counters_scaled(c, COUNTER_GLOBAL_ATOMICS), a, sizeof a);
        report_count(counters_scaled(c, COUNTER_SHARED_ATOMICS), b, sizeof b);
        fprintf(out, _("                 atomics        %s on global memory, %s on shared memory (warp requests)\n"), a, b);
    }
    if (counters_scaled(c, COUNTER_BARRIERS) > 0) {
        report_count(counters_scaled(c, COUNTER_BARRIERS), a, sizeof a);
        fprintf(out, _("                 barriers       %s (each warp at each __syncthreads)\n"), a);
    }
    report_count(counters_scaled(c, COUNTER_DIVERGENT), a, sizeof a);
    report_count(counters_scaled(c, COUNTER_MEMORY_INSTRUCTIONS), b, sizeof b);
    fprintf(out, _("                 divergent      %s of %s warp memory instructions ran with part of the warp\n"), a, b);
    report_count(counters_scaled(c, COUNTER_WARP_BLOCKS_DIVERGENT), a, sizeof a);
    report_count(counters_scaled(c, COUNTER_WARP_BLOCKS), b, sizeof b);
    fprintf(out, _("                 branches       %s of %s warp runs of the kernel's basic blocks had part of the warp\n"),
            a, b);
}

/* On a GPU modeled by its own device file: the modeled time over the measured median; else 0. */
static double report_model_error(const kitchen_report *r)
{
    if (!r->modeled || !r->counted_beside || r->cook_ms <= 0 || strcmp(r->backend.name, r->model_device.name) != 0)
        return 0;
    return r->model.ms / r->cook_ms;
}

/* The modeled GPU time beside the measured one, labelled as a model. */
static void report_model_text(FILE *out, const kitchen_report *r)
{
    if (!r->modeled)
        return;
    const model_result *m = &r->model;
    char t[24], a[24], b[24], c[24], d[24], e[24], f[24];
    chef_format_ms(m->ms, t, sizeof t);
    static const char *const bounds[] = {N_("latency (the launch's fixed cost)"), N_("device memory"), N_("the L2"),
                                         N_("shared memory"), N_("arithmetic"), N_("atomics waiting on one address")};
    fprintf(out, _("               modeled on the %s: %s, bound by %s; a model from these counts, not a "
                   "measurement\n"),
            r->model_device.name, t, _(bounds[m->bound]));
    chef_format_ms(m->launch_ms, a, sizeof a);
    chef_format_ms(m->memory_ms, b, sizeof b);
    chef_format_ms(m->l2_ms, c, sizeof c);
    chef_format_ms(m->shared_ms, d, sizeof d);
    chef_format_ms(m->compute_ms, e, sizeof e);
    chef_format_ms(m->atomics_ms, f, sizeof f);
    fprintf(out, _("                 launch %s + the slowest of memory %s, L2 %s, shared %s, arithmetic %s, atomics %s\n"),
            a, b, c, d, e, f);
    fprintf(out, _("                 %.2f float operations per byte of memory: at most %.0f of the GPU's %.0f GFLOP/s; "
                   "%d teams per station (limited by %s), %.0f warps on a busy one\n"),
            m->intensity, m->attainable_gflops, m->peak_gflops, m->teams_per_station, _(m->limited_by),
            m->warps_per_station);
    if (m->registers_per_cook > 0)
        fprintf(out, _("                 %d registers a cook on this GPU's architecture, as nvcc's ptxas gave them\n"),
                m->registers_per_cook);
    else
        fprintf(out, "%s\n", _("                 registers a cook: not known (no nvcc build of this kernel), so they do not "
                              "limit the teams per station here"));
    double error = report_model_error(r);
    chef_format_ms(r->cook_ms, a, sizeof a);
    if (error > 0)
        fprintf(out, _("                 measured here %s: the model is %.2fx the measurement (%s)\n"), a, error, error >= 0.5 && error <= 2 ? _("within 2x") : _("more than 2x off"));
    else if (r->counted_beside)
        fprintf(out, _("                 (a model of another GPU than this %s: no error to give)\n"), r->backend.name);
}

/* steps.cook.model: the modeled time and its parts, or null when the launch was not modeled. */
static void report_model_json(json_t *cook, const kitchen_report *r)
{
    if (!r->modeled) {
        json_object_set_new(cook, "model", json_null());
        return;
    }
    const model_result *m = &r->model;
    json_t *o = json_pack("{s:b, s:s, s:s, s:f, s:s, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:i, s:s, s:n, s:f}",
                          "modeled", 1, "device", r->model_device.name, "device_file", r->model_device.id, "ms", m->ms,
                          "bound", model_bound_name(m->bound), "launch_ms", m->launch_ms, "memory_ms", m->memory_ms,
                          "l2_ms", m->l2_ms, "shared_ms", m->shared_ms, "compute_ms", m->compute_ms, "memory_bytes",
                          m->memory_bytes, "flops", m->flops, "intensity", m->intensity, "peak_gflops",
                          m->peak_gflops, "attainable_gflops", m->attainable_gflops, "teams_per_station",
                          m->teams_per_station, "limited_by", m->limited_by, "registers_per_cook",
                          "stations_busy", m->stations_busy);
    json_object_set_new(o, "registers_per_cook",
                        m->registers_per_cook > 0 ? json_integer(m->registers_per_cook) : json_null());
    json_object_set_new(o, "atomics_ms", json_real(m->atomics_ms));
    json_object_set_new(o, "warps_per_station", json_real(m->warps_per_station));
    json_object_set_new(o, "latency_hidden", json_real(m->hiding));
    double error = report_model_error(r);
    json_object_set_new(o, "measured_ms", error > 0 ? json_real(r->cook_ms) : json_null());
    json_object_set_new(o, "error", error > 0 ? json_real(error) : json_null());
    json_object_set_new(cook, "model", o);
}

/* steps.cook.counters (metric name: number, or null when the launch was not counted) and
   steps.cook.counting (how). */
static void report_counters_json(json_t *cook, const kitchen_report *r)
{
    const counters *c = &r->counters;
    if (!c->valid) {
        json_object_set_new(cook, "counters", json_null());
        json_object_set_new(cook, "counting", json_null());
        return;
    }
    json_t *o = json_object();
    for (int i = 0; i < COUNTER_COUNT; i++) {
        double v = counters_scaled(c, (counter_id)i);
        json_object_set_new(o, counter_table[i].metric,
                            c->teams_counted == c->teams ? json_integer((json_int_t)c->value[i]) : json_real(v));
    }
    json_object_set_new(cook, "counters", o);
    json_object_set_new(cook, "counting", json_pack("{s:s, s:I, s:I, s:b, s:I}", "source",
                                                    r->counted_beside ? "emulator-beside-gpu" : "emulator-checked-build",
                                                    "teams", (json_int_t)c->teams, "teams_counted",
                                                    (json_int_t)c->teams_counted, "scaled",
                                                    c->teams_counted < c->teams, "shared_bytes_per_team",
                                                    (json_int_t)c->shared_bytes_per_team));
}

/* Describes who cooked, with the reason the GPU was not used when it was not. */
void report_backend_text(FILE *out, const backend_info *b)
{
    if (b->kind == BACKEND_GPU) {
        fprintf(out, _("cooked on the GPU: %s (compute capability %d.%d, %d stations)\n"), b->name,
                b->cc_major, b->cc_minor, b->sm_count);
    } else {
        if (b->no_gpu_reason[0])
            fprintf(out, _("cooked on the CPU emulator (%d workers): no GPU used, %s\n"), b->workers, b->no_gpu_reason);
        else
            fprintf(out, _("cooked on the CPU emulator (%d workers)\n"), b->workers);
        fprintf(out, "%s", _("  Times below are CPU times of the emulator, not GPU times: a GPU ships over PCIe\n"
                               "  and cooks with thousands of cooks at once; run on a GPU to measure that.\n"));
    }
}

/* A matrix recipe's GFLOP/s in the median kernel time. */
double report_gflops(const kitchen_report *r, double *flops)
{
    const recipe *rc = r->recipe ? recipe_find(r->recipe) : NULL;
    *flops = 0;
    if (!rc || strncmp(r->recipe, "matmul", 6) != 0 || r->cook_ms <= 0 || !rc->work)
        return 0;
    *flops = 2.0 * rc->work(r->plan.n);
    return *flops / (r->cook_ms * 1e6);
}

/* Writes the five steps as text. */
void report_run_text(FILE *out, const kitchen_report *r)
{
    const kitchen_plan *p = &r->plan;
    char bytes[32], in_bytes[32], out_bytes[32];
    const recipe *rc = recipe_find(r->recipe);
    fprintf(out, "cudachef run %s: %s\n", r->recipe, _(rc->summary));
    report_backend_text(out, &r->backend);
    fprintf(out, "\n");

    chef_format_bytes((double)r->host_bytes, bytes, sizeof bytes);
    /* "3 arrays of 1000 floats", or each array's size when they differ ("a[1000000], sum[1]") */
    char arrays[160] = "";
    int same = 1;
    for (int i = 1; i < p->nbuffers; i++)
        same &= p->buffers[i].count == p->buffers[0].count;
    if (same) {
        snprintf(arrays, sizeof arrays, _("%d arrays of %lld floats"), p->nbuffers, (long long)p->buffers[0].count);
    } else {
        for (int i = 0; i < p->nbuffers; i++) {
            size_t len = strlen(arrays);
            snprintf(arrays + len, sizeof arrays - len, "%s%s[%zu]", i ? ", " : "", p->buffers[i].name,
                     p->buffers[i].count);
        }
    }
    if (p->counting)
        fprintf(out, _("1. prepare   %s on the host (%s), the counting example\n"), arrays, bytes);
    else
        fprintf(out, _("1. prepare   %s on the host (%s), random values from seed %llu\n"), arrays, bytes,
                (unsigned long long)p->seed);
    if (r->sample_count > 0) {
        for (int i = 0; i < p->nbuffers; i++) {
            if (p->buffers[i].is_output)
                continue;
            report_array(out, p->buffers[i].name, r->samples[i], report_shown(&p->buffers[i]),
                         p->buffers[i].count, r->sample_last[i]);
        }
    }
    chef_format_bytes((double)r->ship_in.bytes, in_bytes, sizeof in_bytes);
    char t1[24], t2[24], t3[24];
    chef_format_ms(r->ship_in.ms, t1, sizeof t1);
    fprintf(out, _("2. ship in   %s host -> device in %s = %.3g GB/s (%s host memory)\n"), in_bytes, t1,
            r->ship_in.gb_per_s, r->params.pinned ? _("pinned") : _("pageable"));
    if (r->params.pinned && r->backend.kind != BACKEND_GPU)
        fprintf(out, "%s\n", _("               (the emulator's pantries are both host memory: pinned changes nothing here)"));
    if (rc->library) {
        /* a library call: its own kernels, not teams of ours */
        fprintf(out, _("3. cook      a library call: %s\n"), rc->library(&r->backend));
    } else {
        fprintf(out, _("3. cook      %s<<<"), r->kernel);
        if (p->grid.y > 1 || p->block.y > 1)
            fprintf(out, "(%u,%u), (%u,%u)", p->grid.x, p->grid.y, p->block.x, p->block.y);
        else
            fprintf(out, "%u, %u", p->grid.x, p->block.x);
        fprintf(out, r->teams == 1 ? _(">>>: %llu team x %llu cooks = %llu cooks\n")
                                   : _(">>>: %llu teams x %llu cooks = %llu cooks\n"),
                (unsigned long long)r->teams, (unsigned long long)r->cooks_per_team, (unsigned long long)r->cooks);
    }
    if ((r->ran || r->cook_ms > 0) && !rc->library) {
        if (r->uncooked)
            fprintf(out, _("               idle cooks: %llu (%llu in the last team); %llu elements have no cook (grid too small)\n"),
                    (unsigned long long)r->idle_cooks, (unsigned long long)r->idle_cooks_last_team,
                    (unsigned long long)r->uncooked);
        else
            fprintf(out, _("               idle cooks: %llu (%llu in the last team)\n"), (unsigned long long)r->idle_cooks,
                    (unsigned long long)r->idle_cooks_last_team);
    }
    if (r->ran || r->cook_ms > 0) {
        chef_format_ms(r->cook_ms, t1, sizeof t1);
        chef_format_ms(r->cook_ms_min, t2, sizeof t2);
        chef_format_ms(r->cook_ms_max, t3, sizeof t3);
        fprintf(out, _("               kernel %s (median of %d after a warm-up; %s to %s)\n"), t1, r->repeat, t2, t3);
        double flops = 0, gflops = report_gflops(r, &flops);
        if (gflops > 0)
            fprintf(out, _("               %.1f GFLOP/s (2 n^3 = %.3g floating-point operations)\n"), gflops, flops);
        if (r->trace_summary.blocks)
            fprintf(out,
                    r->trace_summary.blocks == 1
                        ? _("               trace: %zu team on %u station\n")
                    : r->trace_summary.stations_used == 1
                        ? _("               trace: %zu teams on %u station, at most %u of them there at the same time\n")
                        : _("               trace: %zu teams on %u stations, at most %u at the same time on one station\n"),
                    r->trace_summary.blocks, r->trace_summary.stations_used, r->trace_summary.max_resident);
    }
    if (r->ran) {
        report_counters_text(out, r);
        report_model_text(out, r);
    }
    if (!r->ran) {
        fprintf(out, _("\nThe kitchen stopped: %s\n"), r->error.message);
        if (r->error.hint[0])
            fprintf(out, _("  hint: %s\n"), r->error.hint);
        return;
    }
    chef_format_bytes((double)r->ship_out.bytes, out_bytes, sizeof out_bytes);
    chef_format_ms(r->ship_out.ms, t1, sizeof t1);
    fprintf(out, _("4. ship out  %s device -> host in %s = %.3g GB/s\n"), out_bytes, t1, r->ship_out.gb_per_s);
    const verify_result *t = &r->taste;
    char maxerr[48];
    if (isinf(t->max_abs_error))
        snprintf(maxerr, sizeof maxerr, "%s", _("NaN or infinite (elements never cooked, or shared memory read before it was filled?)"));
    else
        snprintf(maxerr, sizeof maxerr, "%.3g", t->max_abs_error);
    chef_format_ms(r->reference_ms, t1, sizeof t1);
    if (r->reference_blas)
        fprintf(out, _("5. taste     %zu of %zu correct, max error %s (tolerance %.0e + %.0e x |expected|); "
                       "CPU reference (OpenBLAS) %s\n"),
                t->correct, t->checked, maxerr, r->atol, r->rtol, t1);
    else
        fprintf(out, _("5. taste     %zu of %zu correct, max error %s (tolerance %.0e + %.0e x |expected|); "
                       "CPU reference %s\n"),
                t->correct, t->checked, maxerr, r->atol, r->rtol, t1);
    if (r->exact_known)
        fprintf(out, _("             inputs rounded to %s by the kernel: against the product of the inputs as given, "
                       "max error %.3g\n"),
                recipe_find(r->recipe) ? recipe_find(r->recipe)->precision : "?", r->exact_abs_error);
    for (int i = 0; i < p->nbuffers; i++)
        if (p->buffers[i].is_output && r->sample_count)
            report_array(out, p->buffers[i].name, r->samples[i], report_shown(&p->buffers[i]), p->buffers[i].count,
                         r->sample_last[i]);
    for (size_t i = 0; i < t->nmismatches; i++) {
        uint64_t b, c;
        char got[32];
        report_float(got, sizeof got, t->mismatches[i].got);
        if (kitchen_owner(r, t->mismatches[i].index, &b, &c))
            fprintf(out, _("               wrong at [%zu]: expected %g, got %s (team %llu, cook %llu)\n"),
                    t->mismatches[i].index, t->mismatches[i].expected, got, (unsigned long long)b, (unsigned long long)c);
        else
            fprintf(out, _("               wrong at [%zu]: expected %g, got %s (no cook of this grid was given it)\n"),
                    t->mismatches[i].index, t->mismatches[i].expected, got);
    }
    chef_format_ms(r->total_ms, t1, sizeof t1);
    fprintf(out, _("\njourney: %s = %.0f%% shipping + %.0f%% cooking\n"), t1, 100.0 * r->shipping_share,
            100.0 * (1.0 - r->shipping_share));
    fprintf(out, "%s\n", t->passed ? _("PASS: the dish tastes right") : _("FAIL: the dish tastes wrong"));
}

/* A JSON array of three unsigned numbers. */
static json_t *report_dim3(chef_dim3 d)
{
    return json_pack("[I,I,I]", (json_int_t)d.x, (json_int_t)d.y, (json_int_t)d.z);
}

/* A JSON number that is null when not finite (JSON has no NaN). */
static json_t *report_real(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

/* A JSON array of floats. */
static json_t *report_floats(const float *v, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(a, report_real(v[i]));
    return a;
}

/* Builds the JSON of `cudachef info`. */
json_t *report_info_json(const backend_info *b)
{
    json_t *o = json_pack("{s:s, s:s, s:s, s:b}", "schema", REPORT_INFO_SCHEMA, "backend",
                          b->kind == BACKEND_GPU ? "gpu" : "emu", "name", b->name, "cuda_built", b->cuda_built);
    if (b->kind == BACKEND_GPU) {
        char cc[16];
        snprintf(cc, sizeof cc, "%d.%d", b->cc_major, b->cc_minor);
        json_t *gpu = json_pack("{s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}",
            "compute_capability", cc, "sm_count", (json_int_t)b->sm_count, "warp_size", (json_int_t)b->warp_size,
            "max_threads_per_block", (json_int_t)b->max_threads_per_block,
            "max_threads_per_sm", (json_int_t)b->max_threads_per_sm,
            "shared_memory_per_block", (json_int_t)b->shared_per_block,
            "shared_memory_per_sm", (json_int_t)b->shared_per_sm,
            "memory_total", (json_int_t)b->memory_total, "memory_free", (json_int_t)b->memory_free,
            "l2_cache", (json_int_t)b->l2_bytes, "clock_khz", (json_int_t)b->clock_khz,
            "driver_version", (json_int_t)b->driver_version, "runtime_version", (json_int_t)b->runtime_version);
        json_object_set_new(gpu, "max_block_dim",
                            json_pack("[i,i,i]", b->max_block_dim[0], b->max_block_dim[1], b->max_block_dim[2]));
        json_object_set_new(gpu, "max_grid_dim",
                            json_pack("[i,i,i]", b->max_grid_dim[0], b->max_grid_dim[1], b->max_grid_dim[2]));
        json_object_set_new(o, "gpu", gpu);
        json_object_set_new(o, "no_gpu_code", json_null());
        json_object_set_new(o, "no_gpu_reason", json_null());
    } else {
        json_object_set_new(o, "emulator", json_pack("{s:i, s:i, s:i, s:I}", "workers", b->workers, "warp_size",
                                                     b->warp_size, "max_threads_per_block", b->max_threads_per_block,
                                                     "memory_available", (json_int_t)b->memory_free));
        json_object_set_new(o, "no_gpu_code", b->no_gpu_code[0] ? json_string(b->no_gpu_code) : json_null());
        json_object_set_new(o, "no_gpu_reason", json_string(b->no_gpu_reason));
    }
    return o;
}

/* Writes `cudachef info` as text. */
void report_info_text(FILE *out, const backend_info *b)
{
    char mem[32], freeb[32], sh[32], shsm[32], l2[32];
    if (b->kind == BACKEND_GPU) {
        chef_format_bytes((double)b->memory_total, mem, sizeof mem);
        chef_format_bytes((double)b->memory_free, freeb, sizeof freeb);
        chef_format_bytes((double)b->shared_per_block, sh, sizeof sh);
        chef_format_bytes((double)b->shared_per_sm, shsm, sizeof shsm);
        chef_format_bytes((double)b->l2_bytes, l2, sizeof l2);
        fprintf(out, _("Meet your kitchen: %s\n\n"), b->name);
        fprintf(out, _("  compute capability          %d.%d\n"), b->cc_major, b->cc_minor);
        fprintf(out, _("  kitchen stations (SMs)      %d\n"), b->sm_count);
        fprintf(out, _("  cooks in a warp             %d (they step together)\n"), b->warp_size);
        fprintf(out, _("  cooks per team, at most     %d (max threads per block)\n"), b->max_threads_per_block);
        fprintf(out, _("  cooks per station, at most  %d\n"), b->max_threads_per_sm);
        fprintf(out, _("  shared locker per team      %s (shared memory per block; %s per station)\n"), sh, shsm);
        fprintf(out, _("  device pantry (VRAM)        %s, %s free\n"), mem, freeb);
        fprintf(out, _("  L2 cache                    %s\n"), l2);
        fprintf(out, _("  driver / runtime            CUDA %d.%d / %d.%d\n"), b->driver_version / 1000,
                (b->driver_version % 1000) / 10, b->runtime_version / 1000, (b->runtime_version % 1000) / 10);
        fprintf(out, _("\nKernels run here on the GPU (--backend auto or gpu).\n"));
    } else {
        chef_format_bytes((double)b->memory_free, freeb, sizeof freeb);
        fprintf(out, _("Meet your kitchen: the CPU emulator\n\n"));
        fprintf(out, _("  No GPU will cook: %s.\n"), b->no_gpu_reason[0] ? b->no_gpu_reason : _("the emulator was asked for"));
        fprintf(out, _("  cudachef's CPU emulator cooks the same kernel source instead, with GPU rules:\n"
                       "  teams (blocks) spread over %d worker threads (the stations), cooks (threads) as\n"),
                b->workers);
        fprintf(out, "%s", _("  fibers that wait at __syncthreads(), shared memory per team, guard pages around\n"
                             "  every device buffer.\n\n"));
        fprintf(out, _("  cooks in a warp             %d\n"), b->warp_size);
        fprintf(out, _("  cooks per team, at most     %d\n"), b->max_threads_per_block);
        fprintf(out, _("  host memory available       %s\n"), freeb);
        fprintf(out, _("  built with CUDA             %s\n"), b->cuda_built ? _("yes") : _("no (make CUDA=0, or no nvcc)"));
        fprintf(out, _("\nTimes measured here are CPU times, not GPU times.\n"));
    }
}

/* Builds the JSON report of a run (caller owns the reference). */
json_t *report_run_json(const kitchen_report *r)
{
    const kitchen_plan *p = &r->plan;
    json_t *o = json_object();
    json_object_set_new(o, "schema", json_string(REPORT_RUN_SCHEMA));
    json_object_set_new(o, "program", json_pack("{s:s, s:s}", "name", "cudachef", "version", CHEF_VERSION));
    json_object_set_new(o, "recipe", json_string(r->recipe ? r->recipe : r->params.recipe));
    json_object_set_new(o, "kernel", r->kernel ? json_string(r->kernel) : json_null());
    /* when no backend could be opened, say which one was asked for */
    const char *kind = r->backend.name[0] ? (r->backend.kind == BACKEND_GPU ? "gpu" : "emu")
                       : r->params.backend == BACKEND_GPU ? "gpu" : "emu";
    json_object_set_new(o, "backend", json_pack("{s:s, s:s, s:o, s:o, s:i}", "kind", kind, "name",
                                                r->backend.name, "no_gpu_code",
                                                r->backend.no_gpu_code[0] ? json_string(r->backend.no_gpu_code)
                                                                          : json_null(),
                                                "no_gpu_reason", r->backend.no_gpu_reason[0]
                                                                     ? json_string(r->backend.no_gpu_reason)
                                                                     : json_null(),
                                                "workers", r->backend.kind == BACKEND_EMU ? r->backend.workers : 0));
    json_object_set_new(o, "params", json_pack("{s:I, s:i, s:I, s:b, s:I, s:b, s:i}", "n", (json_int_t)r->params.n,
                                               "threads_per_block", r->params.threads_per_block, "blocks",
                                               (json_int_t)p->grid.x * p->grid.y * p->grid.z, "pinned",
                                               r->params.pinned, "seed", (json_int_t)p->seed, "counting_example",
                                               p->counting, "repeat", r->repeat));
    json_t *steps = json_object();
    json_object_set_new(o, "steps", steps); /* filled below; placed here to keep the steps' order */
    json_object_set_new(steps, "prepare", json_pack("{s:I, s:f}", "bytes", (json_int_t)r->host_bytes, "ms", r->prepare_ms));
    json_object_set_new(steps, "ship_in", json_pack("{s:I, s:f, s:f, s:s}", "bytes", (json_int_t)r->ship_in.bytes,
                                                    "ms", r->ship_in.ms, "gb_per_s", r->ship_in.gb_per_s, "memory",
                                                    r->params.pinned ? "pinned" : "pageable"));
    json_t *runs = json_array();
    for (int i = 0; r->ran && i < r->repeat; i++)
        json_array_append_new(runs, json_real(r->cook_runs[i]));
    json_t *cook = json_pack("{s:o, s:o, s:I, s:I, s:I, s:I, s:I, s:I, s:f, s:f, s:f, s:o, s:i, s:f}",
                             "grid", report_dim3(p->grid), "block", report_dim3(p->block), "teams",
                             (json_int_t)r->teams, "cooks_per_team", (json_int_t)r->cooks_per_team, "cooks",
                             (json_int_t)r->cooks, "idle_cooks", (json_int_t)r->idle_cooks, "idle_cooks_last_team",
                             (json_int_t)r->idle_cooks_last_team, "uncooked_elements", (json_int_t)r->uncooked,
                             "ms", r->cook_ms, "ms_min", r->cook_ms_min, "ms_max", r->cook_ms_max, "ms_runs", runs,
                             "warmups", 1, "traced_ms", r->traced_ms);
    json_object_set_new(cook, "trace_overhead",
                        r->backend.kind == BACKEND_GPU && r->cook_ms > 0 ? json_real(r->traced_ms / r->cook_ms - 1.0)
                                                                          : json_null());
    json_object_set_new(cook, "trace", json_pack("{s:s, s:I, s:i, s:i, s:I, s:I, s:b}", "source",
                                                 r->backend.kind == BACKEND_GPU ? "gpu-smid-globaltimer" : "emulator-workers",
                                                 "teams", (json_int_t)r->trace_summary.blocks, "stations_used",
                                                 (int)r->trace_summary.stations_used, "max_teams_on_a_station",
                                                 (int)r->trace_summary.max_resident, "teams_out_of_order",
                                                 (json_int_t)r->trace_summary.blocks_out_of_order, "span_ns",
                                                 (json_int_t)r->trace_summary.span_ns, "cooks_recorded",
                                                 r->trace.nthreads > 0));
    report_counters_json(cook, r);
    report_model_json(cook, r);
    const recipe *rc = recipe_find(r->recipe ? r->recipe : r->params.recipe);
    json_object_set_new(cook, "library", rc && rc->library ? json_string(rc->library(&r->backend)) : json_null());
    json_object_set_new(steps, "cook", cook);
    if (r->ran) {
        json_object_set_new(steps, "ship_out", json_pack("{s:I, s:f, s:f}", "bytes", (json_int_t)r->ship_out.bytes,
                                                         "ms", r->ship_out.ms, "gb_per_s", r->ship_out.gb_per_s));
        const verify_result *t = &r->taste;
        json_t *mm = json_array();
        for (size_t i = 0; i < t->nmismatches; i++) {
            uint64_t b, c;
            int owned = kitchen_owner(r, t->mismatches[i].index, &b, &c);
            json_array_append_new(mm, json_pack("{s:I, s:o, s:o, s:o, s:o}", "index", (json_int_t)t->mismatches[i].index,
                                                "block", owned ? json_integer((json_int_t)b) : json_null(),
                                                "thread", owned ? json_integer((json_int_t)c) : json_null(), "expected",
                                                report_real(t->mismatches[i].expected), "got",
                                                report_real(t->mismatches[i].got)));
        }
        json_object_set_new(steps, "taste", json_pack("{s:b, s:I, s:I, s:o, s:o, s:{s:f, s:f}, s:o, s:f}", "passed",
                                                      t->passed, "checked", (json_int_t)t->checked, "correct",
                                                      (json_int_t)t->correct, "max_abs_error",
                                                      report_real(t->max_abs_error), "max_rel_error",
                                                      report_real(t->max_rel_error), "tolerance", "rtol", r->rtol,
                                                      "atol", r->atol, "mismatches", mm, "reference_ms",
                                                      r->reference_ms));
        json_object_set_new(json_object_get(steps, "taste"), "reference",
                            json_string(r->reference_blas ? "blas" : "loop"));
        if (r->exact_known)
            json_object_set_new(json_object_get(steps, "taste"), "exact",
                                json_pack("{s:s, s:o, s:o}", "precision", recipe_find(r->recipe)->precision,
                                          "max_abs_error", report_real(r->exact_abs_error), "max_rel_error",
                                          report_real(r->exact_rel_error)));
        json_object_set_new(o, "journey", json_pack("{s:f, s:f, s:f, s:f}", "total_ms", r->total_ms, "shipping_ms",
                                                    r->shipping_ms, "cooking_ms", r->cook_ms, "shipping_share",
                                                    r->shipping_share));
        json_t *sample = json_object();
        for (int i = 0; i < p->nbuffers; i++)
            json_object_set_new(sample, p->buffers[i].name, report_floats(r->samples[i], r->sample_counts[i]));
        json_object_set_new(o, "sample", sample);
    } else {
        json_object_set_new(steps, "ship_out", json_null());
        json_object_set_new(steps, "taste", json_null());
        json_object_set_new(o, "journey", json_null());
        json_object_set_new(o, "sample", json_null());
    }
    json_object_set_new(o, "status", json_string(r->exit_code == 0   ? "passed"
                                                 : r->exit_code == 1 ? "wrong"
                                                 : r->ran           ? "error"
                                                                    : "stopped"));
    json_object_set_new(o, "exit_code", json_integer(r->exit_code));
    json_object_set_new(o, "error", r->exit_code > 1 ? json_pack("{s:s, s:s, s:s}", "code", chef_error_code(&r->error),
                                                                 "message", r->error.message, "hint", r->error.hint)
                                                     : json_null());
    return o;
}

/* Builds the JSON of a trace: one record per block (and per cook where recorded). */
json_t *report_trace_json(const kitchen_report *r)
{
    json_t *blocks = json_array(), *cooks = json_array();
    for (size_t i = 0; i < r->trace.nblocks; i++) {
        const trace_block *b = &r->trace.blocks[i];
        json_array_append_new(blocks, json_pack("[I,I,I,I]", (json_int_t)b->block, (json_int_t)b->station,
                                                (json_int_t)b->start_ns, (json_int_t)b->end_ns));
    }
    for (size_t i = 0; i < r->trace.nthreads; i++) {
        const trace_thread *t = &r->trace.threads[i];
        json_array_append_new(cooks, json_pack("[I,I,I]", (json_int_t)t->block, (json_int_t)t->thread,
                                               (json_int_t)t->element));
    }
    return json_pack("{s:s, s:s, s:s, s:s, s:o, s:s, s:o}", "schema", "cudachef.trace/1", "kernel", r->kernel,
                     "source", r->trace.from_gpu ? "gpu-smid-globaltimer" : "emulator-workers", "blocks_format",
                     "[block, station, start_ns, end_ns]", "blocks", blocks, "cooks_format", "[block, thread, element]",
                     "cooks", cooks);
}

/* Writes a JSON value followed by a newline; returns 0 or -1. */
int report_json_write(FILE *out, json_t *value)
{
    int rc = json_dumpf(value, out, JSON_INDENT(2) | JSON_REAL_PRECISION(8));
    fputc('\n', out);
    if (fflush(out) != 0)
        rc = -1;
    return rc == 0 && !ferror(out) ? 0 : -1;
}
