/*
 * screen_memory.c - memory you can watch: one warp's memory instructions, address by address.
 *
 * The emulator's counted launch keeps the memory instructions of team 0, warp by warp, with every
 * lane's address (trace_access, base/trace.h). For the warp and the instruction chosen (←→ a warp,
 * ↑↓ an instruction) this screen draws, for global memory, each 128-byte line the warp touched as
 * its 32 four-byte words in four 32-byte sectors, the words the lanes reached marked, with the
 * sectors and lines counted against the fewest the lanes' bytes need; for shared memory, the 32
 * banks with how many distinct words of the warp each holds, the conflicts (more than one) marked,
 * with the wavefronts against the fewest. The run's counters (issue 9's, as Nsight Compute names
 * them) stand above. Opened with `a` in the kitchen (its run, or, after a GPU run, the same work
 * counted on the emulator: a GPU keeps no per-lane addresses) and in a comparison demo's report
 * (lesson 5's mappings, lesson 6's tiles), Tab going through its recipes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/i18n.h"
#include "ui/kitchen_draw.h"
#include "ui/screens.h"

#define MEMORY_LINE_WORDS 32 /* a 128-byte line: 32 words of 4 bytes, 4 sectors of 8 */

/* The memory view's state. */
typedef struct memory_screen {
    ui_memory_arg arg;
    int recipe;                   /* which of arg.recipes is shown */
    job *cook;                    /* the emulator's run, when the screen cooks its own */
    const kitchen_report *report; /* the run shown (the kitchen's, or cook's) */
    int warp, index;              /* the warp chosen, and its instruction */
} memory_screen;

/* Starts the emulator's count of the chosen recipe (the run the arg brought has no addresses). */
static void memory_cook(ui_state *s, memory_screen *m)
{
    job_free(m->cook);
    m->cook = NULL;
    m->report = NULL;
    m->warp = m->index = 0;
    kitchen_params p = m->arg.params;
    p.backend = BACKEND_EMU;
    if (m->arg.nrecipes > 0)
        p.recipe = m->arg.recipes[m->recipe];
    char what[200];
    snprintf(what, sizeof what, _("counting %s on the emulator"), p.recipe ? p.recipe : "");
    m->cook = kitchen_cook_start(s, what, &p);
}

/* Opens on the kitchen's run when it kept addresses, else cooks the same work on the emulator. */
static int memory_open(ui_state *s, void *self, const void *arg)
{
    memory_screen *m = self;
    m->arg = *(const ui_memory_arg *)arg;
    if (m->arg.report && m->arg.report->trace.naccesses > 0)
        m->report = m->arg.report;
    else
        memory_cook(s, m);
    return m->report || m->cook ? 0 : -1;
}

/* Stops and frees the screen's own run. */
static void memory_close(ui_state *s, void *self)
{
    (void)s;
    job_free(((memory_screen *)self)->cook);
}

/* The run's job, while it cooks. */
static job *memory_running(const void *self)
{
    const memory_screen *m = self;
    return job_running(m->cook) ? m->cook : NULL;
}

/* Takes the finished run in. */
static int memory_wake(ui_state *s, void *self, int readable)
{
    (void)s, (void)readable;
    memory_screen *m = self;
    if (m->cook && !m->report && !job_running(m->cook)) {
        kitchen_cook_run *run = job_data(m->cook);
        m->report = &run->report;
        return 1;
    }
    return 0;
}

/* The warps of the watched team that ran an instruction, and the instructions of warp w. */
static int memory_warps(const trace *t)
{
    int most = 0;
    for (size_t i = 0; i < t->naccesses; i++)
        most = t->accesses[i].warp + 1 > most ? t->accesses[i].warp + 1 : most;
    return most;
}

static int memory_count(const trace *t, int w)
{
    int n = 0;
    for (size_t i = 0; i < t->naccesses; i++)
        n += t->accesses[i].warp == w;
    return n;
}

/* The index-th instruction of warp w, or NULL. */
static const trace_access *memory_at(const trace *t, int w, int index)
{
    for (size_t i = 0; i < t->naccesses; i++)
        if (t->accesses[i].warp == w && index-- == 0)
            return &t->accesses[i];
    return NULL;
}

/* Compares two addresses, for sorting the lines a warp touched. */
static int memory_cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Global memory: each line the warp touched, its 32 words in 4 sectors, those reached marked. */
static void memory_draw_global(ui_state *s, const trace_access *a, layout_rect body, int *y)
{
    uint64_t lines[TRACE_WARP];
    int n = 0;
    for (int l = 0; l < TRACE_WARP; l++) /* lines from the buffer's start, as cudaMalloc aligns it */
        if (a->lanes >> l & 1u)
            lines[n++] = (a->address[l] - a->base) >> 7;
    qsort(lines, (size_t)n, sizeof *lines, memory_cmp_u64);
    int distinct = 0;
    for (int i = 0; i < n; i++)
        if (i == 0 || lines[i] != lines[i - 1])
            lines[distinct++] = lines[i];
    char text[600];
    snprintf(text, sizeof text, _("Each row: one 128-byte line, its 32 words of 4 bytes in 4 sectors of 32; %s a word a "
                                  "cook reached, %s one it did not."),
             s->ascii ? "#" : "■", s->ascii ? "." : "·");
    kitchen_ui_wrap(s, body, y, 0, text, UI_DIM);
    int room = body.y + body.h - *y - 1, shown = distinct < room ? distinct : room > 0 ? room : 0;
    for (int i = 0; i < shown; i++, (*y)++) {
        uint64_t line = a->base + (lines[i] << 7);
        long long first = a->elem_size ? (long long)((lines[i] << 7) / a->elem_size) : 0;
        snprintf(text, sizeof text, "%s[%lld..]", a->label[0] ? a->label : "?", first);
        draw_text(s, *y, body.x, 14, text, UI_DIM);
        for (int word = 0; word < MEMORY_LINE_WORDS; word++) {
            int hit = 0, sector_hit = 0;
            for (int l = 0; l < TRACE_WARP; l++) {
                if (!(a->lanes >> l & 1u))
                    continue;
                uint64_t lo = a->address[l], hi = lo + (a->size ? a->size : 1);
                uint64_t w0 = line + (uint64_t)word * 4, s0 = line + (uint64_t)(word / 8) * 32;
                hit |= lo < w0 + 4 && hi > w0;
                sector_hit |= lo < s0 + 32 && hi > s0;
            }
            int x = body.x + 14 + word + word / 8; /* a gap between the sectors */
            draw_text(s, *y, x, 1, hit ? (s->ascii ? "#" : "■") : (s->ascii ? "." : "·"),
                      hit ? UI_MARK : sector_hit ? UI_TEXT : UI_DIM);
        }
    }
    if (shown < distinct) {
        snprintf(text, sizeof text, _("... and %d more lines (a larger terminal shows them)"), distinct - shown);
        draw_text(s, *y, body.x, body.w, text, UI_DIM);
        (*y)++;
    }
}

/* Shared memory: the 32 banks and how many distinct words of the warp each holds, conflicts
   marked; lanes go in groups as the hardware serves them (all 32 for accesses of 4 bytes or less,
   16 for 8 bytes, 8 for 16), a row each, and every word of a wide access counts. */
static void memory_draw_shared(ui_state *s, const trace_access *a, layout_rect body, int *y)
{
    kitchen_ui_wrap(s, body, y, 0,
                    _("The 32 banks of the shared locker (4 bytes each, word w in bank w mod 32): how many different "
                      "words of this warp each holds. More than one is a bank conflict: the warp waits a pass for each."),
                    UI_DIM);
    int cell = body.w >= 32 * 3 + 12 ? 3 : 2, label = 12;
    char text[64];
    draw_text(s, *y, body.x, label, _("bank"), UI_DIM);
    for (int b = 0; b < 32; b++) {
        snprintf(text, sizeof text, "%*d", cell, cell == 3 ? b : b % 10);
        draw_text(s, *y, body.x + label + b * cell, cell, text, UI_DIM);
    }
    (*y)++;
    int width = a->size <= 4 ? 32 : a->size <= 8 ? 16 : 8;
    for (int first = 0; first < TRACE_WARP && *y < body.y + body.h; first += width) {
        uint64_t words[TRACE_WARP * 4];
        int n = 0, per_bank[32] = {0};
        for (int l = first; l < first + width; l++) {
            if (!(a->lanes >> l & 1u))
                continue;
            for (uint64_t w = a->address[l] >> 2; w <= (a->address[l] + (a->size ? a->size : 1) - 1) >> 2; w++) {
                int seen = 0;
                for (int i = 0; i < n; i++)
                    seen |= words[i] == w;
                if (!seen && n < TRACE_WARP * 4) {
                    words[n++] = w;
                    per_bank[w & 31]++;
                }
            }
        }
        if (n == 0)
            continue;
        if (width == 32)
            snprintf(text, sizeof text, "%s", _("words"));
        else
            snprintf(text, sizeof text, _("lanes %d-%d"), first, first + width - 1);
        draw_text(s, *y, body.x, label, text, UI_DIM);
        const char *none = cell == 3 ? (s->ascii ? "  ." : "  ·") : (s->ascii ? " ." : " ·");
        for (int b = 0; b < 32; b++) {
            snprintf(text, sizeof text, "%*d", cell, per_bank[b]);
            draw_text(s, *y, body.x + label + b * cell, cell, per_bank[b] ? text : none,
                      per_bank[b] > 1 ? UI_WRONG : per_bank[b] ? UI_RIGHT : UI_DIM);
        }
        (*y)++;
        for (int b = 0; b < 32 && *y < body.y + body.h; b++) { /* who meets in a conflicted bank */
            if (per_bank[b] < 2)
                continue;
            char lanes[400];
            int used = snprintf(lanes, sizeof lanes, _("bank %d: lanes"), b);
            for (int l = first; l < first + width && used < (int)sizeof lanes - 8; l++) {
                int in = 0;
                for (uint64_t w = a->address[l] >> 2; w <= (a->address[l] + (a->size ? a->size : 1) - 1) >> 2; w++)
                    in |= (int)(w & 31) == b;
                if (a->lanes >> l & 1u && in)
                    used += snprintf(lanes + used, sizeof lanes - (size_t)used, " %d", l);
            }
            draw_text(s, *y, body.x, body.w, lanes, UI_WRONG);
            (*y)++;
        }
    }
}

/* Draws the chosen warp's chosen instruction, with the run's counters above it. */
static void memory_draw(ui_state *s, void *self)
{
    memory_screen *m = self;
    layout_reader lr;
    layout_reader_split(COLS, LINES, &lr);
    lr.body.w = COLS - 4;
    char line[700];
    const char *recipe = m->arg.nrecipes > 0 ? m->arg.recipes[m->recipe] : m->arg.params.recipe;
    if (!recipe && m->report)
        recipe = m->report->kernel; /* a whole program's launch: its kernel */
    snprintf(line, sizeof line, _(" Memory: %s, the warps of team 0"), recipe ? recipe : "");
    draw_text(s, lr.title.y, lr.title.x, lr.title.w, line, UI_TITLE);
    if (job_running(m->cook)) {
        ui_job_draw_body(s, m->cook, lr.body);
        ui_job_draw(s, m->cook, lr.footer);
        return;
    }
    draw_text(s, lr.footer.y, lr.footer.x, lr.footer.w,
              m->arg.nrecipes > 1 ? _(" ←→ a warp   ↑↓ an instruction   Tab another recipe   q back   ? help")
                                  : _(" ←→ a warp   ↑↓ an instruction   q back   ? help"),
              UI_TITLE);
    const kitchen_report *r = m->report;
    int y = lr.body.y;
    if (!r || r->trace.naccesses == 0) {
        kitchen_ui_wrap(s, lr.body, &y, 0,
                        r && r->error.exit_code ? r->error.message
                                                : _("This run kept no memory instructions: only the emulator's counted launch "
                                                    "keeps every lane's address."),
                        UI_WRONG);
        return;
    }
    const trace *t = &r->trace;
    kitchen_ui_wrap(s, lr.body, &y, 0,
                    m->arg.report && r != m->arg.report
                        ? _("Counted on the emulator beside the kitchen's run (a GPU keeps no address per cook).")
                        : _("Counted by the emulator's checked launch of this run."),
                    UI_DIM);
    kitchen_ui_draw_counters(s, r, lr.body, &y);
    int warps = (int)((r->cooks_per_team + TRACE_WARP - 1) / TRACE_WARP);
    if (warps < memory_warps(t))
        warps = memory_warps(t);
    if (m->warp >= warps)
        m->warp = warps - 1;
    int count = memory_count(t, m->warp);
    if (m->index >= count)
        m->index = count > 0 ? count - 1 : 0;
    const trace_access *a = memory_at(t, m->warp, m->index);
    if (!a) {
        if (t->accesses_left_out)
            snprintf(line, sizeof line, _("Warp %d of %d: none of its instructions was kept (only team 0's first %zu are)."),
                     m->warp, warps, t->naccesses);
        else
            snprintf(line, sizeof line, _("Warp %d of %d made no memory access the emulator counts."), m->warp, warps);
        y++;
        kitchen_ui_wrap(s, lr.body, &y, 0, line, UI_DIM);
        return;
    }
    static const char *const ops[] = {N_("load"), N_("store"), N_("atomic")};
    int cooks = __builtin_popcount(a->lanes);
    y++;
    if (a->space == TRACE_GLOBAL)
        snprintf(line, sizeof line,
                 _("Warp %d of %d, instruction %d of %d, after %d barriers: a global %s of %d bytes by %d cooks, "
                   "in %s. Sectors of 32 bytes: %u; lines of 128 bytes: %u; the fewest sectors for those bytes: %u."),
                 m->warp, warps, m->index + 1, count, a->phase, _(ops[a->op]), a->size, cooks,
                 a->label[0] ? a->label : "?", a->units, a->lines, a->ideal);
    else
        snprintf(line, sizeof line,
                 _("Warp %d of %d, instruction %d of %d, after %d barriers: a shared %s of %d bytes by %d cooks. "
                   "Wavefronts: %u; the fewest: %u (%u extra: bank conflicts)."),
                 m->warp, warps, m->index + 1, count, a->phase, _(ops[a->op]), a->size, cooks, a->units, a->ideal,
                 a->units > a->ideal ? a->units - a->ideal : 0);
    kitchen_ui_wrap(s, lr.body, &y, 0, line, a->units > a->ideal ? UI_WRONG : UI_RIGHT);
    if (t->accesses_left_out) {
        snprintf(line, sizeof line, _("(%zu later instructions of team 0 were not kept)"), t->accesses_left_out);
        kitchen_ui_wrap(s, lr.body, &y, 0, line, UI_DIM);
    }
    y++;
    if (a->space == TRACE_GLOBAL)
        memory_draw_global(s, a, lr.body, &y);
    else if (a->op != TRACE_ATOMIC)
        memory_draw_shared(s, a, lr.body, &y);
}

/* The keys: a warp, an instruction, another recipe, back. */
static void memory_key(ui_state *s, void *self, int key)
{
    memory_screen *m = self;
    switch (key) {
    case KEY_LEFT:
    case 'h':
        m->warp = m->warp > 0 ? m->warp - 1 : 0;
        break;
    case KEY_RIGHT:
    case 'l':
        m->warp++; /* clamped when drawn */
        break;
    case KEY_UP:
    case 'k':
        m->index = m->index > 0 ? m->index - 1 : 0;
        break;
    case KEY_DOWN:
    case 'j':
        m->index++;
        break;
    case '\t':
        if (m->arg.nrecipes > 1 && !job_running(m->cook)) {
            m->recipe = (m->recipe + 1) % m->arg.nrecipes;
            memory_cook(s, m);
        }
        break;
    case 27:
        if (job_running(m->cook)) {
            job_cancel(m->cook);
            break;
        }
        ui_back(s);
        break;
    case 'q':
        ui_back(s);
        break;
    default:
        break;
    }
}

/* The memory view's keys, for the help. */
static const char *const memory_help[] = {
    N_("←→ h l          another warp of team 0"),
    N_("↑↓ j k          another of the warp's memory instructions, in the order they ran"),
    N_("Tab             a comparison's next recipe"),
    N_("q Esc           back"),
    NULL,
};

const ui_screen_class ui_screen_memory = {
    .name = "memory",
    .size = sizeof(memory_screen),
    .open = memory_open,
    .draw = memory_draw,
    .key = memory_key,
    .close = memory_close,
    .wake = memory_wake,
    .running = memory_running,
    .help = memory_help,
};
