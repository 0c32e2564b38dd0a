/*
 * screen_classroom.c - classroom mode: the kitchen stepped through by a teacher on a projector.
 *
 * `cudachef --classroom [LESSON]` opens the kitchen of the lesson's first demo of kind run (without
 * LESSON, the home screen's Enter picks the lesson, and asks which demo when it has several; d in
 * the kitchen asks again, so every demo can be shown). L switches the language and B the backend
 * live; the team and cook cursors of the cook step point at one team or cook for the room. The kitchen screen draws the same run, but
 * the teacher moves the five steps one key at a time (Space, Enter, right: next; left: back), each
 * with a caption explaining it in the learner's language. Nothing advances by itself: a step's
 * replay or shipment plays once when the step opens and then waits. The run uses a fixed seed
 * (CLASSROOM_SEED, unless the demo names its own), shown in the title, so every run the class sees
 * has the same data; the parameter keys are off for the same reason. Colours come from
 * assets/themes/classroom.ini (mono.ini without colour); the kitchen leaves a blank row after each
 * line and hides the parameters so fewer numbers are on screen at once.
 */
#include <string.h>

#include "base/chef.h"
#include "base/i18n.h"
#include "ui/kitchen_screen.h"
#include "ui/screens.h"

/* A step's caption: what happens in it, in words a class can follow. */
static const char *classroom_caption(int step)
{
    switch (step) {
    case 0:
        return _("Step 1, prepare: the host (the CPU) fills the head chef's pantry (RAM) with the ingredients, "
                 "the input arrays. Nothing is on the GPU yet.");
    case 1:
        return _("Step 2, ship in: the ingredients travel from the head chef's pantry (RAM) to the kitchen's "
                 "pantry (VRAM) over the road (PCIe, cudaMemcpy). The GPU cooks only what is in the kitchen's "
                 "pantry.");
    case 2:
        return _("Step 3, cook: the kernel runs. The grid's teams (blocks) go to the stations (SMs), and every "
                 "cook (thread) makes its own element.");
    case 3:
        return _("Step 4, ship out: the results travel back from the kitchen's pantry (VRAM) to the head chef's "
                 "pantry (RAM), where the CPU can use them.");
    default:
        return _("Step 5, taste: the CPU cooks the same recipe itself and compares every element. Look at the "
                 "time on the road: it often costs more than the cooking.");
    }
}

/* Opens the classroom kitchen of lesson lesson_index's first demo of kind run, or, when ask is 1
   and it has several, the question which one (the cook who reaches outside, the missing barriers:
   every demo can go on the projector); 0, or -1 when the lesson has none. */
int classroom_open(ui_state *s, int lesson_index, int ask)
{
    if (lesson_index < 0 || lesson_index >= s->lessons.count)
        return -1;
    const lesson *l = &s->lessons.lessons[lesson_index];
    ui_demo_list list = {.n = 0};
    for (int i = 0; i < l->ndemos && list.n < UI_DEMO_LIST_MAX; i++)
        if (l->demos[i].kind == DEMO_RUN)
            list.demos[list.n++] = &l->demos[i];
    if (list.n == 0)
        return -1;
    if (list.n == 1 || !ask)
        return ui_open(s, &ui_screen_kitchen, list.demos[0]) == 0 ? 0 : -1;
    return ui_open(s, &ui_screen_demo_choice, &list) == 0 ? 0 : -1;
}

/* The lesson whose demo d is, or -1. */
static int classroom_lesson_of(const ui_state *s, const lesson_demo *d)
{
    for (int i = 0; i < s->lessons.count; i++) {
        const lesson *l = &s->lessons.lessons[i];
        if (l->ndemos > 0 && d >= l->demos && d < l->demos + l->ndemos)
            return i;
    }
    return -1;
}

/* Draws the step's caption from row *y, wrapped at spaces to body's width, and moves *y below it. */
void classroom_draw_caption(ui_state *s, const kitchen_screen *k, layout_rect body, int *y)
{
    kitchen_ui_wrap(s, body, y, 2, classroom_caption(k->step), UI_HEADING);
}

/* The classroom's keys: Space, Enter, right and l next; left and h back; `.` and r drive the
   step's replay; d another demo of the lesson; L the other language and B the next backend, live;
   q or Esc back to the home screen. Returns 1 when the key was the classroom's. */
int classroom_key(ui_state *s, kitchen_screen *k, int key)
{
    switch (key) {
    case ' ':
    case '\r':
    case '\n':
    case KEY_ENTER:
    case KEY_RIGHT:
    case 'l':
    case '\t':
        kitchen_screen_go(k, k->step + 1);
        return 1;
    case KEY_LEFT:
    case 'h':
    case KEY_BTAB:
        kitchen_screen_go(k, k->step - 1);
        return 1;
    case 'r':
        kitchen_screen_go(k, k->step);
        return 1;
    case 'q':
    case 27:
        ui_back_to(s, &ui_screen_home);
        return 1;
    case 'd': { /* another of the lesson's demos: the kitchen gives way to the question */
        int lesson_index = classroom_lesson_of(s, k->demo);
        ui_back(s); /* k is gone from here on */
        if (classroom_open(s, lesson_index, 1) != 0)
            snprintf(s->message, sizeof s->message, "%s", _(" This lesson has no other demo to show."));
        return 1;
    }
    case 'L': /* the other language, live (between runs: a run in progress uses the strings) */
        if (job_running(k->cook)) {
            snprintf(s->message, sizeof s->message, "%s", _(" Still cooking: switch the language once the run is done."));
            return 1;
        }
        i18n_init(i18n_current() == I18N_KO ? I18N_EN : I18N_KO, chef_data_dir());
        return 1;
    case 'B': /* who cooks, live: the same demo, the same seed, on the next backend */
        if (job_running(k->cook)) {
            snprintf(s->message, sizeof s->message, "%s", _(" Still cooking: change who cooks once the run is done."));
            return 1;
        }
        k->params.backend = k->params.backend == BACKEND_AUTO ? BACKEND_GPU
                          : k->params.backend == BACKEND_GPU  ? BACKEND_EMU
                                                              : BACKEND_AUTO;
        kitchen_cook_now(s, k);
        return 1;
    case '.':
    case 'f':
    case 'a':
    case 's':
        return 0; /* the kitchen's own: steps the replay, opens the floor plan and the memory view */
    default:
        return 1; /* the parameters stay as the class saw them */
    }
}
