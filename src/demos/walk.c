/*
 * walk.c - the "walk" demo: the low-level API one call at a time (see walk.h).
 *
 * This file chooses where to walk (the GPU when one works and is wanted, else the CPU emulator),
 * walks the emulator through cudachef's backend interface, and writes the result as text and JSON.
 * The GPU walk, with the CUDA runtime's own calls and NVRTC, is in walk_gpu.c.
 */
#include "demos/walk.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/i18n.h"

/* The kernel NVRTC compiles, as a string. `extern "C"` keeps its name as written, so that the
   program can ask the loaded library for "add_from_string". */
const char walk_kernel_source[] =
    "extern \"C\" __global__ void add_from_string(const float *a, const float *b, float *c, int n)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x; /* which element is mine? */\n"
    "    if (i < n)                                     /* cooks past the end stay idle */\n"
    "        c[i] = a[i] + b[i];\n"
    "}\n";

/* Appends a step (status ok, nothing returned yet) whose call is printf-formatted; returns it. */
walk_step *walk_step_add(walk_result *r, const char *id, const char *call_fmt, ...)
{
    walk_step *s = r->nsteps < WALK_MAX_STEPS ? &r->steps[r->nsteps++] : &r->overflow;
    memset(s, 0, sizeof *s);
    snprintf(s->id, sizeof s->id, "%s", id);
    va_list ap;
    va_start(ap, call_fmt);
    vsnprintf(s->call, sizeof s->call, call_fmt, ap);
    va_end(ap);
    return s;
}

/* Sets a step's explanation for people (printf-formatted). */
void walk_step_detail(walk_step *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->detail, sizeof s->detail, fmt, ap);
    va_end(ap);
}

/* Writes "[1, 2, 3, 4]" for WALK_N floats. */
void walk_format_array(const float *v, char *out, size_t size)
{
    size_t used = (size_t)snprintf(out, size, "[");
    for (int i = 0; i < WALK_N && used < size; i++)
        used += (size_t)snprintf(out + used, size - used, "%s%g", i ? ", " : "", v[i]);
    if (used < size)
        snprintf(out + used, size - used, "]");
}

/* Marks a backend call's step: "0" and ok, or "-1", failed, with the backend's error kept. */
static int walk_emu_check(walk_result *r, walk_step *s, int code, const chef_error *e)
{
    snprintf(s->returned, sizeof s->returned, "%d", code);
    if (code == 0)
        return 0;
    s->status = WALK_FAILED;
    walk_step_detail(s, "%s", e->message);
    r->error = *e;
    return -1;
}

/* Allocates one device array of the walk and records the step. */
static int walk_emu_alloc(walk_result *r, backend *be, void **ptr, const char *name)
{
    chef_error e = {0};
    walk_step *s = walk_step_add(r, "alloc", "be->device_alloc(be, &d_%s, %zu, \"%s\", %zu, &err)", name, r->bytes,
                                 name, sizeof(float));
    if (walk_emu_check(r, s, be->device_alloc(be, ptr, r->bytes, name, sizeof(float), &e), &e) != 0)
        return -1;
    if (strcmp(name, "a") == 0)
        walk_step_detail(s, _("%zu bytes in the kitchen's pantry for %s: %d floats of %zu bytes (like cudaMalloc, it "
                              "counts bytes, not elements)"),
                         r->bytes, name, WALK_N, sizeof(float));
    else
        walk_step_detail(s, _("%zu bytes for %s"), r->bytes, name);
    return 0;
}

/* Ships one array to the device and records the step. */
static int walk_emu_ship_in(walk_result *r, backend *be, void *dst, const float *src, const char *name)
{
    chef_error e = {0};
    char values[96];
    walk_step *s = walk_step_add(r, "copy-in", "be->copy(be, d_%s, %s, %zu, COPY_TO_DEVICE, &ms, &err)", name, name,
                                 r->bytes);
    if (walk_emu_check(r, s, be->copy(be, dst, src, r->bytes, COPY_TO_DEVICE, NULL, &e), &e) != 0)
        return -1;
    walk_format_array(src, values, sizeof values);
    walk_step_detail(s, _("%s = %s shipped into the kitchen's pantry (%zu bytes)"), name, values, r->bytes);
    return 0;
}

/* The deliberate error: an allocation larger than the machine, its message, and carrying on. */
static int walk_emu_error(walk_result *r, backend *be)
{
    chef_error e = {0};
    void *huge = NULL;
    char bytes[32];
    r->error_bytes = (size_t)1 << 50; /* 1 PiB: more than any machine this runs on */
    chef_format_bytes((double)r->error_bytes, bytes, sizeof bytes);
    walk_step *s = walk_step_add(r, "error", "be->device_alloc(be, &d_huge, %zu, \"huge\", 1, &err)", r->error_bytes);
    int code = be->device_alloc(be, &huge, r->error_bytes, "huge", 1, &e);
    snprintf(s->returned, sizeof s->returned, "%d", code);
    if (code == 0) {
        /* it should not happen; if it does, say so and give the memory back */
        be->device_free(be, huge);
        walk_step_detail(s, _("asked for %s on purpose, and it was given: no error to show here"), bytes);
        return 0;
    }
    s->status = WALK_ERROR_ON_PURPOSE;
    r->error_reported = 1;
    r->error_exit_code = e.exit_code;
    snprintf(r->error_text, sizeof r->error_text, "%s", e.message);
    walk_step_detail(s, _("asked for %s, more than this machine has. The backend returned -1 and filled err: "
                          "\"%s\" (exit code %d). The program decides what to do; here it carries on."),
                     bytes, e.message, e.exit_code);
    void *next = NULL;
    s = walk_step_add(r, "carry-on", "be->device_alloc(be, &d_next, %zu, \"next\", %zu, &err)", r->bytes, sizeof(float));
    if (walk_emu_check(r, s, be->device_alloc(be, &next, r->bytes, "next", sizeof(float), &e), &e) != 0)
        return -1;
    be->device_free(be, next);
    r->carried_on = 1;
    walk_step_detail(s, _("the next call works: the error did not break the kitchen (freed again at once)"));
    return 0;
}

/* The walk on the CPU emulator, through the backend interface. Returns the exit code. */
static int walk_emu(walk_result *r, const demo_params *p)
{
    chef_error e = {0};
    walk_step *s = walk_step_add(r, "open", "backend *be = backend_open(BACKEND_EMU, &err)");
    backend *be = backend_open(BACKEND_EMU, &e);
    if (!be) {
        snprintf(s->returned, sizeof s->returned, "NULL");
        s->status = WALK_FAILED;
        walk_step_detail(s, "%s", e.message);
        r->error = e;
        return e.exit_code ? e.exit_code : CHEF_EXIT_INTERNAL;
    }
    snprintf(be->info.no_gpu_reason, sizeof be->info.no_gpu_reason, "%s", r->backend.no_gpu_reason);
    r->backend = be->info;
    char mem[32];
    chef_format_bytes((double)be->info.memory_free, mem, sizeof mem);
    snprintf(s->returned, sizeof s->returned, "be != NULL");
    if (be->info.workers == 1)
        walk_step_detail(s, _("the CPU emulator: one worker thread as the station, %s of host memory as the pantry. "
                              "There is no device to count or choose: one kitchen, this one."),
                         mem);
    else
        walk_step_detail(s, _("the CPU emulator: %d worker threads as the stations, %s of host memory as the pantry. "
                              "There is no device to count or choose: one kitchen, this one."),
                         be->info.workers, mem);
    void *d_a = NULL, *d_b = NULL, *d_c = NULL;
    int code = 0;
    if (walk_emu_alloc(r, be, &d_a, "a") != 0 || walk_emu_alloc(r, be, &d_b, "b") != 0 ||
        walk_emu_alloc(r, be, &d_c, "c") != 0 || walk_emu_ship_in(r, be, d_a, r->a, "a") != 0 ||
        walk_emu_ship_in(r, be, d_b, r->b, "b") != 0)
        code = -1;
    if (code == 0) {
        int n = WALK_N;
        void *args[4] = {&d_a, &d_b, &d_c, &n};
        launch_options opt = {0};
        opt.workers = p->run.workers;
        s = walk_step_add(r, "launch", "be->launch(be, \"vector_add\", {1, 1, 1}, {%d, 1, 1}, args, &opt, &ms, &err)",
                          WALK_N);
        code = walk_emu_check(r, s, be->launch(be, "vector_add", (chef_dim3){1, 1, 1}, (chef_dim3){WALK_N, 1, 1}, args,
                                               &opt, NULL, &e),
                              &e);
        if (code == 0)
            walk_step_detail(s, _("vector_add<<<1, %d>>>: one team of %d cooks, one element each. On the emulator the "
                                  "call returns when the cooks are done."),
                             WALK_N, WALK_N);
    }
    if (code == 0) {
        s = walk_step_add(r, "copy-out", "be->copy(be, c, d_c, %zu, COPY_TO_HOST, &ms, &err)", r->bytes);
        code = walk_emu_check(r, s, be->copy(be, r->c, d_c, r->bytes, COPY_TO_HOST, NULL, &e), &e);
    }
    if (code == 0) {
        char values[96];
        r->verified = 1;
        for (int i = 0; i < WALK_N; i++)
            r->verified = r->verified && r->c[i] == r->a[i] + r->b[i];
        walk_format_array(r->c, values, sizeof values);
        walk_step_detail(s, r->verified ? _("c = %s: the same as the CPU's a + b") : _("c = %s: NOT what the CPU gets for a + b"),
                         values);
        if (!r->verified)
            s->status = WALK_FAILED;
        code = walk_emu_error(r, be);
    }
    /* free what was allocated, whatever happened before */
    if (d_a || d_b || d_c) {
        s = walk_step_add(r, "free", "be->device_free(be, d_a); be->device_free(be, d_b); be->device_free(be, d_c)");
        be->device_free(be, d_a);
        be->device_free(be, d_b);
        be->device_free(be, d_c);
        snprintf(s->returned, sizeof s->returned, "(void)");
        walk_step_detail(s, _("the kitchen's pantry is given back"));
    }
    s = walk_step_add(r, "nvrtc", "nvrtcCreateProgram, nvrtcCompileProgram, cudaLibraryLoadData, cudaLaunchKernel");
    s->status = WALK_SKIPPED;
    snprintf(s->returned, sizeof s->returned, "-");
    r->nvrtc = WALK_SKIPPED;
    snprintf(r->nvrtc_reason, sizeof r->nvrtc_reason, "%s",
             _("compiling a kernel while the program runs needs a GPU: skipped on the CPU emulator (not a failure)"));
    walk_step_detail(s, "%s", r->nvrtc_reason);
    backend_close(be);
    if (code != 0)
        return r->error.exit_code ? r->error.exit_code : CHEF_EXIT_INTERNAL;
    return r->verified ? CHEF_EXIT_OK : CHEF_EXIT_WRONG;
}

/* Runs the demo. Returns the exit code; *out is set whenever a step ran. */
int walk_run(const demo_params *p, walk_result **out, chef_error *err)
{
    *out = NULL;
    backend_info probe;
    int gpu = 0;
    memset(&probe, 0, sizeof probe);
    if (p->run.backend != BACKEND_EMU) {
        gpu = backend_gpu_probe(&probe) == 0;
        if (!gpu && p->run.backend == BACKEND_GPU) {
            chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("use --backend emu (or auto) to walk on the CPU emulator"),
                      _("no usable GPU: %s"), probe.no_gpu_reason);
            return CHEF_EXIT_ENVIRONMENT;
        }
    }
    walk_result *r = calloc(1, sizeof *r);
    if (!r) {
        chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, _("out of host memory"));
        return CHEF_EXIT_ENVIRONMENT;
    }
    *out = r;
    r->backend = probe;
    r->bytes = WALK_N * sizeof(float);
    for (int i = 0; i < WALK_N; i++) { /* the counting example: [1, 2, 3, 4] + [5, 6, 7, 8] */
        r->a[i] = (float)(i + 1);
        r->b[i] = (float)(WALK_N + i + 1);
        r->c[i] = NAN;
        r->nvrtc_c[i] = NAN;
    }
    int code = gpu ? walk_gpu(r, p) : walk_emu(r, p);
    if (code > CHEF_EXIT_WRONG)
        demo_error_exit(&r->error, code, err);
    return r->exit_code = code;
}

/* How a step ended, for people. */
static const char *walk_status_text(walk_status s)
{
    switch (s) {
    case WALK_ERROR_ON_PURPOSE:
        return _(" (an error, on purpose)");
    case WALK_FAILED:
        return _(" (FAILED)");
    case WALK_SKIPPED:
        return _(" (skipped)");
    default:
        return "";
    }
}

/* Writes the result for people, in the learner's language. */
void walk_text(FILE *out, const walk_result *r)
{
    if (r->backend.kind == BACKEND_GPU) {
        fprintf(out, _("walk: the CUDA runtime API one call at a time, on the GPU: %s\n"), r->backend.name);
    } else {
        fprintf(out, "%s", _("walk: the same steps through cudachef's backend interface (src/engine/backend.h), on the CPU emulator\n"));
        if (r->backend.no_gpu_reason[0])
            fprintf(out, _("  no GPU used: %s\n"), r->backend.no_gpu_reason);
    }
    int nvrtc_shown = 0;
    for (int i = 0; i < r->nsteps; i++) {
        const walk_step *s = &r->steps[i];
        if (!nvrtc_shown && strncmp(s->id, "nvrtc", 5) == 0) {
            nvrtc_shown = 1;
            fprintf(out, "%s", _("\nA kernel compiled from a string while the program runs (NVRTC):\n\n"));
            fprintf(out, "%s\n", walk_kernel_source);
        }
        fprintf(out, "%2d. %s\n    -> %s%s", i + 1, s->call, s->returned, walk_status_text(s->status));
        if (s->detail[0])
            fprintf(out, ": %s", s->detail);
        fputc('\n', out);
        if (strcmp(s->id, "nvrtc-compile") == 0 && r->nvrtc_log[0])
            fprintf(out, _("    compiler log:\n%s\n"), r->nvrtc_log);
    }
    if (r->exit_code > CHEF_EXIT_WRONG) {
        demo_stopped_text(out, _("\nThe walk stopped: %s\n"), &r->error);
        return;
    }
    fprintf(out, "%s\n", r->exit_code == 0 ? _("\nPASS: every call did what it should")
                                          : _("\nFAIL: a result is not what the CPU computes"));
}

/* A step's status for programs. */
static const char *walk_status_name(walk_status s)
{
    switch (s) {
    case WALK_ERROR_ON_PURPOSE:
        return "error-on-purpose";
    case WALK_FAILED:
        return "failed";
    case WALK_SKIPPED:
        return "skipped";
    default:
        return "ok";
    }
}

/* The result for programs (kind "walk", docs/DEMOS.md); the caller owns the reference. */
json_t *walk_json(const walk_result *r)
{
    int gpu = r->backend.kind == BACKEND_GPU;
    json_t *o = demo_json_begin("walk", &r->backend);
    if (gpu)
        json_object_set_new(o, "device", json_pack("{s:i, s:i, s:s, s:i, s:i, s:i, s:I}", "count", r->device_count,
                                                   "chosen", r->device, "name", r->backend.name, "cc_major",
                                                   r->backend.cc_major, "cc_minor", r->backend.cc_minor, "sm_count",
                                                   r->backend.sm_count, "memory_total",
                                                   (json_int_t)r->backend.memory_total));
    else
        json_object_set_new(o, "device", json_null());
    json_object_set_new(o, "n", json_integer(WALK_N));
    json_object_set_new(o, "bytes", json_integer((json_int_t)r->bytes));
    json_object_set_new(o, "a", demo_floats_json(r->a, WALK_N));
    json_object_set_new(o, "b", demo_floats_json(r->b, WALK_N));
    json_object_set_new(o, "c", demo_floats_json(r->c, WALK_N));
    json_object_set_new(o, "verified", json_boolean(r->verified));
    json_t *steps = json_array();
    for (int i = 0; i < r->nsteps; i++)
        json_array_append_new(steps, json_pack("{s:s, s:s, s:s, s:s}", "id", r->steps[i].id, "call", r->steps[i].call,
                                               "returned", r->steps[i].returned, "status",
                                               walk_status_name(r->steps[i].status)));
    json_object_set_new(o, "steps", steps);
    json_object_set_new(o, "error_on_purpose",
                        json_pack("{s:I, s:b, s:o, s:s, s:o, s:b}", "bytes", (json_int_t)r->error_bytes, "reported",
                                  r->error_reported, "name", r->error_name[0] ? json_string(r->error_name) : json_null(),
                                  "message", r->error_text, "exit_code",
                                  gpu ? json_null() : json_integer(r->error_exit_code), "carried_on", r->carried_on));
    json_t *nv = json_object();
    json_object_set_new(nv, "status", json_string(walk_status_name(r->nvrtc)));
    json_object_set_new(nv, "reason", r->nvrtc_reason[0] ? json_string(r->nvrtc_reason) : json_null());
    if (r->nvrtc != WALK_SKIPPED || r->nvrtc_library[0]) {
        char version[32];
        snprintf(version, sizeof version, "%d.%d", r->nvrtc_major, r->nvrtc_minor);
        json_object_set_new(nv, "library", json_string(r->nvrtc_library));
        json_object_set_new(nv, "version", json_string(version));
        json_object_set_new(nv, "arch", json_string(r->nvrtc_arch));
        json_object_set_new(nv, "code", json_string(r->nvrtc_code));
        json_object_set_new(nv, "code_bytes", json_integer((json_int_t)r->nvrtc_code_bytes));
        json_object_set_new(nv, "log", json_string(r->nvrtc_log));
        json_object_set_new(nv, "c", demo_floats_json(r->nvrtc_c, WALK_N));
        json_object_set_new(nv, "verified", json_boolean(r->nvrtc_verified));
    }
    json_object_set_new(nv, "source", json_string(walk_kernel_source));
    json_object_set_new(o, "nvrtc", nv);
    demo_status_json(o, r->exit_code, &r->error);
    return o;
}

/* Releases a result. */
void walk_free(walk_result *r)
{
    free(r);
}
