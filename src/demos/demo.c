/*
 * demo.c - what the demo modules (clock, trips, walk) and lesson_run.c share, so that each is
 * written once: text cells padded to terminal columns, the error paragraph, the JSON pieces every
 * demo report has (numbers without NaN, the backend, a taste, the status at the end), opening the
 * kitchen with a result, the memory check before a demo allocates, and, in CUDA builds, finding a
 * kernel compiled into the program.
 */
#include "demos/demo.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/i18n.h"
#include "base/text.h"

/* Prints text padded to width terminal columns (Hangul takes two); width < 0 right-aligns. */
void demo_cell(FILE *out, const char *text, int width)
{
    int pad = (width < 0 ? -width : width) - text_width(text, strlen(text));
    if (pad < 0)
        pad = 0;
    if (width < 0)
        fprintf(out, "%*s%s", pad, "", text);
    else
        fprintf(out, "%s%*s", text, pad, "");
}

/* Prints the error paragraph of a demo that stopped: the heading with the message, then the hint. */
void demo_stopped_text(FILE *out, const char *heading, const chef_error *err)
{
    fprintf(out, heading, err->message);
    if (err->hint[0])
        fprintf(out, _("  hint: %s\n"), err->hint);
}

/* A JSON number, null when not finite (JSON has no NaN or infinity). */
json_t *demo_real(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

/* A JSON array of n floats, NaN as null. */
json_t *demo_floats_json(const float *v, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(a, demo_real(v[i]));
    return a;
}

/* A JSON array of the three sides of a grid or a block. */
json_t *demo_dim3_json(chef_dim3 d)
{
    return json_pack("[I,I,I]", (json_int_t)d.x, (json_int_t)d.y, (json_int_t)d.z);
}

/* Who cooked, for programs. */
json_t *demo_backend_json(const backend_info *b)
{
    return json_pack("{s:s, s:s, s:o, s:o}", "kind", b->kind == BACKEND_GPU ? "gpu" : "emu", "name", b->name,
                     "no_gpu_code", b->no_gpu_code[0] ? json_string(b->no_gpu_code) : json_null(), "no_gpu_reason",
                     b->no_gpu_reason[0] ? json_string(b->no_gpu_reason) : json_null());
}

/* Begins a demo's JSON object with its kind and who cooked. */
json_t *demo_json_begin(const char *kind, const backend_info *b)
{
    return json_pack("{s:s, s:o}", "kind", kind, "backend", demo_backend_json(b));
}

/* A taste's outcome, for programs. */
json_t *demo_taste_json(const verify_result *t)
{
    return json_pack("{s:b, s:I, s:I, s:o}", "passed", t->passed, "checked", (json_int_t)t->checked,
                     "correct", (json_int_t)t->correct, "max_abs_error", demo_real(t->max_abs_error));
}

/* Keeps the worse of two tastes in *kept: fewer elements right, then the larger error. */
void demo_keep_worst_taste(verify_result *kept, const verify_result *t, int first)
{
    if (first || t->correct < kept->correct ||
        (t->correct == kept->correct && t->max_abs_error > kept->max_abs_error))
        *kept = *t;
}

/* Adds the status, the exit code and the error (null unless exit_code > 1) to a demo's JSON. */
void demo_status_json(json_t *o, int exit_code, const chef_error *err)
{
    json_object_set_new(o, "status",
                        json_string(exit_code == 0   ? "passed"
                                    : exit_code == 1 ? "wrong"
                                                     : "error"));
    json_object_set_new(o, "exit_code", json_integer(exit_code));
    json_object_set_new(o, "error",
                        exit_code > 1 ? json_pack("{s:s, s:s, s:s}", "code", chef_error_code(err), "message",
                                                  err->message, "hint", err->hint)
                                      : json_null());
}

/* -1 with err set once the demo was asked to stop. */
int demo_stopped(const demo_params *p, chef_error *err)
{
    if (!cancel_requested(p->cancel))
        return 0;
    chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, "%s", _("the demo was stopped before it finished"));
    if (err)
        err->cause = CHEF_CAUSE_CANCELLED;
    return -1;
}

/* Opens the backend and allocates a zeroed result; NULL with err, nothing left open, on failure. */
void *demo_open(backend_kind want, size_t size, backend **be, chef_error *err)
{
    *be = backend_open(want, err);
    if (!*be)
        return NULL;
    void *r = calloc(1, size);
    if (!r) {
        backend_close(*be);
        *be = NULL;
        chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, _("out of host memory"));
    }
    return r;
}

/* Checks that a demo's buffers fit in host and device memory before anything is allocated. */
int demo_check_memory(size_t host, size_t device, const backend_info *info, chef_error *err)
{
    size_t avail = chef_host_memory_available();
    char need[32], have[32];
    if (avail > 0 && host > avail) {
        chef_format_bytes((double)host, need, sizeof need);
        chef_format_bytes((double)avail, have, sizeof have);
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("use a smaller --n"),
                         _("this demo needs %s of host memory, but only %s is available"), need, have);
    }
    if (info->kind == BACKEND_GPU && info->memory_free > 0 && device > info->memory_free) {
        chef_format_bytes((double)device, need, sizeof need);
        chef_format_bytes((double)info->memory_free, have, sizeof have);
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("use a smaller --n"),
                         _("this demo needs %s of GPU memory, but only %s is free"), need, have);
    }
    return 0;
}

/* Hands a demo's kept error to the caller and returns its exit code (fallback when it had none). */
int demo_error_exit(chef_error *kept, int fallback, chef_error *err)
{
    if (kept->exit_code == 0)
        kept->exit_code = fallback;
    *err = *kept;
    return kept->exit_code;
}

