/*
 * transfers.c - the shipments measured from 4 KiB to 1 GiB: each way, pageable and pinned, and the
 * device's own copy (see transfers.h).
 *
 * Everything goes through the backend interface (host_alloc with or without pinning, device_alloc,
 * copy), each copy timed by the backend: CUDA events around cudaMemcpy on a GPU, the CPU clock
 * around memcpy on the emulator. As lesson 7 teaches, one copy is no measurement: each kind is warmed
 * up, the kinds take turns in rounds so that a noisy moment hits them all alike, and each figure is
 * a median. Filling, clearing and the tastes are never timed. Nothing here is typed in: every figure
 * the report shows comes from this run.
 */
#include "demos/transfers.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/chart.h"
#include "demos/clock.h"
#include "base/i18n.h"
#include "base/text.h"

#define TRANSFERS_TEXT_WIDTH 79
#define TRANSFERS_CHART_WIDTH 56
#define TRANSFERS_CHART_HEIGHT 12
#define TRANSFERS_DEFAULT_REPEAT 5

/* The buffers of one size: two in the pantry (host), two in the kitchen (device). */
typedef struct transfers_buffers {
    backend *be;
    size_t bytes;
    void *pageable, *pinned;
    void *dev_in, *dev_out; /* shipments in land in dev_in; the device copies it to dev_out, which
                               is shipped out */
} transfers_buffers;

/* "host-to-device", "device-to-host" or "device-to-device". */
const char *transfers_direction_name(transfers_kind kind)
{
    switch (kind) {
    case TRANSFERS_IN_PAGEABLE:
    case TRANSFERS_IN_PINNED: return "host-to-device";
    case TRANSFERS_OUT_PAGEABLE:
    case TRANSFERS_OUT_PINNED: return "device-to-host";
    default: return "device-to-device";
    }
}

/* "pageable", "pinned" or "device". */
const char *transfers_memory_name(transfers_kind kind)
{
    switch (kind) {
    case TRANSFERS_IN_PAGEABLE:
    case TRANSFERS_OUT_PAGEABLE: return "pageable";
    case TRANSFERS_IN_PINNED:
    case TRANSFERS_OUT_PINNED: return "pinned";
    default: return "device";
    }
}

/* A copy's name for people. */
static const char *transfers_kind_text(transfers_kind kind)
{
    switch (kind) {
    case TRANSFERS_IN_PAGEABLE: return _("ship in, pageable");
    case TRANSFERS_IN_PINNED: return _("ship in, pinned");
    case TRANSFERS_OUT_PAGEABLE: return _("ship out, pageable");
    case TRANSFERS_OUT_PINNED: return _("ship out, pinned");
    default: return _("device to device");
    }
}

/* Bytes a copy moves: the device's own copy reads them and writes them. */
double transfers_bytes_moved(transfers_kind kind, size_t bytes)
{
    return kind == TRANSFERS_ON_DEVICE ? 2.0 * (double)bytes : (double)bytes;
}

/* 4 KiB times powers of 4, up to top. */
int transfers_default_sizes(size_t top, size_t *sizes, int max)
{
    int n = 0;
    for (size_t b = TRANSFERS_MIN_BYTES; b <= top && n < max; b *= 4)
        sizes[n++] = b;
    return n;
}

/* Writes bytes in the largest binary unit of units (B, Ki, Mi, Gi, Ti) that keeps the number >= 1,
   with `digits` significant digits at most. */
static void transfers_format_units(double bytes, const char *const units[5], int digits, char *out, size_t size)
{
    int u = 0;
    while (bytes >= 1024.0 && u < 4) {
        bytes /= 1024.0;
        u++;
    }
    snprintf(out, size, "%.*g%s", digits, bytes, units[u]);
}

/* A size for people: "4 KiB", "1 GiB", "1.5 MiB". */
void transfers_format_size(double bytes, char *out, size_t size)
{
    static const char *const units[5] = {" B", " KiB", " MiB", " GiB", " TiB"};
    transfers_format_units(bytes, units, 4, out, size);
}

/* A size as a short axis label: "4K", "16K", "1M", "1G". */
static void transfers_format_axis(double bytes, char *out, size_t size)
{
    static const char *const units[5] = {"", "K", "M", "G", "T"};
    transfers_format_units(bytes, units, 3, out, size);
}

/* GB/s for people: three significant figures or so, never exponent notation. */
static void transfers_format_gbps(double g, char *out, size_t size)
{
    snprintf(out, size, g >= 100 ? "%.0f" : g >= 10 ? "%.1f" : g >= 1 ? "%.2f" : "%.3f", g);
}

/* GB/s as an axis label. */
static void transfers_format_gbps_label(double g, char *out, size_t size)
{
    char number[24];
    transfers_format_gbps(g, number, sizeof number);
    snprintf(out, size, "%s GB/s", number);
}

/* Releases the buffers of a size (those that were allocated). */
static void transfers_release(transfers_buffers *b)
{
    if (b->pageable)
        b->be->host_free(b->be, b->pageable, 0);
    if (b->pinned)
        b->be->host_free(b->be, b->pinned, 1);
    if (b->dev_in)
        b->be->device_free(b->be, b->dev_in);
    if (b->dev_out)
        b->be->device_free(b->be, b->dev_out);
    b->pageable = b->pinned = b->dev_in = b->dev_out = NULL;
}

/* Allocates the four buffers of a size; -1 with err (nothing left allocated). */
static int transfers_allocate(transfers_buffers *b, chef_error *err)
{
    if (b->be->host_alloc(b->be, &b->pageable, b->bytes, 0, err) != 0 ||
        b->be->host_alloc(b->be, &b->pinned, b->bytes, 1, err) != 0 ||
        b->be->device_alloc(b->be, &b->dev_in, b->bytes, "shipment", sizeof(uint32_t), err) != 0 ||
        b->be->device_alloc(b->be, &b->dev_out, b->bytes, "copy", sizeof(uint32_t), err) != 0) {
        transfers_release(b);
        return -1;
    }
    return 0;
}

/* Runs one copy of a kind, timed by the backend. */
static int transfers_copy(transfers_buffers *b, transfers_kind kind, double *ms, chef_error *err)
{
    backend *be = b->be;
    switch (kind) {
    case TRANSFERS_IN_PAGEABLE: return be->copy(be, b->dev_in, b->pageable, b->bytes, COPY_TO_DEVICE, ms, err);
    case TRANSFERS_IN_PINNED: return be->copy(be, b->dev_in, b->pinned, b->bytes, COPY_TO_DEVICE, ms, err);
    case TRANSFERS_OUT_PAGEABLE: return be->copy(be, b->pageable, b->dev_out, b->bytes, COPY_TO_HOST, ms, err);
    case TRANSFERS_OUT_PINNED: return be->copy(be, b->pinned, b->dev_out, b->bytes, COPY_TO_HOST, ms, err);
    default: return be->copy(be, b->dev_out, b->dev_in, b->bytes, COPY_ON_DEVICE, ms, err);
    }
}

/* Fills host memory with a pattern that differs from word to word and from seed to seed. */
static void transfers_fill(void *p, size_t bytes, uint32_t seed)
{
    uint32_t *w = p;
    for (size_t i = 0; i < bytes / sizeof *w; i++)
        w[i] = (uint32_t)i * 2654435761u ^ seed;
}

/* Whether host memory holds the pattern of seed. */
static int transfers_intact(const void *p, size_t bytes, uint32_t seed)
{
    const uint32_t *w = p;
    for (size_t i = 0; i < bytes / sizeof *w; i++)
        if (w[i] != ((uint32_t)i * 2654435761u ^ seed))
            return 0;
    return 1;
}

/* Tastes every path, untimed: pinned in, device to device, pageable out; then pageable in, device
   to device, pinned out. Each time the host buffer it lands in is cleared first. Sets *passed. */
static int transfers_taste(transfers_buffers *b, int *passed, chef_error *err)
{
    static const transfers_kind ways[2][3] = {{TRANSFERS_IN_PINNED, TRANSFERS_ON_DEVICE, TRANSFERS_OUT_PAGEABLE},
                                              {TRANSFERS_IN_PAGEABLE, TRANSFERS_ON_DEVICE, TRANSFERS_OUT_PINNED}};
    static const uint32_t seeds[2] = {0x5eed0001u, 0x5eed0002u};
    *passed = 1;
    for (int w = 0; w < 2; w++) {
        void *from = w == 0 ? b->pinned : b->pageable, *to = w == 0 ? b->pageable : b->pinned;
        transfers_fill(from, b->bytes, seeds[w]);
        memset(to, 0, b->bytes);
        for (int k = 0; k < 3; k++)
            if (transfers_copy(b, ways[w][k], NULL, err) != 0)
                return -1;
        *passed &= transfers_intact(to, b->bytes, seeds[w]);
    }
    return 0;
}

/* Tells the progress callback which size and copy run. */
static void transfers_progress(const demo_params *p, size_t bytes, int index, int count, transfers_kind kind)
{
    if (!p->progress)
        return;
    char size[32], text[200];
    transfers_format_size((double)bytes, size, sizeof size);
    snprintf(text, sizeof text, _("size %s (%d of %d): %s"), size, index + 1, count, transfers_kind_text(kind));
    p->progress(p->progress_ctx, text);
}

/* Times the five copies of one size: a warm-up each, then rounds in turn within the budget. */
static int transfers_measure(const demo_params *p, transfers_buffers *b, transfers_size *z, int index, int count,
                             int max_repeat, chef_error *err)
{
    double round_ms = 0, ms = 0;
    for (int k = 0; k < TRANSFERS_KINDS; k++) {
        transfers_progress(p, b->bytes, index, count, (transfers_kind)k);
        if (transfers_copy(b, (transfers_kind)k, &ms, err) != 0)
            return -1;
        round_ms += ms;
    }
    int rounds = max_repeat;
    if (round_ms > 0 && TRANSFERS_BUDGET_MS / round_ms < rounds)
        rounds = TRANSFERS_BUDGET_MS / round_ms < 1 ? 1 : (int)(TRANSFERS_BUDGET_MS / round_ms);
    double *runs = malloc((size_t)TRANSFERS_KINDS * (size_t)rounds * sizeof *runs);
    if (!runs)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, _("out of host memory"));
    for (int i = 0; i < rounds; i++)
        for (int j = 0; j < TRANSFERS_KINDS; j++) {
            int k = (i + j) % TRANSFERS_KINDS; /* the order rotates every round */
            if (transfers_copy(b, (transfers_kind)k, &runs[k * rounds + i], err) != 0) {
                free(runs);
                return -1;
            }
        }
    for (int k = 0; k < TRANSFERS_KINDS; k++) {
        transfers_entry *e = &z->copies[k];
        e->ms = clock_summarize(&runs[k * rounds], rounds).median;
        e->gbps = e->ms > 0 ? transfers_bytes_moved((transfers_kind)k, b->bytes) / (e->ms * 1e6) : 0.0;
        e->repeat = rounds;
        e->ran = 1;
    }
    free(runs);
    return 0;
}

/* The sizes to sweep: the demo's (bytes, whole words, growing) or the default; -1 with err. */
static int transfers_plan(const demo_params *p, transfers_result *r, size_t *sizes, chef_error *err)
{
    if (p->nsizes <= 0) {
        r->nplanned = transfers_default_sizes(r->emulated ? TRANSFERS_EMU_TOP : TRANSFERS_GPU_TOP, sizes,
                                              TRANSFERS_MAX_SIZES);
    } else {
        r->nplanned = p->nsizes < TRANSFERS_MAX_SIZES ? p->nsizes : TRANSFERS_MAX_SIZES;
        for (int s = 0; s < r->nplanned; s++) {
            if (p->sizes[s] < 4 || p->sizes[s] % 4 != 0 || (s > 0 && p->sizes[s] <= p->sizes[s - 1]))
                return chef_fail(err, CHEF_EXIT_USAGE, _("give sizes in bytes, whole 4-byte words, smallest first"),
                                 _("transfer size %lld is out of order or not a whole number of 4-byte words"),
                                 (long long)p->sizes[s]);
            sizes[s] = (size_t)p->sizes[s];
        }
    }
    r->top_bytes = r->nplanned > 0 ? sizes[r->nplanned - 1] : 0;
    return 0;
}

/* Runs the sweep (see transfers.h). */
int transfers_run(const demo_params *p, transfers_result **out, chef_error *err)
{
    *out = NULL;
    chef_error e = {0};
    backend *be = NULL;
    transfers_result *r = demo_open(p->run.backend, sizeof *r, &be, &e);
    if (!r)
        return demo_error_exit(&e, CHEF_EXIT_ENVIRONMENT, err);
    r->backend = be->info;
    r->emulated = be->info.kind == BACKEND_EMU;
    size_t sizes[TRANSFERS_MAX_SIZES];
    if (transfers_plan(p, r, sizes, &e) != 0) {
        backend_close(be);
        transfers_free(r);
        return demo_error_exit(&e, CHEF_EXIT_USAGE, err);
    }
    int max_repeat = p->run.repeat > 0 ? p->run.repeat : TRANSFERS_DEFAULT_REPEAT;
    if (max_repeat > TRANSFERS_MAX_REPEAT)
        max_repeat = TRANSFERS_MAX_REPEAT;
    int code = CHEF_EXIT_OK;
    for (int s = 0; s < r->nplanned; s++) {
        size_t bytes = sizes[s];
        if (demo_stopped(p, &e) != 0) {
            code = e.exit_code;
            break;
        }
        /* two host buffers and two device ones; on the emulator the device's are host memory too */
        size_t host = 2 * bytes + (r->emulated ? 2 * bytes : 0), device = r->emulated ? 0 : 2 * bytes;
        transfers_buffers b = {.be = be, .bytes = bytes};
        if (demo_check_memory(host, device, &r->backend, &r->stop) != 0 || transfers_allocate(&b, &r->stop) != 0) {
            r->stopped_at = bytes; /* what does not fit ends the sweep; it is no error */
            break;
        }
        transfers_size *z = &r->sizes[r->nsizes];
        z->bytes = bytes;
        int rc = transfers_measure(p, &b, z, s, r->nplanned, max_repeat, &e);
        if (rc == 0)
            rc = transfers_taste(&b, &z->passed, &e);
        transfers_release(&b);
        if (rc != 0) {
            code = e.exit_code ? e.exit_code : CHEF_EXIT_ENVIRONMENT;
            break;
        }
        z->tasted = 1;
        r->nsizes++;
        if (!z->passed)
            code = CHEF_EXIT_WRONG;
    }
    backend_close(be);
    r->complete = code == CHEF_EXIT_OK || code == CHEF_EXIT_WRONG;
    r->passed = code == CHEF_EXIT_OK;
    *out = r;
    if (code > CHEF_EXIT_WRONG)
        return demo_error_exit(&e, code, err);
    return code;
}

/* Releases a result. */
void transfers_free(transfers_result *r)
{
    free(r);
}

/* --- text --- */

/* Prints a paragraph wrapped to the report's width. */
static void transfers_wrap(FILE *out, const char *text)
{
    demo_wrap(out, text, 0, 0, TRANSFERS_TEXT_WIDTH);
}

/* The table: a row per size, GB/s of each copy, and the taste. */
static void transfers_text_table(FILE *out, const transfers_result *r)
{
    fputs("\n  ", out);
    demo_cell(out, "", 8);
    demo_cell(out, _("ship in (to device)"), -24);
    demo_cell(out, _("ship out (to host)"), -24);
    demo_cell(out, _("device copy"), -14);
    fputs("\n  ", out);
    demo_cell(out, _("size"), 8);
    for (int k = 0; k < TRANSFERS_KINDS; k++)
        demo_cell(out, k == TRANSFERS_ON_DEVICE ? _("GB/s") : k % 2 ? _("pinned") : _("pageable"),
                  k == TRANSFERS_ON_DEVICE ? -14 : -12);
    fprintf(out, "  %s\n", _("taste"));
    for (int s = 0; s < r->nsizes; s++) {
        const transfers_size *z = &r->sizes[s];
        char size[32], g[32];
        transfers_format_size((double)z->bytes, size, sizeof size);
        fputs("  ", out);
        demo_cell(out, size, 8);
        for (int k = 0; k < TRANSFERS_KINDS; k++) {
            transfers_format_gbps(z->copies[k].gbps, g, sizeof g);
            demo_cell(out, z->copies[k].ran ? g : "-", k == TRANSFERS_ON_DEVICE ? -14 : -12);
        }
        fprintf(out, "  %s\n", z->passed ? _("ok") : _("WRONG"));
    }
    transfers_wrap(out, _("GB/s: 10^9 bytes a second, the median of the timed copies. The device copy counts "
                          "the bytes it reads and the bytes it writes."));
}

/* The chart: GB/s against bytes, both on log scales, one mark per copy (chart.h). */
static void transfers_text_chart(FILE *out, const transfers_result *r)
{
    static const char *const marks[TRANSFERS_KINDS] = {"i", "I", "o", "O", "D"};
    chart_point points[TRANSFERS_KINDS][TRANSFERS_MAX_SIZES];
    chart_series series[TRANSFERS_KINDS];
    for (int k = 0; k < TRANSFERS_KINDS; k++) {
        series[k] = (chart_series){marks[k], points[k], 0};
        for (int s = 0; s < r->nsizes; s++)
            if (r->sizes[s].copies[k].ran)
                points[k][series[k].npoints++] = (chart_point){(double)r->sizes[s].bytes, r->sizes[s].copies[k].gbps};
    }
    chart ch;
    if (chart_plot(&ch, TRANSFERS_CHART_WIDTH, TRANSFERS_CHART_HEIGHT, series, TRANSFERS_KINDS, transfers_format_axis,
                   transfers_format_gbps_label) != 0 || !ch.plotted) {
        chart_free(&ch);
        return;
    }
    fputs("\n", out);
    transfers_wrap(out, _("GB/s against bytes per copy, both on log scales (higher is faster; * several):"));
    char line[TRANSFERS_CHART_WIDTH * CHART_MARK_SIZE + 64];
    for (int i = 0; i < chart_frame_lines(&ch); i++) {
        chart_frame_line(&ch, i, 10, line, sizeof line);
        fprintf(out, "  %s\n", line);
    }
    const char *xname = _("bytes per copy (K = KiB, M = MiB, G = GiB)");
    int xpad = 14 + TRANSFERS_CHART_WIDTH - text_width(xname, strlen(xname));
    fprintf(out, "%*s%s\n", xpad > 0 ? xpad : 0, "", xname);
    /* the legend: shipping in on one line, shipping out and the device's copy on the next */
    for (int k = 0; k < TRANSFERS_KINDS; k++) {
        fprintf(out, "  %s ", marks[k]);
        demo_cell(out, transfers_kind_text((transfers_kind)k), k == 1 || k == TRANSFERS_KINDS - 1 ? 0 : 24);
        if (k == 1 || k == TRANSFERS_KINDS - 1)
            fputc('\n', out);
    }
    chart_free(&ch);
}

/* The ratios of the largest size measured: pinned against pageable, the device's copy against shipping. */
static void transfers_text_ratios(FILE *out, const transfers_result *r)
{
    if (r->nsizes == 0)
        return;
    const transfers_size *z = &r->sizes[r->nsizes - 1];
    const transfers_entry *c = z->copies;
    char size[32], line[600];
    transfers_format_size((double)z->bytes, size, sizeof size);
    if (!(c[TRANSFERS_IN_PAGEABLE].gbps > 0 && c[TRANSFERS_OUT_PAGEABLE].gbps > 0 && c[TRANSFERS_IN_PINNED].gbps > 0 &&
          c[TRANSFERS_OUT_PINNED].gbps > 0))
        return;
    fputc('\n', out);
    snprintf(line, sizeof line,
             _("At %s, pinned memory shipped in %.2f times as fast as pageable memory, and shipped out %.2f times "
               "as fast."),
             size, c[TRANSFERS_IN_PINNED].gbps / c[TRANSFERS_IN_PAGEABLE].gbps,
             c[TRANSFERS_OUT_PINNED].gbps / c[TRANSFERS_OUT_PAGEABLE].gbps);
    transfers_wrap(out, line);
    double best_in = c[TRANSFERS_IN_PINNED].gbps > c[TRANSFERS_IN_PAGEABLE].gbps ? c[TRANSFERS_IN_PINNED].gbps
                                                                               : c[TRANSFERS_IN_PAGEABLE].gbps;
    if (c[TRANSFERS_ON_DEVICE].gbps > 0) {
        snprintf(line, sizeof line,
                 _("The device copied its own memory at %.1f times the speed of the fastest shipment in: data "
                   "that stays in the kitchen is far cheaper to move than data on the road."),
                 c[TRANSFERS_ON_DEVICE].gbps / best_in);
        transfers_wrap(out, line);
    }
}

/* For people (see transfers.h). */
void transfers_text(FILE *out, const transfers_result *r)
{
    transfers_wrap(out, _("The shipments: how fast bytes travel from the head chef's pantry (host memory) to the "
                          "kitchen's (device memory) and back, and inside the kitchen. Each copy is warmed up; then "
                          "the five take turns, and each figure is a median; every path is tasted."));
    char line[600], top[32];
    transfers_format_size((double)r->top_bytes, top, sizeof top);
    if (r->emulated)
        snprintf(line, sizeof line,
                 _("There is no GPU here: every copy is a memcpy on this CPU, so pageable and pinned memory are the "
                   "same memory, and the sweep stops at %s."),
                 top);
    else
        snprintf(line, sizeof line, _("The copies ran on %s."), r->backend.name);
    transfers_wrap(out, line);
    if (r->nsizes > 0) {
        transfers_text_table(out, r);
        transfers_text_chart(out, r);
        transfers_text_ratios(out, r);
    }
    if (r->stopped_at) {
        char at[32];
        transfers_format_size((double)r->stopped_at, at, sizeof at);
        snprintf(line, sizeof line, _("The sweep stopped before %s, the first size that does not fit: %s"), at,
                 r->stop.message);
        fputc('\n', out);
        transfers_wrap(out, line);
    }
    if (r->complete && !r->passed)
        transfers_wrap(out, _("A copy brought the bytes back wrong (marked WRONG above): the sweep does not pass."));
    else if (!r->complete)
        transfers_wrap(out, _("The sweep stopped early (the error is below): the sizes after it did not run."));
}

/* --- JSON --- */

/* One size for programs. */
static json_t *transfers_size_json(const transfers_size *z)
{
    json_t *copies = json_array();
    for (int k = 0; k < TRANSFERS_KINDS; k++) {
        const transfers_entry *e = &z->copies[k];
        json_array_append_new(
            copies, json_pack("{s:s, s:s, s:o, s:o, s:I, s:i}", "direction", transfers_direction_name((transfers_kind)k),
                              "memory", transfers_memory_name((transfers_kind)k), "ms", demo_real(e->ms), "gbps",
                              demo_real(e->gbps), "bytes_moved", (json_int_t)transfers_bytes_moved((transfers_kind)k, z->bytes),
                              "repeat", e->repeat));
    }
    return json_pack("{s:I, s:o, s:b}", "bytes", (json_int_t)z->bytes, "copies", copies, "passed", z->passed);
}

/* For programs (see transfers.h). */
json_t *transfers_json(const transfers_result *r)
{
    json_t *sizes = json_array();
    for (int s = 0; s < r->nsizes; s++)
        json_array_append_new(sizes, transfers_size_json(&r->sizes[s]));
    json_t *o = demo_json_begin("transfers", &r->backend);
    json_object_set_new(o, "emulated", json_boolean(r->emulated));
    json_object_set_new(o, "top_bytes", json_integer((json_int_t)r->top_bytes));
    json_object_set_new(o, "sizes", sizes);
    json_object_set_new(o, "stopped",
                        r->stopped_at ? json_pack("{s:I, s:s, s:s}", "at_bytes", (json_int_t)r->stopped_at, "code",
                                                  chef_error_code(&r->stop), "reason", r->stop.message)
                                      : json_null());
    json_object_set_new(o, "complete", json_boolean(r->complete));
    json_object_set_new(o, "passed", json_boolean(r->passed));
    return o;
}
