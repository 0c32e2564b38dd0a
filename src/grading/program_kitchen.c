/*
 * program_kitchen.c - a whole program's watched launch as a kitchen report, for the kitchen's
 * views of it (ui/screen_program.c opens the floor, the zoom, the memory view and the step-through
 * on it, as on a recipe's run).
 *
 * The runner (program_runner.c, `--watch`) sends back the trace of one launch as JSON: where each
 * team cooked, each cook's record, team 0's memory instructions. That text comes from the
 * learner's process, so nothing of it is trusted: every count is bounded, every index checked
 * against the launch's shape from the journey, and a record that does not fit is a refusal, not
 * a guess. The figures that are not the trace's (the counts, the modeled time) come from the
 * journey's event as the report's do.
 */
#include "grading/program.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/i18n.h"
#include "engine/host_runtime.h"
#include "engine/kitchen.h"
#include "engine/model.h"

#define KITCHEN_PROGRAM_BLOCKS (1u << 16)  /* as the runner sends at most */
#define KITCHEN_PROGRAM_COOKS (1u << 16)
#define KITCHEN_PROGRAM_ACCESSES 4096
#define KITCHEN_PROGRAM_STATIONS 4096
#define KITCHEN_PROGRAM_TEAMS (1u << 22) /* teams the views index one by one (the floor plan: 16 MiB) */

/* An integer of a JSON array or object in [low, high]; 0, or -1 when it is missing or outside. */
static int kitchen_int(json_t *v, long long low, long long high, long long *out)
{
    if (!json_is_integer(v))
        return -1;
    long long x = (long long)json_integer_value(v);
    if (x < low || x > high)
        return -1;
    *out = x;
    return 0;
}

/* A launch's grid or team shape from the journey ([x, y, z], each from 1). */
static int kitchen_shape(json_t *dims, chef_dim3 *out)
{
    long long v[3];
    for (int i = 0; i < 3; i++)
        if (kitchen_int(json_array_get(dims, (size_t)i), 1, 2147483647, &v[i]) != 0)
            return -1;
    out->x = (unsigned)v[0];
    out->y = (unsigned)v[1];
    out->z = (unsigned)v[2];
    return 0;
}

/* The blocks: [block, station, start, end] in a row, each block of the launch. */
static int kitchen_blocks(json_t *a, kitchen_report *r)
{
    size_t n = json_array_size(a);
    if (n % 4 != 0 || n / 4 > KITCHEN_PROGRAM_BLOCKS || n / 4 > r->teams)
        return -1;
    if (n == 0)
        return 0;
    if (trace_reserve_blocks(&r->trace, n / 4) != 0)
        return -1;
    unsigned stations = 0;
    for (size_t i = 0; i < n / 4; i++) {
        long long v[4];
        for (int k = 0; k < 4; k++)
            if (kitchen_int(json_array_get(a, i * 4 + (size_t)k), 0, k < 2 ? (long long)r->teams - 1 : INT64_MAX, &v[k]) != 0)
                return -1;
        if (v[1] >= KITCHEN_PROGRAM_STATIONS || v[3] < v[2])
            return -1;
        r->trace.blocks[i] = (trace_block){(uint32_t)v[0], (uint32_t)v[1], (uint64_t)v[2], (uint64_t)v[3]};
        if ((unsigned)v[1] + 1 > stations)
            stations = (unsigned)v[1] + 1;
    }
    r->trace.nblocks = n / 4;
    if ((int)stations > r->backend.workers)
        r->backend.workers = (int)stations;
    return 0;
}

/* The cooks' records, each as trace_thread's fields in their order. */
static int kitchen_threads(json_t *a, kitchen_report *r)
{
    size_t n = json_array_size(a);
    if (n > KITCHEN_PROGRAM_COOKS || n > r->cooks)
        return -1;
    if (n == 0)
        return 0;
    r->trace.threads = calloc(n, sizeof *r->trace.threads);
    if (!r->trace.threads)
        return -1;
    r->trace.threads_capacity = n;
    for (size_t i = 0; i < n; i++) {
        json_t *rec = json_array_get(a, i);
        long long v[14];
        static const long long high[14] = {0, 0, 1 << 20, INT64_MAX, INT64_MAX, UINT32_MAX, UINT32_MAX, UINT32_MAX,
                                           1 << 20, INT64_MAX, INT64_MAX, UINT32_MAX, 1, 1};
        if (json_array_size(rec) != 14)
            return -1;
        for (int k = 0; k < 14; k++) {
            long long hi = k == 0 ? (long long)r->teams - 1 : k == 1 ? (long long)r->cooks_per_team - 1 : high[k];
            long long lo = k == 2 || k == 3 || k == 4 || k == 8 || k == 9 || k == 10 ? -1 : 0;
            if (kitchen_int(json_array_get(rec, (size_t)k), lo, hi, &v[k]) != 0)
                return -1;
        }
        r->trace.threads[i] = (trace_thread){.block = (uint32_t)v[0], .thread = (uint32_t)v[1], .buffer = (int32_t)v[2],
                                             .element = v[3], .last_element = v[4], .writes = (uint32_t)v[5],
                                             .reads = (uint32_t)v[6], .shared_writes = (uint32_t)v[7],
                                             .read_buffer = (int32_t)v[8], .first_read = v[9], .last_read = v[10],
                                             .barriers = (uint32_t)v[11], .outside = (uint8_t)v[12], .stuck = (uint8_t)v[13]};
    }
    r->trace.nthreads = n;
    return 0;
}

/* Team 0's memory instructions. */
static int kitchen_accesses(json_t *a, kitchen_report *r)
{
    size_t n = json_array_size(a);
    if (n > KITCHEN_PROGRAM_ACCESSES)
        return -1;
    if (n == 0)
        return 0;
    r->trace.accesses = calloc(n, sizeof *r->trace.accesses);
    if (!r->trace.accesses)
        return -1;
    r->trace.accesses_capacity = n;
    long long warps = (long long)(r->cooks_per_team + TRACE_WARP - 1) / TRACE_WARP;
    for (size_t i = 0; i < n; i++) {
        json_t *o = json_array_get(a, i), *address = json_object_get(o, "address");
        trace_access *x = &r->trace.accesses[i];
        long long warp, phase, space, op, size, elem, lanes, base, units, ideal, lines;
        const char *label = json_string_value(json_object_get(o, "label"));
        if (kitchen_int(json_object_get(o, "warp"), 0, warps - 1, &warp) || kitchen_int(json_object_get(o, "phase"), 0, 65535, &phase) ||
            kitchen_int(json_object_get(o, "space"), 0, 1, &space) || kitchen_int(json_object_get(o, "op"), 0, 2, &op) ||
            kitchen_int(json_object_get(o, "size"), 1, 16, &size) || kitchen_int(json_object_get(o, "elem_size"), 0, 16, &elem) ||
            kitchen_int(json_object_get(o, "lanes"), 0, UINT32_MAX, &lanes) || kitchen_int(json_object_get(o, "base"), 0, INT64_MAX, &base) ||
            kitchen_int(json_object_get(o, "units"), 0, 32 * 16, &units) || kitchen_int(json_object_get(o, "ideal"), 0, 32 * 16, &ideal) ||
            kitchen_int(json_object_get(o, "lines"), 0, 32 * 2, &lines) || !label || strlen(label) >= sizeof x->label ||
            json_array_size(address) != TRACE_WARP)
            return -1;
        for (int l = 0; l < TRACE_WARP; l++) {
            long long v;
            if (kitchen_int(json_array_get(address, (size_t)l), 0, INT64_MAX, &v) != 0)
                return -1;
            x->address[l] = (uint64_t)v;
        }
        x->warp = (uint16_t)warp;
        x->phase = (uint16_t)phase;
        x->space = (uint8_t)space;
        x->op = (uint8_t)op;
        x->size = (uint8_t)size;
        x->elem_size = (uint32_t)elem;
        x->lanes = (uint32_t)lanes;
        x->base = (uint64_t)base;
        x->units = (uint32_t)units;
        x->ideal = (uint32_t)ideal;
        x->lines = (uint32_t)lines;
        snprintf(x->label, sizeof x->label, "%s", label);
    }
    r->trace.naccesses = n;
    return 0;
}

int program_event_is(json_t *event, const char *kind)
{
    const char *k = json_string_value(json_object_get(event, "kind"));
    return k && strcmp(k, kind) == 0;
}

int program_launch_report(const program_result *res, kitchen_report *r, char *why, size_t size)
{
    memset(r, 0, sizeof *r);
    json_t *t = json_object_get(res->trace, "trace");
    long long event, stopped_team, left_out;
    if (!json_is_object(t) || kitchen_int(json_object_get(t, "event"), 0, HOST_JOURNAL_MAX - 1, &event) != 0) {
        snprintf(why, size, "%s", _("no launch of this run was watched (it made none, or none ran to its start)"));
        return -1;
    }
    json_t *e = json_array_get(json_object_get(res->journey, "journey"), (size_t)event);
    const char *kernel = json_string_value(json_object_get(e, "kernel"));
    if (!kernel || !program_event_is(e, "launch") ||
        kitchen_shape(json_object_get(e, "grid"), &r->plan.grid) != 0 ||
        kitchen_shape(json_object_get(e, "block"), &r->plan.block) != 0)
        goto bad;
    r->kernel = kernel;
    r->teams = (uint64_t)r->plan.grid.x * r->plan.grid.y * r->plan.grid.z;
    r->cooks_per_team = (uint64_t)r->plan.block.x * r->plan.block.y * r->plan.block.z;
    if (r->cooks_per_team > 1024)
        goto bad;
    if (r->teams > KITCHEN_PROGRAM_TEAMS) { /* the floor plan and the zoom go team by team */
        snprintf(why, size, _("the watched launch has %llu teams, more than the kitchen's views show (%u): "
                              "--check-launch a smaller one"),
                 (unsigned long long)r->teams, KITCHEN_PROGRAM_TEAMS);
        memset(r, 0, sizeof *r);
        return -1;
    }
    r->cooks = r->teams * r->cooks_per_team;
    r->backend.kind = BACKEND_EMU;
    snprintf(r->backend.name, sizeof r->backend.name, "%s", _("CPU emulator"));
    r->backend.workers = (int)sysconf(_SC_NPROCESSORS_ONLN) > 0 ? (int)sysconf(_SC_NPROCESSORS_ONLN) : 1;
    r->backend.warp_size = 32;
    r->backend.max_threads_per_block = 1024;
    r->repeat = 1;
    double ms = json_real_value(json_object_get(e, "ms"));
    r->cook_ms = r->traced_ms = ms >= 0 && ms < 1e9 ? ms : 0; /* a time the run could have taken */
    r->trace_checked = json_is_true(json_object_get(e, "checked"));
    if (program_launch_counters(e, &r->counters)) {
        chef_error err = {0};
        model_launch l = {.teams = r->teams, .cooks_per_team = r->cooks_per_team,
                          .shared_bytes_per_team = r->counters.shared_bytes_per_team};
        if (model_device_load(MODEL_DEFAULT_DEVICE, &r->model_device, &err) == 0 &&
            model_predict(&r->model_device, &r->counters, &l, &r->model) == 0)
            r->modeled = 1;
    }
    if (!json_is_boolean(json_object_get(t, "stopped")))
        goto bad;
    r->trace.stopped = json_is_true(json_object_get(t, "stopped"));
    if (kitchen_int(json_object_get(t, "stopped_team"), 0, (long long)r->teams - 1, &stopped_team) != 0 ||
        kitchen_int(json_object_get(t, "accesses_left_out"), 0, INT64_MAX, &left_out) != 0 ||
        kitchen_blocks(json_object_get(t, "blocks"), r) != 0 || kitchen_threads(json_object_get(t, "threads"), r) != 0 ||
        kitchen_accesses(json_object_get(t, "accesses"), r) != 0)
        goto bad;
    r->trace.stopped_team = (uint32_t)stopped_team;
    r->one_launch = 1;
    r->idle_known = r->trace.nthreads == r->cooks;
    for (size_t i = 0; r->idle_known && i < r->trace.nthreads; i++) { /* a cook that read and wrote nothing */
        const trace_thread *c = &r->trace.threads[i];
        if (c->writes || c->reads || c->shared_writes || c->barriers)
            continue;
        r->idle_cooks++;
        r->idle_cooks_last_team += c->block == r->teams - 1;
    }
    r->trace.accesses_left_out = (size_t)left_out;
    r->trace_summary = trace_summarize(&r->trace);
    r->started = 1;
    r->ran = !json_is_true(json_object_get(e, "faulted"));
    r->exit_code = r->ran ? 0 : CHEF_EXIT_CRASH;
    return 0;
bad:
    kitchen_report_free(r);
    memset(r, 0, sizeof *r);
    snprintf(why, size, "%s", _("the watched launch's record did not come back whole"));
    return -1;
}
