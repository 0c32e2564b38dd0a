/*
 * lesson_run.c - runs a lesson's demos and says whether each showed what it is meant to show.
 *
 * `run` and `compare` demos are kitchen runs reported by report.c; `info` is `cudachef info`; the
 * other kinds have their own modules (demo.h). Every figure printed comes from the run just made.
 */
#include "lessons/lesson_run.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "demos/access.h"
#include "demos/card.h"
#include "demos/clock.h"
#include "demos/managed.h"
#include "demos/race.h"
#include "demos/roofline.h"
#include "engine/recipes.h"
#include "engine/report.h"
#include "demos/streams.h"
#include "demos/trips.h"
#include "demos/walk.h"

static int lesson_no_gpu; /* 1 when the probe found no GPU (lesson_probe_once) */

/* Asks for a GPU, once whichever thread comes first (a job's, or the command's). */
static void lesson_probe_once(void)
{
    backend_info info;
    memset(&info, 0, sizeof info);
    lesson_no_gpu = backend_gpu_probe(&info) == 0 ? 0 : 1;
}

/* Whether the CPU emulator will cook for this backend choice (asks the GPU once). */
static int lesson_emulator_cooks(backend_kind want)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    if (want == BACKEND_EMU)
        return 1;
    if (want == BACKEND_GPU)
        return 0;
    pthread_once(&once, lesson_probe_once);
    return lesson_no_gpu;
}

/* Builds the parameters of a demo. */
void lesson_demo_params(const lesson_demo *d, const demo_overrides *o, int emulator, demo_params *out,
                        demo_reduction *reduced)
{
    memset(out, 0, sizeof *out);
    kitchen_params *p = &out->run;
    kitchen_params_default(p);
    demo_reduction none = {DEMO_REDUCED_NONE, 0, 0};
    if (!reduced)
        reduced = &none;
    *reduced = none;
    p->recipe = d->recipe;
    p->n = d->n;
    if (d->threads_per_block)
        p->threads_per_block = (int)d->threads_per_block;
    p->blocks = d->blocks;
    p->pinned = d->pinned;
    if (d->seed >= 0) {
        p->seed = (uint64_t)d->seed;
        p->seed_given = 1;
    }
    if (d->repeat)
        p->repeat = (int)d->repeat;
    for (int i = 0; i < d->nrecipes; i++)
        out->recipes[i] = d->recipes[i];
    out->nrecipes = d->nrecipes;
    memcpy(out->sizes, d->sizes, sizeof out->sizes);
    out->nsizes = d->nsizes;
    out->steps = (int)d->steps;
    out->streams = (int)d->streams;
    /* the emulator's smaller values, where the learner did not choose */
    if (emulator) {
        if (d->emu_n && !o->n) {
            *reduced = (demo_reduction){DEMO_REDUCED_N, d->n, d->emu_n};
            p->n = d->emu_n;
        }
        if (d->emu_repeat && !o->repeat)
            p->repeat = (int)d->emu_repeat;
        if (d->emu_steps)
            out->steps = (int)d->emu_steps;
        if (d->emu_nsizes) {
            memcpy(out->sizes, d->emu_sizes, sizeof out->sizes);
            out->nsizes = d->emu_nsizes;
            if (reduced->kind == DEMO_REDUCED_NONE)
                *reduced = (demo_reduction){DEMO_REDUCED_SIZES, d->sizes[d->nsizes > 0 ? d->nsizes - 1 : 0],
                                            d->emu_sizes[d->emu_nsizes - 1]};
        }
    }
    /* what the learner gave wins */
    if (o->n)
        p->n = o->p.n;
    if (o->threads_per_block)
        p->threads_per_block = o->p.threads_per_block;
    if (o->blocks)
        p->blocks = o->p.blocks;
    if (o->pinned)
        p->pinned = 1;
    if (o->seed) {
        p->seed = o->p.seed;
        p->seed_given = 1;
    }
    if (o->repeat)
        p->repeat = o->p.repeat;
    if (o->workers)
        p->workers = o->p.workers;
    if (o->nsizes) {
        memcpy(out->sizes, o->sizes, sizeof out->sizes);
        out->nsizes = o->nsizes;
        if (reduced->kind == DEMO_REDUCED_SIZES) /* the learner's sizes are swept as given */
            *reduced = none;
    }
    if (o->steps)
        out->steps = o->steps;
    p->backend = o->p.backend;
    p->note = o->p.note;
    p->cancel = o->p.cancel; /* a stop reaches every kitchen run of the demo, and a long demo's steps */
    out->cancel = o->p.cancel;
    if (p->n == 0 && p->recipe && recipe_find(p->recipe))
        p->n = recipe_find(p->recipe)->default_n;
}

/* The sentence that says a demo was made smaller, in the learner's language ("" for none). */
void lesson_reduction_text(const demo_reduction *r, char *out, size_t size)
{
    if (r->kind == DEMO_REDUCED_N)
        snprintf(out, size,
                 _("The CPU emulator cooks, so n is %lld instead of %lld to keep this demo quick (give --n %lld for the full size)."),
                 (long long)r->to, (long long)r->from, (long long)r->from);
    else if (r->kind == DEMO_REDUCED_SIZES)
        snprintf(out, size, "%s", _("The CPU emulator cooks, so the sweep stops at smaller sizes to stay quick."));
    else if (size)
        out[0] = '\0';
}

/* The stable name of what was made smaller: "n", "sizes", or NULL for nothing. */
const char *lesson_reduction_code(const demo_reduction *r)
{
    return r->kind == DEMO_REDUCED_N ? "n" : r->kind == DEMO_REDUCED_SIZES ? "sizes" : NULL;
}

/* The outcome a demo expects on this backend. */
demo_expect lesson_demo_expected(const lesson_demo *d, int on_gpu)
{
    return on_gpu && d->gpu_expect_given ? d->gpu_expect : d->expect;
}

/* Whether an outcome is what a demo expects. */
int lesson_outcome_matches(demo_expect expect, demo_outcome outcome)
{
    switch (expect) {
    case EXPECT_PASS:
        return outcome == OUTCOME_PASSED;
    case EXPECT_WRONG:
        return outcome == OUTCOME_WRONG;
    case EXPECT_OUT_OF_BOUNDS:
        return outcome == OUTCOME_OUT_OF_BOUNDS;
    case EXPECT_ANY:
        return outcome != OUTCOME_ERROR;
    }
    return 0;
}

/* "passed", "wrong", "out-of-bounds", "error". */
const char *lesson_outcome_name(demo_outcome outcome)
{
    static const char *names[] = {"passed", "wrong", "out-of-bounds", "error"};
    return names[outcome];
}

/* The outcome of a kitchen run from its exit code and error. */
demo_outcome lesson_outcome_of(const kitchen_report *r, int code)
{
    if (code == CHEF_EXIT_OK)
        return OUTCOME_PASSED;
    if (code == CHEF_EXIT_WRONG)
        return OUTCOME_WRONG;
    if (code == CHEF_EXIT_CRASH && r->error.cause == CHEF_CAUSE_OUT_OF_BOUNDS)
        return OUTCOME_OUT_OF_BOUNDS;
    return OUTCOME_ERROR;
}

/* One sentence about the outcome against the expectation. */
static void lesson_outcome_text(FILE *out, demo_kind kind, demo_expect expect, demo_outcome outcome, int on_gpu)
{
    if (lesson_outcome_matches(expect, outcome) && kind != DEMO_RUN && kind != DEMO_COMPARE) {
        fprintf(out, "%s\n", _("=> Done: every step worked and every result was checked."));
        return;
    }
    if (lesson_outcome_matches(expect, outcome)) {
        switch (outcome) {
        case OUTCOME_PASSED:
            fprintf(out, "%s\n", expect == EXPECT_ANY && on_gpu
                                     ? _("=> The taste passed. On a GPU this mistake can go unnoticed: that is what makes it dangerous (compute-sanitizer finds it).")
                                     : _("=> As expected: the taste passed."));
            break;
        case OUTCOME_WRONG:
            fprintf(out, "%s\n", _("=> As expected: the results are wrong. This demo shows a mistake on purpose."));
            break;
        case OUTCOME_OUT_OF_BOUNDS:
            fprintf(out, "%s\n", _("=> As expected: a cook reached outside the pantry, and the emulator caught it."));
            break;
        case OUTCOME_ERROR:
            break;
        }
        return;
    }
    if (outcome == OUTCOME_ERROR)
        fprintf(out, "%s\n", _("=> The demo could not run: its error follows."));
    else
        fprintf(out, _("=> Not what this demo shows: expected %s, got %s.\n"), lesson_expect_name(expect),
                lesson_outcome_name(outcome));
}

/* The heading of a demo in text. */
static void lesson_demo_heading(FILE *out, const lesson *l, const lesson_demo *d)
{
    i18n_lang lang = i18n_current();
    fprintf(out, _("== Lesson %d, demo %s: %s ==\n"), l->number, d->name, d->title[lang]);
}

/* Says which of the demo's parameters the learner's options changed (its title is the lesson's). */
static void lesson_options_text(FILE *out, const demo_overrides *o)
{
    char list[512] = "";
    size_t len = 0;
#define LESSON_OPTION(given, fmt, ...)                                                             \
    if (given && len < sizeof list)                                                                \
        len += (size_t)snprintf(list + len, sizeof list - len, "%s" fmt, len ? ", " : "", __VA_ARGS__)
    LESSON_OPTION(o->n, "n = %lld", (long long)o->p.n);
    LESSON_OPTION(o->threads_per_block, "threads per block = %d", o->p.threads_per_block);
    LESSON_OPTION(o->blocks, "blocks = %lld", (long long)o->p.blocks);
    LESSON_OPTION(o->pinned, "%s", "pinned");
    LESSON_OPTION(o->seed, "seed = %llu", (unsigned long long)o->p.seed);
    LESSON_OPTION(o->repeat, "repeat = %d", o->p.repeat);
    LESSON_OPTION(o->steps, "steps = %d", o->steps);
    LESSON_OPTION(o->nsizes, "sizes = %lld..%lld", (long long)o->sizes[0], (long long)o->sizes[o->nsizes - 1]);
#undef LESSON_OPTION
    if (list[0])
        fprintf(out, _("(with your options: %s)\n"), list);
}

/* Runs a `run` demo; why gets the error when it stops with one. */
static int lesson_run_kitchen(const lesson_demo *d, const demo_params *dp, json_t *obj, FILE *text,
                              demo_outcome *outcome, int *on_gpu, chef_error *why)
{
    kitchen_report *r = malloc(sizeof *r);
    if (!r) {
        chef_fail(why, CHEF_EXIT_ENVIRONMENT, NULL, "%s", _("out of host memory"));
        return CHEF_EXIT_ENVIRONMENT;
    }
    kitchen_params p = dp->run;
    p.recipe = d->recipe;
    int code = kitchen_run(&p, r);
    *on_gpu = r->backend.kind == BACKEND_GPU;
    *outcome = lesson_outcome_of(r, code);
    if (text && r->started)
        report_run_text(text, r);
    if (code > CHEF_EXIT_WRONG)
        *why = r->error;
    if (obj)
        json_object_set_new(obj, "report", report_run_json(r));
    kitchen_report_free(r);
    free(r);
    return code;
}

#define LESSON_ACCESS_MAX_N 256 /* largest n traced cook by cook for the access pattern */

/* Shows, for each recipe of a compare demo, where its first warp's 32 writes land in memory. */
static void lesson_compare_access(const lesson_demo *d, int64_t n, json_t *obj, FILE *text)
{
    json_t *all = obj ? json_array() : NULL;
    for (int i = 0; i < d->nrecipes; i++) {
        access_pattern a;
        chef_error err = {0};
        const recipe *rc = recipe_find(d->recipes[i]);
        if (!rc || rc->library)
            continue;
        if (access_trace(d->recipes[i], n, rc->default_threads_per_block, &a, &err) != 0) {
            if (text)
                chef_error_print(&err);
            continue;
        }
        if (text) {
            fputc('\n', text);
            access_text(text, &a);
        }
        if (all)
            json_array_append_new(all, access_json(&a));
    }
    if (obj)
        json_object_set_new(obj, "access", all);
}

/* On the emulator, what a GPU would do with each recipe: the memory its warps move, counted, and
   the modeled GPU time with its ratio to the first recipe's, labelled as a model. */
static void lesson_compare_modeled(const lesson_demo *d, const kitchen_report *r, FILE *text)
{
    int any = 0;
    for (int i = 0; i < d->nrecipes; i++)
        any |= r[i].ran && r[i].modeled;
    if (!any)
        return;
    fprintf(text, _("\n  What a GPU's warps would do, counted on the emulator, and the time it would take, modeled on "
                    "the %s (a model, not a measurement):\n"),
            r[0].model_device.name);
    fputs("  ", text);
    demo_cell(text, _("recipe"), 31);
    demo_cell(text, _("global sectors"), -15);
    demo_cell(text, _("shared waves"), -13);
    demo_cell(text, _("conflicts"), -11);
    demo_cell(text, _("divergent"), -11);
    demo_cell(text, _("modeled"), -11);
    demo_cell(text, _("vs first"), -10);
    fputs("  ", text);
    demo_cell(text, _("bound by"), 0);
    fputc('\n', text);
    for (int i = 0; i < d->nrecipes; i++) {
        if (!r[i].ran || !r[i].modeled)
            continue;
        const counters *c = &r[i].counters;
        char t[32], ratio[32] = "1.00x";
        chef_format_ms(r[i].model.ms, t, sizeof t);
        if (i > 0 && r[0].modeled && r[i].model.ms > 0)
            snprintf(ratio, sizeof ratio, "%.2fx", r[0].model.ms / r[i].model.ms);
        fprintf(text, "  %-30s %15.0f%13.0f%11.0f%11.0f%11s%10s  %s\n", d->recipes[i],
                counters_scaled(c, COUNTER_GLOBAL_LD_SECTORS) + counters_scaled(c, COUNTER_GLOBAL_ST_SECTORS),
                counters_scaled(c, COUNTER_SHARED_LD_WAVEFRONTS) + counters_scaled(c, COUNTER_SHARED_ST_WAVEFRONTS),
                counters_scaled(c, COUNTER_SHARED_LD_CONFLICTS) + counters_scaled(c, COUNTER_SHARED_ST_CONFLICTS),
                counters_scaled(c, COUNTER_WARP_BLOCKS_DIVERGENT), t, ratio, _(model_bound_name(r[i].model.bound)));
    }
    fprintf(text, "%s\n", _("  (sectors: 32-byte pieces of memory the warps ask for; waves: passes of the shared "
                            "locker's 32 banks; divergent: warp runs of a block of code with part of the warp; "
                            "docs/PERFORMANCE.md says how the model is made and how close it came)"));
}

/* When a recipe of a compare rounds its inputs (the tensor cores' precisions): every recipe's
   largest error against the product of the inputs as given, beside what its inputs were kept as. */
static void lesson_compare_precision(const lesson_demo *d, const kitchen_report *r, FILE *text)
{
    int any = 0;
    for (int i = 0; i < d->nrecipes; i++)
        any |= r[i].ran && r[i].exact_known;
    if (!any)
        return;
    fprintf(text, "%s\n", _("\n  What each precision costs: the largest error against the product of the inputs as given"));
    fputs("  ", text);
    demo_cell(text, _("recipe"), 31);
    demo_cell(text, _("inputs"), 8);
    demo_cell(text, _("max error"), -11);
    fputc('\n', text);
    for (int i = 0; i < d->nrecipes; i++) {
        if (!r[i].ran)
            continue;
        const recipe *rc = recipe_find(d->recipes[i]);
        const char *kept = rc && rc->precision ? rc->precision : "FP32";
        size_t len = strlen(d->recipes[i]);
        if (!(rc && rc->precision) && len > 5 && strcmp(d->recipes[i] + len - 5, "-tf32") == 0 &&
            r[i].backend.kind == BACKEND_GPU)
            kept = "TF32"; /* the library's TF32 mode (on the CPU, OpenBLAS runs FP32) */
        fprintf(text, "  %-30s %-8s %11.3g\n", d->recipes[i], kept,
                r[i].exact_known ? r[i].exact_abs_error : r[i].taste.max_abs_error);
    }
    fprintf(text, "%s\n", _("  (the product itself is summed in double on the CPU, or by OpenBLAS in FP32 for large n: "
                            "`cudachef run RECIPE` says which)"));
}

/* Runs a `compare` demo: the same size through each recipe, cook times side by side. */
static int lesson_run_compare(const lesson_demo *d, const demo_params *dp, int64_t o_n, int tpb_given, json_t *obj,
                              FILE *text, demo_outcome *outcome, int *on_gpu, chef_error *why)
{
    kitchen_report *r = calloc((size_t)d->nrecipes, sizeof *r);
    if (!r) {
        chef_fail(why, CHEF_EXIT_ENVIRONMENT, NULL, "%s", _("out of host memory"));
        return CHEF_EXIT_ENVIRONMENT;
    }
    json_t *reports = json_array();
    int worst = CHEF_EXIT_OK;
    *outcome = OUTCOME_PASSED;
    for (int i = 0; i < d->nrecipes; i++) {
        kitchen_params p = dp->run;
        p.recipe = d->recipes[i];
        const recipe *rc = recipe_find(p.recipe);
        if (!dp->run.n && rc)
            p.n = rc->default_n;
        if (rc && rc->default_threads_per_block && !tpb_given)
            p.threads_per_block = rc->default_threads_per_block; /* each recipe keeps its own team shape */
        int code = kitchen_run(&p, &r[i]);
        *on_gpu = r[i].backend.kind == BACKEND_GPU;
        demo_outcome o = lesson_outcome_of(&r[i], code);
        if (o > *outcome)
            *outcome = o;
        if (code > worst) {
            worst = code;
            if (code > CHEF_EXIT_WRONG)
                *why = r[i].error; /* the worst recipe's error */
        }
        json_array_append_new(reports, report_run_json(&r[i]));
    }
    if (text) {
        if (r[0].started)
            report_backend_text(text, &r[0].backend);
        fputs("  ", text);
        demo_cell(text, _("recipe"), 31);
        demo_cell(text, _("cook median"), -13);
        demo_cell(text, _("GFLOP/s"), -13);
        demo_cell(text, _("vs first"), -11);
        fputs("  ", text);
        demo_cell(text, _("taste"), 0);
        fputc('\n', text);
        for (int i = 0; i < d->nrecipes; i++) {
            char t[32];
            if (!r[i].ran) {
                fprintf(text, "  %-30s  %s\n", d->recipes[i], _("did not run"));
                continue;
            }
            chef_format_ms(r[i].cook_ms, t, sizeof t);
            const recipe *rc = recipe_find(d->recipes[i]);
            double work = rc && rc->work ? rc->work(r[i].plan.n) : 0;
            int is_matmul = strncmp(d->recipes[i], "matmul", 6) == 0;
            double gflops = is_matmul && r[i].cook_ms > 0 ? 2.0 * work / (r[i].cook_ms * 1e6) : 0;
            char g[32] = "-";
            if (gflops > 0)
                snprintf(g, sizeof g, "%.1f", gflops);
            char ratio[32] = "1.00x";
            if (i > 0 && r[0].ran && r[i].cook_ms > 0)
                snprintf(ratio, sizeof ratio, "%.2fx", r[0].cook_ms / r[i].cook_ms);
            fprintf(text, "  %-30s %13s %13s %11s  %s\n", d->recipes[i], t, g, ratio,
                    r[i].taste.passed ? _("passed") : _("WRONG"));
        }
        for (int i = 0; i < d->nrecipes; i++) {
            const recipe *rc = recipe_find(d->recipes[i]);
            if (rc && rc->library && r[i].ran)
                fprintf(text, "  %s: %s\n", d->recipes[i], rc->library(&r[i].backend));
        }
        if (r[0].ran)
            fprintf(text, "%s\n", _("  (vs first: how many times faster than the first recipe cooked, in this run; "
                                    "`cudachef run RECIPE` gives any one of them in full)"));
    }
    if (text)
        lesson_compare_precision(d, r, text);
    if (text)
        lesson_compare_modeled(d, r, text);
    if (d->access) {
        /* the learner's n when it is small enough to trace cook by cook quickly, else 64: a warp's
           pattern is the same for every n that is a multiple of the team's side */
        int64_t n = o_n > 0 && o_n <= LESSON_ACCESS_MAX_N ? o_n : 64;
        lesson_compare_access(d, n, obj, text);
    }
    if (obj)
        json_object_set_new(obj, "reports", reports);
    else
        json_decref(reports);
    for (int i = 0; i < d->nrecipes; i++)
        kitchen_report_free(&r[i]);
    free(r);
    return worst;
}

/* Runs an `info` demo: the learner's own kitchen. */
static int lesson_run_info(const demo_params *dp, json_t *obj, FILE *text, demo_outcome *outcome, int *on_gpu,
                           chef_error *why)
{
    backend *b = backend_open(dp->run.backend, why);
    if (!b) {
        *outcome = OUTCOME_ERROR;
        return why->exit_code ? why->exit_code : CHEF_EXIT_ENVIRONMENT;
    }
    *on_gpu = b->info.kind == BACKEND_GPU;
    if (text)
        report_info_text(text, &b->info);
    if (obj)
        json_object_set_new(obj, "report", report_info_json(&b->info));
    backend_close(b);
    *outcome = OUTCOME_PASSED;
    return 0;
}

/* Runs one of the modules of demo.h (they share a shape) and reports what it returns. */
#define LESSON_RUN_MODULE(KIND, dp, obj, text, code, why)                                          \
    do {                                                                                           \
        KIND##_result *res_ = NULL;                                                                \
        (code) = KIND##_run((dp), &res_, (why));                                                   \
        if (res_) {                                                                                \
            if (text)                                                                              \
                KIND##_text((text), res_);                                                         \
            if (obj)                                                                               \
                json_object_set_new((obj), "report", KIND##_json(res_));                           \
            KIND##_free(res_);                                                                     \
        }                                                                                          \
    } while (0)

/* Runs a demo of a kind that has its own module (clock, race, trips, walk, card, roofline, streams,
   managed). */
static int lesson_run_module(const lesson_demo *d, const demo_params *dp, json_t *obj, FILE *text,
                             demo_outcome *outcome, chef_error *why)
{
    int code = CHEF_EXIT_INTERNAL;
    switch (d->kind) {
    case DEMO_CLOCK:
        LESSON_RUN_MODULE(clock, dp, obj, text, code, why);
        break;
    case DEMO_RACE:
        LESSON_RUN_MODULE(race, dp, obj, text, code, why);
        break;
    case DEMO_TRIPS:
        LESSON_RUN_MODULE(trips, dp, obj, text, code, why);
        break;
    case DEMO_WALK:
        LESSON_RUN_MODULE(walk, dp, obj, text, code, why);
        break;
    case DEMO_CARD:
        LESSON_RUN_MODULE(card, dp, obj, text, code, why);
        break;
    case DEMO_ROOFLINE:
        LESSON_RUN_MODULE(roofline, dp, obj, text, code, why);
        break;
    case DEMO_STREAMS:
        LESSON_RUN_MODULE(streams, dp, obj, text, code, why);
        break;
    case DEMO_MANAGED:
        LESSON_RUN_MODULE(managed, dp, obj, text, code, why);
        break;
    default:
        break;
    }
    *outcome = code == CHEF_EXIT_OK ? OUTCOME_PASSED : code == CHEF_EXIT_WRONG ? OUTCOME_WRONG : OUTCOME_ERROR;
    return code;
}

/* Runs one demo and reports it; the error of a demo that ends in one into *err. */
int lesson_run_demo_why(const lesson *l, const lesson_demo *d, const demo_overrides *o, demo_sink *sink,
                        chef_error *err)
{
    int emulator = lesson_emulator_cooks(o->p.backend);
    demo_params dp;
    demo_reduction reduction;
    char reduced[512];
    lesson_demo_params(d, o, emulator, &dp, &reduction);
    lesson_reduction_text(&reduction, reduced, sizeof reduced);
    FILE *text = sink->text;
    if (text) {
        lesson_demo_heading(text, l, d);
        lesson_options_text(text, o);
        if (reduced[0])
            fprintf(text, "%s\n", reduced);
        fflush(text);
    }
    json_t *obj = sink->json ? json_object() : NULL;
    demo_outcome outcome = OUTCOME_ERROR;
    chef_error why = {0};
    int on_gpu = !emulator;
    int code;
    switch (d->kind) {
    case DEMO_RUN:
        code = lesson_run_kitchen(d, &dp, obj, text, &outcome, &on_gpu, &why);
        break;
    case DEMO_COMPARE:
        code = lesson_run_compare(d, &dp, o->n ? o->p.n : 0, o->threads_per_block, obj, text, &outcome, &on_gpu, &why);
        break;
    case DEMO_INFO:
        code = lesson_run_info(&dp, obj, text, &outcome, &on_gpu, &why);
        break;
    default:
        code = lesson_run_module(d, &dp, obj, text, &outcome, &why);
        break;
    }
    demo_expect expect = lesson_demo_expected(d, on_gpu);
    int matches = lesson_outcome_matches(expect, outcome);
    if (text) {
        lesson_outcome_text(text, d->kind, expect, outcome, on_gpu);
        fputc('\n', text);
    }
    if (obj) {
        json_t *head = json_pack("{s:s, s:s, s:s, s:s, s:s, s:b, s:s}", "name", d->name, "kind",
                                 lesson_demo_kind_name(d->kind), "title", d->title[i18n_current()], "expect",
                                 lesson_expect_name(expect), "outcome", lesson_outcome_name(outcome), "as_expected",
                                 matches, "backend", on_gpu ? "gpu" : "emu");
        json_object_set_new(head, "reduced",
                            reduction.kind == DEMO_REDUCED_NONE
                                ? json_null()
                                : json_pack("{s:s, s:I, s:I, s:s}", "code", lesson_reduction_code(&reduction), "from",
                                            (json_int_t)reduction.from, "to", (json_int_t)reduction.to, "message",
                                            reduced));
        json_object_update(head, obj);
        json_decref(obj);
        json_array_append_new(sink->json, head);
    }
    if (matches)
        return 0;
    if (outcome == OUTCOME_ERROR) {
        if (err)
            *err = why;
        return code > CHEF_EXIT_WRONG ? code : CHEF_EXIT_INTERNAL;
    }
    return CHEF_EXIT_WRONG;
}

/* Runs one demo and reports it (the full-screen interface: the report says what went wrong). */
int lesson_run_demo(const lesson *l, const lesson_demo *d, const demo_overrides *o, demo_sink *sink)
{
    return lesson_run_demo_why(l, d, o, sink, NULL);
}
