/*
 * screen_steps.c - the step-through: one team's cooks phase by phase, between its barriers.
 *
 * The emulator's counted launch keeps team 0's memory instructions with the barriers passed before
 * each (trace_access.phase, base/trace.h), and every cook's record (trace_thread: barriers passed,
 * stuck at one). Opened with `s` on the kitchen's cook step, this screen shows one phase at a time
 * (←→): the team's cooks as warps of 32 glyphs by what each did in that phase (wrote, only read,
 * nothing, in a race, stuck at the barrier that ends it), who has arrived at that barrier, and,
 * for the cook under the cursor (↑↓ a warp, [ ] a cook), the elements it wrote and read there. A
 * race is two cooks touching the same address in the same phase, one of them writing: nothing
 * between them makes one wait for the other, and the screen names both. A barrier inside an `if`
 * shows as the cooks left waiting at it when the launch stopped.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/i18n.h"
#include "ui/kitchen_draw.h"
#include "ui/screens.h"

#define STEPS_WARP 32
#define STEPS_COLUMN (4 + STEPS_WARP + 2)
#define STEPS_RACES_MAX 4 /* races named on screen */

/* What a cook did in the phase shown. */
enum { STEPS_NOTHING, STEPS_READ, STEPS_WROTE, STEPS_RACE, STEPS_STUCK, STEPS_KINDS };

/* The step-through's state. */
typedef struct steps_screen {
    const kitchen_report *report;
    int phase;           /* the phase shown (barriers passed before it) */
    uint32_t cook;       /* the cook under the cursor */
    uint64_t shared_low; /* the lowest shared address the team touched: words are counted from it */
} steps_screen;

/* A race of the phase: two cooks and the address they shared. */
typedef struct steps_race {
    uint32_t first, second; /* cooks: the first one writes */
    const trace_access *wrote, *other;
    uint64_t address;
} steps_race;

/* The phases of the watched team: the most barriers before an access, plus one. */
static int steps_phases(const trace *t)
{
    int most = 0;
    for (size_t i = 0; i < t->naccesses; i++)
        most = t->accesses[i].phase + 1 > most ? t->accesses[i].phase + 1 : most;
    return most;
}

/* Opens on the kitchen's run (arg: its report) when it kept team 0's accesses. */
static int steps_open(ui_state *s, void *self, const void *arg)
{
    steps_screen *st = self;
    st->report = arg;
    if (!st->report || st->report->trace.naccesses == 0) {
        snprintf(s->message, sizeof s->message, "%s",
                 _(" The step-through needs the emulator's counted run: cook on the emulator (b) and try again."));
        return -1;
    }
    st->shared_low = UINT64_MAX;
    const trace *t = &st->report->trace;
    for (size_t i = 0; i < t->naccesses; i++)
        if (t->accesses[i].space == TRACE_SHARED)
            for (int l = 0; l < STEPS_WARP; l++)
                if (t->accesses[i].lanes >> l & 1u && t->accesses[i].address[l] < st->shared_low)
                    st->shared_low = t->accesses[i].address[l];
    return 0;
}

/* One lane's access of the phase, for finding races. */
typedef struct steps_touch {
    uint64_t address;
    uint32_t cook;
    const trace_access *a;
} steps_touch;

/* Orders touches by address, then cook. */
static int steps_touch_cmp(const void *x, const void *y)
{
    const steps_touch *p = x, *q = y;
    if (p->address != q->address)
        return p->address < q->address ? -1 : 1;
    return p->cook < q->cook ? -1 : p->cook > q->cook;
}

/* Finds the phase's races (two cooks, one address, one of them writing; atomics take turns and
   are none): every lane's access sorted by address, then each address's cooks. The first max go
   to out, every cook in one is marked in raced[cooks]; returns how many addresses race. */
static int steps_races(const trace *t, int phase, steps_race *out, int max, uint8_t *raced, uint32_t cooks)
{
    size_t n = 0;
    for (size_t i = 0; i < t->naccesses; i++)
        if (t->accesses[i].phase == phase && t->accesses[i].op != TRACE_ATOMIC)
            n += (size_t)__builtin_popcount(t->accesses[i].lanes);
    steps_touch *touch = n ? malloc(n * sizeof *touch) : NULL;
    if (!touch)
        return 0;
    n = 0;
    for (size_t i = 0; i < t->naccesses; i++) {
        const trace_access *a = &t->accesses[i];
        if (a->phase != phase || a->op == TRACE_ATOMIC)
            continue;
        for (int l = 0; l < STEPS_WARP; l++)
            if (a->lanes >> l & 1u)
                touch[n++] = (steps_touch){a->address[l], a->warp * (uint32_t)STEPS_WARP + (uint32_t)l, a};
    }
    qsort(touch, n, sizeof *touch, steps_touch_cmp);
    int found = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && touch[j].address == touch[i].address)
            j++;
        /* a writer, and another cook at the same address: every cook there takes part */
        size_t w = i;
        while (w < j && touch[w].a->op != TRACE_STORE)
            w++;
        size_t o = i;
        while (w < j && o < j && touch[o].cook == touch[w].cook)
            o++;
        if (w < j && o < j) {
            if (found < max)
                out[found] = (steps_race){touch[w].cook, touch[o].cook, touch[w].a, touch[o].a, touch[i].address};
            found++;
            for (size_t k = i; k < j; k++)
                if (touch[k].cook < cooks)
                    raced[touch[k].cook] = 1;
        }
        i = j;
    }
    free(touch);
    return found;
}

/* What cook did in the phase, into kind (races and stuck first). */
static int steps_kind(const kitchen_report *r, int phase, int phases, uint32_t cook, const uint8_t *raced)
{
    const trace *t = &r->trace;
    if (raced[cook])
        return STEPS_RACE;
    size_t slot = (size_t)t->watched_team * r->cooks_per_team + cook;
    if (t->stopped && t->threads && slot < t->nthreads && t->threads[slot].stuck && phase == phases - 1)
        return STEPS_STUCK;
    int kind = STEPS_NOTHING;
    for (size_t i = 0; i < t->naccesses; i++) {
        const trace_access *a = &t->accesses[i];
        if (a->phase != phase || a->warp != cook / STEPS_WARP || !(a->lanes >> (cook % STEPS_WARP) & 1u))
            continue;
        if (a->op != TRACE_LOAD)
            return STEPS_WROTE;
        kind = STEPS_READ;
    }
    return kind;
}

/* Where an address is, in words: "c[37]" (global) or "shared word 12" (from the team's lowest). */
static void steps_where(const steps_screen *st, const trace_access *a, uint64_t address, char *out, size_t size)
{
    if (a->space == TRACE_GLOBAL)
        snprintf(out, size, "%s[%llu]", a->label[0] ? a->label : "?",
                 (unsigned long long)((address - a->base) / (a->elem_size ? a->elem_size : 1)));
    else
        snprintf(out, size, _("shared word %llu"), (unsigned long long)((address - st->shared_low) / 4));
}

/* The cook under the cursor: what it wrote and read in the phase. */
static void steps_draw_cook(ui_state *s, const steps_screen *st, layout_rect body, int *y)
{
    const trace *t = &st->report->trace;
    char wrote[400] = "", read[400] = "", where[64];
    int nw = 0, nr = 0;
    for (size_t i = 0; i < t->naccesses; i++) {
        const trace_access *a = &t->accesses[i];
        int lane = (int)(st->cook % STEPS_WARP);
        if (a->phase != st->phase || a->warp != st->cook / STEPS_WARP || !(a->lanes >> lane & 1u))
            continue;
        steps_where(st, a, a->address[lane], where, sizeof where);
        char *list = a->op == TRACE_LOAD ? read : wrote;
        int *count = a->op == TRACE_LOAD ? &nr : &nw;
        if (++*count <= 6)
            snprintf(list + strlen(list), 400 - strlen(list), "%s%s", *count > 1 ? ", " : "", where);
        else if (*count == 7)
            snprintf(list + strlen(list), 400 - strlen(list), ", ...");
    }
    char line[1000];
    snprintf(line, sizeof line, _("Cook %u (warp %u lane %u) in this phase: wrote %s; read %s"), st->cook,
             st->cook / STEPS_WARP, st->cook % STEPS_WARP, nw ? wrote : _("nothing"), nr ? read : _("nothing"));
    kitchen_ui_wrap(s, body, y, 0, line, UI_SELECTED);
}

/* Draws the phase: the heading, who arrived, the races, the cooks, the cook under the cursor. */
static void steps_draw(ui_state *s, void *self)
{
    steps_screen *st = self;
    const kitchen_report *r = st->report;
    const trace *t = &r->trace;
    layout_reader lr;
    layout_reader_split(COLS, LINES, &lr);
    lr.body.w = COLS - 4;
    char line[1000];
    uint32_t cooks = (uint32_t)r->cooks_per_team;
    int phases = steps_phases(t), kept = phases;
    size_t first_cook = (size_t)t->watched_team * r->cooks_per_team;
    for (uint32_t c = 0; c < cooks && t->threads && first_cook + c < t->nthreads; c++) { /* the team's own count */
        const trace_thread *th = &t->threads[first_cook + c];
        int passed_all = (int)th->barriers - th->stuck; /* a cook stuck at one arrived but never passed it */
        if (passed_all + 1 > phases)
            phases = passed_all + 1;
    }
    if (st->phase >= phases)
        st->phase = phases - 1;
    if (st->cook >= cooks)
        st->cook = cooks ? cooks - 1 : 0;
    snprintf(line, sizeof line, _(" Step-through: %s, team %u, phase %d of %d"), r->kernel, t->watched_team, st->phase + 1,
             phases);
    draw_text(s, lr.title.y, lr.title.x, lr.title.w, line, UI_TITLE);
    draw_text(s, lr.footer.y, lr.footer.x, lr.footer.w,
              _(" ←→ a phase   ↑↓ a warp   [ ] a cook   q back   ? help"), UI_TITLE);
    int y = lr.body.y;
    /* who arrived at the barrier that ends the phase */
    size_t slot0 = (size_t)t->watched_team * r->cooks_per_team;
    unsigned stuck = 0, passed = 0;
    for (uint32_t c = 0; c < cooks && t->threads && slot0 + c < t->nthreads; c++) {
        stuck += t->threads[slot0 + c].stuck;
        passed += t->threads[slot0 + c].barriers > (uint32_t)st->phase;
    }
    if (t->stopped && st->phase == phases - 1 && stuck)
        snprintf(line, sizeof line,
                 _("The launch stopped in this phase: %u cooks wait at a barrier the other %u never reach (a barrier "
                   "inside an if, or a loop some cooks leave early)."),
                 stuck, cooks - stuck);
    else if (st->phase < phases - 1)
        snprintf(line, sizeof line,
                 _("Between barrier %d and barrier %d: %u of %u cooks arrived at the barrier that ends it; none "
                   "goes on until all have."),
                 st->phase, st->phase + 1, t->threads ? passed : cooks, cooks);
    else
        snprintf(line, sizeof line, st->phase ? _("After the last barrier (%d): the cooks finish.")
                                              : _("No barrier: the whole kernel is one phase (%d barriers)."),
                 st->phase);
    kitchen_ui_wrap(s, lr.body, &y, 0, line, stuck && st->phase == phases - 1 ? UI_WRONG : UI_TEXT);
    if (t->accesses_left_out && st->phase >= kept - 1) {
        snprintf(line, sizeof line,
                 _("Only team 0's first %zu memory instructions were kept (%zu more were not): from here on the "
                   "cooks' accesses are not all known, and a cook drawn as doing nothing may have."),
                 t->naccesses, t->accesses_left_out);
        kitchen_ui_wrap(s, lr.body, &y, 0, line, UI_DIM);
    }
    steps_race races[STEPS_RACES_MAX];
    uint8_t *raced = calloc(cooks ? cooks : 1, 1);
    if (!raced)
        return;
    int nraces = steps_races(t, st->phase, races, STEPS_RACES_MAX, raced, cooks);
    for (int k = 0; k < nraces && k < STEPS_RACES_MAX; k++) {
        char where[64];
        steps_where(st, races[k].wrote, races[k].address, where, sizeof where);
        if (races[k].other->op == TRACE_LOAD)
            snprintf(line, sizeof line,
                     _("Race: cook %u writes %s and cook %u reads it in the same phase: no barrier between them says "
                       "which comes first."),
                     races[k].first, where, races[k].second);
        else
            snprintf(line, sizeof line,
                     _("Race: cooks %u and %u both write %s in the same phase: no barrier between them says which comes "
                       "last."),
                     races[k].first, races[k].second, where);
        kitchen_ui_wrap(s, lr.body, &y, 0, line, UI_WRONG);
    }
    if (nraces > STEPS_RACES_MAX) {
        snprintf(line, sizeof line, _("... and %d more addresses raced over in this phase (every cook in one is marked)."),
                 nraces - STEPS_RACES_MAX);
        kitchen_ui_wrap(s, lr.body, &y, 0, line, UI_WRONG);
    }
    static const char *const glyphs[STEPS_KINDS][2] = {{"·", "."}, {"○", "o"}, {"■", "#"}, {"!", "!"}, {"‖", "="}};
    static const ui_role roles[STEPS_KINDS] = {UI_DIM, UI_MARK, UI_RIGHT, UI_WRONG, UI_WRONG};
    snprintf(line, sizeof line, _("%s wrote  %s only read  %s did nothing  %s in a race  %s stuck at the barrier"),
             glyphs[STEPS_WROTE][s->ascii], glyphs[STEPS_READ][s->ascii], glyphs[STEPS_NOTHING][s->ascii],
             glyphs[STEPS_RACE][s->ascii], glyphs[STEPS_STUCK][s->ascii]);
    kitchen_ui_wrap(s, lr.body, &y, 0, line, UI_DIM);
    uint32_t warps = (cooks + STEPS_WARP - 1) / STEPS_WARP;
    int columns = lr.body.w / STEPS_COLUMN > 0 ? lr.body.w / STEPS_COLUMN : 1;
    int rows = (int)((warps + (uint32_t)columns - 1) / (uint32_t)columns);
    int room = lr.body.y + lr.body.h - y - 2, shown = rows < room ? rows : room > 0 ? room : 0;
    for (int row = 0; row < shown; row++)
        for (int col = 0; col < columns; col++) {
            uint32_t w = (uint32_t)col * (uint32_t)rows + (uint32_t)row;
            if (w >= warps)
                continue;
            int x0 = lr.body.x + col * STEPS_COLUMN;
            snprintf(line, sizeof line, "w%-3u", w);
            draw_text(s, y + row, x0, 4, line, UI_DIM);
            for (uint32_t c = w * STEPS_WARP; c < (w + 1) * STEPS_WARP && c < cooks; c++) {
                int kind = steps_kind(r, st->phase, phases, c, raced);
                draw_text(s, y + row, x0 + 4 + (int)(c % STEPS_WARP), 1, glyphs[kind][s->ascii],
                          c == st->cook ? UI_SELECTED : roles[kind]);
            }
        }
    y += shown;
    steps_draw_cook(s, st, lr.body, &y);
    free(raced);
}

/* The keys: a phase, a warp, a cook, back. */
static void steps_key(ui_state *s, void *self, int key)
{
    steps_screen *st = self;
    switch (key) {
    case KEY_LEFT:
    case 'h':
        st->phase = st->phase > 0 ? st->phase - 1 : 0;
        break;
    case KEY_RIGHT:
    case 'l':
    case ' ':
        st->phase++; /* clamped when drawn */
        break;
    case KEY_UP:
    case 'k':
        st->cook = st->cook >= STEPS_WARP ? st->cook - STEPS_WARP : 0;
        break;
    case KEY_DOWN:
    case 'j':
        st->cook += STEPS_WARP;
        break;
    case '[':
        st->cook = st->cook > 0 ? st->cook - 1 : 0;
        break;
    case ']':
        st->cook++;
        break;
    case 'q':
    case 27:
        ui_back(s);
        break;
    default:
        break;
    }
}

/* The step-through's keys, for the help. */
static const char *const steps_help[] = {
    N_("←→ h l Space    the phase before, the next (a phase ends at a barrier)"),
    N_("↑↓ j k          the cook a warp up or down;  [ ]  the cook before, after"),
    N_("q Esc           back to the kitchen"),
    NULL,
};

const ui_screen_class ui_screen_steps = {
    .name = "steps",
    .size = sizeof(steps_screen),
    .open = steps_open,
    .draw = steps_draw,
    .key = steps_key,
    .help = steps_help,
};
