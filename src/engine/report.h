/*
 * report.h - a kitchen run told to people (text) and to programs (JSON, schema cudachef.run/1).
 *
 * docs/run-report.md documents every JSON field; docs/run-report.schema.json is its JSON Schema.
 */
#ifndef CUDACHEF_REPORT_H
#define CUDACHEF_REPORT_H

#include <jansson.h>
#include <stdio.h>

#include "engine/backend.h"
#include "engine/kitchen.h"

#define REPORT_RUN_SCHEMA "cudachef.run/1"
#define REPORT_INFO_SCHEMA "cudachef.info/1"
#define REPORT_LIST_SCHEMA "cudachef.list/1"
#define REPORT_CHECK_SCHEMA "cudachef.lesson-check/1"

/* Says who cooked (the GPU, or the emulator and why), and that emulator times are CPU times. */
void report_backend_text(FILE *out, const backend_info *b);

/* Writes the five steps as text. */
void report_run_text(FILE *out, const kitchen_report *r);

/* Builds the JSON report of a run (caller owns the reference). */
json_t *report_run_json(const kitchen_report *r);

/* A matrix recipe's GFLOP/s in the run's median kernel time (2 n^3 operations over it), and the
   operations in *flops; 0 for other recipes or a run that did not cook. */
double report_gflops(const kitchen_report *r, double *flops);

/* Builds the JSON of a trace: one record per block (and per cook where recorded). */
json_t *report_trace_json(const kitchen_report *r);

/* Builds the JSON of `cudachef info`. */
json_t *report_info_json(const backend_info *info);

/* Writes `cudachef info` as text. */
void report_info_text(FILE *out, const backend_info *info);

/* Writes a JSON value followed by a newline; returns 0 or -1. */
int report_json_write(FILE *out, json_t *value);

#endif
