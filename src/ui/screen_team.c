/*
 * screen_team.c - the kitchen's zoom into one team: its cooks as warps of 32, one glyph per cook.
 *
 * On the cook step, up and down (k, j) move a cursor over the run's teams and `z` zooms into the
 * team under it. Each warp is one row of 32 glyphs (as many columns of warps side by side as the
 * width allows, so a team of 1024 fits at 80 x 24), each cook drawn by what it did in the run: it
 * cooked (wrote), also waited at barriers, did something but wrote nothing (it took the other
 * branch), did nothing (idle: past n), wrote a wrong value, reached outside a buffer, or was left
 * waiting at a barrier its team never all reached. The arrows move a second cursor over the cooks;
 * the one under it is described: threadIdx, blockIdx, its global index, and every element it wrote
 * and read (the first and last of each, with the counts, for a grid-stride cook).
 *
 * Where that comes from is said on screen: the emulator's checked launch records every cook
 * (trace_thread: accesses, barriers, faults; the taste marks the wrong ones). On a GPU, or a launch
 * too large to record each cook, only the recipe's mapping is known (who should cook each element),
 * so the cooks are drawn as assigned or idle and said to be so. The replay pauses while zoomed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/i18n.h"
#include "ui/kitchen_screen.h"

#define TEAM_WARP 32
#define TEAM_COLUMN (4 + TEAM_WARP + 2) /* "w31 " + 32 cooks + a gap */

/* What a cook did, worst first (the glyph shows the first that holds). */
typedef enum team_kind {
    TEAM_OUTSIDE, TEAM_WRONG, TEAM_STUCK, TEAM_IDLE, TEAM_OTHER, TEAM_BARRIER, TEAM_COOKED, TEAM_ASSIGNED, TEAM_KINDS
} team_kind;

/* A cook's glyph (Unicode, ASCII) and role. */
static const struct {
    const char *glyph, *ascii;
    ui_role role;
    const char *name;
} team_kinds[TEAM_KINDS] = {
    [TEAM_OUTSIDE] = {"!", "!", UI_WRONG, N_("reached outside")},
    [TEAM_WRONG] = {"✗", "x", UI_WRONG, N_("wrote a wrong value")},
    [TEAM_STUCK] = {"‖", "=", UI_WRONG, N_("stuck at a barrier")},
    [TEAM_IDLE] = {"·", ".", UI_DIM, N_("idle")},
    [TEAM_OTHER] = {"○", "o", UI_MARK, N_("wrote nothing (other branch)")},
    [TEAM_BARRIER] = {"▣", "+", UI_HEADING, N_("cooked, waited at barriers")},
    [TEAM_COOKED] = {"■", "#", UI_RIGHT, N_("cooked")},
    [TEAM_ASSIGNED] = {"□", "o", UI_CODE, N_("assigned an element")},
};

/* The element the recipe's mapping gives each cook of team (-1 none) into elements[per_team]. */
static void team_mapping(const kitchen_report *r, uint32_t team, int64_t *elements, size_t per_team)
{
    for (size_t i = 0; i < per_team; i++)
        elements[i] = -1;
    size_t count = 0;
    for (int b = 0; b < r->plan.nbuffers; b++)
        if (r->plan.buffers[b].is_output) {
            count = r->plan.buffers[b].count;
            break;
        }
    for (size_t e = 0; e < count; e++) {
        uint64_t block, thread;
        if (kitchen_owner(r, e, &block, &thread) && block == team && thread < per_team && elements[thread] < 0)
            elements[thread] = (int64_t)e;
    }
}

/* The records of team's cooks (NULL where the run kept none: a GPU, or a launch too large). */
static const trace_thread *team_records(const kitchen_report *r, uint32_t team, size_t per_team)
{
    const trace *t = &r->trace;
    size_t first = (size_t)team * per_team;
    if (!t->threads || first + per_team > t->nthreads || t->threads[first].block != team)
        return NULL;
    return &t->threads[first];
}

/* What cook c did, from its record, else from the mapping. */
static team_kind team_kind_of(const trace_thread *rec, const int64_t *mapping, size_t c)
{
    if (!rec)
        return mapping[c] >= 0 ? TEAM_ASSIGNED : TEAM_IDLE;
    const trace_thread *t = &rec[c];
    if (t->outside)
        return TEAM_OUTSIDE;
    if (t->wrong)
        return TEAM_WRONG;
    if (t->stuck)
        return TEAM_STUCK;
    if (t->writes == 0 && t->shared_writes == 0)
        return t->reads == 0 && t->barriers == 0 ? TEAM_IDLE : TEAM_OTHER;
    return t->barriers ? TEAM_BARRIER : TEAM_COOKED;
}

/* "(x,y,z)" of a linear index in a shape (as CUDA's threadIdx and blockIdx have it). */
static void team_coords(uint64_t linear, chef_dim3 shape, char *out, size_t size)
{
    uint64_t x = shape.x ? shape.x : 1, y = shape.y ? shape.y : 1;
    snprintf(out, size, "(%llu,%llu,%llu)", (unsigned long long)(linear % x), (unsigned long long)(linear / x % y),
             (unsigned long long)(linear / (x * y)));
}

/* The rows about the cook under the cursor: who it is, and what it wrote and read. */
static void team_draw_cook(ui_state *s, const kitchen_screen *k, layout_rect body, int *y, const trace_thread *rec,
                           const int64_t *mapping, team_kind kind)
{
    const kitchen_report *r = k->report;
    char tid[64], bid[64], line[700], did[400];
    team_coords(k->cook_at, r->plan.block, tid, sizeof tid);
    team_coords(k->team, r->plan.grid, bid, sizeof bid);
    unsigned long long global = (unsigned long long)k->team * r->cooks_per_team + k->cook_at;
    snprintf(line, sizeof line, _("Cook %u (warp %u lane %u): threadIdx %s blockIdx %s global %llu"), k->cook_at,
             k->cook_at / TEAM_WARP, k->cook_at % TEAM_WARP, tid, bid, global);
    kitchen_ui_wrap(s, body, y, 0, line, UI_SELECTED);
    if (!rec) {
        if (mapping[k->cook_at] >= 0)
            snprintf(did, sizeof did, _("%s: the recipe's mapping gives it element %lld (not recorded on this run)"),
                     _(team_kinds[kind].name), (long long)mapping[k->cook_at]);
        else
            snprintf(did, sizeof did, _("%s: the recipe's mapping gives it no element"), _(team_kinds[kind].name));
    } else {
        const trace_thread *t = &rec[k->cook_at];
        char wrote[160], read[160];
        if (t->writes == 0 && t->shared_writes > 0)
            snprintf(wrote, sizeof wrote, _("wrote only the shared locker (%u stores)"), t->shared_writes);
        else if (t->writes == 0)
            snprintf(wrote, sizeof wrote, "%s", _("wrote nothing"));
        else if (t->element == t->last_element)
            snprintf(wrote, sizeof wrote, _("wrote %lld"), (long long)t->element);
        else if (t->writes > 1 && (t->last_element - t->element) % (int64_t)(t->writes - 1) == 0 &&
                 (t->last_element - t->element) / (int64_t)(t->writes - 1) > 1)
            snprintf(wrote, sizeof wrote, _("wrote %lld to %lld, a stride of %lld"), (long long)t->element,
                     (long long)t->last_element, (long long)((t->last_element - t->element) / (int64_t)(t->writes - 1)));
        else
            snprintf(wrote, sizeof wrote, _("wrote %lld to %lld"), (long long)t->element,
                     (long long)t->last_element);
        if (t->reads == 0)
            snprintf(read, sizeof read, "%s", _("read nothing"));
        else if (t->first_read == t->last_read)
            snprintf(read, sizeof read, _("read %lld"), (long long)t->first_read);
        else
            snprintf(read, sizeof read, _("read %lld to %lld"), (long long)t->first_read,
                     (long long)t->last_read);
        snprintf(did, sizeof did, _("%s: %s, %s (stores %u, loads %u, barriers %u)"), _(team_kinds[kind].name), wrote,
                 read, t->writes, t->reads, t->barriers);
    }
    kitchen_ui_wrap(s, body, y, 0, did, UI_TEXT);
}

/* Draws the team under the cursor from row *y: where the figures come from, the legend, the warps
   as rows of 32 glyphs side by side, and the cook under the cursor. */
void team_zoom_draw(ui_state *s, const kitchen_screen *k, layout_rect body, int *y)
{
    const kitchen_report *r = k->report;
    uint32_t team = k->team;
    size_t per_team = (size_t)r->cooks_per_team;
    char line[1024];
    int64_t *mapping = per_team ? calloc(per_team, sizeof *mapping) : NULL;
    if (!mapping)
        return;
    const trace_thread *rec = team_records(r, team, per_team);
    if (!rec)
        team_mapping(r, team, mapping, per_team);
    size_t warps = (per_team + TEAM_WARP - 1) / TEAM_WARP, count[TEAM_KINDS] = {0};
    for (size_t c = 0; c < per_team; c++)
        count[team_kind_of(rec, mapping, c)]++;
    if (warps == 1)
        snprintf(line, sizeof line, _("Team %u of %llu: %zu cooks in one warp of %d, %zu idle"), team,
                 (unsigned long long)r->teams, per_team, TEAM_WARP, count[TEAM_IDLE]);
    else
        snprintf(line, sizeof line, _("Team %u of %llu: %zu cooks in %zu warps of %d, %zu idle"), team,
                 (unsigned long long)r->teams, per_team, warps, TEAM_WARP, count[TEAM_IDLE]);
    draw_text(s, *y, body.x, body.w, line, UI_HEADING);
    (*y)++;
    /* the legend: only the kinds this team has */
    int x = body.x;
    for (int kind = 0; kind < TEAM_KINDS && *y < body.y + body.h; kind++) {
        if (!count[kind])
            continue;
        snprintf(line, sizeof line, "%s %s %zu  ", s->ascii ? team_kinds[kind].ascii : team_kinds[kind].glyph,
                 _(team_kinds[kind].name), count[kind]);
        int used = 0;
        layout_crop(line, strlen(line), body.w, &used);
        if (x + used > body.x + body.w && x > body.x) {
            (*y)++;
            x = body.x;
        }
        draw_text(s, *y, x, body.x + body.w - x, line, team_kinds[kind].role);
        x += used;
    }
    (*y)++;
    /* the warps: one row each, in as many columns as fit */
    int columns = body.w / TEAM_COLUMN > 0 ? body.w / TEAM_COLUMN : 1;
    int rows = (int)((warps + (size_t)columns - 1) / (size_t)columns), space = body.y + body.h - *y - 2;
    int shown = rows <= space ? rows : space > 0 ? space : 0;
    for (int row = 0; row < shown; row++)
        for (int col = 0; col < columns; col++) {
            size_t w = (size_t)col * (size_t)rows + (size_t)row;
            if (w >= warps)
                continue;
            int x0 = body.x + col * TEAM_COLUMN;
            snprintf(line, sizeof line, "w%-3zu", w);
            draw_text(s, *y + row, x0, 4, line, UI_DIM);
            for (size_t c = w * TEAM_WARP; c < (w + 1) * TEAM_WARP && c < per_team; c++) {
                team_kind kind = team_kind_of(rec, mapping, c);
                ui_role role = c == k->cook_at ? UI_SELECTED : team_kinds[kind].role;
                draw_text(s, *y + row, x0 + 4 + (int)(c % TEAM_WARP), 1,
                          s->ascii ? team_kinds[kind].ascii : team_kinds[kind].glyph, role);
            }
        }
    *y += shown;
    if (shown < rows) {
        snprintf(line, sizeof line, _("... and %d more rows of warps (enlarge the terminal to see them)"), rows - shown);
        draw_text(s, *y, body.x, body.w, line, UI_DIM);
        (*y)++;
    }
    if (k->cook_at < per_team)
        team_draw_cook(s, k, body, y, rec, mapping, team_kind_of(rec, mapping, k->cook_at));
    if (rec && r->trace.stopped && *y < body.y + body.h) {
        snprintf(line, sizeof line,
                 _("The launch stopped at a fault in team %u: what each cook did up to then (teams that had not "
                   "cooked yet show as idle)."),
                 r->trace.stopped_team);
        kitchen_ui_wrap(s, body, y, 0, line, UI_WRONG);
    }
    if (*y < body.y + body.h) /* where the cooks' figures come from, where there is room */
        kitchen_ui_wrap(s, body, y, 0,
                        rec ? _("From the run: what each cook did, as the emulator's checked launch recorded it.")
                        : r->trace.from_gpu
                            ? _("On a GPU per-cook records are not kept: the cooks are the recipe's mapping (who should cook each).")
                            : _("This launch was too large to record each cook: the cooks are the recipe's mapping."),
                        UI_DIM);
    free(mapping);
}
