/*
 * race_report.c - the fair race's result for people and for programs (see race.h).
 *
 * For people, in the learner's language and within 80 columns: who the contenders are, a table
 * per size (cooking time and GFLOP/s, with and without shipping, and the taste), an ASCII chart
 * of cooking time against size on log scales, and the crossover. For programs: the same figures
 * as JSON, null where nothing was measured. Every figure comes from the race_result of one run.
 */
#include "demos/race.h"

#include <stdlib.h>
#include <string.h>

#include "base/chart.h"
#include "base/i18n.h"
#include "base/text.h"

_Static_assert(RACE_MAX_CONTENDERS <= CHART_MAX_SERIES, "every contender needs a series of its own in the chart");

#define RACE_TEXT_WIDTH 79   /* every line fits an 80-column terminal */
#define RACE_CHART_WIDTH 56
#define RACE_CHART_HEIGHT 12

/* --- text --- */

/* Columns a UTF-8 string takes on a terminal: 2 for Hangul and other wide characters, else 1. */
static int race_columns(const char *s)
{
    return text_width(s, strlen(s));
}

/* Prints text padded with spaces to width columns, on the left (right = 0) or right (right = 1). */
static void race_pad(FILE *out, const char *text, int width, int right)
{
    int pad = width - race_columns(text);
    if (right)
        for (int i = 0; i < pad; i++)
            fputc(' ', out);
    fputs(text, out);
    if (!right)
        for (int i = 0; i < pad; i++)
            fputc(' ', out);
}

/* GFLOP/s for people (race.h). */
void race_format_gflops(double g, char *out, size_t size)
{
    snprintf(out, size, g >= 100 ? "%.0f" : g >= 10 ? "%.1f" : g >= 1 ? "%.2f" : "%.3f", g);
}

/* A contender's name for people (the CPU contenders' names are translated). */
static const char *race_display_name(const race_contender *c)
{
    return c->kind == RACE_CPU_LOOP ? _("CPU loop") : c->kind == RACE_CPU_BLAS ? _("CPU BLAS") : c->name;
}

/* Who the contenders are, one line each. */
static void race_text_contenders(FILE *out, const race_result *r)
{
    fprintf(out, "%s\n", _("Contenders:"));
    for (int c = 0; c < r->ncontenders; c++) {
        const race_contender *who = &r->contenders[c];
        fprintf(out, "  %c  ", who->letter);
        race_pad(out, race_display_name(who), 22, 0);
        char what[512];
        switch (who->kind) {
        case RACE_CPU_LOOP:
            snprintf(what, sizeof what, "%s", _("the plain triple loop in float, on one core"));
            break;
        case RACE_CPU_BLAS:
            snprintf(what, sizeof what, _("%s, on every core"), who->library);
            break;
        case RACE_KERNEL:
            snprintf(what, sizeof what, "%s", r->emulated ? _("a kernel of kernels/, on the CPU emulator")
                                                           : _("a kernel of kernels/, on the GPU"));
            break;
        case RACE_LIBRARY:
        default:
            snprintf(what, sizeof what, "%s", who->library[0] ? who->library : _("the library (it did not run)"));
            break;
        }
        demo_wrap(out, what, 27, 27, RACE_TEXT_WIDTH);
    }
}

/* One size: a row per contender with its times, speeds and taste. */
static void race_text_size(FILE *out, const race_result *r, int s)
{
    char head[64];
    snprintf(head, sizeof head, _("n = %lld"), (long long)r->sizes[s]);
    fputs("\n  ", out);
    race_pad(out, head, 25, 0);
    race_pad(out, _("cook"), 10, 1);
    race_pad(out, _("GFLOP/s"), 9, 1);
    race_pad(out, _("with shipping"), 15, 1);
    if (r->model_device[0]) /* the modeled time takes the place of the second speed (80 columns) */
        race_pad(out, _("modeled GPU"), 12, 1);
    else
        race_pad(out, _("GFLOP/s"), 9, 1);
    fputs("  ", out);
    fputs(_("taste"), out);
    fputc('\n', out);
    for (int c = 0; c < r->ncontenders; c++) {
        const race_contender *who = &r->contenders[c];
        const race_entry *e = race_entry_at(r, s, c);
        fprintf(out, "  %c ", who->letter);
        race_pad(out, race_display_name(who), 23, 0);
        if (e->skipped && !(e->predicted_ms > 0)) {
            /* a contender this machine cannot run (a library that is not installed) */
            fprintf(out, _("skipped: %s"), e->skipped_reason);
            fputc('\n', out);
            continue;
        }
        if (e->skipped) {
            char would[32];
            chef_format_ms(e->predicted_ms, would, sizeof would);
            if (e->predicted_from > 0)
                fprintf(out, _("skipped: about %s predicted from n = %lld"), would, (long long)e->predicted_from);
            else
                fprintf(out, _("skipped: about %s at a plain loop's pace"), would);
            fputc('\n', out);
            continue;
        }
        if (!e->ran) {
            fprintf(out, "%s\n", _("did not run"));
            continue;
        }
        char t[32], g[32];
        chef_format_ms(e->cook_ms, t, sizeof t);
        race_format_gflops(e->gflops, g, sizeof g);
        race_pad(out, t, 10, 1);
        race_pad(out, g, 9, 1);
        int modeled = r->model_device[0] != '\0';
        if (who->kind == RACE_CPU_LOOP || who->kind == RACE_CPU_BLAS) {
            race_pad(out, "-", 15, 1);
            if (!modeled)
                race_pad(out, "-", 9, 1);
        } else {
            chef_format_ms(e->total_ms, t, sizeof t);
            race_format_gflops(e->gflops_total, g, sizeof g);
            race_pad(out, t, 15, 1);
            if (!modeled)
                race_pad(out, g, 9, 1);
        }
        if (modeled) {
            if (e->model_ms > 0)
                chef_format_ms(e->model_ms, t, sizeof t);
            else
                snprintf(t, sizeof t, "-");
            race_pad(out, t, 12, 1);
        }
        fprintf(out, "  %s\n", e->passed ? _("ok") : _("WRONG"));
    }
}

/* One crossover line: from which size, and who won there. */
static void race_text_crossover(FILE *out, const race_result *r, const char *label, int64_t size, int by)
{
    char text[300];
    if (size > 0 && by >= 0)
        snprintf(text, sizeof text, _("from n = %lld on (%s beats CPU BLAS there and at every larger size)"),
                 (long long)size, r->contenders[by].name);
    else
        snprintf(text, sizeof text, "%s", _("not reached in this sweep"));
    fputs("  ", out);
    race_pad(out, label, 16, 0);
    demo_wrap(out, text, 2 + (race_columns(label) > 16 ? race_columns(label) : 16), 18, RACE_TEXT_WIDTH);
}

/* A matrix side as an axis label. */
static void race_format_side(double v, char *out, size_t size)
{
    snprintf(out, size, "%.0f", v);
}

/* The chart: cooking time against size, both on log scales, one letter per contender (chart.h). */
static void race_text_chart(FILE *out, const race_result *r)
{
    chart_point *points = malloc((size_t)r->nsizes * (size_t)r->ncontenders * sizeof *points);
    if (!points)
        return;
    chart_series series[RACE_MAX_CONTENDERS];
    char marks[RACE_MAX_CONTENDERS][2];
    for (int c = 0; c < r->ncontenders; c++) {
        marks[c][0] = r->contenders[c].letter;
        marks[c][1] = '\0';
        series[c] = (chart_series){marks[c], points + (size_t)c * (size_t)r->nsizes, 0};
        for (int s = 0; s < r->nsizes; s++) {
            const race_entry *e = race_entry_at(r, s, c);
            if (e->ran)
                points[(size_t)c * (size_t)r->nsizes + (size_t)series[c].npoints++] =
                    (chart_point){(double)e->size, e->cook_ms};
        }
    }
    chart ch;
    if (chart_plot(&ch, RACE_CHART_WIDTH, RACE_CHART_HEIGHT, series, r->ncontenders, race_format_side,
                   chef_format_ms) != 0 || !ch.plotted) {
        chart_free(&ch);
        free(points);
        return;
    }
    fputs("\n  ", out);
    demo_wrap(out, _("Cooking time against n, both on log scales (lower is faster; * several):"), 2, 2,
              RACE_TEXT_WIDTH);
    char line[RACE_CHART_WIDTH * CHART_MARK_SIZE + 64];
    for (int i = 0; i < chart_frame_lines(&ch); i++) {
        chart_frame_line(&ch, i, 9, line, sizeof line);
        fprintf(out, "  %s\n", line);
    }
    const char *xname = _("n (matrix side)");
    int xpad = 13 + RACE_CHART_WIDTH - race_columns(xname);
    fprintf(out, "%*s%s\n", xpad > 0 ? xpad : 0, "", xname);
    /* the legend, wrapped to fit 80 columns */
    int col = 0;
    for (int c = 0; c < r->ncontenders; c++) {
        const char *name = race_display_name(&r->contenders[c]);
        int w = 2 + race_columns(name);
        if (c > 0 && col + 2 + w > RACE_TEXT_WIDTH) {
            fputc('\n', out);
            col = 0;
        }
        col += fprintf(out, "  %c ", r->contenders[c].letter);
        fputs(name, out);
        col += race_columns(name);
    }
    fputc('\n', out);
    chart_free(&ch);
    free(points);
}

/* A rung's crossover in its table cell: "n = 64", "-" when not reached. */
static void race_rung_cell(FILE *out, int64_t size, int width)
{
    char text[32];
    if (size > 0)
        snprintf(text, sizeof text, _("n = %lld"), (long long)size);
    else
        snprintf(text, sizeof text, "-");
    race_pad(out, text, width, 0);
}

/* Each recipe's own crossovers, against CPU BLAS and against the CPU loop. */
static void race_text_rungs(FILE *out, const race_result *r)
{
    int any = 0;
    for (int c = 2; c < r->ncontenders; c++)
        any |= r->rungs[c].counted;
    if (!any)
        return;
    fputc('\n', out);
    demo_wrap(out, _("Each recipe's own crossover: from which n on it beats the CPU at every larger size of "
                     "the sweep (- not reached):"), 0, 0, RACE_TEXT_WIDTH);
    fputs("  ", out);
    race_pad(out, "", 22, 0);
    race_pad(out, _("against CPU BLAS"), 28, 0);
    fputs(_("against the CPU loop"), out);
    fputs("\n  ", out);
    race_pad(out, "", 22, 0);
    for (int k = 0; k < 2; k++) {
        race_pad(out, _("cooking"), 12, 0);
        race_pad(out, _("with shipping"), k ? 0 : 16, 0);
    }
    fputc('\n', out);
    for (int c = 2; c < r->ncontenders; c++) {
        const race_rung *g = &r->rungs[c];
        fprintf(out, "  %c ", r->contenders[c].letter);
        race_pad(out, r->contenders[c].name, 20, 0);
        if (!g->counted) {
            fprintf(out, "%s\n", _("left out: on the emulator it is OpenBLAS"));
            continue;
        }
        race_rung_cell(out, g->blas_cook, 12);
        race_rung_cell(out, g->blas_total, 16);
        race_rung_cell(out, g->loop_cook, 12);
        race_rung_cell(out, g->loop_total, 0);
        fputc('\n', out);
    }
}

/* For people (see race.h). */
void race_text(FILE *out, const race_result *r)
{
    demo_wrap(out, _("The race: C = A x B for n x n floats, 2 n^3 operations. Every time is a median after a "
                     "warm-up; every result is tasted."), 0, 0, RACE_TEXT_WIDTH);
    if (r->emulated) {
        demo_wrap(out, _("The \"GPU\" contenders ran on the CPU emulator (there is no GPU here): their times are "
                         "CPU times, so the crossover below is CPU against CPU, and a real GPU's would differ."),
                  0, 0, RACE_TEXT_WIDTH);
    } else {
        char line[400];
        snprintf(line, sizeof line, _("The GPU contenders cooked on %s."), r->backend.name);
        demo_wrap(out, line, 0, 0, RACE_TEXT_WIDTH);
    }
    race_text_contenders(out, r);
    for (int s = 0; s < r->nsizes; s++)
        race_text_size(out, r, s);
    if (r->model_device[0]) {
        char line[400];
        snprintf(line, sizeof line,
                 _("modeled GPU: the time the %s would take for the same launch, modeled from what the emulator "
                   "counted (a model, not a measurement; docs/PERFORMANCE.md says how close it comes)."),
                 r->model_device);
        fputc('\n', out);
        demo_wrap(out, line, 0, 0, RACE_TEXT_WIDTH);
    }
    int any_skip = 0;
    for (int s = 0; s < r->nsizes; s++)
        any_skip |= race_entry_at(r, s, 0)->skipped;
    if (any_skip) {
        fputc('\n', out);
        demo_wrap(out, _("The CPU loop sits out a size once its time, predicted from the size before by n^3 "
                         "scaling, would be more than a few seconds."), 0, 0, RACE_TEXT_WIDTH);
    }
    race_text_chart(out, r);
    fputc('\n', out);
    int libraries = 0;
    for (int c = 0; c < r->ncontenders; c++)
        libraries |= r->contenders[c].kind == RACE_LIBRARY;
    const char *heading = _("Crossover (the fastest GPU contender against CPU BLAS):");
    if (r->emulated && libraries)
        heading = _("Crossover (the fastest \"GPU\" kernel against CPU BLAS, here CPU against CPU; library recipes "
                    "left out, as on the emulator they are OpenBLAS too):");
    else if (r->emulated)
        heading = _("Crossover (the fastest \"GPU\" contender against CPU BLAS; here CPU against CPU):");
    demo_wrap(out, heading, 0, 0, RACE_TEXT_WIDTH);
    race_text_crossover(out, r, _("cooking only"), r->crossover_cook, r->crossover_cook_by);
    race_text_crossover(out, r, _("with shipping"), r->crossover_total, r->crossover_total_by);
    race_text_rungs(out, r);
    if (!r->passed && r->complete)
        demo_wrap(out, _("A result tasted wrong (marked WRONG above): the race does not pass."), 0, 0, RACE_TEXT_WIDTH);
    else if (!r->complete)
        demo_wrap(out, _("The race stopped early (the error is below): the sizes after it did not run."), 0, 0,
                  RACE_TEXT_WIDTH);
}

/* --- JSON --- */

/* A number, or null when it was not measured. */
static json_t *race_number(int measured, double v)
{
    return measured ? json_real(v) : json_null();
}

/* A size for programs, null when not reached. */
static json_t *race_size_json(int64_t size)
{
    return size > 0 ? json_integer((json_int_t)size) : json_null();
}

/* The crossover for programs: {"size": n or null, "contender": name or null}. */
static json_t *race_crossover_json(const race_result *r, int64_t size, int by)
{
    return json_pack("{s:o, s:o}", "size", race_size_json(size), "contender",
                     size > 0 && by >= 0 ? json_string(r->contenders[by].name) : json_null());
}

/* Each recipe's own crossovers for programs (null where left out). */
static json_t *race_rungs_json(const race_result *r)
{
    json_t *rungs = json_array();
    for (int c = 2; c < r->ncontenders; c++) {
        const race_rung *g = &r->rungs[c];
        json_t *blas = json_null(), *loop = json_null();
        if (g->counted) {
            blas = json_pack("{s:o, s:o}", "cooking", race_size_json(g->blas_cook), "with_shipping",
                             race_size_json(g->blas_total));
            loop = json_pack("{s:o, s:o}", "cooking", race_size_json(g->loop_cook), "with_shipping",
                             race_size_json(g->loop_total));
        }
        json_array_append_new(rungs, json_pack("{s:s, s:b, s:o, s:o}", "contender", r->contenders[c].name,
                                               "counted", g->counted, "vs_cpu_blas", blas, "vs_cpu_loop", loop));
    }
    return rungs;
}

/* For programs (see race.h). */
json_t *race_json(const race_result *r)
{
    json_t *contenders = json_array(), *results = json_array(), *sizes = json_array();
    for (int c = 0; c < r->ncontenders; c++) {
        const race_contender *who = &r->contenders[c];
        char letter[2] = {who->letter, '\0'};
        json_array_append_new(contenders,
                              json_pack("{s:s, s:s, s:s, s:o}", "name", who->name, "kind", race_kind_name(who->kind),
                                        "letter", letter, "library",
                                        who->library[0] ? json_string(who->library) : json_null()));
    }
    for (int s = 0; s < r->nsizes; s++) {
        json_array_append_new(sizes, json_integer((json_int_t)r->sizes[s]));
        for (int c = 0; c < r->ncontenders; c++) {
            const race_entry *e = race_entry_at(r, s, c);
            const race_contender *who = &r->contenders[c];
            json_t *row = json_pack(
                "{s:I, s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "size", (json_int_t)e->size, "contender",
                who->name, "kind", race_kind_name(who->kind), "cook_ms", race_number(e->ran, e->cook_ms),
                "total_ms", race_number(e->ran, e->total_ms), "gflops", race_number(e->ran, e->gflops),
                "gflops_with_shipping", race_number(e->ran, e->gflops_total), "repeat",
                e->ran ? json_integer(e->repeat) : json_null(), "passed",
                e->ran ? json_boolean(e->passed) : json_null(), "skipped_reason",
                e->skipped ? json_string(e->skipped_reason) : json_null(), "modeled_gpu_ms",
                e->ran && e->model_ms > 0 ? json_real(e->model_ms) : json_null());
            json_array_append_new(results, row);
        }
    }
    return json_pack("{s:s, s:s, s:{s:s, s:s}, s:b, s:s, s:o, s:o, s:o, s:{s:o, s:o, s:b}, s:o, s:b, s:b}", "kind", "race",
                     "operation", "C = A x B, n x n float, 2 n^3 operations", "backend", "kind",
                     backend_kind_name(r->backend.kind), "name", r->backend.name, "emulated", r->emulated,
                     "cpu_blas", r->contenders[1].library, "sizes", sizes, "contenders", contenders, "results",
                     results, "crossover", "cooking", race_crossover_json(r, r->crossover_cook, r->crossover_cook_by),
                     "with_shipping", race_crossover_json(r, r->crossover_total, r->crossover_total_by),
                     "library_recipes_counted", !r->emulated, "rungs", race_rungs_json(r), "complete",
                     r->complete, "passed", r->passed);
}
