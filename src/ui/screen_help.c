/*
 * screen_help.c - the help overlay (`?`): the keys of the screen below it, as its class lists them
 * (ui_screen_class.help, in the table of screens.h), and those every screen has, in a frame over
 * it. Any key or click closes it.
 */
#include <string.h>

#include "base/i18n.h"
#include "base/text.h"
#include "ui/screens.h"

#define HELP_MAX_LINES 40

/* The keys every screen has. */
static const char *const help_common[] = {
    N_("q, Esc          back; on the home screen, quit"),
    N_("?               this help"),
    N_("mouse           click a lesson or a step, wheel scrolls"),
    NULL,
};

/* Draws the keys of the screen below, then the ones every screen has, in a centred frame as wide
   as its longest line. */
static void help_draw(ui_state *s, void *self)
{
    (void)self;
    const ui_layer *below = ui_below(s);
    const char *lines[HELP_MAX_LINES];
    int n = 0;
    lines[n++] = _("Keys");
    lines[n++] = "";
    const char *const *own = NULL;
    if (below)
        own = s->classroom && below->cls->help_classroom ? below->cls->help_classroom : below->cls->help;
    for (int i = 0; own && own[i] && n < HELP_MAX_LINES - 8; i++)
        lines[n++] = _(own[i]);
    lines[n++] = "";
    for (int i = 0; help_common[i]; i++)
        lines[n++] = _(help_common[i]);
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
static void help_key(ui_state *s, void *self, int key)
{
    (void)self;
    (void)key;
    ui_back(s);
}

const ui_screen_class ui_screen_help = {
    .name = "help",
    .draw = help_draw,
    .key = help_key,
    .flags = UI_SCREEN_OVERLAY,
};
