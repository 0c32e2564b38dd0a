/*
 * managed.c - the "managed" demo: one recipe cooked with explicit copies, with managed memory moved
 * on demand, and with managed memory prefetched (see managed.h).
 *
 * The recipe's own plan, fill, arguments and CPU reference (recipes.h) are used. Launches and the
 * explicit way's shipments go through the backend, timed by it (CUDA events on a GPU, the CPU clock
 * on the emulator); managed memory and its prefetches are the GPU half's (managed_gpu.c). On the
 * emulator "managed" memory is the emulator's device memory, which is host memory the head chef
 * reads and writes directly: the same one memory, so nothing is prefetched. Allocations, filling
 * the inputs and poisoning the explicit way's output are never timed; every run is tasted.
 */
#include "demos/managed.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/i18n.h"
#include "base/text.h"
#include "demos/clock.h"
#include "engine/recipes.h"
#include "engine/report.h"

#define MANAGED_TEXT_WIDTH 79
#define MANAGED_LABEL 23   /* the table's first column: the longest way's name */
#define MANAGED_COLUMN 11  /* each time's column, with the space before it: 100 in all */

/* What every way shares: the backend, the recipe and its plan, the expected output. */
typedef struct managed_ctx {
    backend *be;
    const recipe *rc;
    kitchen_plan plan;     /* the buffers' pointers are set by each way */
    const float *expected;
    const demo_params *p;
    managed_result *r;
    int gpu;
} managed_ctx;

/* "explicit", "on-demand" or "prefetch". */
const char *managed_way_name(managed_way way)
{
    return way == MANAGED_EXPLICIT ? "explicit" : way == MANAGED_ON_DEMAND ? "on-demand" : "prefetch";
}

/* A way's name for people. */
static const char *managed_way_text(managed_way way)
{
    return way == MANAGED_EXPLICIT    ? _("(a) explicit copies")
           : way == MANAGED_ON_DEMAND ? _("(b) managed, on demand")
                                      : _("(c) managed, prefetched");
}

/* The output buffer of the plan (the last one). */
static kitchen_buffer *managed_output(managed_ctx *c)
{
    return &c->plan.buffers[c->plan.nbuffers - 1];
}

/* --- memory --- */

/* Gives every buffer managed memory (on the emulator, its device memory: host memory as well), the
   same pointer for the head chef and for the cooks, and has the head chef write the inputs. */
static int managed_take(managed_ctx *c, chef_error *err)
{
    for (int i = 0; i < c->plan.nbuffers; i++) {
        kitchen_buffer *b = &c->plan.buffers[i];
        void *ptr = NULL;
        size_t bytes = b->count * sizeof(float);
        int rc = c->gpu ? managed_gpu_alloc(&ptr, bytes, err)
                        : c->be->device_alloc(c->be, &ptr, bytes, b->name, sizeof(float), err);
        if (rc != 0)
            return -1;
        b->host = ptr;
        b->device = ptr;
    }
    c->rc->fill(&c->plan);
    return 0;
}

/* Frees the managed buffers that were taken. 0, or -1 with err (when it has no error yet) if the
   runtime refused one. */
static int managed_give_back(managed_ctx *c, chef_error *err)
{
    int code = 0;
    for (int i = 0; i < c->plan.nbuffers; i++) {
        kitchen_buffer *b = &c->plan.buffers[i];
        chef_error e = {0};
        if (b->device && !c->gpu)
            c->be->device_free(c->be, b->device);
        else if (b->device && managed_gpu_free(b->device, &e) != 0) {
            if (code == 0 && err->exit_code == 0)
                *err = e;
            code = -1;
        }
        b->host = NULL;
        b->device = NULL;
    }
    return code;
}

/* The explicit way's memory: host buffers (pinned if asked) and device buffers, inputs written by
   the head chef. */
static int managed_take_explicit(managed_ctx *c, chef_error *err)
{
    for (int i = 0; i < c->plan.nbuffers; i++) {
        kitchen_buffer *b = &c->plan.buffers[i];
        size_t bytes = b->count * sizeof(float);
        if (c->be->host_alloc(c->be, (void **)&b->host, bytes, c->r->pinned, err) != 0 ||
            c->be->device_alloc(c->be, &b->device, bytes, b->name, sizeof(float), err) != 0)
            return -1;
    }
    c->rc->fill(&c->plan);
    return 0;
}

/* Before each explicit run: the output set to NaN on both sides (all bits set), untimed, so that only
   this run's launch and shipment can make it taste right. */
static int managed_poison(managed_ctx *c, chef_error *err)
{
    kitchen_buffer *out = managed_output(c);
    size_t bytes = out->count * sizeof(float);
    memset(out->host, 0xFF, bytes);
    return c->be->copy(c->be, out->device, out->host, bytes, COPY_TO_DEVICE, NULL, err);
}

/* --- one run --- */

/* What moves on purpose before the launch (in) or after it (out): the explicit way ships with
   cudaMemcpy; the prefetched way prefetches on a GPU (in: every buffer, the output to make room for
   it; out: the output); the rest moves nothing and leaves *ms at 0. */
static int managed_move(managed_ctx *c, managed_way way, int in, double *ms, chef_error *err)
{
    *ms = 0;
    kitchen_plan *plan = &c->plan;
    int last = plan->nbuffers - 1;
    if (way == MANAGED_EXPLICIT) {
        for (int i = in ? 0 : last; i < (in ? last : plan->nbuffers); i++) {
            kitchen_buffer *b = &plan->buffers[i];
            double one = 0;
            if (c->be->copy(c->be, in ? b->device : (void *)b->host, in ? (const void *)b->host : b->device,
                            b->count * sizeof(float), in ? COPY_TO_DEVICE : COPY_TO_HOST, &one, err) != 0)
                return -1;
            *ms += one;
        }
        return 0;
    }
    if (way != MANAGED_PREFETCH || !c->gpu)
        return 0;
    void *ptrs[KITCHEN_MAX_BUFFERS];
    size_t bytes[KITCHEN_MAX_BUFFERS];
    int count = 0;
    for (int i = in ? 0 : last; i < plan->nbuffers; i++, count++) {
        ptrs[count] = plan->buffers[i].device;
        bytes[count] = plan->buffers[i].count * sizeof(float);
    }
    return managed_gpu_prefetch(ptrs, bytes, count, in, c->r->support.device, ms, err);
}

/* One launch of the recipe's kernel on the plan's buffers, timed by the backend. */
static int managed_launch(managed_ctx *c, double *ms, chef_error *err)
{
    if (demo_stopped(c->p, err) != 0)
        return -1;
    void *args[8];
    c->rc->args(&c->plan, args);
    launch_options opt = {0};
    opt.workers = c->p->run.workers;
    opt.cancel = c->p->cancel;
    return c->be->launch(c->be, c->rc->kernel, c->plan.grid, c->plan.block, args, &opt, ms, err);
}

/* The head chef's first pass over the output: a sum in eight running parts (quick, so that what it
   costs is mostly the pages coming home). */
static float managed_read(const float *v, size_t n)
{
    float part[8] = {0};
    size_t i = 0;
    for (; i + 8 <= n; i += 8)
        for (int k = 0; k < 8; k++)
            part[k] += v[i + k];
    for (; i < n; i++)
        part[0] += v[i];
    return ((part[0] + part[1]) + (part[2] + part[3])) + ((part[4] + part[5]) + (part[6] + part[7]));
}

/* One run of a way on memory already taken: move in, launch, launch again, move out, the head chef's
   read, then the taste (untimed). */
static int managed_round(managed_ctx *c, managed_way way, managed_figures *f, verify_result *taste, chef_error *err)
{
    kitchen_buffer *out = managed_output(c);
    double t0 = chef_now_ms();
    if (managed_move(c, way, 1, &f->in, err) != 0 || managed_launch(c, &f->cook, err) != 0)
        return -1;
    double t1 = chef_now_ms();
    /* the same kernel on the same memory again, apart from the journey: are the pages there now? */
    if (managed_launch(c, &f->again, err) != 0)
        return -1;
    double t2 = chef_now_ms();
    if (managed_move(c, way, 0, &f->out, err) != 0)
        return -1;
    double t3 = chef_now_ms();
    /* the head chef's first read of the output: with managed memory, what brings it home */
    volatile float sum = managed_read(out->host, out->count);
    (void)sum;
    double t4 = chef_now_ms();
    f->read = t4 - t3;
    f->journey = f->in + f->cook + f->out + f->read;
    f->clock = (t1 - t0) + (t4 - t2);
    verify_compare(out->host, c->expected, out->count, c->r->rtol, c->r->atol, taste);
    return 0;
}

/* --- one way --- */

/* The median of each figure over n runs, each taken on its own. */
static int managed_medians(const managed_figures *runs, int n, managed_figures *median, chef_error *err)
{
    static const size_t fields[] = {offsetof(managed_figures, in),      offsetof(managed_figures, cook),
                                    offsetof(managed_figures, again),   offsetof(managed_figures, out),
                                    offsetof(managed_figures, read),   offsetof(managed_figures, journey),
                                    offsetof(managed_figures, clock)};
    double *column = malloc((size_t)n * sizeof *column);
    if (!column)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, _("out of host memory"));
    for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++) {
        for (int i = 0; i < n; i++)
            column[i] = *(const double *)((const char *)&runs[i] + fields[f]);
        *(double *)((char *)median + fields[f]) = clock_summarize(column, n).median;
    }
    free(column);
    return 0;
}

/* Runs a way: one warm-up run, then `repeat` on the clock; the managed ways on fresh memory each
   time, the explicit one on the same buffers, its output poisoned before each run. */
static int managed_way_run(managed_ctx *c, managed_variant *v, chef_error *err)
{
    int repeat = c->r->repeat;
    managed_figures *runs = calloc((size_t)repeat, sizeof *runs);
    if (!runs)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, _("out of host memory"));
    int explicit_way = v->way == MANAGED_EXPLICIT;
    int code = explicit_way ? managed_take_explicit(c, err) : 0;
    for (int k = 0; k <= repeat && code == 0; k++) { /* k = 0: the warm-up, not counted */
        managed_figures f = {0};
        verify_result taste;
        code = explicit_way ? managed_poison(c, err) : managed_take(c, err);
        if (code == 0)
            code = managed_round(c, v->way, &f, &taste, err);
        if (!explicit_way && managed_give_back(c, err) != 0)
            code = -1;
        if (code != 0)
            break;
        demo_keep_worst_taste(&v->taste, &taste, k == 0);
        v->tasted++;
        v->tasted_right += taste.passed;
        if (k > 0) {
            runs[k - 1] = f;
            v->journey_runs[k - 1] = f.journey;
        }
    }
    if (explicit_way)
        kitchen_release(c->be, &c->plan, c->r->pinned);
    if (code == 0)
        code = managed_medians(runs, repeat, &v->median, err);
    free(runs);
    if (code == 0) {
        v->runs = repeat;
        v->ran = 1;
    }
    return code;
}

/* --- the plan --- */

/* Checks the recipe and the sizes, plans the launch and the buffers. Returns 0 or -1 with err. */
static int managed_plan(const demo_params *p, managed_ctx *c, chef_error *err)
{
    managed_result *r = c->r;
    kitchen_params kp = p->run;
    const recipe *rc = recipe_find(kp.recipe ? kp.recipe : "vector-add");
    if (!rc)
        return chef_fail(err, CHEF_EXIT_USAGE, _("`cudachef list` shows what can be run"), _("unknown recipe '%s'"),
                         kp.recipe);
    if (rc->library || rc->zero_output || !rc->reference)
        return chef_fail(err, CHEF_EXIT_USAGE, _("vector-add is the recipe this demo is written for"),
                         _("the managed demo needs a kernel of ours that writes its whole output once per "
                           "launch; %s does not"),
                         rc->name);
    if (kp.n == 0)
        kp.n = rc->default_n;
    if (kp.threads_per_block == 0)
        kp.threads_per_block = rc->default_threads_per_block;
    r->repeat = kp.repeat > 0 ? kp.repeat : MANAGED_DEFAULT_REPEAT;
    if (kp.repeat < 0 || r->repeat > MANAGED_MAX_REPEAT)
        return chef_fail(err, CHEF_EXIT_USAGE, _("use 1 to 100"), _("--repeat %d is out of range"), kp.repeat);
    c->rc = rc;
    c->plan.seed = kp.seed;
    if (rc->plan(&kp, &c->be->info, &c->plan, err) != 0)
        return -1;
    r->recipe = rc->name;
    r->kernel = rc->kernel;
    r->n = c->plan.n;
    r->grid = c->plan.grid;
    r->block = c->plan.block;
    r->seed = c->plan.seed;
    r->pinned = kp.pinned;
    kitchen_tolerance(rc, &kp, c->plan.n, &r->rtol, &r->atol);
    size_t total = 0;
    for (int i = 0; i < c->plan.nbuffers; i++) {
        const kitchen_buffer *b = &c->plan.buffers[i];
        size_t bytes = b->count * sizeof(float);
        total += bytes;
        if (b->is_output) {
            r->bytes_out = bytes;
            snprintf(r->output, sizeof r->output, "%s", b->name);
        } else {
            r->bytes_in += bytes;
            size_t len = strlen(r->inputs);
            snprintf(r->inputs + len, sizeof r->inputs - len, "%s%s", len ? ", " : "", b->name);
        }
    }
    if (total > MANAGED_MAX_BYTES) {
        char have[32];
        chef_format_bytes((double)total, have, sizeof have);
        return chef_fail(err, CHEF_EXIT_USAGE, _("use a smaller --n"),
                         _("the managed demo keeps its buffers under 1 GiB together; n = %lld needs %s"),
                         (long long)r->n, have);
    }
    /* host: the expected output, the explicit way's host buffers, managed pages brought home; the
       emulator's device memory is host memory too. The ways run one after another. */
    return demo_check_memory(r->bytes_out + 2 * total + (c->gpu ? 0 : total), total, &c->be->info, err);
}

/* The expected output, from the head chef's own inputs in plain host memory. */
static float *managed_expected(managed_ctx *c, const demo_params *p, chef_error *err)
{
    kitchen_plan host = c->plan;
    float *expected = malloc(managed_output(c)->count * sizeof *expected);
    int ok = expected != NULL;
    for (int i = 0; i < host.nbuffers; i++)
        host.buffers[i].host = ok ? malloc(host.buffers[i].count * sizeof(float)) : NULL;
    for (int i = 0; i < host.nbuffers; i++)
        ok = ok && host.buffers[i].host;
    if (ok) {
        c->rc->fill(&host);
        if (kitchen_use_blas(c->rc, &p->run, &host))
            c->rc->reference_fast(&host, expected);
        else
            c->rc->reference(&host, expected);
    }
    for (int i = 0; i < host.nbuffers; i++)
        free(host.buffers[i].host);
    if (!ok) {
        free(expected);
        chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("use a smaller --n"), _("out of host memory for the reference"));
        return NULL;
    }
    return expected;
}

/* Runs the demo (see managed.h). */
int managed_run(const demo_params *p, managed_result **out, chef_error *err)
{
    *out = NULL;
    backend *be;
    managed_result *r = demo_open(p->run.backend, sizeof *r, &be, err);
    if (!r)
        return err->exit_code;
    *out = r;
    r->backend = be->info;
    managed_ctx c;
    memset(&c, 0, sizeof c);
    c.be = be;
    c.p = p;
    c.r = r;
    c.gpu = be->info.kind == BACKEND_GPU;
    float *expected = NULL;
    int code = c.gpu ? managed_gpu_support(&r->support, &r->error) : 0;
    if (code == 0)
        code = managed_plan(p, &c, &r->error);
    if (code == 0)
        code = (expected = managed_expected(&c, p, &r->error)) ? 0 : -1;
    c.expected = expected;
    for (int w = 0; w < MANAGED_WAYS; w++) {
        managed_variant *v = &r->variants[w];
        v->way = (managed_way)w;
        v->moved = w == MANAGED_EXPLICIT || (w == MANAGED_PREFETCH && c.gpu);
        if (r->support.asked && w != MANAGED_EXPLICIT && !r->support.managed_memory)
            v->skipped = MANAGED_SKIP_NO_MANAGED;
        else if (r->support.asked && w == MANAGED_PREFETCH && !r->support.concurrent_access)
            v->skipped = MANAGED_SKIP_NO_CONCURRENT;
        if (code != 0 || v->skipped != MANAGED_SKIP_NONE)
            continue;
        if (p->progress)
            p->progress(p->progress_ctx, managed_way_text(v->way));
        code = managed_way_run(&c, v, &r->error);
    }
    free(expected);
    backend_close(be);
    if (code != 0)
        return r->exit_code = demo_error_exit(&r->error, CHEF_EXIT_INTERNAL, err);
    int passed = 1;
    for (int w = 0; w < MANAGED_WAYS; w++)
        passed = passed && (!r->variants[w].ran || r->variants[w].taste.passed);
    return r->exit_code = passed ? CHEF_EXIT_OK : CHEF_EXIT_WRONG;
}

/* Releases a result. */
void managed_free(managed_result *r)
{
    free(r);
}

/* --- text --- */

/* Prints a paragraph wrapped to the report's width, its lines after the first indented. */
static void managed_wrap(FILE *out, const char *text, int indent)
{
    demo_wrap(out, text, 0, indent, MANAGED_TEXT_WIDTH);
}

/* The attributes the GPU gave, or on the emulator why there is nothing to ask. */
static void managed_text_device(FILE *out, const managed_result *r)
{
    if (!r->support.asked) {
        managed_wrap(out, _("There is no GPU here. The emulator has one memory, the head chef's, so managed memory "
                            "is ordinary memory: no page moves between two memories, no page fault, and there "
                            "is nothing to prefetch. The three ways still cook the same kernel source, "
                            "and every time below is a CPU time of the emulator. No GPU time is modeled: no device "
                            "file gives the road's speed or the cost of a page fault."),
                     0);
        return;
    }
    const managed_support *s = &r->support;
    fputs(_("What the device says about managed memory (cudaDeviceGetAttribute):\n"), out);
    fprintf(out, "  cudaDevAttrManagedMemory            %d  %s\n", s->managed_memory,
            s->managed_memory ? _("cudaMallocManaged works") : _("no managed memory on this device"));
    fprintf(out, "  cudaDevAttrConcurrentManagedAccess  %d  %s\n", s->concurrent_access,
            s->concurrent_access ? _("pages move on demand while the cooks cook, and can be prefetched")
                                 : _("pages cannot move while a kernel runs, nor be prefetched to the GPU"));
    fprintf(out, "  cudaDevAttrPageableMemoryAccess     %d  %s\n", s->pageable_access,
            s->pageable_access ? _("the cooks can read ordinary (malloc) host memory too")
                               : _("the cooks cannot read ordinary (malloc) host memory"));
}

/* A time for the table, or "-" when the way did not measure it. */
static void managed_cell(FILE *out, double ms, int measured)
{
    char cell[32];
    if (measured)
        chef_format_ms(ms, cell, sizeof cell);
    else
        snprintf(cell, sizeof cell, "-");
    fputc(' ', out);
    demo_cell(out, cell, -(MANAGED_COLUMN - 1));
}

/* The table: a row per way that ran, the medians of its figures. */
static void managed_text_table(FILE *out, const managed_result *r)
{
    if (r->repeat == 1)
        managed_wrap(out, _("Each way ran once to warm up, then once on the clock (the managed ways on fresh memory): "
                            "the figures come from that one run."),
                     0);
    else {
        char line[400];
        snprintf(line, sizeof line,
                 _("Each way ran once to warm up, then %d times on the clock, the managed ways on fresh memory "
                   "every time. Each figure is the median of %d runs, taken on its own (a journey need not be the "
                   "sum of the medians before it)."),
                 r->repeat, r->repeat);
        managed_wrap(out, line, 0);
    }
    fputc('\n', out);
    demo_cell(out, "", MANAGED_LABEL);
    const char *heads[] = {_("move in"), _("cook"), _("move out"), _("chef read"), _("journey"), _("clock"), _("again")};
    for (size_t i = 0; i < sizeof heads / sizeof heads[0]; i++) {
        fputc(' ', out);
        demo_cell(out, heads[i], -(MANAGED_COLUMN - 1));
    }
    fputc('\n', out);
    for (int w = 0; w < MANAGED_WAYS; w++) {
        const managed_variant *v = &r->variants[w];
        if (!v->ran)
            continue;
        const managed_figures *m = &v->median;
        demo_cell(out, managed_way_text(v->way), MANAGED_LABEL);
        managed_cell(out, m->in, v->moved);
        managed_cell(out, m->cook, 1);
        managed_cell(out, m->out, v->moved);
        managed_cell(out, m->read, 1);
        managed_cell(out, m->journey, 1);
        managed_cell(out, m->clock, 1);
        managed_cell(out, m->again, 1);
        fputc('\n', out);
    }
    managed_wrap(out, _("cook: the first launch on this run's memory; again: the same launch once more, no part of "
                        "the journey; chef read: the head chef's first pass over the output. journey = move in + "
                        "cook + move out + chef read."),
                 0);
    managed_wrap(out, r->backend.kind == BACKEND_GPU
                          ? _("Moves and launches are timed by CUDA events; the chef's read and the clock column (the "
                              "journey's steps on the host clock) by the CPU clock.")
                          : _("Every figure is the CPU clock's."),
                 0);
}

/* Formats a figure of a way: "2.1 ms", or "-" if the way did not run. */
static void managed_ms(const managed_result *r, managed_way way, double ms, char *out, size_t size)
{
    if (r->variants[way].ran)
        chef_format_ms(ms, out, size);
    else
        snprintf(out, size, "-");
}

/* Which pages moved when, way by way. */
static void managed_text_pages(FILE *out, const managed_result *r)
{
    const managed_variant *v = r->variants;
    int gpu = r->support.asked;
    char in[32], outb[32], first[32], again[32], line[1200];
    chef_format_bytes((double)r->bytes_in, in, sizeof in);
    chef_format_bytes((double)r->bytes_out, outb, sizeof outb);
    fputs(_("\nWhich pages moved, and when:\n"), out);
    if (gpu)
        snprintf(line, sizeof line,
                 _("(a) cudaMemcpy shipped the inputs %s (%s) into the kitchen before the launch and %s (%s) back "
                   "after it: every page was where the cooks needed it before they started."),
                 r->inputs, in, r->output, outb);
    else
        snprintf(line, sizeof line,
                 _("(a) The shipments of %s (%s) in and %s (%s) out are memcpy within this CPU's memory: the "
                   "emulator's kitchen pantry is host memory too."),
                 r->inputs, in, r->output, outb);
    managed_wrap(out, line, 4);
    if (v[MANAGED_ON_DEMAND].skipped == MANAGED_SKIP_NO_MANAGED) {
        managed_wrap(out, _("(b) and (c) did not run: this device cannot allocate managed memory "
                            "(cudaDevAttrManagedMemory is 0)."),
                     4);
        return;
    }
    managed_ms(r, MANAGED_ON_DEMAND, v[MANAGED_ON_DEMAND].median.cook, first, sizeof first);
    managed_ms(r, MANAGED_ON_DEMAND, v[MANAGED_ON_DEMAND].median.again, again, sizeof again);
    if (!gpu)
        snprintf(line, sizeof line,
                 _("(b) Nothing was copied: the cooks read the inputs where the head chef wrote them. Every run "
                   "takes fresh memory, so the operating system maps each page of %s when a cook first writes it: "
                   "this CPU's own first touch, not a page moving between memories. First launch %s, again %s."),
                 r->output, first, again);
    else if (r->support.concurrent_access)
        snprintf(line, sizeof line,
                 _("(b) Nothing was copied on purpose. The head chef wrote the inputs, so their pages began in the "
                   "head chef's pantry; in the first launch each page moved to the kitchen when a cook first "
                   "touched it (a page fault on the GPU: the cooks who need it wait), inside the first cook time. "
                   "The cooks touched %s first, so its pages were made in the kitchen; it moved back page by page "
                   "when the head chef read it (page faults on the CPU), inside the chef read time. The "
                   "second launch found every page in the kitchen: %s against %s the first time."),
                 r->output, again, first);
    else
        snprintf(line, sizeof line,
                 _("(b) Nothing was copied on purpose. This device cannot move pages while the cooks cook "
                   "(concurrent managed access 0): the driver moves the managed memory as a whole around the "
                   "launch rather than page by page, and the head chef may touch it only once the kernel is "
                   "done. First launch %s, again %s."),
                 first, again);
    managed_wrap(out, line, 4);
    managed_ms(r, MANAGED_PREFETCH, v[MANAGED_PREFETCH].median.cook, first, sizeof first);
    managed_ms(r, MANAGED_PREFETCH, v[MANAGED_PREFETCH].median.again, again, sizeof again);
    if (v[MANAGED_PREFETCH].skipped == MANAGED_SKIP_NO_CONCURRENT)
        snprintf(line, sizeof line, "%s",
                 _("(c) did not run: cudaMemPrefetchAsync to the GPU needs concurrent managed access, and this "
                   "device reports 0."));
    else if (!gpu)
        snprintf(line, sizeof line,
                 _("(c) Nothing to prefetch: with one memory cudaMemPrefetchAsync has nowhere to move a page, so "
                   "this way ran as (b) did. First launch %s, again %s."),
                 first, again);
    else
        snprintf(line, sizeof line,
                 _("(c) cudaMemPrefetchAsync moved the inputs (%s) to the kitchen and made room for %s there "
                   "before the launch, then moved %s (%s) back to the head chef's pantry before the read: "
                   "the cooks met no missing page. First launch %s, again %s."),
                 in, r->output, r->output, outb, first, again);
    managed_wrap(out, line, 4);
}

/* The ratios between the ways, where the GPU ran them all. */
static void managed_text_ratios(FILE *out, const managed_result *r)
{
    const managed_variant *v = r->variants;
    if (!r->support.asked || !v[MANAGED_ON_DEMAND].ran || !v[MANAGED_PREFETCH].ran ||
        v[MANAGED_PREFETCH].median.cook <= 0 || v[MANAGED_EXPLICIT].median.journey <= 0)
        return;
    char line[600];
    snprintf(line, sizeof line,
             _("\nOn this GPU the first launch on demand took %.1fx as long as the prefetched one. Journeys against "
               "explicit copies: %.2fx on demand, %.2fx prefetched."),
             v[MANAGED_ON_DEMAND].median.cook / v[MANAGED_PREFETCH].median.cook,
             v[MANAGED_ON_DEMAND].median.journey / v[MANAGED_EXPLICIT].median.journey,
             v[MANAGED_PREFETCH].median.journey / v[MANAGED_EXPLICIT].median.journey);
    managed_wrap(out, line, 0);
}

/* The taste of every way that ran. */
static void managed_text_taste(FILE *out, const managed_result *r)
{
    int ran = 0, passed = 0;
    for (int w = 0; w < MANAGED_WAYS; w++) {
        ran += r->variants[w].ran;
        passed += r->variants[w].ran && r->variants[w].taste.passed;
    }
    char line[400];
    snprintf(line, sizeof line,
             _("\ntaste: %d of %d ways correct (%s against the CPU's reference, every element of every run, the "
               "warm-up too, within %.0e + %.0e x |expected|)"),
             passed, ran, r->output, r->atol, r->rtol);
    managed_wrap(out, line, 0);
    for (int w = 0; w < MANAGED_WAYS; w++) {
        const managed_variant *v = &r->variants[w];
        const verify_result *t = &v->taste;
        if (!v->ran || t->passed)
            continue;
        fprintf(out, t->checked == 1 ? _("  %s: %d of %d runs right; the worst: %zu of %zu element correct\n")
                                     : _("  %s: %d of %d runs right; the worst: %zu of %zu elements correct\n"),
                managed_way_text(v->way), v->tasted_right, v->tasted, t->correct, t->checked);
        for (size_t k = 0; k < t->nmismatches && k < 3; k++)
            fprintf(out, _("    wrong at [%zu]: expected %g, got %g\n"), t->mismatches[k].index,
                    t->mismatches[k].expected, t->mismatches[k].got);
    }
    fprintf(out, "%s\n", passed == ran ? _("PASS: the dish tastes right") : _("FAIL: the dish tastes wrong"));
}

/* Writes the result for people, in the learner's language. */
void managed_text(FILE *out, const managed_result *r)
{
    char total[32];
    chef_format_bytes((double)(r->bytes_in + r->bytes_out), total, sizeof total);
    if (r->kernel)
        fprintf(out, _("managed: %s (%s) three ways, n = %lld, %s in all\n"), r->kernel, r->recipe, (long long)r->n,
                total);
    else
        fputs(_("managed: one recipe three ways\n"), out);
    report_backend_text(out, &r->backend);
    int ran = 0;
    for (int w = 0; w < MANAGED_WAYS; w++)
        ran += r->variants[w].ran;
    /* what the GPU said, even if nothing ran after; the emulator's one memory, once something ran */
    if (r->support.asked || (ran > 0 && r->backend.kind != BACKEND_GPU)) {
        fputc('\n', out);
        managed_text_device(out, r);
    }
    if (ran == 0 || r->exit_code > CHEF_EXIT_WRONG) {
        if (ran > 0) {
            fputc('\n', out);
            managed_text_table(out, r);
        }
        demo_stopped_text(out, _("\nThe kitchen stopped: %s\n"), &r->error);
        return;
    }
    fputc('\n', out);
    managed_text_table(out, r);
    managed_text_pages(out, r);
    managed_text_ratios(out, r);
    managed_text_taste(out, r);
}

/* --- JSON --- */

/* A time, or null where the way did not measure it. */
static json_t *managed_ms_json(double ms, int measured)
{
    return measured ? demo_real(ms) : json_null();
}

/* One way for programs. */
static json_t *managed_variant_json(const managed_variant *v)
{
    static const char *const skips[] = {NULL, "no-managed-memory", "no-concurrent-access"};
    const managed_figures *m = &v->median;
    json_t *o = json_pack("{s:s, s:b, s:o, s:b}", "way", managed_way_name(v->way), "ran", v->ran, "skipped",
                          skips[v->skipped] ? json_string(skips[v->skipped]) : json_null(), "moved", v->moved);
    json_object_set_new(o, "move_in_ms", managed_ms_json(m->in, v->ran && v->moved));
    json_object_set_new(o, "cook_ms", managed_ms_json(m->cook, v->ran));
    json_object_set_new(o, "move_out_ms", managed_ms_json(m->out, v->ran && v->moved));
    json_object_set_new(o, "read_ms", managed_ms_json(m->read, v->ran));
    json_object_set_new(o, "journey_ms", managed_ms_json(m->journey, v->ran));
    json_object_set_new(o, "clock_ms", managed_ms_json(m->clock, v->ran));
    json_object_set_new(o, "again_ms", managed_ms_json(m->again, v->ran));
    json_t *runs = json_array();
    for (int i = 0; i < v->runs; i++)
        json_array_append_new(runs, demo_real(v->journey_runs[i]));
    json_object_set_new(o, "journey_runs_ms", runs);
    json_object_set_new(o, "tasted_runs", json_integer(v->tasted));
    json_object_set_new(o, "tasted_right_runs", json_integer(v->tasted_right));
    json_object_set_new(o, "taste", v->tasted ? demo_taste_json(&v->taste) : json_null());
    return o;
}

/* The result for programs (kind "managed", docs/DEMOS.md); the caller owns the reference. */
json_t *managed_json(const managed_result *r)
{
    int gpu = r->backend.kind == BACKEND_GPU;
    const managed_support *s = &r->support;
    json_t *o = demo_json_begin("managed", &r->backend);
    json_object_set_new(o, "recipe", r->recipe ? json_string(r->recipe) : json_null());
    json_object_set_new(o, "kernel", r->kernel ? json_string(r->kernel) : json_null());
    json_object_set_new(o, "n", json_integer((json_int_t)r->n));
    json_object_set_new(o, "grid", demo_dim3_json(r->grid));
    json_object_set_new(o, "block", demo_dim3_json(r->block));
    json_object_set_new(o, "seed", json_integer((json_int_t)r->seed));
    json_object_set_new(o, "pinned", json_boolean(r->pinned));
    json_object_set_new(o, "repeat", json_integer(r->repeat));
    json_object_set_new(o, "warm_up_runs", json_integer(1));
    json_object_set_new(o, "bytes_in", json_integer((json_int_t)r->bytes_in));
    json_object_set_new(o, "bytes_out", json_integer((json_int_t)r->bytes_out));
    json_object_set_new(o, "timer", json_string(gpu ? "cuda-events" : "cpu-clock"));
    json_object_set_new(o, "one_memory", json_boolean(!gpu));
    json_object_set_new(o, "device",
                        s->asked ? json_pack("{s:i, s:i, s:i, s:i}", "ordinal", s->device, "managed_memory",
                                             s->managed_memory, "concurrent_managed_access", s->concurrent_access,
                                             "pageable_memory_access", s->pageable_access)
                                 : json_null());
    json_object_set_new(o, "tolerance", json_pack("{s:f, s:f}", "rtol", r->rtol, "atol", r->atol));
    json_t *variants = json_array();
    for (int w = 0; w < MANAGED_WAYS; w++)
        json_array_append_new(variants, managed_variant_json(&r->variants[w]));
    json_object_set_new(o, "variants", variants);
    demo_status_json(o, r->exit_code, &r->error);
    return o;
}
