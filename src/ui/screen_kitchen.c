/*
 * screen_kitchen.c - the kitchen: one real run of a lesson's demo, shown step by step.
 *
 * `r` on a page that places a demo of kind run comes here. The demo's recipe runs through
 * kitchen_run with the demo's parameters (lesson_demo_params, as `cudachef run` uses them), then
 * the five steps are drawn as a pipeline across the top; left and right move between them. Each
 * step shows that run's figures from the kitchen_report and nothing else: bytes, times and GB/s of
 * the shipments, the grid and its idle cooks, the stations with the teams the trace put on each,
 * the tasting with its first mismatches, and the journey's share spent on the road.
 * On the cook step the trace is replayed slowed down (replay.c says what is on each station at a
 * moment): the stations fill and empty with teams at the recorded times, the whole launch lasting
 * a few seconds on screen with the scale shown; Space pauses and resumes, `.` steps to the next
 * change. On the ship steps a load crosses the road between the pantries at a speed that follows
 * the measured GB/s (a shipment at KITCHEN_SHIP_GBPS takes KITCHEN_SHIP_S on screen, faster ones
 * less, within bounds), the scale and the bytes on each side shown. While something moves the
 * screen asks the loop for a frame every KITCHEN_FRAME_MS (its tick); otherwise the loop
 * sleeps. The learner changes the parameters here (+ - n, [ ] threads per team, p pinned,
 * b backend) and Enter cooks again with them; every figure shown is from the run just made. A run
 * is a job (kitchen_cook_start): the screen says what cooks and for how long, keeps answering
 * keys, and Esc stops the run (between its steps, and between teams on the emulator). `v` opens
 * the side-by-side of the same recipe and n with teams of 32 and of 1024 cooks (screen_versus.c).
 *
 * This file runs the screen: opening and cooking, the animation's clock, the keys, and the frame
 * around the step (title, parameters, pipeline). The steps themselves are drawn by
 * screen_kitchen_steps.c and screen_kitchen_cook.c (kitchen_screen.h is what they share).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/chef.h"
#include "base/i18n.h"
#include "engine/replay.h"
#include "lessons/lesson_run.h"
#include "ui/kitchen_screen.h"
#include "ui/screens.h"

/* Frees a run (its job's data). */
static void kitchen_cook_free(void *data)
{
    kitchen_cook_run *run = data;
    if (run)
        kitchen_report_free(&run->report);
    free(run);
}

/* The job of a run: the five steps, stopped at once through the job's token. */
static int kitchen_cook_work(job *j, void *data)
{
    kitchen_cook_run *run = data;
    run->params.cancel = job_token(j);
    run->code = kitchen_run(&run->params, &run->report);
    return run->code;
}

/* Starts a run of params as a job. */
job *kitchen_cook_start(ui_state *s, const char *what, const kitchen_params *params)
{
    kitchen_cook_run *run = calloc(1, sizeof *run);
    if (!run) {
        snprintf(s->message, sizeof s->message, "%s", _(" Not enough memory to cook."));
        return NULL;
    }
    run->params = *params;
    run->params.note = NULL; /* a note on a very long run is for the command line */
    return ui_job_start(s, what, kitchen_cook_work, run, kitchen_cook_free);
}

/* Starts the step's animation from its beginning (the cook step's replay, the ship steps' load). */
static void kitchen_step_start(kitchen_screen *k)
{
    k->replay_ns = 0;
    k->ship_s = 0;
    k->zoom = 0;
    k->playing = k->report && k->report->started && k->step >= 1 && k->step <= 3;
    k->clock_ms = chef_now_ms();
}

/* The shipment of a ship step (1 in, 3 out). */
static const kitchen_copy *kitchen_copy_of(const kitchen_screen *k)
{
    return k->step == 3 ? &k->report->ship_out : &k->report->ship_in;
}

/* Moves the animation on by the time since the last frame. */
void kitchen_screen_advance(kitchen_screen *k)
{
    double now = chef_now_ms(), screen_s = (now - k->clock_ms) / 1e3;
    k->clock_ms = now;
    if (k->playing && k->step == 2) {
        uint64_t span = replay_span_ns(&k->report->trace);
        k->replay_ns += screen_s * replay_ns_per_screen_second(span, KITCHEN_REPLAY_S);
        if (k->replay_ns >= (double)span) {
            k->replay_ns = (double)span;
            k->playing = 0;
        }
    } else if (k->playing && (k->step == 1 || k->step == 3)) {
        const kitchen_copy *c = kitchen_copy_of(k);
        double run_s = c->ms / 1e3;
        k->ship_s += screen_s * run_s / kitchen_ui_ship_screen_s(c);
        if (k->ship_s >= run_s) {
            k->ship_s = run_s;
            k->playing = 0;
        }
    } else {
        k->playing = 0;
    }
}

/* Frames while the replay or the load moves. */
static int kitchen_tick(const void *self)
{
    return ((const kitchen_screen *)self)->playing ? KITCHEN_FRAME_MS : 0;
}

/* 1 when the run shown is what its demo expects (a demo about a mistake expects the mistake), 0
   when not, -1 when the learner changed the parameters (then there is no expectation). */
static int kitchen_as_expected(const kitchen_screen *k)
{
    const kitchen_params *a = &k->ran, *b = &k->first;
    if (!k->report || a->n != b->n || a->threads_per_block != b->threads_per_block || a->blocks != b->blocks ||
        a->backend != b->backend || a->pinned != b->pinned || a->seed != b->seed || a->seed_given != b->seed_given)
        return -1;
    demo_expect want = lesson_demo_expected(k->demo, k->report->backend.kind == BACKEND_GPU);
    return lesson_outcome_matches(want, lesson_outcome_of(k->report, k->code));
}

/* Cooks with k->params, replacing the run shown (a run still cooking is stopped and let go). */
void kitchen_cook_now(ui_state *s, kitchen_screen *k)
{
    job_free(k->cook);
    k->cook = NULL;
    k->report = NULL;
    stations_free(&k->stations);
    k->changed = 0;
    k->team = 0;
    k->cook_at = 0;
    k->taken = 0;
    k->playing = 0;
    char what[300];
    snprintf(what, sizeof what, _("cooking %s"), k->params.recipe ? k->params.recipe : "");
    k->cook = kitchen_cook_start(s, what, &k->params);
    if (!k->cook)
        k->code = CHEF_EXIT_ENVIRONMENT;
}

/* Records the demo as run when the run shown is what it expects (a teacher's class runs are not
   the learner's, and are not recorded). */
static void kitchen_record(ui_state *s, const kitchen_screen *k)
{
    const lesson *l = lesson_of_demo(&s->lessons, k->demo);
    if (!s->classroom && l && kitchen_as_expected(k) > 0)
        ui_progress_mark(s, "demo", l, k->demo->name);
}

/* Once the run has finished: its report shown, the recipe's defaults (now known) become the
   values the keys change, its stations measured, the demo recorded. */
static void kitchen_take(ui_state *s, kitchen_screen *k)
{
    const kitchen_cook_run *run = job_data(k->cook);
    k->taken = 1;
    k->report = &run->report;
    k->code = run->code;
    if (k->report->started) {
        if (k->params.n == 0)
            k->params.n = k->report->plan.n;
        if (k->params.threads_per_block == 0)
            k->params.threads_per_block =
                (int)(k->report->plan.block.x * k->report->plan.block.y * k->report->plan.block.z);
    }
    k->ran = k->params;
    if (!k->have_first) { /* the recipe's defaults are now filled in: these are the demo's own parameters */
        k->first = k->ran;
        k->have_first = 1;
    }
    stations_measure(&k->stations, k->report);
    kitchen_step_start(k);
    kitchen_record(s, k);
}

/* Opens the kitchen on demo arg and cooks it with its own parameters. */
static int kitchen_open(ui_state *s, void *self, const void *arg)
{
    kitchen_screen *k = self;
    const lesson_demo *demo = arg;
    k->demo = demo;
    k->step = 0;
    k->pipe_y = -1;
    demo_overrides none;
    memset(&none, 0, sizeof none);
    demo_params dp;
    lesson_demo_params(demo, &none, !s->gpu, &dp, NULL);
    k->params = dp.run;
    k->params.recipe = demo->recipe;
    k->params.kernel = s->kernel; /* NULL but for `try --kitchen` */
    k->first = k->ran = k->params;
    kitchen_cook_now(s, k);
    return 0;
}

/* Frees the run (one still cooking is stopped and let go). */
static void kitchen_close(ui_state *s, void *self)
{
    (void)s;
    kitchen_screen *k = self;
    job_free(k->cook);
    stations_free(&k->stations);
}

/* After a wake-up: a run that finished is taken in; 1 when the screen must be drawn again. */
static int kitchen_wake(ui_state *s, void *self, int readable)
{
    (void)readable;
    kitchen_screen *k = self;
    if (!k->cook || job_running(k->cook) || k->taken)
        return 0;
    kitchen_take(s, k);
    return 1;
}

/* The run the screen waits for. */
static job *kitchen_running(const void *self)
{
    return ((const kitchen_screen *)self)->cook;
}

/* Shows step (clamped to the five) and starts its replay or shipment from the beginning. */
void kitchen_screen_go(kitchen_screen *k, int step)
{
    k->step = step < 0 ? 0 : step >= KITCHEN_STEPS ? KITCHEN_STEPS - 1 : step;
    kitchen_step_start(k);
}

/* The parameters of the next run, and the keys that change them. */
static void kitchen_draw_params(ui_state *s, const kitchen_screen *k, layout_rect body, int *y)
{
    const kitchen_params *p = &k->params;
    const char *who = p->backend == BACKEND_GPU ? _("gpu") : p->backend == BACKEND_EMU ? _("emulator") : _("auto");
    char line[512];
    snprintf(line, sizeof line, _("n = %lld   threads per team = %d   %s   backend: %s%s"), (long long)p->n,
             p->threads_per_block, p->pinned ? _("pinned") : _("pageable"), who,
             k->changed ? _("   (changed: Enter cooks again)") : "");
    kitchen_ui_wrap(s, body, y, 0, line, k->changed ? UI_MARK : UI_TEXT);
    kitchen_ui_line(s, body, y, _("+ - n   e type n   [ ] threads per team   p pinned   b backend   Enter cook again"),
                    UI_DIM);
}

/* What the run shown says about the demo's expectation: the demo is about a mistake and showed it,
   or it did not show what it should, drawn from row *y. Nothing for a run the learner changed. */
static void kitchen_draw_expectation(ui_state *s, const kitchen_screen *k, layout_rect body, int *y)
{
    int expected = kitchen_as_expected(k);
    if (expected < 0 || (expected > 0 && k->code == CHEF_EXIT_OK))
        return;
    kitchen_ui_wrap(s, body, y, 0,
                    expected ? _("As expected: this demo is about a mistake, and the run shows it.")
                             : _("Not what this demo expects: the lesson's page says what to look for."),
                    expected ? UI_RIGHT : UI_WRONG);
}

/* The key line: the prompt while n is typed, the zoom's keys, or the steps'. */
static void kitchen_draw_footer(ui_state *s, const kitchen_screen *k, layout_rect footer)
{
    char line[256];
    if (k->typing) {
        snprintf(line, sizeof line, _(" n [threads per team]: %s_   Enter cook   Esc cancel"), k->typed);
        draw_text(s, footer.y, footer.x, footer.w, line, UI_TITLE);
        return;
    }
    draw_text(s, footer.y, footer.x, footer.w,
              s->classroom ? _(" Space Enter → next   ← back   r replay   f floor   d demo   L lang   B backend   q home   ? help")
              : k->zoom && k->step == 2 ? _(" ←→↑↓ a cook   < > another team   z back to the stations   q back   ? help")
                                        : _(" ←→ steps   Space pause   . step   f floor plan   v 32 vs 1024   q back   ? help"),
              UI_TITLE);
}

/* Draws the kitchen screen (while a run cooks: what cooks, for how long, and how to stop it). */
static void kitchen_draw(ui_state *s, void *self)
{
    layout_reader lr;
    layout_reader_split(COLS, LINES, &lr);
    lr.body.w = COLS - 4 > lr.body.w ? COLS - 4 : lr.body.w; /* the stations use every column (a projector's 200) */
    kitchen_screen *k = self;
    char line[1024];
    const kitchen_report *r = k->report;
    kitchen_screen_advance(k);
    if (s->classroom)
        snprintf(line, sizeof line, _(" Classroom: %s"), lesson_demo_title(k->demo, i18n_current()));
    else if (k->report && kitchen_as_expected(k) < 0) /* the learner's own parameters: the demo's title no longer fits */
        snprintf(line, sizeof line, _(" Kitchen: %s, with n = %lld and %d cooks per team"), k->demo->recipe,
                 (long long)k->ran.n, k->ran.threads_per_block);
    else
        snprintf(line, sizeof line, _(" Kitchen: %s"), lesson_demo_title(k->demo, i18n_current()));
    draw_text(s, lr.title.y, lr.title.x, lr.title.w, line, UI_TITLE);
    if (job_running(k->cook)) {
        ui_job_draw_body(s, k->cook, lr.body);
        ui_job_draw(s, k->cook, lr.footer);
        return;
    }
    kitchen_draw_footer(s, k, lr.footer);
    int y = lr.body.y;
    if (!r || !r->started) {
        kitchen_draw_params(s, k, lr.body, &y);
        snprintf(line, sizeof line, _("The kitchen stopped: %s"), r ? r->error.message : _("out of memory"));
        kitchen_ui_wrap(s, lr.body, &y, 0, line, UI_WRONG);
        if (r && r->error.hint[0])
            kitchen_ui_wrap(s, lr.body, &y, 0, r->error.hint, UI_TEXT);
        kitchen_draw_expectation(s, k, lr.body, &y);
        return;
    }
    if (k->zoom && k->step == 2) { /* the team's cooks take every row (z goes back to the steps) */
        k->pipe_y = -1;
        kitchen_ui_draw_step(s, k, lr.body, y);
        return;
    }
    if (s->classroom) { /* fewer numbers at once: the steps, then the caption */
        kitchen_ui_draw_pipeline(s, k, lr.body, y);
        y += 2;
        classroom_draw_caption(s, k, lr.body, &y);
        y++;
    } else {
        snprintf(line, sizeof line, _("Who cooked: %s"),
                 r->backend.kind == BACKEND_GPU ? r->backend.name : _("CPU emulator"));
        kitchen_ui_line(s, lr.body, &y, line, UI_DIM);
        kitchen_draw_params(s, k, lr.body, &y);
        kitchen_ui_draw_pipeline(s, k, lr.body, y);
        y += 2;
    }
    if (k->code > CHEF_EXIT_WRONG) {
        snprintf(line, sizeof line, _("The kitchen stopped: %s"), r->error.message);
        kitchen_ui_wrap(s, lr.body, &y, 0, line, UI_WRONG);
    }
    kitchen_draw_expectation(s, k, lr.body, &y);
    kitchen_ui_draw_step(s, k, lr.body, y);
}

/* Space: pauses or resumes what moves; at the end, plays it again from the start. */
static void kitchen_toggle(kitchen_screen *k)
{
    if (!k->report || !k->report->started || k->step < 1 || k->step > 3)
        return;
    if (k->playing) {
        k->playing = 0;
        return;
    }
    if (k->step == 2 && k->replay_ns >= (double)replay_span_ns(&k->report->trace))
        k->replay_ns = 0;
    if (k->step != 2 && k->ship_s >= kitchen_copy_of(k)->ms / 1e3)
        k->ship_s = 0;
    k->playing = 1;
    k->clock_ms = chef_now_ms();
}

/* `.`: pauses and moves the replay to the next moment a team starts or finishes; on a ship step,
   moves the load a tenth of the way on. */
void kitchen_screen_once(kitchen_screen *k)
{
    if (!k->report || !k->report->started || k->step < 1 || k->step > 3)
        return;
    k->playing = 0;
    if (k->step != 2) {
        double run_s = kitchen_copy_of(k)->ms / 1e3;
        k->ship_s = k->ship_s + run_s / 10 >= run_s * 0.999 ? run_s : k->ship_s + run_s / 10;
        return;
    }
    k->replay_ns = (double)replay_next_event(&k->report->trace, (uint64_t)k->replay_ns);
}

/* The cook step's team keys: up and down (k, j) move the team cursor and z zooms in or out
   (pausing the replay); while zoomed the arrows move the cook cursor (up and down by a warp) and
   < > (PgUp PgDn) another team. Returns 1 when the key was one of these. */
int kitchen_screen_team_key(kitchen_screen *k, int key)
{
    uint32_t last = k->report->teams > 0 ? (uint32_t)(k->report->teams - 1) : 0;
    uint32_t cooks = k->report->cooks_per_team > 0 ? (uint32_t)k->report->cooks_per_team : 1;
    if (key == 'z' || (k->zoom && key == 27)) {
        k->zoom = !k->zoom;
        k->playing = 0;
        if (k->zoom && k->report->trace.stopped && k->report->trace.stopped_team <= last)
            k->team = k->report->trace.stopped_team; /* the team where the launch stopped */
        return 1;
    }
    if (k->zoom) {
        switch (key) {
        case KEY_LEFT: case 'h': k->cook_at = k->cook_at > 0 ? k->cook_at - 1 : 0; return 1;
        case KEY_RIGHT: case 'l': k->cook_at = k->cook_at + 1 < cooks ? k->cook_at + 1 : cooks - 1; return 1;
        case KEY_UP: case 'k': k->cook_at = k->cook_at >= 32 ? k->cook_at - 32 : 0; return 1;
        case KEY_DOWN: case 'j': k->cook_at = k->cook_at + 32 < cooks ? k->cook_at + 32 : cooks - 1; return 1;
        case '<': case KEY_PPAGE: k->team = k->team > 0 ? k->team - 1 : 0; return 1;
        case '>': case KEY_NPAGE: k->team = k->team < last ? k->team + 1 : last; return 1;
        default: return 0;
        }
    }
    if (key == KEY_UP || key == 'k') {
        k->team = k->team > 0 ? k->team - 1 : 0;
        return 1;
    }
    if (key == KEY_DOWN || key == 'j') {
        k->team = k->team < last ? k->team + 1 : last;
        return 1;
    }
    return 0;
}

/* Keys while n (and threads per team) are typed after `e`: digits and a space, Backspace, Enter
   cooks with them, Esc cancels. */
static void kitchen_typing_key(ui_state *s, kitchen_screen *k, int key)
{
    size_t len = strlen(k->typed);
    if (key == 27) {
        k->typing = 0;
    } else if (key == KEY_BACKSPACE || key == 127 || key == 8) {
        if (len > 0)
            k->typed[len - 1] = '\0';
    } else if ((key >= '0' && key <= '9') || key == ' ') {
        if (len + 1 < sizeof k->typed) {
            k->typed[len] = (char)key;
            k->typed[len + 1] = '\0';
        }
    } else if (key == '\n' || key == '\r' || key == KEY_ENTER) {
        k->typing = 0;
        long long n = 0, tpb = 0;
        int got = sscanf(k->typed, "%lld %lld", &n, &tpb);
        if (got >= 1 && n >= 1 && n <= ((int64_t)1 << 31))
            k->params.n = n;
        if (got == 2 && tpb >= 1 && tpb <= 4096)
            k->params.threads_per_block = (int)tpb;
        if (got >= 1 && job_running(k->cook))
            snprintf(s->message, sizeof s->message, "%s", _(" Still cooking: Enter cooks again once it is done, Esc stops it."));
        else if (got >= 1)
            kitchen_cook_now(s, k);
    }
}

/* Keys: left and right move between the steps; Space and `.` drive the replay; + - [ ] p b change
   the parameters and Enter cooks again with them; q or Esc goes back to the reader. */
static void kitchen_key(ui_state *s, void *self, int key)
{
    kitchen_screen *k = self;
    if (job_running(k->cook) && !k->typing) {
        /* while it cooks: Esc stops it; the steps and the parameters still move, q goes back */
        if (key == 27) {
            job_cancel(k->cook);
            return;
        }
        if (key == ' ' || key == '.' || key == 'z' || key == KEY_UP || key == KEY_DOWN || key == 'j' || key == 'k')
            return;
    }
    if (k->typing) {
        kitchen_typing_key(s, k, key);
        return;
    }
    if (k->step == 2 && k->report && k->report->started && kitchen_screen_team_key(k, key))
        return;
    if (s->classroom && classroom_key(s, k, key))
        return;
    switch (key) {
    case KEY_LEFT:
    case 'h':
        if (k->step > 0) {
            k->step--;
            kitchen_step_start(k);
        }
        break;
    case KEY_BTAB:
        if (k->step > 0) {
            k->step--;
            kitchen_step_start(k);
        }
        break;
    case 'e':
        k->typing = 1;
        k->typed[0] = '\0';
        break;
    case KEY_RIGHT:
    case 'l':
    case '\t':
        if (k->step + 1 < KITCHEN_STEPS) {
            k->step++;
            kitchen_step_start(k);
        }
        break;
    case ' ':
        kitchen_toggle(k);
        break;
    case '+':
    case '=':
        if (k->params.n < ((int64_t)1 << 30)) {
            k->params.n = k->params.n > 0 ? k->params.n * 2 : 1;
            k->changed = 1;
        }
        break;
    case '-':
        if (k->params.n > 1) {
            k->params.n /= 2;
            k->changed = 1;
        }
        break;
    case '[':
        if (k->params.threads_per_block > 1) {
            k->params.threads_per_block /= 2;
            k->changed = 1;
        }
        break;
    case ']':
        if (k->params.threads_per_block < 2048) { /* past 1024 a GPU refuses: let the learner see it */
            k->params.threads_per_block = k->params.threads_per_block > 0 ? k->params.threads_per_block * 2 : 1;
            k->changed = 1;
        }
        break;
    case 'p':
        k->params.pinned = !k->params.pinned;
        k->changed = 1;
        break;
    case 'b':
        k->params.backend = k->params.backend == BACKEND_AUTO ? BACKEND_GPU
                          : k->params.backend == BACKEND_GPU  ? BACKEND_EMU
                                                              : BACKEND_AUTO;
        k->changed = 1;
        break;
    case '\r':
    case '\n':
    case KEY_ENTER:
        if (job_running(k->cook)) /* one run at a time: the one under way first, or Esc */
            snprintf(s->message, sizeof s->message, "%s", _(" Still cooking: Enter cooks again once it is done, Esc stops it."));
        else
            kitchen_cook_now(s, k);
        break;
    case '.':
        kitchen_screen_once(k);
        break;
    case 'a':
        if (!k->report || !k->report->started) {
            snprintf(s->message, sizeof s->message, "%s", _(" Cook a run first: the memory view shows its warps' accesses."));
        } else {
            ui_memory_arg m = {.report = k->report, .params = k->ran};
            if (k->report->backend.kind == BACKEND_GPU && kitchen_as_expected(k) >= 0) {
                /* the GPU's n may take the emulator minutes: its count uses the demo's emulator size */
                demo_overrides none;
                memset(&none, 0, sizeof none);
                demo_params dp;
                lesson_demo_params(k->demo, &none, 1, &dp, NULL);
                m.params.n = dp.run.n;
            }
            ui_open(s, &ui_screen_memory, &m);
        }
        break;
    case 's':
        if (!k->report || !k->report->started)
            snprintf(s->message, sizeof s->message, "%s", _(" Cook a run first: the step-through goes through its team 0."));
        else
            ui_open(s, &ui_screen_steps, k->report);
        break;
    case 'f':
        if (!k->report || !k->report->started)
            snprintf(s->message, sizeof s->message, "%s", _(" Cook a run first: the floor plan replays its teams."));
        else
            ui_open(s, &ui_screen_floor, k->report);
        break;
    case 'v':
        if (!k->report || !k->report->started) {
            snprintf(s->message, sizeof s->message, "%s", _(" Cook a run first: the side-by-side cooks its recipe and n."));
        } else {
            ui_versus_arg v = {k->ran, k->report};
            ui_open(s, &ui_screen_versus, &v);
        }
        break;
    case 'q':
    case 27:
        if (s->kernel) /* `try --kitchen`: there is no lesson behind this kitchen */
            s->quit = 1;
        else
            ui_back(s);
        return;
    default:
        break;
    }
}

/* A click on a step of the pipeline shows that step. */
static void kitchen_click(ui_state *s, void *self, int y, int x)
{
    (void)s;
    kitchen_screen *k = self;
    if (!k->report || y != k->pipe_y)
        return;
    for (int i = 0; i < KITCHEN_STEPS; i++)
        if (x >= k->pipe_x[i] && x < k->pipe_x[i + 1]) {
            k->zoom = 0;
            kitchen_screen_go(k, i);
            return;
        }
}

/* The kitchen's keys, for the help. */
static const char *const kitchen_help[] = {
    N_("←→ h l, Tab     the steps (Shift-Tab back)"),
    N_("Space           pause or play the replay or the shipment"),
    N_(".               move it on by one change"),
    N_("↑↓ z            cook step: choose a team, zoom into its cooks"),
    N_("←→↑↓ < >        zoomed: choose a cook (↑↓ by a warp), another team"),
    N_("+ -             double or halve n;  e  type n (and team size)"),
    N_("[ ]             halve or double the cooks per team"),
    N_("p b             pinned memory; who cooks (auto, gpu, emulator)"),
    N_("Enter           cook again with them"),
    N_("v               the same work in teams of 32 and of 1024, side by side"),
    N_("f               the floor plan: every station as a box, every team of the grid"),
    N_("a               memory: each warp's accesses against sectors, lines and banks"),
    N_("s               the step-through: team 0's cooks phase by phase, between barriers"),
    NULL,
};

/* The kitchen's keys in classroom mode. */
static const char *const kitchen_help_classroom[] = {
    N_("Space Enter →   the next step"),
    N_("←               the step before"),
    N_("r               replay the step;  .  move it on by one change"),
    N_("↑↓ z            cook step: choose a team, zoom into its cooks (the arrows: a cook)"),
    N_("d               another of the lesson's demos"),
    N_("L B             the other language; the next backend (auto, gpu, emulator), live"),
    N_("f               the floor plan: every station as a box, every team of the grid"),
    NULL,
};

const ui_screen_class ui_screen_kitchen = {
    .name = "kitchen",
    .size = sizeof(kitchen_screen),
    .open = kitchen_open,
    .draw = kitchen_draw,
    .key = kitchen_key,
    .close = kitchen_close,
    .click = kitchen_click,
    .wake = kitchen_wake,
    .tick = kitchen_tick,
    .running = kitchen_running,
    .help = kitchen_help,
    .help_classroom = kitchen_help_classroom,
};
