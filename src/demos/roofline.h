/*
 * roofline.h - the "roofline" demo (lesson 18): a few recipes on the roofline of a GPU, drawn in
 * the terminal.
 *
 * Each recipe is cooked once through the five steps (kitchen.h), so it is tasted and its launch is
 * counted by the emulator (on a GPU, counted beside the measurement). Its point: x is its counted
 * arithmetic intensity, float operations per byte of device-memory (DRAM) traffic as the model
 * counts it from the distinct sectors touched; y is its float operations per second: the model's
 * time on the emulator, labelled "modeled", and the measured median on a GPU, labelled "measured".
 * The two roofs are the device file's (assets/devices/NAME.ini): its DRAM bandwidth times the
 * intensity, and its peak of fused multiply-adds. The chart's maths is chart.c's.
 *
 * Matrix recipes cook at the demo's n (a side); vector recipes always at ROOFLINE_VECTOR_N floats,
 * enough for a stream to reach its roof.
 */
#ifndef CUDACHEF_ROOFLINE_H
#define CUDACHEF_ROOFLINE_H

#include <jansson.h>
#include <stdio.h>

#include "demos/demo.h"

#define ROOFLINE_VECTOR_N (1 << 24)
#define ROOFLINE_WIDTH 56      /* the plot, in columns: with its labels it fits 80 */
#define ROOFLINE_HEIGHT 14
#define ROOFLINE_LABEL 8       /* columns of the y labels */
#define ROOFLINE_MAX_LINES (ROOFLINE_HEIGHT + 2)

/* One recipe's point. */
typedef struct roofline_point {
    char recipe[64];
    char mark[2];              /* "A", "B", ... on the chart */
    int64_t n;
    int ran;                   /* it cooked and was counted */
    int passed;                /* its taste */
    double flops;              /* counted float operations */
    double dram_bytes;         /* the model's device-memory traffic */
    double l2_bytes;           /* 32 x the sectors the warps asked of the L2 */
    double intensity;          /* flops / dram_bytes: the x of the point */
    double l2_intensity;       /* flops / l2_bytes */
    double modeled_ms, modeled_gflops;
    double measured_ms, measured_gflops; /* on a GPU; 0 on the emulator */
    double roof_gflops;        /* the roof above the point */
    const char *bound;         /* untranslated: what bounds the modeled time */
} roofline_point;

typedef struct roofline_result {
    backend_info backend;      /* who cooked (the first recipe's run) */
    int measured;              /* 1: the y values are measured (a GPU), 0: modeled */
    char device_id[32], device_name[64];
    double peak_gflops, dram_gb_s, ridge;
    int npoints;
    roofline_point points[DEMO_MAX_RECIPES];
    int nlines;
    char lines[ROOFLINE_MAX_LINES][ROOFLINE_WIDTH * 4 + ROOFLINE_LABEL + 16]; /* the chart, framed */
    int exit_code;
    chef_error error;
} roofline_result;

/* Lays out the chart of r's points and roofs into r->lines (pure: no run, no terminal). 0, or -1
   when nothing can be placed. */
int roofline_draw(roofline_result *r);

int roofline_run(const demo_params *p, roofline_result **out, chef_error *err);
void roofline_text(FILE *out, const roofline_result *r);
json_t *roofline_json(const roofline_result *r);
void roofline_free(roofline_result *r);

#endif
