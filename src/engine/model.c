/*
 * model.c - the modeled GPU time: counted work over a device's throughputs (docs/PERFORMANCE.md,
 * "The model").
 *
 *   time = launch + max(memory, L2, shared, compute, atomics)
 *   memory  = device-memory bytes / min(DRAM bandwidth, busy stations x a station's share)
 *             (bytes: each distinct sector once while the launch fits in the L2, more beyond)
 *   L2      = global sectors x 32 / L2 bandwidth, over the share of stations that are busy
 *   shared  = shared wavefronts / (stations x wavefronts per clock x clock), the same way
 *   compute = float operations / (stations x lanes x 2 x clock) + divides and roots on their lanes
 *   atomics = the most atomics on one address x the time each waits for the one before
 *
 * L2, shared and compute also slow down when a busy station holds fewer warps than it needs to
 * hide their latency (warps_to_hide_latency): the share it keeps up is warps / that number.
 *
 * A grid with fewer teams than stations leaves stations idle: the per-station throughputs shrink
 * with the share that works. Occupancy (teams per station) follows the device's limits.
 */
#include "engine/model.h"

#include <ini.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/i18n.h"

/* Every figure of a device file: where it goes, whether it is a whole number, and whether a device
   may go without it (0 then: a GPU without TF32 tensor cores, or a file with no measured shipments). */
static const struct {
    const char *section, *key;
    size_t offset;
    int is_int, optional;
} model_keys[] = {
    {"device", "compute_capability", offsetof(model_device, compute_capability), 0, 0},
    {"device", "stations", offsetof(model_device, stations), 1, 0},
    {"device", "clock_ghz", offsetof(model_device, clock_ghz), 0, 0},
    {"limits", "threads_per_station", offsetof(model_device, threads_per_station), 1, 0},
    {"limits", "teams_per_station", offsetof(model_device, teams_per_station), 1, 0},
    {"limits", "registers_per_station", offsetof(model_device, registers_per_station), 1, 0},
    {"limits", "shared_per_station", offsetof(model_device, shared_per_station), 0, 0},
    {"speeds", "launch_us", offsetof(model_device, launch_us), 0, 0},
    {"speeds", "dram_gb_s", offsetof(model_device, dram_gb_s), 0, 0},
    {"speeds", "station_dram_gb_s", offsetof(model_device, station_dram_gb_s), 0, 0},
    {"speeds", "l2_gb_s", offsetof(model_device, l2_gb_s), 0, 0},
    {"speeds", "l2_bytes", offsetof(model_device, l2_bytes), 0, 0},
    {"speeds", "shared_wavefronts_per_clock", offsetof(model_device, shared_wavefronts_per_clock), 0, 0},
    {"speeds", "fp32_lanes", offsetof(model_device, fp32_lanes), 0, 0},
    {"speeds", "special_lanes", offsetof(model_device, special_lanes), 0, 0},
    {"speeds", "fp64_lanes", offsetof(model_device, fp64_lanes), 0, 0},
    {"speeds", "atomic_one_address_ns", offsetof(model_device, atomic_one_address_ns), 0, 0},
    {"speeds", "warps_to_hide_latency", offsetof(model_device, warps_to_hide_latency), 0, 0},
    {"speeds", "tf32_tensor_flops", offsetof(model_device, tf32_tensor_flops), 0, 1},
    {"speeds", "fp16_tensor_flops", offsetof(model_device, fp16_tensor_flops), 0, 1},
    {"speeds", "copy_us", offsetof(model_device, copy_us), 0, 1},
    {"speeds", "pinned_gb_s", offsetof(model_device, pinned_gb_s), 0, 1},
    {"speeds", "pageable_gb_s", offsetof(model_device, pageable_gb_s), 0, 1},
};
#define MODEL_NKEYS (sizeof model_keys / sizeof model_keys[0])

/* A device file being read: the device, and which figures it gave. */
typedef struct model_reading {
    model_device *d;
    uint32_t given;               /* bit i: model_keys[i] was read */
} model_reading;

/* One key of a device file (inih's handler): 1 if known and a positive number, else 0. */
static int model_device_key(void *user, const char *section, const char *key, const char *value)
{
    model_reading *rd = user;
    if (strcmp(section, "device") == 0 && strcmp(key, "name") == 0) {
        snprintf(rd->d->name, sizeof rd->d->name, "%s", value);
        return 1;
    }
    for (size_t i = 0; i < MODEL_NKEYS; i++) {
        if (strcmp(section, model_keys[i].section) != 0 || strcmp(key, model_keys[i].key) != 0)
            continue;
        char *end;
        double v = strtod(value, &end);
        if (end == value || *end != '\0' || !(v > 0) || !isfinite(v) || (model_keys[i].is_int && v < 1))
            return 0;
        if (model_keys[i].is_int)
            *(int *)((char *)rd->d + model_keys[i].offset) = (int)v;
        else
            *(double *)((char *)rd->d + model_keys[i].offset) = v;
        rd->given |= 1u << i;
        return 1;
    }
    return 0;
}

/* Reads a device file. */
int model_device_load(const char *id, model_device *d, chef_error *err)
{
    memset(d, 0, sizeof *d);
    size_t n = strlen(id);
    if (n == 0 || n >= sizeof d->id || strspn(id, "abcdefghijklmnopqrstuvwxyz0123456789-_") != n)
        return chef_fail(err, CHEF_EXIT_USAGE, _("name one of the files in assets/devices/ without .ini"),
                         _("unknown device '%s' for the model"), id);
    snprintf(d->id, sizeof d->id, "%s", id);
    char path[4200];
    snprintf(path, sizeof path, "%s/assets/devices/%s.ini", chef_data_dir(), id);
    model_reading rd = {d, 0};
    int line = ini_parse(path, model_device_key, &rd);
    if (line == -1)
        return chef_fail(err, CHEF_EXIT_USAGE, _("name one of the files in assets/devices/ without .ini"),
                         _("unknown device '%s' for the model (no %s)"), id, path);
    if (line != 0)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("each line is key = a positive number, as in h200.ini"),
                         _("%s:%d: unknown key or not a positive number"), path, line);
    uint32_t required = 0;
    for (size_t i = 0; i < MODEL_NKEYS; i++)
        required |= model_keys[i].optional ? 0 : 1u << i;
    if (!d->name[0] || (rd.given & required) != required || d->threads_per_station < 32)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("each line is key = a positive number, as in h200.ini"),
                         _("%s: a figure is missing"), path);
    return 0;
}

/* The device named, or the default. */
int model_device_open(const char *id, model_device *d, chef_error *err)
{
    return model_device_load(id && id[0] ? id : MODEL_DEFAULT_DEVICE, d, err);
}

/* JSON's word for a bound. */
const char *model_bound_name(model_bound b)
{
    switch (b) {
    case MODEL_BOUND_MEMORY:
        return N_("memory");
    case MODEL_BOUND_L2:
        return N_("L2");
    case MODEL_BOUND_SHARED:
        return N_("shared memory");
    case MODEL_BOUND_COMPUTE:
        return N_("compute");
    case MODEL_BOUND_ATOMICS:
        return N_("atomics");
    default:
        return N_("latency");
    }
}

/* Teams of one launch a station holds at once, and what stops it holding more. */
int model_occupancy(const model_device *d, const model_launch *l, const char **limited_by)
{
    uint64_t cooks = l->cooks_per_team ? l->cooks_per_team : 1, warps = (cooks + 31) / 32;
    if (warps * 32 > (uint64_t)d->threads_per_station)
        warps = (uint64_t)d->threads_per_station / 32; /* a team the device could not run at all */
    int teams = d->teams_per_station;
    *limited_by = N_("teams");
    int by_threads = (int)((uint64_t)d->threads_per_station / (warps * 32));
    if (by_threads < teams) {
        teams = by_threads;
        *limited_by = N_("threads");
    }
    if (l->shared_bytes_per_team > 0) {
        int by_shared = (int)(d->shared_per_station / (double)l->shared_bytes_per_team);
        if (by_shared < teams) {
            teams = by_shared;
            *limited_by = N_("shared memory");
        }
    }
    if (l->registers_per_cook > 0) {
        /* registers go out per warp in steps of 256 */
        uint64_t per_warp = ((uint64_t)l->registers_per_cook * 32 + 255) / 256 * 256;
        int by_regs = (int)((uint64_t)d->registers_per_station / (per_warp * warps));
        if (by_regs < teams) {
            teams = by_regs;
            *limited_by = N_("registers");
        }
    }
    return teams < 1 ? 1 : teams;
}

/* The modeled time of a counted launch. */
int model_predict(const model_device *d, const counters *c, const model_launch *l, model_result *out)
{
    memset(out, 0, sizeof *out);
    if (!c->valid)
        return -1;
    double clock = d->clock_ghz * 1e9;
    out->teams_per_station = model_occupancy(d, l, &out->limited_by);
    out->registers_per_cook = l->registers_per_cook;
    double teams = (double)(l->teams ? l->teams : 1);
    double busy = teams < d->stations ? teams / d->stations : 1.0;
    out->stations_busy = busy;
    /* warps a busy station holds: its occupancy, or the teams it gets when there are fewer; with
       too few of them its units wait on each warp's latency instead of running another's work */
    double per_station = teams / d->stations < out->teams_per_station ? teams / d->stations : out->teams_per_station;
    per_station = per_station < 1 ? 1 : per_station;
    uint64_t warps = (l->cooks_per_team + 31) / 32;
    out->warps_per_station = per_station * (double)(warps ? warps : 1);
    out->hiding = out->warps_per_station < d->warps_to_hide_latency ? out->warps_per_station / d->warps_to_hide_latency
                                                                     : 1.0;
    double hide = out->hiding;

    double sectors = counters_scaled(c, COUNTER_GLOBAL_LD_SECTORS) + counters_scaled(c, COUNTER_GLOBAL_ST_SECTORS) +
                     counters_scaled(c, COUNTER_GLOBAL_ATOMICS);
    double touched = 32.0 * counters_scaled(c, COUNTER_GLOBAL_SECTORS_DISTINCT);
    double moved = 32.0 * sectors;
    /* each sector once while the launch fits in the L2; beyond, a share of the re-reads too */
    double bytes = touched > 0 ? touched : moved; /* no record of the distinct ones: all of it */
    if (touched > d->l2_bytes && moved > touched)
        bytes += (moved - touched) * (1.0 - d->l2_bytes / touched);
    out->memory_bytes = bytes;
    double dram = d->dram_gb_s * 1e9, reach = busy * d->stations * d->station_dram_gb_s * 1e9;
    out->memory_ms = bytes / (reach < dram ? reach : dram) * 1e3;
    out->l2_ms = moved / (d->l2_gb_s * 1e9 * busy * hide) * 1e3;
    double wavefronts = counters_scaled(c, COUNTER_SHARED_LD_WAVEFRONTS) + counters_scaled(c, COUNTER_SHARED_ST_WAVEFRONTS) +
                        counters_scaled(c, COUNTER_SHARED_ATOMICS);
    out->shared_ms = wavefronts / (d->stations * busy * hide * d->shared_wavefronts_per_clock * clock) * 1e3;
    out->flops = counters_scaled(c, COUNTER_FP32_OPS);
    double lanes = d->stations * busy * hide * clock;
    /* A kernel on the tensor cores: its multiply-adds (counted as the emulator did them, one by
       one) go at the tensor cores' pace where the device has them. */
    double flops_per_clock = d->fp32_lanes * 2;
    if (l->tensor_tf32 && d->tf32_tensor_flops > 0)
        flops_per_clock = d->tf32_tensor_flops;
    else if (l->tensor_half && d->fp16_tensor_flops > 0)
        flops_per_clock = d->fp16_tensor_flops;
    out->compute_ms = (out->flops / (lanes * flops_per_clock) +
                       counters_scaled(c, COUNTER_FP32_SPECIAL) / (lanes * d->special_lanes) +
                       counters_scaled(c, COUNTER_FP64_OPS) / (lanes * d->fp64_lanes * 2)) * 1e3;
    out->launch_ms = d->launch_us * 1e-3;
    out->atomics_ms = counters_scaled(c, COUNTER_ATOMICS_ONE_ADDRESS) * d->atomic_one_address_ns * 1e-6;

    double most = out->memory_ms;
    out->bound = MODEL_BOUND_MEMORY;
    if (out->l2_ms > most)
        most = out->l2_ms, out->bound = MODEL_BOUND_L2;
    if (out->shared_ms > most)
        most = out->shared_ms, out->bound = MODEL_BOUND_SHARED;
    if (out->compute_ms > most)
        most = out->compute_ms, out->bound = MODEL_BOUND_COMPUTE;
    if (out->atomics_ms > most)
        most = out->atomics_ms, out->bound = MODEL_BOUND_ATOMICS;
    if (out->launch_ms > most)
        out->bound = MODEL_BOUND_LATENCY;
    out->ms = out->launch_ms + most;

    out->peak_gflops = d->stations * clock * flops_per_clock / 1e9;
    out->intensity = bytes > 0 ? out->flops / bytes : 0;
    double roof = out->intensity * d->dram_gb_s;
    out->attainable_gflops = roof < out->peak_gflops ? roof : out->peak_gflops;
    return 0;
}
