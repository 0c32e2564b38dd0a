/*
 * backend.c - choosing who cooks.
 */
#include "backend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Opens the backend asked for. AUTO takes the GPU when one works, else the emulator. */
backend *backend_open(backend_kind want, chef_error *err)
{
    if (want == BACKEND_EMU)
        return backend_emu_open(err);
    backend_info probe;
    char reason[sizeof probe.no_gpu_reason];
    if (backend_gpu_probe(&probe) == 0) {
        chef_error gpu_err = {0};
        backend *b = backend_gpu_open(&gpu_err);
        if (b)
            return b;
        if (want == BACKEND_GPU) {
            if (err)
                *err = gpu_err;
            return NULL;
        }
        snprintf(reason, sizeof reason, "%s", gpu_err.message);
    } else {
        if (want == BACKEND_GPU) {
            chef_fail(err, CHEF_EXIT_ENVIRONMENT, "use --backend emu (or auto) to cook on the CPU emulator",
                      "no usable GPU: %s", probe.no_gpu_reason);
            return NULL;
        }
        snprintf(reason, sizeof reason, "%s", probe.no_gpu_reason);
    }
    backend *b = backend_emu_open(err);
    if (b)
        snprintf(b->info.no_gpu_reason, sizeof b->info.no_gpu_reason, "%s", reason);
    return b;
}

/* Closes and frees a backend. */
void backend_close(backend *b)
{
    if (b && b->close)
        b->close(b);
}
