/*
 * screen_help.c - the help overlay (`?`): the keys of the screen shown (home, reader, kitchen,
 * side-by-side, bench, exercise, a demo's report) and those every screen has, in a frame over it.
 * Any key closes it.
 */
#include <string.h>

#include "base/i18n.h"
#include "ui/ui.h"
#include "base/text.h"

/* Draws the keys of the screen shown, then the ones every screen has, in a centred frame as wide
   as its longest line. */
void help_draw(ui_state *s)
{
    const char *lines[24];
    int n = 0;
    lines[n++] = _("Keys");
    lines[n++] = "";
    if (s->screen == UI_SCREEN_HOME) {
        lines[n++] = _("↑↓ or j k       choose a lesson");
        lines[n++] = _("Enter, →        open it (where you left it)");
        lines[n++] = _("g G             first, last lesson");
        lines[n++] = _("x               the chosen lesson's exercise");
        lines[n++] = _("b               the bench: matrix multiply, CPU against kitchen");
    } else if (s->screen == UI_SCREEN_READER) {
        lines[n++] = _("↑↓ or j k       scroll");
        lines[n++] = _("Space, PgDn     next screenful;  PgUp, b  previous");
        lines[n++] = _("g G             top, bottom of the page");
        lines[n++] = _("n, Tab, →       next page or question");
        lines[n++] = _("p, Shift-Tab, ← previous page or question");
        lines[n++] = _("a b c ...       answer a check question (again to change it)");
        lines[n++] = _("/               search the lesson; then n N next, previous; Esc");
        lines[n++] = _("r               cook the page's live demo");
        lines[n++] = _("x               the lesson's exercise: a kernel to write");
    } else if (s->screen == UI_SCREEN_KITCHEN && s->classroom) {
        lines[n++] = _("Space Enter →   the next step");
        lines[n++] = _("←               the step before");
        lines[n++] = _("r               replay the step;  .  move it on by one change");
        lines[n++] = _("↑↓ z            cook step: choose a team, zoom into its cooks");
    } else if (s->screen == UI_SCREEN_KITCHEN) {
        lines[n++] = _("←→ h l, Tab     the steps (Shift-Tab back)");
        lines[n++] = _("Space           pause or play the replay or the shipment");
        lines[n++] = _(".               move it on by one change");
        lines[n++] = _("↑↓ z            cook step: choose a team, zoom into its cooks");
        lines[n++] = _("+ -             double or halve n;  e  type n (and team size)");
        lines[n++] = _("[ ]             halve or double the cooks per team");
        lines[n++] = _("p b             pinned memory; who cooks (auto, gpu, emulator)");
        lines[n++] = _("Enter           cook again with them");
        lines[n++] = _("v               the same work in teams of 32 and of 1024, side by side");
    } else if (s->screen == UI_SCREEN_VERSUS) {
        lines[n++] = _("Space           pause or play both replays (at the end: again)");
        lines[n++] = _(".               move them on to the next change");
        lines[n++] = _("q               back to the kitchen");
    } else if (s->screen == UI_SCREEN_BENCH) {
        lines[n++] = _("s               the chart and crossover: cooking only, or with shipping");
        lines[n++] = _("↑↓ PgUp PgDn    scroll the table;  g G  its top, bottom");
        lines[n++] = _("q               while it runs: stop after the measurement under way");
    } else if (s->screen == UI_SCREEN_EXERCISE) {
        lines[n++] = _("(save the file) each save is checked again, no key needed");
        lines[n++] = _("e               edit the file ($VISUAL, else $EDITOR, else vi)");
        lines[n++] = _("r               check it again now");
        lines[n++] = _("h               the next hint, from gentle to almost the answer");
        lines[n++] = _("s               the reference solution (before a pass: s twice)");
        lines[n++] = _("↑↓ Space PgDn   scroll;  g G  top, bottom");
    } else {
        lines[n++] = _("↑↓ Space PgDn   scroll the report");
        lines[n++] = _("r               run the demo again");
    }
    lines[n++] = "";
    lines[n++] = _("q, Esc          back; on the home screen, quit");
    lines[n++] = _("?               this help");
    lines[n++] = _("mouse           click a lesson or a step, wheel scrolls");
    lines[n++] = "";
    lines[n++] = _("Press any key to close.");
    int width = 0;
    for (int i = 0; i < n; i++) {
        int w = text_width(lines[i], strlen(lines[i]));
        width = w > width ? w : width;
    }
    layout_rect screen = {0, 0, COLS, LINES};
    layout_rect box = layout_center(screen, width + 6, n + 4);
    draw_clear(s, box, UI_TEXT);
    draw_box(s, box, UI_BORDER);
    for (int i = 0; i < n && i + 2 < box.h - 1; i++)
        draw_text(s, box.y + 2 + i, box.x + 3, box.w - 6, lines[i], i == 0 ? UI_HEADING : UI_TEXT);
}

/* Any key closes the overlay. */
void help_key(ui_state *s, int key)
{
    (void)key;
    s->help = 0;
}
