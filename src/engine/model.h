/*
 * model.h - a modeled GPU time from a launch's counted work and a device's physics.
 *
 * The emulator counts what a launch does per warp (base/counters.h); a device file in
 * assets/devices/ gives one GPU's figures (stations, clock, bandwidths, lanes, limits). The model
 * turns the first into a time on the second: the launch's fixed cost plus the slowest of its
 * memory, L2, shared-memory and arithmetic times, each of them counted work over a throughput.
 * It reads nothing else: no recipe or kernel name reaches it (model_predict's arguments are the
 * whole of its input), so one table of figures serves every kernel. Always shown as "modeled".
 */
#ifndef CUDACHEF_MODEL_H
#define CUDACHEF_MODEL_H

#include <stdint.h>

#include "base/chef.h"
#include "base/counters.h"

#define MODEL_DEFAULT_DEVICE "h200"

typedef struct model_device {
    char id[32];                  /* the file's name: h200 */
    char name[64];                /* NVIDIA H200 */
    double compute_capability;
    int stations;
    double clock_ghz;
    int threads_per_station, teams_per_station, registers_per_station;
    double shared_per_station;    /* bytes */
    double launch_us, dram_gb_s, station_dram_gb_s, l2_gb_s, l2_bytes;
    double shared_wavefronts_per_clock, fp32_lanes, special_lanes, fp64_lanes;
    double atomic_one_address_ns;  /* atomics on one address queue: one each so often */
    double warps_to_hide_latency;  /* resident warps a station needs to keep its units busy */
    double tf32_tensor_flops;      /* per station per clock on the TF32 tensor cores; 0: none */
    double fp16_tensor_flops;      /* per station per clock on the FP16 and BF16 tensor cores; 0: none */
    /* shipments over the road, for the modeled timeline of lesson 19's streams (0: not known): a
       copy takes copy_us plus its bytes at pinned_gb_s from pinned memory, pageable_gb_s else */
    double copy_us, pinned_gb_s, pageable_gb_s;
} model_device;

/* The shape of the launch: what a GPU's scheduler sees. */
typedef struct model_launch {
    uint64_t teams, cooks_per_team;
    uint64_t shared_bytes_per_team; /* 0: none */
    int registers_per_cook;         /* 0: not known */
    int tensor_tf32;                /* 1: the multiply-adds run on the TF32 tensor cores */
    int tensor_half;                /* 1: ... on the FP16 and BF16 tensor cores */
} model_launch;

typedef enum model_bound {
    MODEL_BOUND_LATENCY,          /* the launch's fixed cost is the most of it */
    MODEL_BOUND_MEMORY,           /* device memory (DRAM) */
    MODEL_BOUND_L2,               /* sectors between the stations and the L2 */
    MODEL_BOUND_SHARED,           /* shared-memory wavefronts */
    MODEL_BOUND_COMPUTE,          /* arithmetic lanes */
    MODEL_BOUND_ATOMICS           /* atomics queueing on one address */
} model_bound;

typedef struct model_result {
    double ms;                    /* the modeled kernel time */
    model_bound bound;
    double launch_ms, memory_ms, l2_ms, shared_ms, compute_ms, atomics_ms;
    double warps_per_station;     /* resident on a busy station */
    double hiding;                /* share of the stations' speed those warps keep up (at most 1) */
    double memory_bytes;          /* modeled device-memory traffic */
    double flops;                 /* counted float operations */
    double intensity;             /* flops per byte of device memory */
    double peak_gflops, attainable_gflops; /* the roofline at this intensity */
    int teams_per_station;        /* occupancy */
    int registers_per_cook;       /* what it counted with (from nvcc), 0: not known, left out */
    const char *limited_by;       /* what limits it: "threads", "teams", "shared memory", "registers" */
    double stations_busy;         /* share of the stations that get a team */
} model_result;

/* Reads assets/devices/ID.ini (id: letters, digits, - and _). 0, or -1 with err (exit code 2 for
   an unknown device, 5 for an unreadable or broken file). */
int model_device_load(const char *id, model_device *d, chef_error *err);

/* The device to model: the one named (NULL: the default). */
int model_device_open(const char *id, model_device *d, chef_error *err);

/* The modeled time of a counted launch on device d. 0, or -1 when c was not counted. */
int model_predict(const model_device *d, const counters *c, const model_launch *l, model_result *out);

/* Teams of a launch of shape l that one station of d holds at once (at least 1; l->teams is not
   read), and in *limited_by what stops it holding more: "threads", "teams", "shared memory" or
   "registers" (untranslated: _() it to show it). The model's occupancy, and lesson 18's card. */
int model_occupancy(const model_device *d, const model_launch *l, const char **limited_by);

/* "memory", "L2", "shared memory", "compute", "atomics", "latency": what bounds it (JSON's words). */
const char *model_bound_name(model_bound b);

#endif
