/*
 * program_report.c - the five steps of a learner's whole program, from the journey its run kept
 * (program_runner.c writes it, src/engine/host_runtime.c records it): what it prepared (device,
 * pinned and managed buffers), shipped in and out (bytes, pageable or pinned, time), cooked (each
 * kernel's launches, its checked launch's counters with Nsight Compute's names and the time an
 * H200 is modeled to take, labelled a model), and how it tasted (its own check, in its own words).
 * As text for people and as JSON (docs/program-report.schema.json).
 */
#include "grading/program.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/counters.h"
#include "base/i18n.h"
#include "engine/model.h"

/* Bytes as people read them. */
static void report_bytes(char *out, size_t size, double bytes)
{
    if (bytes >= 1 << 20)
        snprintf(out, size, "%.1f MiB", bytes / (1 << 20));
    else if (bytes >= 1 << 10)
        snprintf(out, size, "%.1f KiB", bytes / (1 << 10));
    else
        snprintf(out, size, "%.0f B", bytes);
}

int program_launch_counters(json_t *launch, counters *c)
{
    json_t *o = json_object_get(launch, "counters");
    memset(c, 0, sizeof *c);
    if (!json_is_object(o))
        return 0;
    c->valid = 1;
    c->teams = (uint64_t)json_integer_value(json_object_get(o, "teams"));
    c->teams_counted = (uint64_t)json_integer_value(json_object_get(o, "teams_counted"));
    c->teams_checked = (uint64_t)json_integer_value(json_object_get(o, "teams_checked"));
    c->shared_bytes_per_team = (uint64_t)json_integer_value(json_object_get(o, "shared_bytes_per_team"));
    c->sectors_in_buffers = (uint64_t)json_integer_value(json_object_get(o, "sectors_in_buffers"));
    json_t *values = json_object_get(o, "values");
    for (int k = 0; k < COUNTER_COUNT; k++)
        c->value[k] = (uint64_t)json_integer_value(json_object_get(values, counter_table[k].metric));
    return 1;
}

/* The grid or team of a launch as "X" or "(X, Y, Z)". */
static void report_shape(char *out, size_t size, json_t *dims)
{
    json_int_t x = json_integer_value(json_array_get(dims, 0)), y = json_integer_value(json_array_get(dims, 1)),
               z = json_integer_value(json_array_get(dims, 2));
    if (y == 1 && z == 1)
        snprintf(out, size, "%lld", (long long)x);
    else
        snprintf(out, size, "(%lld, %lld, %lld)", (long long)x, (long long)y, (long long)z);
}

json_t *program_report_json(const program_result *res, const char *name)
{
    json_t *root = json_object();
    json_object_set_new(root, "schema", json_string("cudachef.program/1"));
    json_object_set_new(root, "program", json_string(name));
    json_object_set_new(root, "backend", json_string(res->gpu ? "gpu" : "emu"));
    json_object_set_new(root, "exit_status", json_integer(res->exit_status));
    json_object_set_new(root, "kernel_faulted", json_boolean(res->kernel_faulted));
    json_object_set_new(root, "leaked", json_integer(res->leaked));
    json_object_set_new(root, "launch_sites", json_integer(res->launches));
    json_object_set_new(root, "outdir", json_string(res->outdir));
    json_object_set_new(root, "build", json_pack("{sb sf}", "cached", res->cached, "ms", res->build_ms));
    if (res->journey) {
        json_t *copy = json_deep_copy(res->journey);
        /* each checked launch with the model's time beside its counts, labelled so */
        model_device dev;
        chef_error err = {0};
        int have_model = model_device_load(MODEL_DEFAULT_DEVICE, &dev, &err) == 0;
        size_t i;
        json_t *e;
        json_array_foreach(json_object_get(copy, "journey"), i, e)
        {
            counters c;
            if (!have_model || !program_launch_counters(e, &c))
                continue;
            json_t *block = json_object_get(e, "block");
            model_launch l = {.teams = c.teams,
                              .cooks_per_team = (uint64_t)(json_integer_value(json_array_get(block, 0)) *
                                                           json_integer_value(json_array_get(block, 1)) *
                                                           json_integer_value(json_array_get(block, 2))),
                              .shared_bytes_per_team = c.shared_bytes_per_team};
            model_result m;
            if (model_predict(&dev, &c, &l, &m) == 0)
                json_object_set_new(e, "model", json_pack("{ss ss sf ss}", "device", dev.name, "kind", "modeled", "ms",
                                                          m.ms, "bound", model_bound_name(m.bound)));
        }
        json_object_set_new(root, "journey", json_incref(json_object_get(copy, "journey")));
        json_object_set_new(root, "not_kept", json_incref(json_object_get(copy, "not_kept")));
        json_decref(copy);
    }
    return root;
}

/* One kernel's launches, gathered for the text. */
typedef struct report_kernel {
    const char *name;
    json_t *first;      /* its first launch (the checked one) */
    int launches;
    double ms;          /* all its launches' time */
} report_kernel;

#define REPORT_KERNELS 32

void program_report_text(const program_result *res, const char *name, FILE *out)
{
    json_t *rep = program_report_json(res, name);
    json_t *journey = json_object_get(rep, "journey");
    double alloc_bytes[3] = {0}, in_bytes = 0, out_bytes = 0, in_ms = 0, out_ms = 0, within = 0;
    int allocs[3] = {0}, ins = 0, outs = 0, in_pageable = 0, out_pageable = 0, syncs = 0, nk = 0, others = 0;
    report_kernel kernels[REPORT_KERNELS];
    size_t i;
    json_t *e;
    json_array_foreach(journey, i, e)
    {
        const char *kind = json_string_value(json_object_get(e, "kind"));
        if (!kind)
            continue;
        if (!strcmp(kind, "alloc")) {
            const char *m = json_string_value(json_object_get(e, "memory"));
            int k = m && !strcmp(m, "pinned") ? 1 : m && !strcmp(m, "managed") ? 2 : 0;
            allocs[k]++;
            alloc_bytes[k] += (double)json_integer_value(json_object_get(e, "bytes"));
        } else if (!strcmp(kind, "copy")) {
            const char *way = json_string_value(json_object_get(e, "way"));
            double b = (double)json_integer_value(json_object_get(e, "bytes")), ms = json_real_value(json_object_get(e, "ms"));
            int pageable = !json_is_true(json_object_get(e, "pinned"));
            if (way && !strcmp(way, "in")) {
                ins++, in_bytes += b, in_ms += ms, in_pageable += pageable;
            } else if (way && !strcmp(way, "out")) {
                outs++, out_bytes += b, out_ms += ms, out_pageable += pageable;
            } else {
                within += b;
            }
        } else if (!strcmp(kind, "sync")) {
            syncs++;
        } else if (!strcmp(kind, "launch")) {
            const char *k = json_string_value(json_object_get(e, "kernel"));
            int at = 0;
            while (at < nk && strcmp(kernels[at].name, k ? k : "?") != 0)
                at++;
            if (at == nk && nk == REPORT_KERNELS) {
                others++;
                continue;
            }
            if (at == nk)
                kernels[nk++] = (report_kernel){.name = k ? k : "?", .first = e};
            kernels[at].launches++;
            kernels[at].ms += json_real_value(json_object_get(e, "ms"));
        }
    }
    char b1[32], b2[32], b3[32];
    fprintf(out, _("cudachef: the five steps of %s, on %s (times are this machine's; \"modeled\" is a model of a GPU)\n"),
            name, res->gpu ? _("the GPU") : _("the CPU emulator"));
    report_bytes(b1, sizeof b1, alloc_bytes[0]);
    report_bytes(b2, sizeof b2, alloc_bytes[1]);
    report_bytes(b3, sizeof b3, alloc_bytes[2]);
    fprintf(out, _("  1 prepare   %d device buffer(s) (%s), %d pinned (%s), %d managed (%s)\n"), allocs[0], b1, allocs[1],
            b2, allocs[2], b3);
    report_bytes(b1, sizeof b1, in_bytes);
    fprintf(out, _("  2 ship in   %d copy(ies) into the kitchen, %s, %d from pageable memory, %.3f ms%s\n"), ins, b1,
            in_pageable, in_ms, allocs[2] ? _(" (managed memory moves at the launches)") : "");
    fprintf(out, _("  3 cook      %d kernel(s):\n"), nk);
    for (int k = 0; k < nk; k++) {
        json_t *f = kernels[k].first;
        char g[64], t[64];
        report_shape(g, sizeof g, json_object_get(f, "grid"));
        report_shape(t, sizeof t, json_object_get(f, "block"));
        fprintf(out, _("              %s<<<%s, %s>>>: %d launch(es), %.3f ms in all"), kernels[k].name, g, t,
                kernels[k].launches, kernels[k].ms);
        json_t *model = json_object_get(f, "model");
        if (model)
            fprintf(out, _("; modeled on %s: %.4f ms (%s)"), json_string_value(json_object_get(model, "device")),
                    json_real_value(json_object_get(model, "ms")), json_string_value(json_object_get(model, "bound")));
        fputc('\n', out);
        counters c;
        if (program_launch_counters(f, &c))
            fprintf(out,
                    _("                the checked launch: %.0f global load sectors in %.0f requests, %.0f store sectors, "
                      "%.0f shared-memory bank conflicts, %.0f barriers\n"),
                    counters_scaled(&c, COUNTER_GLOBAL_LD_SECTORS), counters_scaled(&c, COUNTER_GLOBAL_LD_REQUESTS),
                    counters_scaled(&c, COUNTER_GLOBAL_ST_SECTORS),
                    counters_scaled(&c, COUNTER_SHARED_LD_CONFLICTS) + counters_scaled(&c, COUNTER_SHARED_ST_CONFLICTS),
                    counters_scaled(&c, COUNTER_BARRIERS));
    }
    if (others)
        fprintf(out, _("              and %d launch(es) of other kernels\n"), others);
    if (within > 0) {
        report_bytes(b1, sizeof b1, within);
        fprintf(out, _("              %s copied within the kitchen\n"), b1);
    }
    report_bytes(b1, sizeof b1, out_bytes);
    fprintf(out, _("  4 ship out  %d copy(ies) back to the head chef, %s, %d into pageable memory, %.3f ms\n"), outs, b1,
            out_pageable, out_ms);
    fprintf(out, _("  5 taste     the program's own check (its words above); it exited %d after %d wait(s) for the kitchen\n"),
            res->exit_status, syncs);
    json_t *skipped = json_object_get(rep, "not_kept");
    if (json_object_size(skipped) > 0)
        fprintf(out, "%s", _("  (the journey keeps its first 2000 events; the rest were counted only)\n"));
    json_decref(rep);
}
