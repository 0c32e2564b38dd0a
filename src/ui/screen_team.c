/*
 * screen_team.c - the kitchen's zoom into one team: its cooks, in warps of 32.
 *
 * On the cook step, up and down (k, j) move a cursor over the run's teams and `z` zooms into the
 * team under it. Each cook is drawn with its threadIdx and the element it cooked. Where that comes
 * from is said on screen: on the emulator's checked launch every cook's first write is recorded
 * (trace_thread records), so the elements are what the run did; on a GPU (or a launch too large
 * to check) per-cook records are not kept, so the elements are the mapping the recipe's owner
 * function gives, who should cook each element. Cooks with no element (past the end of the data,
 * in the last team) are marked idle. The replay pauses while zoomed, so nothing is redrawn unasked.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/i18n.h"
#include "ui/kitchen_screen.h"

#define TEAM_WARP 32

/* The element each cook of team cooked (-1 none) into elements[cooks_per_team]; returns 1 when
   they come from the run's records, 0 from the recipe's owner function. */
static int team_elements(const kitchen_report *r, uint32_t team, int64_t *elements, size_t per_team)
{
    for (size_t i = 0; i < per_team; i++)
        elements[i] = -1;
    const trace *t = &r->trace;
    if (t->threads && t->nthreads > 0) {
        for (size_t i = 0; i < t->nthreads; i++)
            if (t->threads[i].block == team && t->threads[i].thread < per_team)
                elements[t->threads[i].thread] = t->threads[i].element;
        return 1;
    }
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
    return 0;
}

/* Draws warp w of a team from row *y: its label, then its cooks as "threadIdx→element" cells,
   per_row to a row, cell columns each; idle cooks marked. */
static void team_draw_warp(ui_state *s, const kitchen_screen *k, layout_rect body, int *y, const int64_t *elements, size_t w,
                           size_t per_team, int per_row, int cell, int flat)
{
    const kitchen_report *r = k->report;
    unsigned bx = r->plan.block.x ? r->plan.block.x : 1, by = r->plan.block.y ? r->plan.block.y : 1;
    size_t first = w * TEAM_WARP, last = first + TEAM_WARP < per_team ? first + TEAM_WARP : per_team;
    char line[128];
    snprintf(line, sizeof line, _("warp %zu (cooks %zu-%zu)"), w, first, last - 1);
    draw_text(s, *y, body.x, body.w, line, UI_TEXT);
    (*y)++;
    for (size_t c = first; c < last; c++) {
        int col = (int)((c - first) % (size_t)per_row), row = (int)((c - first) / (size_t)per_row);
        unsigned tx = (unsigned)(c % bx), ty = (unsigned)((c / bx) % by), tz = (unsigned)(c / ((size_t)bx * by));
        char who[48];
        if (flat)
            snprintf(who, sizeof who, "%u", tx);
        else if (r->plan.block.z <= 1)
            snprintf(who, sizeof who, "%u,%u", tx, ty);
        else
            snprintf(who, sizeof who, "%u,%u,%u", tx, ty, tz);
        if (elements[c] >= 0)
            snprintf(line, sizeof line, "%s%s%lld", who, s->ascii ? "->" : "→", (long long)elements[c]);
        else
            snprintf(line, sizeof line, _("%s idle"), who);
        if (*y + row < body.y + body.h)
            draw_text(s, *y + row, body.x + col * cell, cell - 1, line, elements[c] >= 0 ? UI_CODE : UI_WRONG);
    }
    *y += (int)((last - first + (size_t)per_row - 1) / (size_t)per_row);
}

/* Draws the team under the cursor from row *y: where the figures come from, then each warp's cooks
   as "threadIdx→element" cells, idle ones marked, as many warps as fit. */
void team_zoom_draw(ui_state *s, const kitchen_screen *k, layout_rect body, int *y)
{
    const kitchen_report *r = k->report;
    uint32_t team = k->team;
    size_t per_team = (size_t)r->cooks_per_team;
    char line[512];
    int64_t *elements = per_team ? calloc(per_team, sizeof *elements) : NULL;
    if (!elements)
        return;
    int recorded = team_elements(r, team, elements, per_team);
    size_t warps = (per_team + TEAM_WARP - 1) / TEAM_WARP, idle = 0;
    for (size_t i = 0; i < per_team; i++)
        idle += elements[i] < 0;
    if (warps == 1)
        snprintf(line, sizeof line, _("Team %u of %llu: %zu cooks in one warp of %d, %zu idle"), team,
                 (unsigned long long)r->teams, per_team, TEAM_WARP, idle);
    else
        snprintf(line, sizeof line, _("Team %u of %llu: %zu cooks in %zu warps of %d, %zu idle"), team,
                 (unsigned long long)r->teams, per_team, warps, TEAM_WARP, idle);
    draw_text(s, *y, body.x, body.w, line, UI_HEADING);
    (*y)++;
    draw_text(s, *y, body.x, body.w,
              recorded ? _("From the run: the element each cook wrote, as the emulator's checked launch recorded it.")
              : r->trace.from_gpu
                  ? _("On a GPU per-cook records are not kept: the elements are the recipe's mapping (who should cook each).")
                  : _("This launch was too large to record each cook: the elements are the recipe's mapping."),
              UI_DIM);
    (*y)++;
    int flat = r->plan.block.y <= 1 && r->plan.block.z <= 1;
    int cell = flat ? 11 : 15, per_row = body.w / cell > 0 ? body.w / cell : 1;
    int warp_h = 1 + (TEAM_WARP + per_row - 1) / per_row, space = body.y + body.h - *y;
    size_t fit = warps * (size_t)warp_h <= (size_t)(space > 0 ? space : 0) ? warps
                 : space > warp_h ? (size_t)((space - 1) / warp_h) : 0;
    /* when not all fit, the last warp (where a last team's idle cooks are) is kept in view */
    int keep_last = fit < warps && fit >= 1 && elements[per_team - 1] < 0;
    size_t head = keep_last ? fit - 1 : fit;
    for (size_t w = 0; w < head; w++)
        team_draw_warp(s, k, body, y, elements, w, per_team, per_row, cell, flat);
    if (fit < warps) {
        snprintf(line, sizeof line, _("... and %zu more warps (enlarge the terminal to see them)"), warps - fit);
        draw_text(s, *y < body.y + body.h ? *y : body.y + body.h - 1, body.x, body.w, line, UI_DIM);
        (*y)++;
    }
    if (keep_last)
        team_draw_warp(s, k, body, y, elements, warps - 1, per_team, per_row, cell, flat);
    free(elements);
}
