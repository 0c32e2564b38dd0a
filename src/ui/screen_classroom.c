/*
 * screen_classroom.c - classroom mode: the kitchen stepped through by a teacher on a projector.
 *
 * `cudachef --classroom [LESSON]` opens the kitchen of the lesson's first demo of kind run (without
 * LESSON, the home screen's Enter picks the lesson). The kitchen screen draws the same run, but
 * the teacher moves the five steps one key at a time (Space, Enter, right: next; left: back), each
 * with a caption explaining it in the learner's language. Nothing advances by itself: a step's
 * replay or shipment plays once when the step opens and then waits. The run uses a fixed seed
 * (CLASSROOM_SEED, unless the demo names its own), shown in the title, so every run the class sees
 * has the same data; the parameter keys are off for the same reason. Colours come from
 * assets/themes/classroom.ini (mono.ini without colour); the kitchen leaves a blank row after each
 * line and hides the parameters so fewer numbers are on screen at once.
 */
#include <string.h>

#include "base/i18n.h"
#include "ui/kitchen_screen.h"
#include "ui/screens.h"

/* A step's caption: what happens in it, in words a class can follow. */
static const char *classroom_caption(int step)
{
    switch (step) {
    case 0:
        return _("Step 1, prepare: the host (the CPU) fills its pantry (RAM) with the ingredients, the input "
                 "arrays. Nothing is on the GPU yet.");
    case 1:
        return _("Step 2, ship in: the ingredients travel from the pantry (RAM) to the kitchen (VRAM) over the "
                 "road (PCIe, cudaMemcpy). The GPU cooks only what is in its own kitchen.");
    case 2:
        return _("Step 3, cook: the kernel runs. The grid's teams (blocks) go to the stations (SMs), and every "
                 "cook (thread) makes its own element.");
    case 3:
        return _("Step 4, ship out: the results travel back from the kitchen (VRAM) to the pantry (RAM), where "
                 "the CPU can use them.");
    default:
        return _("Step 5, taste: the CPU cooks the same recipe itself and compares every element. Look at the "
                 "time on the road: it often costs more than the cooking.");
    }
}

/* Opens the classroom kitchen of lesson lesson_index's first demo of kind run; 0, or -1 when the
   lesson has none. */
int classroom_open(ui_state *s, int lesson_index)
{
    if (lesson_index < 0 || lesson_index >= s->lessons.count)
        return -1;
    const lesson *l = &s->lessons.lessons[lesson_index];
    for (int i = 0; i < l->ndemos; i++)
        if (l->demos[i].kind == DEMO_RUN)
            return ui_open(s, &ui_screen_kitchen, &l->demos[i]) == 0 ? 0 : -1;
    return -1;
}

/* Draws the step's caption from row *y, wrapped at spaces to body's width, and moves *y below it. */
void classroom_draw_caption(ui_state *s, const kitchen_screen *k, layout_rect body, int *y)
{
    kitchen_ui_wrap(s, body, y, 2, classroom_caption(k->step), UI_HEADING);
}

/* The classroom's keys: Space, Enter, right and l next; left and h back; `.` and r drive the
   step's replay; q or Esc back to the home screen. Returns 1 when the key was the classroom's. */
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
    case '.':
    case 'f':
        return 0; /* the kitchen's own: steps the replay, opens the floor plan */
    default:
        return 1; /* the parameters stay as the class saw them */
    }
}
