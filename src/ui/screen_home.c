/*
 * screen_home.c - the home screen: the lessons with their titles in the learner's language and how
 * far the learner got with each (progress.h), who will cook (the GPU's name or the CPU emulator;
 * "checking for a GPU..." until the background probe of tui.c answers), and the keys. Enter, or a
 * click on the lesson already chosen, opens the reader; x the lesson's exercise; b the bench (the
 * matrix-multiply sweep, screen_bench.c).
 */
#include <stdio.h>
#include <string.h>

#include "base/chef.h"
#include "base/i18n.h"
#include "base/text.h"
#include "ui/screens.h"

/* The home screen's own state. */
typedef struct home_screen {
    int selected, top; /* the lesson chosen, and the first row of the list shown */
    int typed;         /* the lesson number the digits typed so far make (0: none) */
    ui_art art;        /* the picture (assets/art/home.txt); rows 0: none */
} home_screen;

/* Opens the home screen on lesson *arg (NULL: the first), with its picture. */
static int home_open(ui_state *s, void *self, const void *arg)
{
    home_screen *h = self;
    const int *first = arg;
    h->selected = first && *first >= 0 && *first < s->lessons.count ? *first : 0;
    art_load("home", &h->art); /* none is fine: the home screen then has no picture */
    return 0;
}

/* Draws the home screen. */
static void home_draw(ui_state *s, void *self)
{
    home_screen *hs = self;
    layout_home h;
    layout_home_split(COLS, LINES, &h);
    i18n_lang lang = i18n_current();
    char line[512];
    snprintf(line, sizeof line, " cudachef %s  ·  %s", CHEF_VERSION, _("CUDA in a kitchen: lessons"));
    draw_text(s, h.title.y, h.title.x, h.title.w, line, UI_TITLE);

    draw_box(s, h.list, UI_BORDER);
    int rows = h.list.h - 2, inner = h.list.w - 2;
    hs->top = layout_list_top(hs->selected, hs->top, s->lessons.count, rows);
    /* the states line up in a column after the longest title, when the row has room for it */
    int title_w = 0, state_w = 0;
    for (int i = 0; i < s->lessons.count; i++) {
        const lesson *l = &s->lessons.lessons[i];
        const char *t = lesson_title(l, lang);
        int w = 7 + text_width(t, strlen(t));
        title_w = w > title_w ? w : title_w;
    }
    for (int k = PROGRESS_NOT_STARTED; k <= PROGRESS_EXERCISE_PASSED; k++) {
        const char *name = progress_state_name((progress_state)k);
        int w = text_width(name, strlen(name)) + 2;
        state_w = w > state_w ? w : state_w;
    }
    char counted[64]; /* "1 of 2 exercises passed": the widest a lesson of several exercises shows */
    snprintf(counted, sizeof counted, _("%d of %d exercises passed"), 8, 8);
    state_w = text_width(counted, strlen(counted)) + 2 > state_w ? text_width(counted, strlen(counted)) + 2 : state_w;
    int state_x = title_w + 2 + state_w <= inner ? title_w + 2 : inner - state_w;
    for (int r = 0; r < rows && hs->top + r < s->lessons.count; r++) {
        int i = hs->top + r;
        const lesson *l = &s->lessons.lessons[i];
        progress_state state = progress_state_of(&s->progress, l->slug);
        const char *mark = state == PROGRESS_NOT_STARTED ? "  " : state == PROGRESS_STARTED ? "· " : "✓ ";
        snprintf(line, sizeof line, " %2d %s %s", l->number, mark, lesson_title(l, lang));
        ui_role role = i == hs->selected ? UI_SELECTED : UI_TEXT;
        int y = h.list.y + 1 + r;
        draw_text(s, y, h.list.x + 1, state_x, line, role);
        /* how far the learner got, when the title keeps room too (the whole title, or 16 columns) */
        if (state_x == title_w + 2 || state_x >= 16) {
            int of = state == PROGRESS_EXERCISE_PASSED ? ui_exercise_count(s, i) : 0;
            if (of > 1) {
                snprintf(counted, sizeof counted, _("%d of %d exercises passed"), ui_exercise_passed(s, i), of);
                snprintf(line, sizeof line, " %s", counted);
            } else
                snprintf(line, sizeof line, " %s", progress_state_name(state));
            draw_text(s, y, h.list.x + 1 + state_x, state_w,
                      line, state == PROGRESS_NOT_STARTED && role != UI_SELECTED ? UI_DIM : role);
        }
    }
    /* the picture (assets/art/home.txt) and what it means, where there is room */
    const char *caption[2] = {_("the head chef: the CPU, one step at a time"), _("the cooks: the GPU, thousands at once")};
    int art_w = hs->art.cols;
    for (int c = 0; c < 2; c++) {
        int w = text_width(caption[c], strlen(caption[c]));
        art_w = w > art_w ? w : art_w;
    }
    layout_rect art;
    int used = s->lessons.count < rows ? s->lessons.count : rows;
    if (hs->art.rows > 0 &&
        layout_home_art(&h, used, title_w + 2 + state_w, art_w, hs->art.rows, 3, &art)) {
        art_draw(s, &hs->art, art.y, art.x + (art_w - hs->art.cols) / 2, art, UI_DIM);
        for (int c = 0; c < 2; c++)
            draw_text(s, art.y + hs->art.rows + 1 + c, art.x, art.w, caption[c], UI_TEXT);
    }
    if (s->lessons.count == 0)
        draw_text(s, h.list.y + 1, h.list.x + 1, h.list.w - 2, _(" No lessons could be loaded: cudachef list --check says why."),
                  UI_WRONG);
    if (s->lessons.nproblems > 0) {
        snprintf(line, sizeof line, _(" %d lesson files have mistakes: cudachef list --check names them."),
                 s->lessons.nproblems);
        draw_text(s, h.list.y + h.list.h - 1, h.list.x + 1, h.list.w - 2, line, UI_WRONG);
    }

    /* who cooks, on two rows when it does not fit on one (the emulator's reason goes below) */
    char who[1200];
    snprintf(who, sizeof who, "%s %s", _("Who cooks:"), s->backend[0] ? s->backend : _("checking for a GPU..."));
    int fits = text_width(who, strlen(who)) <= h.backend.w;
    const char *reason = fits ? NULL : strstr(who, ": ");
    if (reason && (reason = strstr(reason + 2, ": ")) != NULL) {
        char first[1200];
        snprintf(first, sizeof first, "%.*s", (int)(reason - who), who);
        draw_text(s, h.backend.y, h.backend.x, h.backend.w, first, UI_TEXT);
        draw_text(s, h.backend.y + 1, h.backend.x + 2, h.backend.w - 2, reason + 2, UI_DIM);
    } else {
        draw_text(s, h.backend.y, h.backend.x, h.backend.w, who, UI_TEXT);
    }
    /* a progress file that cannot be used: said inside the frame, under the lessons */
    if (s->progress_note[0])
        draw_text(s, h.list.y + h.list.h - 2, h.list.x + 1, h.list.w - 2, s->progress_note, UI_WRONG);
    draw_text(s, h.footer.y, h.footer.x, h.footer.w, _(" ↑↓ choose   Enter read   x exercise   b bench   w words   ? help   q quit"),
              UI_TITLE);
}

/* The index of the lesson numbered number, or -1. */
static int home_find(const ui_state *s, int number)
{
    for (int i = 0; i < s->lessons.count; i++)
        if (s->lessons.lessons[i].number == number)
            return i;
    return -1;
}

/* Handles a key on the home screen. */
static void home_key(ui_state *s, void *self, int key)
{
    home_screen *hs = self;
    int count = s->lessons.count;
    if (key >= '0' && key <= '9') { /* a lesson's number: 1 2 gives lesson 12 where there is one */
        int digit = key - '0', longer = hs->typed * 10 + digit;
        int want = longer > 0 && home_find(s, longer) >= 0 ? longer : digit;
        int found = home_find(s, want);
        hs->typed = found >= 0 ? want : 0;
        if (found >= 0)
            hs->selected = found;
        return;
    }
    hs->typed = 0;
    switch (key) {
    case KEY_UP:
    case 'k':
        if (hs->selected > 0)
            hs->selected--;
        break;
    case KEY_DOWN:
    case 'j':
        if (hs->selected + 1 < count)
            hs->selected++;
        break;
    case KEY_HOME:
    case 'g':
        hs->selected = 0;
        break;
    case KEY_END:
    case 'G':
        hs->selected = count > 0 ? count - 1 : 0;
        break;
    case '\n':
    case '\r':
    case KEY_ENTER:
    case KEY_RIGHT:
    case 'l':
        /* in classroom mode the lesson's kitchen opens; a lesson without a run demo is read */
        if (count > 0 && (!s->classroom || classroom_open(s, hs->selected, 1) != 0))
            ui_open(s, &ui_screen_reader, &hs->selected);
        break;
    case 'x': /* the chosen lesson's exercise */
        if (count > 0)
            ui_exercise_ask(s, hs->selected);
        break;
    case 'b': /* the bench: the recipe ladder's sweep */
        ui_open(s, &ui_screen_bench, NULL);
        break;
    case 'w': /* the glossary: the kitchen's words and CUDA's */
        ui_open(s, &ui_screen_glossary, NULL);
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
static void home_click(ui_state *s, void *self, int y, int x)
{
    home_screen *hs = self;
    layout_home h;
    layout_home_split(COLS, LINES, &h);
    int row = y - (h.list.y + 1);
    if (x <= h.list.x || x >= h.list.x + h.list.w - 1 || row < 0 || row >= h.list.h - 2)
        return;
    int i = hs->top + row;
    if (i >= s->lessons.count)
        return;
    if (i == hs->selected)
        home_key(s, self, '\n');
    else
        hs->selected = i;
}

/* The home screen's keys, for the help. */
static const char *const home_help[] = {
    N_("↑↓ or j k       choose a lesson"),
    N_("Enter, →        open it (where you left it)"),
    N_("g G             first, last lesson"),
    N_("0 ... 9         a lesson by its number (1 then 2: lesson 12)"),
    N_("x               the chosen lesson's exercise"),
    N_("b               the bench: matrix multiply, CPU against kitchen"),
    N_("w               the glossary: the kitchen's words and CUDA's"),
    NULL,
};

const ui_screen_class ui_screen_home = {
    .name = "home",
    .size = sizeof(home_screen),
    .open = home_open,
    .draw = home_draw,
    .key = home_key,
    .click = home_click,
    .help = home_help,
    .flags = UI_SCREEN_WHEEL,
};
