/*
 * chart.c - a scatter chart on log-log axes laid out as cells and labels (see chart.h).
 *
 * Pure layout: logarithms, rounding to cells, which series owns a cell, and labels written by the
 * caller's formatters. Nothing here prints, so the text reports and the full-screen interface draw
 * the same chart from the same numbers, and the tests check cells rather than screens.
 */
#include "base/chart.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"

/* Whether a value can go on a log axis: finite and above zero. */
static int chart_usable(double v)
{
    return isfinite(v) && v > 0;
}

/* Maps a logarithm v in [lo, hi] to 0 .. cells - 1 (the middle when lo and hi are the same), clamped. */
static int chart_scale(double v, double lo, double hi, int cells)
{
    if (cells <= 1)
        return 0;
    if (!(hi - lo > 1e-12))
        return cells / 2;
    double at = floor((v - lo) / (hi - lo) * (cells - 1) + 0.5);
    return at < 0 ? 0 : at > cells - 1 ? cells - 1 : (int)at;
}

/* The value at step i of cells between the logarithms lo and hi (the inverse of chart_scale). */
static double chart_unscale(int i, double lo, double hi, int cells)
{
    if (cells <= 1 || !(hi - lo > 1e-12))
        return exp(lo);
    return exp(lo + (hi - lo) * (double)i / (double)(cells - 1));
}

/* Writes a label with the formatter, or "%g" without one. */
static void chart_label(chart_format format, double value, char *out, size_t size)
{
    if (format)
        format(value, out, size);
    else
        snprintf(out, size, "%g", value);
}

/* Copies the first UTF-8 character of mark (or a digit for the series when there is none). */
static void chart_copy_mark(char *out, const char *mark, int index)
{
    if (!mark || !*mark) {
        out[0] = (char)('0' + index % 10);
        out[1] = '\0';
        return;
    }
    unsigned char lead = (unsigned char)mark[0];
    size_t len = lead < 0x80 ? 1 : (lead & 0xE0) == 0xC0 ? 2 : (lead & 0xF0) == 0xE0 ? 3 : 4;
    size_t i = 0;
    for (; i < len && mark[i]; i++)
        out[i] = mark[i];
    out[i] = '\0';
}

/* Sorts doubles ascending. */
static int chart_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Sets the x ticks: the distinct x values placed, smallest first, up to CHART_MAX_TICKS. */
static int chart_set_xticks(chart *c, const chart_series *series, int nseries, chart_format xformat)
{
    double *xs = malloc((size_t)c->plotted * sizeof *xs);
    if (!xs)
        return -1;
    int n = 0;
    for (int s = 0; s < nseries; s++)
        for (int i = 0; i < series[s].npoints; i++) {
            const chart_point *pt = &series[s].points[i];
            if (chart_usable(pt->x) && chart_usable(pt->y))
                xs[n++] = pt->x;
        }
    qsort(xs, (size_t)n, sizeof *xs, chart_cmp_double);
    for (int i = 0; i < n && c->nxticks < CHART_MAX_TICKS; i++) {
        if (i > 0 && xs[i] == xs[i - 1])
            continue;
        chart_tick *t = &c->xticks[c->nxticks++];
        t->value = xs[i];
        t->at = chart_col_of(c, xs[i]);
        chart_label(xformat, xs[i], t->label, sizeof t->label);
    }
    free(xs);
    return 0;
}

/* Sets the y ticks: the top, middle and bottom rows (fewer when rows coincide). */
static void chart_set_yticks(chart *c, chart_format yformat)
{
    const int rows[3] = {0, c->height / 2, c->height - 1};
    for (int i = 0; i < 3; i++) {
        if (c->nyticks > 0 && c->yticks[c->nyticks - 1].at == rows[i])
            continue;
        chart_tick *t = &c->yticks[c->nyticks++];
        t->at = rows[i];
        t->value = chart_y_at(c, rows[i]);
        chart_label(yformat, t->value, t->label, sizeof t->label);
    }
}

/* Lays out the series (see chart.h). */
int chart_plot(chart *c, int width, int height, const chart_series *series, int nseries, chart_format xformat,
               chart_format yformat)
{
    if (!c)
        return -1;
    memset(c, 0, sizeof *c);
    if (width < 1 || width > CHART_MAX_WIDTH || height < 1 || height > CHART_MAX_HEIGHT || nseries < 0 ||
        nseries > CHART_MAX_SERIES || (nseries > 0 && !series))
        return -1;
    for (int s = 0; s < nseries; s++)
        if (series[s].npoints < 0 || (series[s].npoints > 0 && !series[s].points))
            return -1;
    c->cells = malloc((size_t)width * (size_t)height * sizeof *c->cells);
    if (!c->cells)
        return -1;
    c->width = width;
    c->height = height;
    c->nseries = nseries;
    for (int i = 0; i < width * height; i++)
        c->cells[i] = CHART_EMPTY;
    for (int s = 0; s < nseries; s++)
        chart_copy_mark(c->marks[s], series[s].mark, s);
    /* the ranges of the points that can be placed */
    for (int s = 0; s < nseries; s++)
        for (int i = 0; i < series[s].npoints; i++) {
            const chart_point *pt = &series[s].points[i];
            if (!chart_usable(pt->x) || !chart_usable(pt->y)) {
                c->skipped++;
                continue;
            }
            if (!c->plotted || pt->x < c->xmin)
                c->xmin = pt->x;
            if (!c->plotted || pt->x > c->xmax)
                c->xmax = pt->x;
            if (!c->plotted || pt->y < c->ymin)
                c->ymin = pt->y;
            if (!c->plotted || pt->y > c->ymax)
                c->ymax = pt->y;
            c->plotted++;
        }
    if (!c->plotted)
        return 0;
    /* each point to its cell; a cell shared by two series becomes CHART_MANY */
    for (int s = 0; s < nseries; s++)
        for (int i = 0; i < series[s].npoints; i++) {
            const chart_point *pt = &series[s].points[i];
            if (!chart_usable(pt->x) || !chart_usable(pt->y))
                continue;
            short *cell = &c->cells[chart_row_of(c, pt->y) * width + chart_col_of(c, pt->x)];
            *cell = *cell == CHART_EMPTY || *cell == s ? (short)s : (short)CHART_MANY;
        }
    if (chart_set_xticks(c, series, nseries, xformat) != 0) {
        chart_free(c);
        return -1;
    }
    chart_set_yticks(c, yformat);
    return 0;
}

/* Releases the cells. */
void chart_free(chart *c)
{
    if (!c)
        return;
    free(c->cells);
    c->cells = NULL;
}

/* The column of x, clamped to the grid; -1 when it cannot be placed. */
int chart_col_of(const chart *c, double x)
{
    if (!c->plotted || !chart_usable(x))
        return -1;
    return chart_scale(log(x), log(c->xmin), log(c->xmax), c->width);
}

/* The row of y (row 0 at the top), clamped to the grid; -1 when it cannot be placed. */
int chart_row_of(const chart *c, double y)
{
    if (!c->plotted || !chart_usable(y))
        return -1;
    return c->height - 1 - chart_scale(log(y), log(c->ymin), log(c->ymax), c->height);
}

/* The x value a column stands for. */
double chart_x_at(const chart *c, int col)
{
    return c->plotted ? chart_unscale(col, log(c->xmin), log(c->xmax), c->width) : 0.0;
}

/* The y value a row stands for. */
double chart_y_at(const chart *c, int row)
{
    return c->plotted ? chart_unscale(c->height - 1 - row, log(c->ymin), log(c->ymax), c->height) : 0.0;
}

/* What is in a cell. */
int chart_cell(const chart *c, int row, int col)
{
    if (!c->cells || row < 0 || row >= c->height || col < 0 || col >= c->width)
        return CHART_EMPTY;
    return c->cells[row * c->width + col];
}

/* The text of a cell. */
const char *chart_cell_mark(const chart *c, int row, int col)
{
    int v = chart_cell(c, row, col);
    return v == CHART_EMPTY ? " " : v == CHART_MANY ? CHART_MANY_MARK : c->marks[v];
}

/* Writes a row as text without its trailing spaces. */
int chart_row_text(const chart *c, int row, char *out, size_t size)
{
    if (size == 0)
        return 0;
    out[0] = '\0';
    int last = -1;
    for (int col = 0; col < c->width; col++)
        if (chart_cell(c, row, col) != CHART_EMPTY)
            last = col;
    size_t used = 0;
    int cols = 0;
    for (int col = 0; col <= last; col++) {
        const char *mark = chart_cell_mark(c, row, col);
        size_t len = strlen(mark);
        if (used + len + 1 > size)
            break;
        memcpy(out + used, mark, len);
        used += len;
        cols++;
    }
    out[used] = '\0';
    return cols;
}

/* Writes the x labels under their columns, leaving out those that would touch the one before. */
int chart_xaxis_text(const chart *c, char *out, size_t size)
{
    if (size == 0)
        return 0;
    out[0] = '\0';
    size_t used = 0;
    int cols = 0;
    for (int i = 0; i < c->nxticks; i++) {
        const chart_tick *t = &c->xticks[i];
        size_t len = strlen(t->label);
        int w = text_width(t->label, len);
        int at = t->at - w / 2;
        if (at > c->width - w)
            at = c->width - w;
        if (at < 0)
            at = 0;
        if (cols > 0 && at <= cols) /* a space at least between two labels */
            continue;
        if (used + (size_t)(at - cols) + len + 1 > size)
            break;
        memset(out + used, ' ', (size_t)(at - cols));
        used += (size_t)(at - cols);
        memcpy(out + used, t->label, len);
        used += len;
        cols = at + w;
        out[used] = '\0';
    }
    return cols;
}

/* Lines of the chart framed for plain text: the rows, the axis and the x labels. */
int chart_frame_lines(const chart *c)
{
    return c->height + 2;
}

/* Appends n copies of text to out (used bytes so far in *used); 0, or -1 when it does not fit. */
static int chart_append(char *out, size_t size, size_t *used, const char *text, int n)
{
    size_t len = strlen(text);
    for (int i = 0; i < n; i++) {
        if (*used + len + 1 > size)
            return -1;
        memcpy(out + *used, text, len);
        *used += len;
        out[*used] = '\0';
    }
    return 0;
}

/* Writes one framed line (see chart.h). */
int chart_frame_line(const chart *c, int line, int label_width, char *out, size_t size)
{
    if (size == 0)
        return -1;
    out[0] = '\0';
    if (line < 0 || line >= chart_frame_lines(c))
        return -1;
    size_t used = 0;
    if (line == c->height) { /* the x axis */
        chart_append(out, size, &used, " ", label_width);
        chart_append(out, size, &used, " +", 1);
        chart_append(out, size, &used, "-", c->width);
        return 0;
    }
    if (line == c->height + 1) { /* the x labels, under the first column */
        chart_append(out, size, &used, " ", label_width + 2);
        if (used < size)
            chart_xaxis_text(c, out + used, size - used);
        if (!c->nxticks) /* no label: no trailing spaces either */
            out[0] = '\0';
        return 0;
    }
    const char *label = "";
    for (int i = 0; i < c->nyticks; i++)
        if (c->yticks[i].at == line)
            label = c->yticks[i].label;
    int pad = label_width - text_width(label, strlen(label));
    chart_append(out, size, &used, " ", pad);
    chart_append(out, size, &used, label, 1);
    chart_append(out, size, &used, " |", 1);
    if (used < size)
        chart_row_text(c, line, out + used, size - used);
    return 0;
}

/* The roofline at intensity x: the lower of the memory roof (x times the bandwidth) and the peak. */
double chart_roof(double x, double peak, double bandwidth)
{
    double memory = x * bandwidth;
    return memory < peak ? memory : peak;
}

/* Samples the roofline between x_lo and x_hi: n points at equal steps of the logarithm, those left
   of the ridge into memory and the others into compute. */
int chart_roof_points(double peak, double bandwidth, double x_lo, double x_hi, int n, chart_point *memory,
                      int *nmemory, chart_point *compute, int *ncompute)
{
    *nmemory = *ncompute = 0;
    if (n < 2 || !chart_usable(peak) || !chart_usable(bandwidth) || !chart_usable(x_lo) || !(x_hi > x_lo) ||
        !isfinite(x_hi))
        return -1;
    double ridge = peak / bandwidth, lo = log(x_lo), hi = log(x_hi);
    for (int i = 0; i < n; i++) {
        double x = chart_unscale(i, lo, hi, n);
        chart_point p = {x, chart_roof(x, peak, bandwidth)};
        if (x < ridge)
            memory[(*nmemory)++] = p;
        else
            compute[(*ncompute)++] = p;
    }
    return 0;
}

/* Puts series' mark on the cell of (x, y), over whatever was there. */
int chart_put(chart *c, double x, double y, int series)
{
    int col = chart_col_of(c, x), row = chart_row_of(c, y);
    if (col < 0 || row < 0 || series < 0 || series >= c->nseries)
        return -1;
    c->cells[row * c->width + col] = (short)series;
    return 0;
}

/* Replaces the x ticks with the powers of ten inside the chart's range. */
int chart_decade_xticks(chart *c, chart_format xformat)
{
    if (c->plotted == 0)
        return 0;
    c->nxticks = 0;
    for (double e = ceil(log10(c->xmin) - 1e-9); e <= log10(c->xmax) + 1e-9 && c->nxticks < CHART_MAX_TICKS; e++) {
        chart_tick *t = &c->xticks[c->nxticks];
        t->value = pow(10, e);
        t->at = chart_col_of(c, t->value);
        if (t->at < 0)
            continue;
        chart_label(xformat, t->value, t->label, sizeof t->label);
        c->nxticks++;
    }
    return c->nxticks;
}
