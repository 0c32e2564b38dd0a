/*
 * backend.c - choosing who cooks, and the fault hook in front of every backend.
 *
 * With CUDACHEF_FAULT or CUDACHEF_FAULT_LOG set (a test hook, fault.h), backend_open hands back
 * the backend wrapped: each operation first asks fault_hit whether this call must fail and, if so,
 * fails in the words and with the exit code of the real failure (cudaMalloc out of memory, a
 * cudaMemcpy or a launch that fails, a kernel that fails while running, a GPU that has become
 * unusable); otherwise it passes the call on. What the process holds is counted on the way, so a
 * test can see that a failure released everything. Without the variables nothing is wrapped.
 */
#include "engine/backend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fault.h"
#include "base/i18n.h"

/* Parses "auto", "gpu" or "emu"; returns -1 for anything else. */
int backend_kind_parse(const char *text, backend_kind *out)
{
    if (strcmp(text, "auto") == 0)
        *out = BACKEND_AUTO;
    else if (strcmp(text, "gpu") == 0)
        *out = BACKEND_GPU;
    else if (strcmp(text, "emu") == 0 || strcmp(text, "emulator") == 0)
        *out = BACKEND_EMU;
    else
        return -1;
    return 0;
}

/* "gpu", "emu" or "auto". */
const char *backend_kind_name(backend_kind kind)
{
    return kind == BACKEND_GPU ? "gpu" : kind == BACKEND_EMU ? "emu" : "auto";
}

/* A backend behind the fault hook: callers see outer; the operations go on to inner. */
typedef struct backend_hooked {
    backend outer; /* first, so that a backend * is a backend_hooked * */
    backend *inner;
} backend_hooked;

/* The backend a hooked one stands in front of. */
static backend *backend_inner(backend *b)
{
    return ((backend_hooked *)b)->inner;
}

/* Counts a buffer the backend behind the hook gave (rc 0), and passes rc on. */
static int backend_hook_held(int rc, fault_held kind)
{
    if (rc == 0)
        fault_hold(kind, 1);
    return rc;
}

/* Fails an allocation of bytes, as the real allocator does when memory is exhausted, when the hook
   says this call of op must fail: 1 with err filled (label names the device buffer; NULL: host
   memory), else 0. */
static int backend_hook_refuse(fault_op op, size_t bytes, const char *label, chef_error *err)
{
    int call;
    if (!fault_hit(op, &call))
        return 0;
    char need[32];
    chef_format_bytes((double)bytes, need, sizeof need);
    if (label)
        chef_fail(err, CHEF_EXIT_ENVIRONMENT, "use a smaller --n, or end what else holds the device's memory",
                  "prepare: device buffer %s (%s) could not be allocated: out of memory "
                  "(cudaErrorMemoryAllocation; injected by CUDACHEF_FAULT=alloc:%d)",
                  label, need, call);
    else
        chef_fail(err, CHEF_EXIT_ENVIRONMENT, "use a smaller --n (and without --pinned, if it was given)",
                  "prepare: %s of host memory could not be allocated: out of memory (injected by CUDACHEF_FAULT=host:%d)",
                  need, call);
    return 1;
}

/* Device memory, unless the hook makes this call fail as cudaMalloc does when memory is exhausted. */
static int backend_hook_device_alloc(backend *b, void **ptr, size_t bytes, const char *label, size_t elem_size,
                                     chef_error *err)
{
    *ptr = NULL;
    if (backend_hook_refuse(FAULT_ALLOC, bytes, label ? label : "?", err))
        return -1;
    backend *in = backend_inner(b);
    return backend_hook_held(in->device_alloc(in, ptr, bytes, label, elem_size, err), FAULT_HELD_DEVICE);
}

/* Releases device memory, counting it. */
static void backend_hook_device_free(backend *b, void *ptr)
{
    backend *in = backend_inner(b);
    if (ptr)
        fault_hold(FAULT_HELD_DEVICE, -1);
    in->device_free(in, ptr);
}

/* Host memory, unless the hook makes this call fail as malloc or cudaMallocHost does. */
static int backend_hook_host_alloc(backend *b, void **ptr, size_t bytes, int pinned, chef_error *err)
{
    *ptr = NULL;
    if (backend_hook_refuse(FAULT_HOST, bytes, NULL, err))
        return -1;
    backend *in = backend_inner(b);
    return backend_hook_held(in->host_alloc(in, ptr, bytes, pinned, err), FAULT_HELD_HOST);
}

/* Releases host memory, counting it. */
static void backend_hook_host_free(backend *b, void *ptr, int pinned)
{
    backend *in = backend_inner(b);
    if (ptr)
        fault_hold(FAULT_HELD_HOST, -1);
    in->host_free(in, ptr, pinned);
}

/* A shipment, unless the hook makes this call fail as a failing cudaMemcpy does. */
static int backend_hook_copy(backend *b, void *dst, const void *src, size_t bytes, copy_direction dir, double *ms,
                             chef_error *err)
{
    int call;
    if (fault_hit(FAULT_COPY, &call)) {
        char size[32];
        chef_format_bytes((double)bytes, size, sizeof size);
        const char *step = dir == COPY_TO_DEVICE ? _("ship in (host -> device)")
                           : dir == COPY_TO_HOST ? _("ship out (device -> host)")
                                                 : _("a copy on the device");
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, "try again; if it fails again, `cudachef info` shows the state of the kitchen",
                         "%s: copying %s failed: unspecified launch failure (cudaErrorLaunchFailure; injected by "
                         "CUDACHEF_FAULT=copy:%d)",
                         step, size, call);
    }
    backend *in = backend_inner(b);
    return in->copy(in, dst, src, bytes, dir, ms, err);
}

/* A launch, unless the hook refuses it as cudaLaunchKernel can, or fails the kernel while it runs
   as the synchronisation after it reports (the kernel did run: the hook fails what follows). */
static int backend_hook_launch(backend *b, const char *kernel, chef_dim3 grid, chef_dim3 block, void **args,
                               const launch_options *opt, double *ms, chef_error *err)
{
    int call;
    if (fault_hit(FAULT_LAUNCH, &call))
        return chef_fail(err, CHEF_EXIT_CRASH, "check the grid and block sizes against `cudachef info`",
                         "cook: launching %s<<<(%u,%u,%u), (%u,%u,%u)>>> failed: too many resources requested "
                         "for launch (cudaErrorLaunchOutOfResources; injected by CUDACHEF_FAULT=launch:%d)",
                         kernel, grid.x, grid.y, grid.z, block.x, block.y, block.z, call);
    backend *in = backend_inner(b);
    if (in->launch(in, kernel, grid, block, args, opt, ms, err) != 0)
        return -1;
    if (fault_hit(FAULT_SYNC, &call))
        return chef_fail(err, CHEF_EXIT_CRASH, "run it under compute-sanitizer to find the faulting access",
                         "cook: kernel %s failed while running: unspecified launch failure "
                         "(cudaErrorLaunchFailure; injected by CUDACHEF_FAULT=sync:%d)",
                         kernel, call);
    return 0;
}

/* The occupancy, from the backend behind the hook. */
static int backend_hook_occupancy(backend *b, const char *kernel, chef_dim3 block, int *teams_per_station,
                                  int *cooks_per_station, chef_error *err)
{
    backend *in = backend_inner(b);
    return in->occupancy(in, kernel, block, teams_per_station, cooks_per_station, err);
}

/* Closes the backend behind the hook, then the hook. */
static void backend_hook_close(backend *b)
{
    backend *in = backend_inner(b);
    fault_hold(FAULT_HELD_BACKENDS, -1);
    backend_close(in);
    free(b);
}

/* Stands the fault hook in front of b (which it then owns); NULL with err when out of memory. */
static backend *backend_hook(backend *b, chef_error *err)
{
    backend_hooked *h = calloc(1, sizeof *h);
    if (!h) {
        backend_close(b);
        chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, "%s", _("out of host memory"));
        return NULL;
    }
    h->inner = b;
    h->outer.info = b->info;
    h->outer.device_alloc = backend_hook_device_alloc;
    h->outer.device_free = backend_hook_device_free;
    h->outer.host_alloc = backend_hook_host_alloc;
    h->outer.host_free = backend_hook_host_free;
    h->outer.copy = backend_hook_copy;
    h->outer.launch = backend_hook_launch;
    h->outer.occupancy = b->occupancy ? backend_hook_occupancy : NULL;
    h->outer.close = backend_hook_close;
    fault_hold(FAULT_HELD_BACKENDS, 1);
    return &h->outer;
}

/* Opens one backend, unless the hook makes this opening fail: a GPU that has become unusable
   since it was probed (cudaErrorDevicesUnavailable), or an emulator without memory to start. */
static backend *backend_open_one(backend_kind kind, chef_error *err)
{
    int call;
    if (fault_enabled() && fault_hit(FAULT_OPEN, &call)) {
        if (kind == BACKEND_GPU)
            chef_fail(err, CHEF_EXIT_ENVIRONMENT, "use --backend emu (or auto) to cook on the CPU emulator",
                      "no usable GPU: all CUDA-capable devices are busy or unavailable "
                      "(cudaErrorDevicesUnavailable; injected by CUDACHEF_FAULT=open:%d)",
                      call);
        else
            chef_fail(err, CHEF_EXIT_ENVIRONMENT, "free some memory and try again",
                      "the CPU emulator could not start: out of host memory (injected by CUDACHEF_FAULT=open:%d)", call);
        return NULL;
    }
    return kind == BACKEND_GPU ? backend_gpu_open(err) : backend_emu_open(err);
}

/* Picks and opens the backend: AUTO takes the GPU when one works, else the emulator. */
static backend *backend_pick(backend_kind want, chef_error *err)
{
    if (want == BACKEND_EMU)
        return backend_open_one(BACKEND_EMU, err);
    backend_info probe;
    char reason[sizeof probe.no_gpu_reason], code[sizeof probe.no_gpu_code];
    if (backend_gpu_probe(&probe) == 0) {
        chef_error gpu_err = {0};
        backend *b = backend_open_one(BACKEND_GPU, &gpu_err);
        if (b)
            return b;
        if (want == BACKEND_GPU) {
            if (err)
                *err = gpu_err;
            return NULL;
        }
        snprintf(reason, sizeof reason, "%s", gpu_err.message);
        snprintf(code, sizeof code, "%s", "gpu-failed");
    } else {
        if (want == BACKEND_GPU) {
            chef_fail(err, CHEF_EXIT_ENVIRONMENT, "use --backend emu (or auto) to cook on the CPU emulator",
                      "no usable GPU: %s", probe.no_gpu_reason);
            return NULL;
        }
        snprintf(reason, sizeof reason, "%s", probe.no_gpu_reason);
        snprintf(code, sizeof code, "%s", probe.no_gpu_code);
    }
    backend *b = backend_open_one(BACKEND_EMU, err);
    if (b) {
        snprintf(b->info.no_gpu_reason, sizeof b->info.no_gpu_reason, "%s", reason);
        snprintf(b->info.no_gpu_code, sizeof b->info.no_gpu_code, "%s", code);
    }
    return b;
}

/* Opens the backend asked for, behind the fault hook when its variables are set. */
backend *backend_open(backend_kind want, chef_error *err)
{
    if (!fault_enabled())
        return backend_pick(want, err);
    if (fault_setup(err) != 0)
        return NULL;
    backend *b = backend_pick(want, err);
    return b ? backend_hook(b, err) : NULL;
}

/* Closes and frees a backend. */
void backend_close(backend *b)
{
    if (b && b->close)
        b->close(b);
}
