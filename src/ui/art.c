/*
 * art.c - pictures drawn from assets/art/NAME.txt: plain UTF-8 text that a teacher can change
 * without recompiling (lines starting with ';' are comments). A missing or unreadable picture is
 * simply not drawn: the screens never depend on one.
 */
#include <stdio.h>
#include <string.h>

#include "base/chef.h"
#include "ui/ui.h"
#include "base/text.h"

/* Reads assets/art/NAME.txt into art; 0, or -1 (art left empty) when it cannot be read. */
int art_load(const char *name, ui_art *art)
{
    memset(art, 0, sizeof *art);
    char path[4096];
    snprintf(path, sizeof path, "%s/assets/art/%s.txt", chef_data_dir(), name);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[sizeof art->lines[0]];
    while (art->rows < UI_ART_ROWS && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == ';')
            continue;
        snprintf(art->lines[art->rows], sizeof art->lines[0], "%s", line);
        int w = text_width(line, strlen(line));
        if (w > art->cols)
            art->cols = w;
        art->rows++;
    }
    fclose(f);
    return art->rows > 0 ? 0 : -1;
}

/* Draws art with its top-left corner at (y, x) in a role, cropped to r. */
void art_draw(const ui_state *s, const ui_art *art, int y, int x, layout_rect r, ui_role role)
{
    for (int i = 0; i < art->rows && y + i < r.y + r.h; i++)
        if (y + i >= r.y && x < r.x + r.w)
            draw_span(s, y + i, x, r.x + r.w - x, art->lines[i], theme_attr(role, s->color));
}
