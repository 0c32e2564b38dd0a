/*
 * walk_gpu.c - the walk on a GPU: the CUDA runtime API one call at a time, then a kernel compiled
 * from a string while the program runs (see walk.h).
 *
 * Every call is recorded as a step with its arguments and the error code it returned. NVRTC is
 * loaded with dlopen (libnvrtc.so.13, then libnvrtc.so), so cudachef runs without it and says so.
 * The compiled code is loaded with the runtime's library API (cudaLibraryLoadData and
 * cudaLibraryGetKernel, CUDA 12 and later) and launched with cudaLaunchKernel, like any kernel:
 * the program links only the static CUDA runtime, no driver API library.
 */
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/gpu_table.h"
#include "base/i18n.h"
#include "demos/walk.h"

/* The NVRTC functions the walk calls, found with dlsym. */
typedef struct walk_nvrtc_api {
    void *lib;
    const char *(*GetErrorString)(nvrtcResult);
    nvrtcResult (*Version)(int *, int *);
    nvrtcResult (*GetNumSupportedArchs)(int *);
    nvrtcResult (*GetSupportedArchs)(int *);
    nvrtcResult (*CreateProgram)(nvrtcProgram *, const char *, const char *, int, const char *const *,
                                 const char *const *);
    nvrtcResult (*DestroyProgram)(nvrtcProgram *);
    nvrtcResult (*CompileProgram)(nvrtcProgram, int, const char *const *);
    nvrtcResult (*GetProgramLogSize)(nvrtcProgram, size_t *);
    nvrtcResult (*GetProgramLog)(nvrtcProgram, char *);
    nvrtcResult (*GetCUBINSize)(nvrtcProgram, size_t *);
    nvrtcResult (*GetCUBIN)(nvrtcProgram, char *);
    nvrtcResult (*GetPTXSize)(nvrtcProgram, size_t *);
    nvrtcResult (*GetPTX)(nvrtcProgram, char *);
} walk_nvrtc_api;

/* Looks up nvrtcNAME in the loaded library into api->NAME. */
#define WALK_NVRTC_SYM(api, name) ((api)->name = (__typeof__((api)->name))dlsym((api)->lib, "nvrtc" #name))

/* Writes what a CUDA call returned on its step, and on failure marks it failed with the error's
   text. Returns 0 for cudaSuccess, else -1. */
static int walk_cuda_note(walk_step *s, cudaError_t e)
{
    snprintf(s->returned, sizeof s->returned, "%s", cudaGetErrorName(e));
    if (e == cudaSuccess)
        return 0;
    s->status = WALK_FAILED;
    walk_step_detail(s, "%s", cudaGetErrorString(e));
    return -1;
}

/* Records a CUDA call's result on its step: ok, or failed with r->error (exit code code). */
static int walk_cuda(walk_result *r, walk_step *s, cudaError_t e, int code)
{
    if (walk_cuda_note(s, e) == 0)
        return 0;
    chef_fail(&r->error, code, _("`cudachef info` shows whether the GPU works; nvidia-smi shows its state"),
              "%s failed: %s (%s)", s->call, cudaGetErrorString(e), cudaGetErrorName(e));
    return -1;
}

/* Counts the devices, chooses device 0 and reads its properties. */
static int walk_gpu_device(walk_result *r)
{
    int count = 0;
    walk_step *s = walk_step_add(r, "count-devices", "cudaGetDeviceCount(&count)");
    if (walk_cuda(r, s, cudaGetDeviceCount(&count), CHEF_EXIT_ENVIRONMENT) != 0)
        return -1;
    r->device_count = count;
    walk_step_detail(s, _("count = %d: the GPUs this program can use"), count);
    r->device = 0;
    s = walk_step_add(r, "choose-device", "cudaSetDevice(%d)", r->device);
    if (walk_cuda(r, s, cudaSetDevice(r->device), CHEF_EXIT_ENVIRONMENT) != 0)
        return -1;
    walk_step_detail(s, _("device %d chosen: the calls below go to it"), r->device);
    struct cudaDeviceProp prop;
    s = walk_step_add(r, "properties", "cudaGetDeviceProperties(&prop, %d)", r->device);
    if (walk_cuda(r, s, cudaGetDeviceProperties(&prop, r->device), CHEF_EXIT_ENVIRONMENT) != 0)
        return -1;
    snprintf(r->backend.name, sizeof r->backend.name, "%s", prop.name);
    r->backend.cc_major = prop.major;
    r->backend.cc_minor = prop.minor;
    r->backend.sm_count = prop.multiProcessorCount;
    r->backend.memory_total = prop.totalGlobalMem;
    r->backend.max_threads_per_block = prop.maxThreadsPerBlock;
    char mem[32];
    chef_format_bytes((double)prop.totalGlobalMem, mem, sizeof mem);
    walk_step_detail(s, _("prop.name = \"%s\", compute capability %d.%d, %d stations (SMs), %s of device memory "
                          "(%zu bytes), at most %d cooks per team"),
                     prop.name, prop.major, prop.minor, prop.multiProcessorCount, mem, prop.totalGlobalMem,
                     prop.maxThreadsPerBlock);
    return 0;
}

/* Allocates one device array in bytes. */
static int walk_gpu_alloc(walk_result *r, float **ptr, const char *name)
{
    walk_step *s = walk_step_add(r, "alloc", "cudaMalloc(&d_%s, %zu)", name, r->bytes);
    if (walk_cuda(r, s, cudaMalloc((void **)ptr, r->bytes), CHEF_EXIT_ENVIRONMENT) != 0)
        return -1;
    if (strcmp(name, "a") == 0)
        walk_step_detail(s, _("%zu bytes at device address %p for %s: %d floats of %zu bytes (cudaMalloc counts "
                              "bytes, not elements)"),
                         r->bytes, (void *)*ptr, name, WALK_N, sizeof(float));
    else
        walk_step_detail(s, _("%zu bytes at device address %p for %s"), r->bytes, (void *)*ptr, name);
    return 0;
}

/* Ships one array from the host to the device. */
static int walk_gpu_ship_in(walk_result *r, float *dst, const float *src, const char *name)
{
    char values[96];
    walk_step *s = walk_step_add(r, "copy-in", "cudaMemcpy(d_%s, %s, %zu, cudaMemcpyHostToDevice)", name, name, r->bytes);
    if (walk_cuda(r, s, cudaMemcpy(dst, src, r->bytes, cudaMemcpyHostToDevice), CHEF_EXIT_ENVIRONMENT) != 0)
        return -1;
    walk_format_array(src, values, sizeof values);
    walk_step_detail(s, _("%s = %s shipped into the kitchen's pantry (%zu bytes)"), name, values, r->bytes);
    return 0;
}

/* Launches vector_add with one team of WALK_N cooks, checks the launch and waits for it. */
static int walk_gpu_launch(walk_result *r, float *d_a, float *d_b, float *d_c)
{
    const struct gpu_kernel_row *row = gpu_kernel_find("vector_add");
    const void *fn = row ? row->plain : NULL;
    if (!fn)
        return chef_fail(&r->error, CHEF_EXIT_INTERNAL, NULL, _("kernel %s is not compiled into this program"),
                         "vector_add");
    int n = WALK_N;
    void *args[4] = {&d_a, &d_b, &d_c, &n};
    dim3 grid = {1, 1, 1}, block = {WALK_N, 1, 1};
    walk_step *s = walk_step_add(r, "launch", "cudaLaunchKernel(vector_add, dim3(1), dim3(%d), args, 0, 0)", WALK_N);
    if (walk_cuda(r, s, cudaLaunchKernel(fn, grid, block, args, 0, 0), CHEF_EXIT_CRASH) != 0)
        return -1;
    walk_step_detail(s, _("vector_add<<<1, %d>>>(d_a, d_b, d_c, %d): one team of %d cooks. The call returns as soon "
                          "as the launch is queued, before the cooks finish."),
                     WALK_N, WALK_N, WALK_N);
    s = walk_step_add(r, "launch-check", "cudaGetLastError()");
    if (walk_cuda(r, s, cudaGetLastError(), CHEF_EXIT_CRASH) != 0)
        return -1;
    walk_step_detail(s, _("the launch was accepted (a launch the GPU cannot run, such as too many cooks per team, "
                          "is reported here)"));
    s = walk_step_add(r, "synchronize", "cudaDeviceSynchronize()");
    if (walk_cuda(r, s, cudaDeviceSynchronize(), CHEF_EXIT_CRASH) != 0)
        return -1;
    walk_step_detail(s, _("the head chef waits until the cooks are done; an error while the kernel runs is "
                          "reported here"));
    return 0;
}

/* Ships n floats back and checks them against the CPU's a + b. */
static int walk_gpu_ship_out(walk_result *r, const char *id, float *host, const float *d_c, int *verified)
{
    char values[96];
    walk_step *s = walk_step_add(r, id, "cudaMemcpy(c, d_c, %zu, cudaMemcpyDeviceToHost)", r->bytes);
    if (walk_cuda(r, s, cudaMemcpy(host, d_c, r->bytes, cudaMemcpyDeviceToHost), CHEF_EXIT_ENVIRONMENT) != 0)
        return -1;
    *verified = 1;
    for (int i = 0; i < WALK_N; i++)
        *verified = *verified && host[i] == r->a[i] + r->b[i];
    walk_format_array(host, values, sizeof values);
    walk_step_detail(s, *verified ? _("c = %s: the same as the CPU's a + b") : _("c = %s: NOT what the CPU gets for a + b"),
                     values);
    if (!*verified)
        s->status = WALK_FAILED;
    return 0;
}

/* The deliberate error: an allocation twice the device's memory, its name and text, and carrying on. */
static int walk_gpu_error(walk_result *r)
{
    char bytes[32];
    r->error_bytes = r->backend.memory_total > 0 ? 2 * r->backend.memory_total : (size_t)1 << 50;
    chef_format_bytes((double)r->error_bytes, bytes, sizeof bytes);
    void *huge = NULL;
    walk_step *s = walk_step_add(r, "error", "cudaMalloc(&d_huge, %zu)", r->error_bytes);
    cudaError_t e = cudaMalloc(&huge, r->error_bytes);
    snprintf(s->returned, sizeof s->returned, "%s", cudaGetErrorName(e));
    if (e == cudaSuccess) {
        cudaFree(huge);
        walk_step_detail(s, _("asked for %s on purpose, and it was given: no error to show here"), bytes);
    } else {
        s->status = WALK_ERROR_ON_PURPOSE;
        r->error_reported = 1;
        walk_step_detail(s, _("asked for %s, twice this GPU's memory. Every CUDA call returns an error code, and "
                              "this one is not cudaSuccess."),
                         bytes);
        snprintf(r->error_name, sizeof r->error_name, "%s", cudaGetErrorName(e));
        snprintf(r->error_text, sizeof r->error_text, "%s", cudaGetErrorString(e));
        s = walk_step_add(r, "error-name", "cudaGetErrorName(e); cudaGetErrorString(e)");
        snprintf(s->returned, sizeof s->returned, "\"%.40s\"; \"%.200s\"", r->error_name, r->error_text);
        walk_step_detail(s, _("the code's name, for programmers, and its text, for messages"));
        cudaError_t first = cudaGetLastError(), second = cudaGetLastError();
        s = walk_step_add(r, "last-error", "cudaGetLastError(); cudaGetLastError()");
        snprintf(s->returned, sizeof s->returned, "%s; %s", cudaGetErrorName(first), cudaGetErrorName(second));
        if (second != cudaSuccess) {
            s->status = WALK_FAILED;
            chef_fail(&r->error, CHEF_EXIT_ENVIRONMENT, _("`cudachef info` shows whether the GPU works"),
                      _("the error did not clear: %s"), cudaGetErrorString(second));
            return -1;
        }
        walk_step_detail(s, _("the runtime also kept the error as the last error; reading it clears it. (An error "
                              "inside a running kernel is sticky instead: it does not clear, and the program has to "
                              "end.)"));
    }
    size_t free_b = 0, total_b = 0;
    s = walk_step_add(r, "carry-on", "cudaMemGetInfo(&free, &total)");
    if (walk_cuda(r, s, cudaMemGetInfo(&free_b, &total_b), CHEF_EXIT_ENVIRONMENT) != 0)
        return -1;
    char fb[32], tb[32];
    chef_format_bytes((double)free_b, fb, sizeof fb);
    chef_format_bytes((double)total_b, tb, sizeof tb);
    r->carried_on = 1;
    walk_step_detail(s, _("the program carries on: %s free of %s"), fb, tb);
    return 0;
}

/* Opens NVRTC with dlopen and finds its functions. Returns 0; 1 when it is not installed (the step
   says so and is skipped); -1 when it is there but unusable. */
static int walk_nvrtc_open(walk_result *r, walk_nvrtc_api *api)
{
    static const char *const names[] = {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so",
                                        CHEF_CUDA_LIB_DIR "/libnvrtc.so.13"};
    char why[256] = "";
    for (size_t i = 0; i < sizeof names / sizeof names[0] && !api->lib; i++) {
        api->lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
        if (api->lib) {
            snprintf(r->nvrtc_library, sizeof r->nvrtc_library, "%s", names[i]);
        } else {
            const char *e = dlerror();
            if (!why[0])
                snprintf(why, sizeof why, "%s", e ? e : names[i]);
        }
    }
    walk_step *s = walk_step_add(r, "nvrtc-load", "dlopen(\"%s\", RTLD_NOW | RTLD_LOCAL)",
                                 r->nvrtc_library[0] ? r->nvrtc_library : names[0]);
    if (!api->lib) {
        snprintf(s->returned, sizeof s->returned, "NULL");
        s->status = WALK_SKIPPED;
        r->nvrtc = WALK_SKIPPED;
        snprintf(r->nvrtc_reason, sizeof r->nvrtc_reason,
                 _("NVRTC is not installed (%s): install the CUDA toolkit's NVRTC, or add the folder of "
                   "libnvrtc.so.13 to LD_LIBRARY_PATH. The rest of cudachef does not need it."),
                 why);
        walk_step_detail(s, "%s", r->nvrtc_reason);
        return 1;
    }
    snprintf(s->returned, sizeof s->returned, "%s", _("a handle"));
    WALK_NVRTC_SYM(api, GetErrorString);
    WALK_NVRTC_SYM(api, Version);
    WALK_NVRTC_SYM(api, GetNumSupportedArchs);
    WALK_NVRTC_SYM(api, GetSupportedArchs);
    WALK_NVRTC_SYM(api, CreateProgram);
    WALK_NVRTC_SYM(api, DestroyProgram);
    WALK_NVRTC_SYM(api, CompileProgram);
    WALK_NVRTC_SYM(api, GetProgramLogSize);
    WALK_NVRTC_SYM(api, GetProgramLog);
    WALK_NVRTC_SYM(api, GetCUBINSize);
    WALK_NVRTC_SYM(api, GetCUBIN);
    WALK_NVRTC_SYM(api, GetPTXSize);
    WALK_NVRTC_SYM(api, GetPTX);
    if (!api->GetErrorString || !api->Version || !api->CreateProgram || !api->DestroyProgram ||
        !api->CompileProgram || !api->GetProgramLogSize || !api->GetProgramLog || !api->GetCUBINSize ||
        !api->GetCUBIN || !api->GetPTXSize || !api->GetPTX) {
        s->status = WALK_FAILED;
        r->nvrtc = WALK_FAILED;
        snprintf(r->nvrtc_reason, sizeof r->nvrtc_reason,
                 _("%s lacks functions this program needs (it is older than CUDA 11.1)"), r->nvrtc_library);
        walk_step_detail(s, "%s", r->nvrtc_reason);
        chef_fail(&r->error, CHEF_EXIT_ENVIRONMENT, _("install NVRTC from CUDA 12 or later"), "%s", r->nvrtc_reason);
        return -1;
    }
    walk_step_detail(s, _("NVRTC, the runtime compiler, loaded while the program runs"));
    return 0;
}

/* Records an NVRTC call's result on its step: ok, or failed with r->error (exit code code). */
static int walk_nvrtc_check(walk_result *r, const walk_nvrtc_api *api, walk_step *s, nvrtcResult e, int code)
{
    const char *text = api->GetErrorString(e);
    snprintf(s->returned, sizeof s->returned, "%s", text ? text : "?");
    if (e == NVRTC_SUCCESS)
        return 0;
    s->status = WALK_FAILED;
    r->nvrtc = WALK_FAILED;
    snprintf(r->nvrtc_reason, sizeof r->nvrtc_reason, "%s: %s", s->call, text ? text : "?");
    chef_fail(&r->error, code, code == CHEF_EXIT_BUILD ? _("the compiler log above says why") : NULL, "%s failed: %s",
              s->call, text ? text : "?");
    return -1;
}

/* Picks the target: the device's own machine code (sm_XY) when NVRTC knows it, else PTX for the
   newest architecture NVRTC knows below it, which the driver compiles when it loads it. */
static int walk_nvrtc_arch(walk_result *r, const walk_nvrtc_api *api, int *real)
{
    int cc = r->backend.cc_major * 10 + r->backend.cc_minor, arch = cc, num = 0;
    *real = 1;
    if (api->GetNumSupportedArchs && api->GetSupportedArchs && api->GetNumSupportedArchs(&num) == NVRTC_SUCCESS &&
        num > 0) {
        int *archs = malloc((size_t)num * sizeof *archs);
        if (archs && api->GetSupportedArchs(archs) == NVRTC_SUCCESS) {
            int exact = 0, best = 0;
            for (int i = 0; i < num; i++) {
                exact = exact || archs[i] == cc;
                if (archs[i] <= cc && archs[i] > best)
                    best = archs[i];
            }
            if (!exact && best > 0) {
                arch = best;
                *real = 0;
            }
        }
        free(archs);
    }
    snprintf(r->nvrtc_arch, sizeof r->nvrtc_arch, "%s_%d", *real ? "sm" : "compute", arch);
    snprintf(r->nvrtc_code, sizeof r->nvrtc_code, "%s", *real ? "cubin" : "ptx");
    return arch;
}

/* Reads the compiler's log into the result (kept even when the compile succeeded). */
static void walk_nvrtc_log(walk_result *r, const walk_nvrtc_api *api, nvrtcProgram prog)
{
    size_t size = 0;
    r->nvrtc_log[0] = '\0';
    if (api->GetProgramLogSize(prog, &size) != NVRTC_SUCCESS || size <= 1)
        return;
    char *log = malloc(size);
    if (log && api->GetProgramLog(prog, log) == NVRTC_SUCCESS)
        snprintf(r->nvrtc_log, sizeof r->nvrtc_log, "%s", log);
    free(log);
}

/* Compiles walk_kernel_source and returns the code (cubin or PTX, malloc'd) in *code. */
static int walk_nvrtc_compile(walk_result *r, const walk_nvrtc_api *api, nvrtcProgram *prog, char **code)
{
    int major = 0, minor = 0, real = 1;
    walk_step *s = walk_step_add(r, "nvrtc-version", "nvrtcVersion(&major, &minor)");
    if (walk_nvrtc_check(r, api, s, api->Version(&major, &minor), CHEF_EXIT_ENVIRONMENT) != 0)
        return -1;
    r->nvrtc_major = major;
    r->nvrtc_minor = minor;
    walk_step_detail(s, _("NVRTC %d.%d"), major, minor);
    s = walk_step_add(r, "nvrtc-create", "nvrtcCreateProgram(&prog, source, \"add_from_string.cu\", 0, NULL, NULL)");
    if (walk_nvrtc_check(r, api, s, api->CreateProgram(prog, walk_kernel_source, "add_from_string.cu", 0, NULL, NULL),
                         CHEF_EXIT_ENVIRONMENT) != 0)
        return -1;
    walk_step_detail(s, _("a program made of the source above (%zu characters)"), strlen(walk_kernel_source));
    walk_nvrtc_arch(r, api, &real);
    char option[64];
    snprintf(option, sizeof option, "--gpu-architecture=%s", r->nvrtc_arch);
    const char *options[] = {option};
    s = walk_step_add(r, "nvrtc-compile", "nvrtcCompileProgram(prog, 1, {\"%s\"})", option);
    nvrtcResult e = api->CompileProgram(*prog, 1, options);
    walk_nvrtc_log(r, api, *prog);
    if (walk_nvrtc_check(r, api, s, e, CHEF_EXIT_BUILD) != 0)
        return -1;
    if (real)
        walk_step_detail(s, _("compiled for this GPU (compute capability %d.%d) while the program runs"),
                         r->backend.cc_major, r->backend.cc_minor);
    else
        walk_step_detail(s, _("NVRTC %d.%d does not know compute capability %d.%d: compiled to PTX for %s, which the "
                              "driver translates when it loads it"),
                         major, minor, r->backend.cc_major, r->backend.cc_minor, r->nvrtc_arch);
    size_t size = 0;
    s = walk_step_add(r, "nvrtc-code", real ? "nvrtcGetCUBINSize(prog, &size); nvrtcGetCUBIN(prog, code)"
                                            : "nvrtcGetPTXSize(prog, &size); nvrtcGetPTX(prog, code)");
    if (walk_nvrtc_check(r, api, s, real ? api->GetCUBINSize(*prog, &size) : api->GetPTXSize(*prog, &size),
                         CHEF_EXIT_BUILD) != 0)
        return -1;
    *code = malloc(size ? size : 1);
    if (!*code)
        return chef_fail(&r->error, CHEF_EXIT_ENVIRONMENT, NULL, _("out of host memory"));
    if (walk_nvrtc_check(r, api, s, real ? api->GetCUBIN(*prog, *code) : api->GetPTX(*prog, *code), CHEF_EXIT_BUILD) != 0)
        return -1;
    r->nvrtc_code_bytes = size;
    walk_step_detail(s, real ? _("%zu bytes of %s machine code (a cubin)") : _("%zu bytes of PTX for %s"), size,
                     r->nvrtc_arch);
    return 0;
}

/* Loads the compiled code with the runtime, launches it on d_a and d_b into d_c and checks c. */
static int walk_nvrtc_launch(walk_result *r, const char *code, cudaLibrary_t *library, float *d_a, float *d_b,
                             float *d_c)
{
    walk_step *s = walk_step_add(r, "library-load", "cudaLibraryLoadData(&library, code, NULL, NULL, 0, NULL, NULL, 0)");
    if (walk_cuda(r, s, cudaLibraryLoadData(library, code, NULL, NULL, 0, NULL, NULL, 0), CHEF_EXIT_BUILD) != 0)
        return -1;
    walk_step_detail(s, _("the code is now a library the runtime knows"));
    cudaKernel_t kernel;
    s = walk_step_add(r, "library-kernel", "cudaLibraryGetKernel(&kernel, library, \"add_from_string\")");
    if (walk_cuda(r, s, cudaLibraryGetKernel(&kernel, *library, "add_from_string"), CHEF_EXIT_BUILD) != 0)
        return -1;
    walk_step_detail(s, _("a handle to the kernel, found by the name written in the source"));
    s = walk_step_add(r, "nvrtc-clear", "cudaMemset(d_c, 0, %zu)", r->bytes);
    if (walk_cuda(r, s, cudaMemset(d_c, 0, r->bytes), CHEF_EXIT_ENVIRONMENT) != 0)
        return -1;
    walk_step_detail(s, _("c set to zeros on the device, so the result below can only come from the new kernel"));
    int n = WALK_N;
    void *args[4] = {&d_a, &d_b, &d_c, &n};
    dim3 grid = {1, 1, 1}, block = {WALK_N, 1, 1};
    s = walk_step_add(r, "nvrtc-launch", "cudaLaunchKernel((const void *)kernel, dim3(1), dim3(%d), args, 0, 0)", WALK_N);
    if (walk_cuda(r, s, cudaLaunchKernel((const void *)kernel, grid, block, args, 0, 0), CHEF_EXIT_CRASH) != 0)
        return -1;
    walk_step_detail(s, _("the same launch as before, with the kernel's handle instead of a compiled-in kernel"));
    s = walk_step_add(r, "nvrtc-synchronize", "cudaGetLastError(); cudaDeviceSynchronize()");
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess)
        e = cudaDeviceSynchronize();
    if (walk_cuda(r, s, e, CHEF_EXIT_CRASH) != 0)
        return -1;
    walk_step_detail(s, _("the cooks are done"));
    return walk_gpu_ship_out(r, "nvrtc-copy-out", r->nvrtc_c, d_c, &r->nvrtc_verified);
}

/* The NVRTC part of the walk. Returns 0 (done or skipped) or -1 with r->error. */
static int walk_gpu_nvrtc(walk_result *r, float *d_a, float *d_b, float *d_c)
{
    walk_nvrtc_api api;
    memset(&api, 0, sizeof api);
    int opened = walk_nvrtc_open(r, &api);
    if (opened != 0) {
        if (api.lib)
            dlclose(api.lib);
        return opened > 0 ? 0 : -1;
    }
    nvrtcProgram prog = NULL;
    char *code = NULL;
    cudaLibrary_t library = NULL;
    int rc = walk_nvrtc_compile(r, &api, &prog, &code);
    if (rc == 0)
        rc = walk_nvrtc_launch(r, code, &library, d_a, d_b, d_c);
    if (rc == 0)
        r->nvrtc = r->nvrtc_verified ? WALK_OK : WALK_FAILED;
    else if (r->nvrtc != WALK_FAILED) {
        r->nvrtc = WALK_FAILED;
        snprintf(r->nvrtc_reason, sizeof r->nvrtc_reason, "%.300s", r->error.message);
    }
    walk_step *s = walk_step_add(r, "nvrtc-unload", "cudaLibraryUnload(library); nvrtcDestroyProgram(&prog); dlclose(nvrtc)");
    if (walk_cuda_note(s, library ? cudaLibraryUnload(library) : cudaSuccess) == 0)
        walk_step_detail(s, _("the library, the program and NVRTC are given back"));
    if (prog)
        api.DestroyProgram(&prog);
    free(code);
    dlclose(api.lib);
    return rc;
}

/* The GPU walk. Returns the exit code. */
int walk_gpu(walk_result *r, const demo_params *p)
{
    (void)p;
    r->backend.kind = BACKEND_GPU;
    float *d_a = NULL, *d_b = NULL, *d_c = NULL;
    int rc = walk_gpu_device(r);
    if (rc == 0 && (walk_gpu_alloc(r, &d_a, "a") != 0 || walk_gpu_alloc(r, &d_b, "b") != 0 ||
                    walk_gpu_alloc(r, &d_c, "c") != 0 || walk_gpu_ship_in(r, d_a, r->a, "a") != 0 ||
                    walk_gpu_ship_in(r, d_b, r->b, "b") != 0))
        rc = -1;
    if (rc == 0)
        rc = walk_gpu_launch(r, d_a, d_b, d_c);
    if (rc == 0)
        rc = walk_gpu_ship_out(r, "copy-out", r->c, d_c, &r->verified);
    if (rc == 0)
        rc = walk_gpu_error(r);
    if (rc == 0)
        rc = walk_gpu_nvrtc(r, d_a, d_b, d_c);
    else {
        r->nvrtc = WALK_SKIPPED;
        snprintf(r->nvrtc_reason, sizeof r->nvrtc_reason, "%s", _("not reached: an earlier step failed"));
    }
    if (d_a || d_b || d_c) {
        walk_step *s = walk_step_add(r, "free", "cudaFree(d_a); cudaFree(d_b); cudaFree(d_c)");
        cudaError_t e = cudaFree(d_a), e2 = cudaFree(d_b), e3 = cudaFree(d_c);
        if (e == cudaSuccess)
            e = e2 != cudaSuccess ? e2 : e3;
        if (walk_cuda_note(s, e) == 0)
            walk_step_detail(s, _("the kitchen's pantry is given back"));
    }
    if (rc != 0)
        return r->error.exit_code ? r->error.exit_code : CHEF_EXIT_INTERNAL;
    return r->verified && r->nvrtc != WALK_FAILED ? CHEF_EXIT_OK : CHEF_EXIT_WRONG;
}
