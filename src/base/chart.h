/*
 * chart.h - a scatter chart on log-log axes, laid out as a grid of cells for any screen.
 *
 * The benchmarks draw their figures with it: time against matrix side for the fair race (one mark
 * per contender), GB/s against bytes for the transfers (one mark per direction and host memory).
 * The module only does the layout, as plain data: which cell of a width x height grid each point
 * falls in, and the labels of both axes. It prints nothing and knows no terminal: `cudachef bench`
 * (race_report.c, transfers.c) writes the cells as text, the full-screen interface draws them with
 * curses and colours them by series.
 *
 *   chart c;
 *   chart_series s[2] = {{"L", loop, 3}, {"B", blas, 3}};      mark, points, how many
 *   if (chart_plot(&c, 56, 12, s, 2, format_size, chef_format_ms) == 0) {
 *       for (int row = 0; row < c.height; row++)              row 0 is the top (the largest y)
 *           ... chart_row_text(&c, row, buf, sizeof buf), or chart_cell(&c, row, col) per cell
 *       ... c.yticks (labels of rows), chart_xaxis_text (the labels under their columns)
 *       ... or, for plain text, chart_frame_line for each of chart_frame_lines(&c) lines
 *       chart_free(&c);
 *   }
 *
 * Both axes are logarithmic: the smallest x placed lands in column 0 and the largest in column
 * width - 1; the smallest y in the bottom row and the largest in row 0; the cells in between are
 * equal steps of the logarithm. A value that has no logarithm (zero, negative) or is not finite is left out and
 * counted in `skipped`. When all points share one x (or one y), they sit in the middle column (row).
 * A cell takes the index of the series whose point fell in it; points of two different series in
 * one cell make it CHART_MANY (drawn as CHART_MANY_MARK).
 */
#ifndef CUDACHEF_CHART_H
#define CUDACHEF_CHART_H

#include <stddef.h>

#define CHART_MAX_SERIES 16
#define CHART_MAX_WIDTH 1024
#define CHART_MAX_HEIGHT 512
#define CHART_MAX_TICKS 32      /* x ticks: the first 32 distinct x values of the points */
#define CHART_MARK_SIZE 8       /* a mark: one UTF-8 character, one column wide, and its NUL */
#define CHART_LABEL_SIZE 24
#define CHART_EMPTY (-1)        /* a cell no point fell in */
#define CHART_MANY (-2)         /* a cell where points of two or more series fell */
#define CHART_MANY_MARK "*"

/* One measurement: x and y in their own units (bytes, ms, GB/s...), both > 0 to be placed. */
typedef struct chart_point {
    double x, y;
} chart_point;

/* One set of points drawn with the same mark. */
typedef struct chart_series {
    const char *mark;           /* one character of one column, UTF-8 ("L", "●"); NULL: a digit */
    const chart_point *points;  /* the caller's; not kept after chart_plot returns */
    int npoints;
} chart_series;

/* Writes a value as an axis label ("512", "1.5 ms", "4K"); chef_format_ms has this shape. NULL
   given to chart_plot: "%g". */
typedef void (*chart_format)(double value, char *out, size_t size);

/* A labelled place on an axis. */
typedef struct chart_tick {
    int at;                     /* the column (x axis) or the row (y axis) */
    double value;               /* the value there, in the axis's units */
    char label[CHART_LABEL_SIZE];
} chart_tick;

/* A chart laid out. Everything in it is filled by chart_plot; cells is freed by chart_free. */
typedef struct chart {
    int width, height;          /* the plot area, in cells */
    short *cells;               /* height rows of width cells, row 0 at the top: cells[row * width
                                   + col] is the index of a series, CHART_EMPTY or CHART_MANY */
    int nseries;
    char marks[CHART_MAX_SERIES][CHART_MARK_SIZE]; /* each series' mark, copied */
    int plotted;                /* points placed */
    int skipped;                /* points left out: not finite, or <= 0 (no logarithm) */
    double xmin, xmax, ymin, ymax; /* the range of the points placed; all 0 when none was */
    int nxticks;
    chart_tick xticks[CHART_MAX_TICKS]; /* the points' distinct x values, smallest first */
    int nyticks;
    chart_tick yticks[3];       /* the top, middle (height / 2) and bottom rows, as the rows allow */
} chart;

/* Lays out nseries series on a width x height grid (at least 1 x 1, at most CHART_MAX_WIDTH x
   CHART_MAX_HEIGHT, at most CHART_MAX_SERIES series) with labels written by xformat and yformat.
   Returns 0 (also when no point could be placed: plotted is then 0 and no tick is set), or -1 for
   bad arguments or when memory runs out (c is then empty and chart_free is harmless). */
int chart_plot(chart *c, int width, int height, const chart_series *series, int nseries, chart_format xformat,
               chart_format yformat);

/* Releases the cells (the chart may be laid out again). */
void chart_free(chart *c);

/* The column of x (a value in the axis's units), or -1 when it cannot be placed. */
int chart_col_of(const chart *c, double x);

/* The row of y, or -1 when it cannot be placed. */
int chart_row_of(const chart *c, double y);

/* The value a column (row) stands for: the inverse of chart_col_of (chart_row_of); 0 when the chart
   placed no point. */
double chart_x_at(const chart *c, int col);
double chart_y_at(const chart *c, int row);

/* What is in a cell: a series' index, CHART_EMPTY or CHART_MANY (CHART_EMPTY outside the grid). */
int chart_cell(const chart *c, int row, int col);

/* The text of a cell: " " when empty, the series' mark, or CHART_MANY_MARK. */
const char *chart_cell_mark(const chart *c, int row, int col);

/* Writes a row as UTF-8 text, one mark or space per column, without the spaces at its end.
   Returns its width in columns (the text is cut at a whole mark when size is too small). */
int chart_row_text(const chart *c, int row, char *out, size_t size);

/* Writes the x ticks' labels each centred under its column (kept inside the width), leaving out a
   label that would touch the one before it. Returns the width in columns. */
int chart_xaxis_text(const chart *c, char *out, size_t size);

/* The chart framed for plain text has height + 2 lines: each row with the y tick's label (if the
   row has one) right-aligned in label_width columns, " |" and the row's marks; then the x axis,
   label_width spaces, " +" and width dashes; then the x labels under their columns. */
int chart_frame_lines(const chart *c);

/* Writes framed line `line` (0 .. chart_frame_lines - 1) as UTF-8 without trailing spaces. Returns
   0, or -1 when there is no such line (out is then ""). */
int chart_frame_line(const chart *c, int line, int label_width, char *out, size_t size);

/*
 * The roofline (lesson 18): a kernel's float operations per second can reach at most the lower of
 * the device's peak and its memory bandwidth times the kernel's arithmetic intensity (operations
 * per byte of memory traffic). Units are the caller's: GFLOP/s for peak, GB/s for bandwidth.
 */

/* The roof at intensity x: min(x * bandwidth, peak). */
double chart_roof(double x, double peak, double bandwidth);

/* Samples the roof at n intensities from x_lo to x_hi (equal steps of the logarithm, both ends
   included): those below the ridge (peak / bandwidth) into memory, the others into compute, each
   array holding n points; their counts in *nmemory and *ncompute. 0, or -1 for bad arguments. */
int chart_roof_points(double peak, double bandwidth, double x_lo, double x_hi, int n, chart_point *memory,
                      int *nmemory, chart_point *compute, int *ncompute);

/* Puts series' mark on the cell of (x, y) over what was there (a point drawn on top of a line).
   0, or -1 when the point is outside the chart or series is not one of it. */
int chart_put(chart *c, double x, double y, int series);

/* Replaces the x ticks with the powers of ten inside the range of the points placed (labels by
   xformat): the axis of a chart whose x values are many samples. Returns how many. */
int chart_decade_xticks(chart *c, chart_format xformat);

#endif
