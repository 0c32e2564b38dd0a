/*
 * screen_help.c - the help overlay (`?`): the keys of every screen in a frame over the current
 * screen. Any key closes it.
 */
#include "i18n.h"
#include "ui.h"

/* Draws the keys in a centred frame. */
void help_draw(ui_state *s)
{
    const char *lines[] = {
        _("Keys"),
        "",
        _("↑↓ or j k       move, scroll"),
        _("Enter           open the lesson"),
        _("Space, PgDn     next screenful;  PgUp, b  previous"),
        _("n, Tab, →       next page or question"),
        _("p, Shift-Tab, ← previous page or question"),
        _("a b c ...       answer a check question"),
        _("/ n N           search the lesson; next, previous match"),
        _("r               cook the page's demo in the kitchen"),
        _("←→ or h l       the kitchen's steps"),
        _("+ - [ ] p b     kitchen: n, team size, pinned, backend"),
        _("Enter           kitchen: cook again with them"),
        _("↑↓ z            cook step: choose a team, zoom into its cooks"),
        _("Space Enter → ← classroom (--classroom): next and back"),
        _("q, Esc          back; on the home screen, quit"),
        _("?               this help"),
        _("mouse           click a lesson or a step, wheel scrolls"),
        "",
        _("Press any key to close."),
    };
    int n = (int)(sizeof lines / sizeof lines[0]);
    layout_rect screen = {0, 0, COLS, LINES};
    layout_rect box = layout_center(screen, 62, n + 4);
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
