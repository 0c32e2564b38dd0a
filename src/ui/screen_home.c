/*
 * screen_home.c - the home screen: the lessons with their titles in the learner's language and how
 * far the learner got with each (progress.h), who will cook (the GPU's name or the CPU emulator;
 * "checking for a GPU..." until the background probe of tui.c answers), and the keys. Enter, or a
 * click on the lesson already chosen, opens the reader.
 */
#include <stdio.h>
#include <string.h>

#include "chef.h"
#include "i18n.h"
#include "ui.h"

/* Draws the home screen. */
void home_draw(ui_state *s)
{
    layout_home h;
    layout_home_split(COLS, LINES, &h);
    i18n_lang lang = i18n_current();
    char line[512];
    snprintf(line, sizeof line, " cudachef %s  ·  %s", CHEF_VERSION, _("CUDA in a kitchen: lessons"));
    draw_text(s, h.title.y, h.title.x, h.title.w, line, UI_TITLE);

    draw_box(s, h.list, UI_BORDER);
    int rows = h.list.h - 2;
    s->home_top = layout_list_top(s->home_selected, s->home_top, s->lessons.count, rows);
    for (int r = 0; r < rows && s->home_top + r < s->lessons.count; r++) {
        int i = s->home_top + r;
        const lesson *l = &s->lessons.lessons[i];
        progress_state state = progress_state_of(&s->progress, l->slug);
        const char *mark = state == PROGRESS_NOT_STARTED ? "  " : state == PROGRESS_STARTED ? "· " : "✓ ";
        snprintf(line, sizeof line, " %2d %s %s", l->number, mark, l->title[lang] ? l->title[lang] : l->title[I18N_EN]);
        ui_role role = i == s->home_selected ? UI_SELECTED : UI_TEXT;
        draw_text(s, h.list.y + 1 + r, h.list.x + 1, h.list.w - 2, line, role);
        /* how far the learner got, at the right of the row, when the row has room for it */
        char where[96];
        snprintf(where, sizeof where, " %s ", progress_state_name(state));
        int w = markdown_text_width(where, strlen(where));
        if (w * 3 < h.list.w)
            draw_span(s, h.list.y + 1 + r, h.list.x + h.list.w - 1 - w, w, where,
                      theme_attr(state == PROGRESS_NOT_STARTED && role != UI_SELECTED ? UI_DIM : role, s->color));
    }
    if (s->lessons.count == 0)
        draw_text(s, h.list.y + 1, h.list.x + 1, h.list.w - 2, _(" No lessons could be loaded: cudachef list --check says why."),
                  UI_WRONG);
    if (s->lessons.nproblems > 0) {
        snprintf(line, sizeof line, _(" %d lesson files have mistakes: cudachef list --check names them."),
                 s->lessons.nproblems);
        draw_text(s, h.list.y + h.list.h - 1, h.list.x + 1, h.list.w - 2, line, UI_WRONG);
    }

    if (s->progress_note[0])
        draw_text(s, h.list.y + h.list.h - 1, h.list.x + 1, h.list.w - 2, s->progress_note, UI_WRONG);
    char who[1200];
    snprintf(who, sizeof who, "%s %s", _("Who cooks:"), s->backend[0] ? s->backend : _("checking for a GPU..."));
    draw_text(s, h.backend.y, h.backend.x, h.backend.w, who, UI_TEXT);
    draw_text(s, h.footer.y, h.footer.x, h.footer.w, _(" ↑↓ choose   Enter read   ? help   q quit"), UI_TITLE);
}

/* Handles a key on the home screen. */
void home_key(ui_state *s, int key)
{
    int count = s->lessons.count;
    switch (key) {
    case KEY_UP:
    case 'k':
        if (s->home_selected > 0)
            s->home_selected--;
        break;
    case KEY_DOWN:
    case 'j':
        if (s->home_selected + 1 < count)
            s->home_selected++;
        break;
    case KEY_HOME:
    case 'g':
        s->home_selected = 0;
        break;
    case KEY_END:
    case 'G':
        s->home_selected = count > 0 ? count - 1 : 0;
        break;
    case '\n':
    case '\r':
    case KEY_ENTER:
    case KEY_RIGHT:
    case 'l':
        /* in classroom mode the lesson's kitchen opens; a lesson without a run demo is read */
        if (count > 0 && (!s->classroom || classroom_open(s, s->home_selected) != 0))
            reader_open(s, s->home_selected);
        break;
    case 'q':
    case 27:
        s->quit = 1;
        break;
    default:
        break;
    }
}

/* A click: on a lesson, chooses it; on the lesson already chosen, opens it. */
void home_click(ui_state *s, int y, int x)
{
    layout_home h;
    layout_home_split(COLS, LINES, &h);
    int row = y - (h.list.y + 1);
    if (x <= h.list.x || x >= h.list.x + h.list.w - 1 || row < 0 || row >= h.list.h - 2)
        return;
    int i = s->home_top + row;
    if (i >= s->lessons.count)
        return;
    if (i == s->home_selected)
        home_key(s, '\n');
    else
        s->home_selected = i;
}
