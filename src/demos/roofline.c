/*
 * roofline.c - recipes on a GPU's roofline, counted, modeled or measured (see roofline.h).
 */
#include "demos/roofline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/chart.h"
#include "base/i18n.h"
#include "engine/recipes.h"

/* A y label: GFLOP/s, thousands as K. */
static void roofline_format_gflops(double v, char *out, size_t size)
{
    if (v >= 1000)
        snprintf(out, size, "%.3gK", v / 1000);
    else
        snprintf(out, size, "%.3g", v);
}

/* An x label: FLOP per byte. */
static void roofline_format_intensity(double v, char *out, size_t size)
{
    snprintf(out, size, "%g", v);
}

/* The y of a point: measured where a GPU cooked, else modeled. */
static double roofline_y(const roofline_result *r, const roofline_point *p)
{
    return r->measured ? p->measured_gflops : p->modeled_gflops;
}

/* Lays out the chart into r->lines. */
int roofline_draw(roofline_result *r)
{
    r->nlines = 0;
    double lo = r->ridge, hi = r->ridge;
    chart_point pts[DEMO_MAX_RECIPES][1];
    chart_series series[2 + DEMO_MAX_RECIPES];
    int nseries = 2;
    for (int i = 0; i < r->npoints; i++) {
        const roofline_point *p = &r->points[i];
        double y = roofline_y(r, p);
        if (!p->ran || !(p->intensity > 0) || !(y > 0))
            continue;
        lo = p->intensity < lo ? p->intensity : lo;
        hi = p->intensity > hi ? p->intensity : hi;
        pts[i][0] = (chart_point){p->intensity, y};
        series[nseries++] = (chart_series){p->mark, pts[i], 1};
    }
    if (!(lo > 0) || !(r->peak_gflops > 0) || !(r->dram_gb_s > 0))
        return -1;
    /* whole decades around the points and the ridge, one roof sample per column */
    double x_lo = pow(10, floor(log10(lo / 2))), x_hi = pow(10, ceil(log10(hi * 2)));
    chart_point memory[ROOFLINE_WIDTH], compute[ROOFLINE_WIDTH];
    int nmemory, ncompute;
    if (chart_roof_points(r->peak_gflops, r->dram_gb_s, x_lo, x_hi, ROOFLINE_WIDTH, memory, &nmemory, compute,
                          &ncompute) != 0)
        return -1;
    series[0] = (chart_series){"/", memory, nmemory};
    series[1] = (chart_series){"-", compute, ncompute};
    chart c;
    if (chart_plot(&c, ROOFLINE_WIDTH, ROOFLINE_HEIGHT, series, nseries, roofline_format_intensity,
                   roofline_format_gflops) != 0)
        return -1;
    for (int s = 2; s < nseries; s++) /* the points on top of the roofs */
        chart_put(&c, series[s].points[0].x, series[s].points[0].y, s);
    chart_decade_xticks(&c, roofline_format_intensity);
    for (int line = 0; line < chart_frame_lines(&c) && r->nlines < ROOFLINE_MAX_LINES; line++)
        chart_frame_line(&c, line, ROOFLINE_LABEL, r->lines[r->nlines++], sizeof r->lines[0]);
    chart_free(&c);
    return 0;
}

/* Cooks one recipe and takes its point. */
static int roofline_cook(const demo_params *dp, const char *name, roofline_result *r, roofline_point *pt,
                         chef_error *err)
{
    const recipe *rc = recipe_find(name);
    if (!rc)
        return chef_fail(err, CHEF_EXIT_USAGE, _("`cudachef list` shows the recipes"), _("no recipe '%s'"), name);
    kitchen_params p = dp->run;
    p.recipe = rc->name;
    p.threads_per_block = rc->default_threads_per_block;
    int matrix = rc->default_n <= 46340;
    p.n = matrix ? (dp->run.n > 0 ? dp->run.n : rc->default_n) : ROOFLINE_VECTOR_N;
    pt->n = p.n;
    kitchen_report k;
    int code = kitchen_run(&p, &k);
    if (r->npoints == 1) {
        r->backend = k.backend;
        r->measured = k.backend.kind == BACKEND_GPU;
    }
    if (code > CHEF_EXIT_WRONG) {
        *err = k.error;
        kitchen_report_free(&k);
        return code;
    }
    pt->passed = code == CHEF_EXIT_OK;
    if (k.modeled) {
        const model_result *m = &k.model;
        pt->ran = 1;
        pt->flops = m->flops;
        pt->dram_bytes = m->memory_bytes;
        pt->l2_bytes = 32.0 * (counters_scaled(&k.counters, COUNTER_GLOBAL_LD_SECTORS) +
                               counters_scaled(&k.counters, COUNTER_GLOBAL_ST_SECTORS));
        pt->intensity = m->intensity;
        pt->l2_intensity = pt->l2_bytes > 0 ? pt->flops / pt->l2_bytes : 0;
        pt->modeled_ms = m->ms;
        pt->modeled_gflops = m->ms > 0 ? m->flops / (m->ms * 1e6) : 0;
        pt->bound = model_bound_name(m->bound);
        if (r->measured && k.cook_ms > 0) {
            pt->measured_ms = k.cook_ms;
            pt->measured_gflops = m->flops / (k.cook_ms * 1e6);
        }
        snprintf(r->device_id, sizeof r->device_id, "%s", k.model_device.id);
        snprintf(r->device_name, sizeof r->device_name, "%s", k.model_device.name);
        r->peak_gflops = m->peak_gflops;
        r->dram_gb_s = k.model_device.dram_gb_s;
        r->ridge = r->peak_gflops / r->dram_gb_s;
        pt->roof_gflops = chart_roof(pt->intensity, r->peak_gflops, r->dram_gb_s);
    }
    kitchen_report_free(&k);
    return code;
}

/* Cooks every recipe of the demo and lays out the chart. */
int roofline_run(const demo_params *p, roofline_result **out, chef_error *err)
{
    *out = NULL;
    roofline_result *r = calloc(1, sizeof *r);
    if (!r)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, "%s", _("out of host memory"));
    int worst = CHEF_EXIT_OK;
    for (int i = 0; i < p->nrecipes; i++) {
        if (demo_stopped(p, err) != 0) {
            worst = err->exit_code;
            break;
        }
        roofline_point *pt = &r->points[r->npoints++];
        snprintf(pt->recipe, sizeof pt->recipe, "%s", p->recipes[i]);
        pt->mark[0] = (char)('A' + i);
        if (p->progress)
            p->progress(p->progress_ctx, p->recipes[i]);
        chef_error e = {0};
        int code = roofline_cook(p, p->recipes[i], r, pt, &e);
        if (code > CHEF_EXIT_WRONG) {
            *err = e;
            r->error = e;
            worst = code;
            break;
        }
        if (code > worst)
            worst = code;
    }
    roofline_draw(r);
    r->exit_code = worst;
    *out = r;
    return worst;
}

/* The chart and the table, for people. */
void roofline_text(FILE *out, const roofline_result *r)
{
    if (!r->device_name[0]) {
        fprintf(out, "%s\n", _("  No launch was counted, so there is no point to draw."));
        return;
    }
    const char *how = r->measured ? _("measured") : _("modeled");
    fprintf(out, _("  The roofline of the %s (assets/devices/%s.ini): memory roof %.0f GB/s x intensity, "
                   "compute roof %.0f GFLOP/s, meeting at %.1f FLOP per byte.\n"),
            r->device_name, r->device_id, r->dram_gb_s, r->peak_gflops, r->ridge);
    fprintf(out, _("  GFLOP/s (%s)\n"), how);
    for (int i = 0; i < r->nlines; i++)
        fprintf(out, "  %s\n", r->lines[i]);
    fprintf(out, "  %*s%s\n", ROOFLINE_LABEL + 2, "",
            _("FLOP per byte of device memory, counted (log scale; / memory roof, - compute roof)"));
    fputs("\n  ", out);
    demo_cell(out, "", 2);
    demo_cell(out, _("recipe"), 18);
    demo_cell(out, "n", -9);
    demo_cell(out, _("FLOP/B"), -9);
    demo_cell(out, _("L2 FLOP/B"), -10);
    demo_cell(out, _("GFLOP/s"), -9);
    demo_cell(out, _("roof"), -8);
    fputs("  ", out);
    demo_cell(out, _("bound by (model)"), 0);
    fputc('\n', out);
    for (int i = 0; i < r->npoints; i++) {
        const roofline_point *p = &r->points[i];
        fprintf(out, "  %s ", p->mark);
        demo_cell(out, p->recipe, 18);
        if (!p->ran) {
            fprintf(out, " %8lld  %s\n", (long long)p->n, _("not counted"));
            continue;
        }
        fprintf(out, " %8lld %9.3g %10.3g %9.0f %8.0f  %s%s\n", (long long)p->n, p->intensity, p->l2_intensity,
                roofline_y(r, p), p->roof_gflops, _(p->bound), p->passed ? "" : _(" (taste failed)"));
    }
    if (r->measured)
        fprintf(out, "%s\n", _("  (GFLOP/s: counted operations over the measured median time on this GPU; the roofs "
                               "are the device file's, which may not be this GPU)"));
    else
        fprintf(out, "%s\n", _("  (GFLOP/s: modeled, counted operations over the model's time on that GPU, not a "
                               "measurement; FLOP/B counts device-memory bytes, L2 FLOP/B every sector the warps "
                               "asked for)"));
}

/* The points and the chart, for programs. */
json_t *roofline_json(const roofline_result *r)
{
    json_t *o = demo_json_begin("roofline", &r->backend);
    json_object_set_new(o, "y", json_string(r->measured ? "measured" : "modeled"));
    json_object_set_new(o, "device",
                        json_pack("{s:s, s:s, s:o, s:o, s:o}", "id", r->device_id, "name", r->device_name,
                                  "peak_gflops", demo_real(r->peak_gflops), "dram_gb_s", demo_real(r->dram_gb_s),
                                  "ridge_flop_per_byte", demo_real(r->ridge)));
    json_t *points = json_array();
    for (int i = 0; i < r->npoints; i++) {
        const roofline_point *p = &r->points[i];
        json_array_append_new(
            points,
            json_pack("{s:s, s:s, s:I, s:b, s:b, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:s?}", "recipe",
                      p->recipe, "mark", p->mark, "n", (json_int_t)p->n, "counted", p->ran, "passed", p->passed,
                      "flops", demo_real(p->flops), "dram_bytes", demo_real(p->dram_bytes), "l2_bytes",
                      demo_real(p->l2_bytes), "intensity", demo_real(p->intensity), "l2_intensity",
                      demo_real(p->l2_intensity), "modeled_ms", demo_real(p->modeled_ms), "modeled_gflops",
                      demo_real(p->modeled_gflops), "measured_ms",
                      r->measured ? demo_real(p->measured_ms) : json_null(), "measured_gflops",
                      r->measured ? demo_real(p->measured_gflops) : json_null(), "roof_gflops",
                      demo_real(p->roof_gflops), "bound", p->bound));
    }
    json_object_set_new(o, "points", points);
    json_t *lines = json_array();
    for (int i = 0; i < r->nlines; i++)
        json_array_append_new(lines, json_string(r->lines[i]));
    json_object_set_new(o, "chart", lines);
    demo_status_json(o, r->exit_code, &r->error);
    return o;
}

/* Frees a result. */
void roofline_free(roofline_result *r)
{
    free(r);
}
