/*
 * access.c - a warp's 32 writes and the 128-byte segments they land in, from an emulator trace.
 *
 * The emulator's checked build records, for every cook, the first output element it wrote
 * (trace.h). Cooks are grouped into warps as a GPU groups them: 32 neighbouring linear indices of
 * one team, threadIdx.x varying fastest. For each warp we count the distinct segments its writes
 * touch; the first warp of team 0 is shown cook by cook.
 */
#include "demos/access.h"

#include <stdlib.h>
#include <string.h>

#include "base/i18n.h"
#include "engine/kitchen.h"
#include "engine/recipes.h"

/* Widest row of cells drawn for the segments a warp touches. */
#define ACCESS_PICTURE_MAX 64

/* The 128-byte segment of an element of a float buffer, -1 for none. */
static int64_t access_segment(int64_t element)
{
    return element < 0 ? -1 : element * (int64_t)sizeof(float) / ACCESS_SEGMENT_BYTES;
}

/* Counts the distinct segments among count values (-1: no write, not counted). */
static int access_distinct(const int64_t *segment, int count)
{
    int distinct = 0;
    for (int i = 0; i < count; i++) {
        int seen = segment[i] < 0;
        for (int j = 0; j < i && !seen; j++)
            seen = segment[j] == segment[i];
        distinct += !seen;
    }
    return distinct;
}

/* Reads one warp's segments from the trace (first cook at index start, count cooks); 1 when every
   cook wrote an element, 0 when one did not, -1 when the records are not where expected. */
static int access_warp(const trace *t, size_t start, uint32_t team, uint32_t first_cook, int count,
                       int64_t *element, int64_t *segment)
{
    int full = 1;
    for (int i = 0; i < count; i++) {
        const trace_thread *rec = &t->threads[start + (size_t)i];
        if (rec->block != team || rec->thread != first_cook + (uint32_t)i)
            return -1;
        element[i] = rec->element;
        segment[i] = access_segment(rec->element);
        full &= rec->element >= 0;
    }
    return full;
}

/* Fills the pattern from a traced run: team 0's first warp and the mean over full warps. */
static int access_fill(const kitchen_report *r, access_pattern *out, chef_error *err)
{
    const trace *t = &r->trace;
    const kitchen_plan *plan = &r->plan;
    const kitchen_buffer *output = &plan->buffers[plan->nbuffers - 1];
    snprintf(out->recipe, sizeof out->recipe, "%s", r->recipe);
    snprintf(out->buffer, sizeof out->buffer, "%s", output->name);
    out->n = plan->n;
    out->threads_per_block = r->params.threads_per_block;
    out->block = plan->block;
    out->width = plan->n > 1 && output->count == (size_t)(plan->n * plan->n) ? plan->n : 0;
    uint64_t per_team = r->cooks_per_team;
    double total = 0.0;
    for (uint64_t team = 0; team < r->teams; team++) {
        for (uint64_t first = 0; first < per_team; first += ACCESS_WARP) {
            int count = per_team - first < ACCESS_WARP ? (int)(per_team - first) : ACCESS_WARP;
            int64_t element[ACCESS_WARP], segment[ACCESS_WARP];
            int full = access_warp(t, (size_t)(team * per_team + first), (uint32_t)team, (uint32_t)first, count,
                                   element, segment);
            if (full < 0)
                return chef_fail(err, CHEF_EXIT_INTERNAL, NULL, "%s", _("the per-cook trace is not in team and cook order"));
            if (team == 0 && first == 0) {
                out->cooks = count;
                memcpy(out->element, element, sizeof element);
                memcpy(out->segment, segment, sizeof segment);
                out->segments = access_distinct(segment, count);
            }
            if (full && count == ACCESS_WARP) {
                out->full_warps++;
                total += access_distinct(segment, count);
            }
        }
    }
    out->mean_segments = out->full_warps ? total / out->full_warps : 0.0;
    return 0;
}

/* Refuses, before anything runs, a launch with more cooks than the emulator traces one by one. */
static int access_check_size(const kitchen_params *p, chef_error *err)
{
    const recipe *rc = recipe_find(p->recipe);
    if (!rc)
        return chef_fail(err, CHEF_EXIT_USAGE, _("`cudachef list` shows what can be run"), _("unknown recipe '%s'"),
                         p->recipe);
    backend *be = backend_open(BACKEND_EMU, err);
    if (!be)
        return -1;
    kitchen_params q = *p;
    q.n = q.n ? q.n : rc->default_n;
    q.threads_per_block = q.threads_per_block ? q.threads_per_block : rc->default_threads_per_block;
    kitchen_plan plan;
    memset(&plan, 0, sizeof plan);
    int bad = rc->plan(&q, &be->info, &plan, err);
    backend_close(be);
    if (bad)
        return -1;
    uint64_t cooks = (uint64_t)plan.grid.x * plan.grid.y * plan.grid.z * plan.block.x * plan.block.y * plan.block.z;
    if (cooks > KITCHEN_CHECKED_COOKS)
        return chef_fail(err, CHEF_EXIT_USAGE, _("use a smaller --n: the emulator records each cook's writes for up to 2^20 cooks"),
                         _("%s at n = %lld has too many cooks (%llu) to trace one by one"), rc->name, (long long)q.n,
                         (unsigned long long)cooks);
    return 0;
}

/* Runs the recipe once on the emulator, traced cook by cook, and fills out (see access.h). */
int access_trace(const char *recipe_name, int64_t n, int threads_per_block, access_pattern *out, chef_error *err)
{
    return access_trace_kernel(recipe_name, NULL, n, threads_per_block, out, err);
}

/* The same with another kernel in place of the recipe's (a learner's exercise). */
int access_trace_kernel(const char *recipe_name, const char *kernel, int64_t n, int threads_per_block,
                        access_pattern *out, chef_error *err)
{
    memset(out, 0, sizeof *out);
    kitchen_params p;
    kitchen_params_default(&p);
    p.recipe = recipe_name;
    p.kernel = kernel;
    p.n = n;
    p.threads_per_block = threads_per_block;
    p.backend = BACKEND_EMU;
    p.repeat = 1;
    p.taste_outside = 1; /* the trace is the point: no taste (cudachef-check holds no reference) */
    if (access_check_size(&p, err) != 0)
        return err->exit_code;
    kitchen_report *r = malloc(sizeof *r);
    if (!r) {
        chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, "%s", _("out of host memory"));
        return CHEF_EXIT_ENVIRONMENT;
    }
    int code = kitchen_run(&p, r);
    if (code > CHEF_EXIT_WRONG) {
        *err = r->error;
    } else if (!r->trace.threads || r->trace.nthreads != r->cooks) {
        code = CHEF_EXIT_INTERNAL;
        chef_fail(err, code, NULL, "%s", _("the emulator recorded no per-cook trace"));
    } else if (access_fill(r, out, err) != 0) {
        code = err->exit_code;
    } else {
        code = 0;
    }
    kitchen_report_free(r);
    free(r);
    return code;
}

/* Writes the row of cells from the warp's lowest segment to its highest: # written, . not. */
static void access_picture(FILE *out, const access_pattern *a)
{
    int64_t low = -1, high = -1;
    for (int i = 0; i < a->cooks; i++) {
        if (a->segment[i] < 0)
            continue;
        low = low < 0 || a->segment[i] < low ? a->segment[i] : low;
        high = a->segment[i] > high ? a->segment[i] : high;
    }
    if (low < 0)
        return;
    if (high - low + 1 > ACCESS_PICTURE_MAX) {
        fprintf(out, _("  the writes spread over segments %lld to %lld: %lld segments' worth of memory\n"),
                (long long)low, (long long)high, (long long)(high - low + 1));
        return;
    }
    char cells[ACCESS_PICTURE_MAX + 1];
    int width = (int)(high - low + 1);
    memset(cells, '.', (size_t)width);
    cells[width] = '\0';
    for (int i = 0; i < a->cooks; i++)
        if (a->segment[i] >= 0)
            cells[a->segment[i] - low] = '#';
    fprintf(out, _("  segments %lld to %lld: %s  (# written by the warp, . not)\n"), (long long)low, (long long)high,
            cells);
}

/* Writes the pattern for people (see access.h). */
void access_text(FILE *out, const access_pattern *a)
{
    fprintf(out, _("How the first warp of team 0 writes %s (%s, n = %lld, teams of %u x %u cooks):\n"), a->buffer,
            a->recipe, (long long)a->n, a->block.x, a->block.y);
    for (int i = 0; i < a->cooks; i++) {
        unsigned x = (unsigned)i % a->block.x, y = ((unsigned)i / a->block.x) % a->block.y;
        long long e = (long long)a->element[i];
        if (e < 0)
            fprintf(out, _("  cook %2d (x %2u, y %2u) writes nothing\n"), i, x, y);
        else if (a->width)
            fprintf(out, _("  cook %2d (x %2u, y %2u) -> %s[%lld][%lld]  segment %lld\n"), i, x, y, a->buffer,
                    e / a->width, e % a->width, (long long)a->segment[i]);
        else
            fprintf(out, _("  cook %2d (x %2u, y %2u) -> %s[%lld]  segment %lld\n"), i, x, y, a->buffer, e,
                    (long long)a->segment[i]);
    }
    access_picture(out, a);
    fprintf(out, _("Segments of 128 bytes the %d writes touch: %d (1 or 2: coalesced; up to 32: scattered).\n"),
            a->cooks, a->segments);
    if (a->full_warps)
        fprintf(out, _("Full warps in the run: %d, touching %.1f segments each on average.\n"), a->full_warps,
                a->mean_segments);
    fprintf(out, "%s\n", _("Traced on the CPU emulator with the same kernel source."));
}

/* The pattern for programs (see access.h). */
json_t *access_json(const access_pattern *a)
{
    json_t *warp = json_array();
    for (int i = 0; i < a->cooks; i++) {
        unsigned x = (unsigned)i % a->block.x, y = ((unsigned)i / a->block.x) % a->block.y;
        int wrote = a->element[i] >= 0;
        json_t *cook = json_pack("{s:i, s:i, s:i, s:o, s:o}", "cook", i, "x", (int)x, "y", (int)y, "element",
                                 wrote ? json_integer(a->element[i]) : json_null(), "segment",
                                 wrote ? json_integer(a->segment[i]) : json_null());
        if (wrote && a->width) {
            json_object_set_new(cook, "row", json_integer(a->element[i] / a->width));
            json_object_set_new(cook, "col", json_integer(a->element[i] % a->width));
        }
        json_array_append_new(warp, cook);
    }
    return json_pack("{s:s, s:I, s:i, s:[i,i,i], s:s, s:o, s:i, s:o, s:i, s:i, s:f, s:s}", "recipe", a->recipe, "n",
                     (json_int_t)a->n, "threads_per_block", a->threads_per_block, "block", (int)a->block.x,
                     (int)a->block.y, (int)a->block.z, "buffer", a->buffer, "width",
                     a->width ? json_integer(a->width) : json_null(), "segment_bytes", ACCESS_SEGMENT_BYTES, "warp",
                     warp, "segments", a->segments, "full_warps", a->full_warps, "mean_segments", a->mean_segments,
                     "traced_on", "emulator");
}
