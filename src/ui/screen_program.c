/*
 * screen_program.c - the kitchen of a learner's whole program (`cudachef try PROGRAM.cu --kitchen`).
 *
 * The program has run on the emulator (program.c), and its journey came back: every allocation,
 * shipment, launch and wait, in the order of its calls. This screen lists that journey under the
 * five steps, a cursor on one event, and shows the event under it below the list with the
 * kitchen's own drawing (kitchen_screen.h): a shipment's load crossing the road at the speed it
 * was measured at, a launch's grid, counts and modeled time, and for the watched launch the
 * stations replaying where its teams cooked, with the zoom into a team's cooks (z), the floor plan
 * (f), the memory view (a) and the step-through (s) opened on it as on a recipe's run.
 *
 * One launch of a run is watched (its trace kept): the first checked one. Enter on another launch
 * runs the program again with that launch the checked and watched one (try --check-launch
 * KERNEL:K --watch, with no input and its output kept, `o` shows it); the re-run is a job, so the
 * screen keeps answering and Esc stops it. Every figure shown is the run's: the journey's times
 * are this machine's, and the model's time is labelled modeled.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/chef.h"
#include "base/i18n.h"
#include "engine/replay.h"
#include "grading/program.h"
#include "ui/kitchen_screen.h"
#include "ui/screens.h"
#include "ui/tui.h"

#define PROGRAM_LIST_MIN 5 /* rows the journey's list keeps at least */

/* A re-run watching another launch: its spec in, its result out. */
typedef struct program_rerun {
    program_spec spec;
    char check[200];       /* "KERNEL:K" */
    program_result res;
    chef_error err;
    int rc;
} program_rerun;

/* The program's kitchen. */
typedef struct program_screen {
    const ui_program_arg *arg;
    const program_result *res; /* the run shown: the first (arg's), or owned */
    program_result owned;      /* the last re-run's result, once it is in */
    job *rerun;                /* a re-run under way */
    json_t *events;            /* res's journey */
    int nevents, sel, top;
    kitchen_report launch;     /* the watched launch, as a kitchen report (have) */
    int have, watched;         /* watched: its event, -1 none */
    char why[300];             /* why there is no watched launch */
    kitchen_report ship;       /* the shipment under the cursor, as the kitchen's road draws one */
    kitchen_screen k;          /* the kitchen's drawing state: the replay, the load, the team, the zoom */
    int focus;                 /* 1: the keys go to the watched launch (its teams, the zoom) */
    int output;                /* 1: the re-run's output is shown instead of the event */
    int output_top;
} program_screen;

/* The step of the five an event belongs to (0 prepare .. 4 taste), by its kind and way. */
static int program_step_of(json_t *e)
{
    const char *kind = json_string_value(json_object_get(e, "kind")), *way = json_string_value(json_object_get(e, "way"));
    if (!kind)
        return 4;
    if (!strcmp(kind, "alloc"))
        return 0;
    if (!strcmp(kind, "copy"))
        return way && !strcmp(way, "in") ? 1 : way && !strcmp(way, "out") ? 3 : 2;
    if (!strcmp(kind, "launch") || !strcmp(kind, "sync"))
        return 2;
    return 4; /* a free: the kitchen is cleaned after the tasting */
}

/* The step's name as the kitchen says it. */
static const char *program_step_name(int step)
{
    static const char *const names[] = {N_("prepare"), N_("ship in"), N_("cook"), N_("ship out"), N_("taste")};
    return _(names[step < 0 || step > 4 ? 4 : step]);
}

/* One event of the journey in a line. */
static void program_event_line(json_t *e, int watched, char *out, size_t size)
{
    const char *kind = json_string_value(json_object_get(e, "kind"));
    char bytes[32], took[32];
    chef_format_bytes((double)json_integer_value(json_object_get(e, "bytes")), bytes, sizeof bytes);
    chef_format_ms(json_real_value(json_object_get(e, "ms")), took, sizeof took);
    const char *memory = json_string_value(json_object_get(e, "memory"));
    if (!kind) {
        snprintf(out, size, "?");
    } else if (!strcmp(kind, "alloc") || !strcmp(kind, "free")) {
        snprintf(out, size, !strcmp(kind, "alloc") ? _("buffer #%lld: %s of %s memory") : _("buffer #%lld freed (%s of %s memory)"),
                 (long long)json_integer_value(json_object_get(e, "number")), bytes,
                 memory && !strcmp(memory, "pinned") ? _("pinned") : memory && !strcmp(memory, "managed") ? _("managed") : _("device"));
    } else if (!strcmp(kind, "copy")) {
        const char *way = json_string_value(json_object_get(e, "way"));
        int pinned = json_is_true(json_object_get(e, "pinned"));
        if (way && !strcmp(way, "in"))
            snprintf(out, size, _("%s to the kitchen (%s), %s"), bytes, pinned ? _("pinned") : _("pageable"), took);
        else if (way && !strcmp(way, "out"))
            snprintf(out, size, _("%s back to the head chef (%s), %s"), bytes, pinned ? _("pinned") : _("pageable"), took);
        else
            snprintf(out, size, _("%s copied %s, %s"), bytes, way && !strcmp(way, "device") ? _("within the kitchen") : _("on the head chef's side"), took);
    } else if (!strcmp(kind, "launch")) {
        json_t *g = json_object_get(e, "grid"), *b = json_object_get(e, "block");
        snprintf(out, size, _("%s<<<(%lld,%lld,%lld), (%lld,%lld,%lld)>>> %s%s%s"),
                 json_string_value(json_object_get(e, "kernel")) ? json_string_value(json_object_get(e, "kernel")) : "?",
                 (long long)json_integer_value(json_array_get(g, 0)), (long long)json_integer_value(json_array_get(g, 1)),
                 (long long)json_integer_value(json_array_get(g, 2)), (long long)json_integer_value(json_array_get(b, 0)),
                 (long long)json_integer_value(json_array_get(b, 1)), (long long)json_integer_value(json_array_get(b, 2)), took,
                 json_is_true(json_object_get(e, "checked")) ? _(", checked and counted") : "",
                 watched ? _(", watched") : json_is_true(json_object_get(e, "faulted")) ? _(", broke a rule") : "");
    } else {
        const char *what = json_string_value(json_object_get(e, "what"));
        snprintf(out, size, "%s", what && !strcmp(what, "stream")  ? _("waits for a stream")
                                  : what && !strcmp(what, "event") ? _("waits for an event")
                                                                   : _("waits for the kitchen (the device)"));
    }
}

/* Takes in the run shown: its journey, its watched launch as a kitchen report, its stations. */
static void program_take(program_screen *p, const program_result *res)
{
    kitchen_report_free(&p->launch);
    stations_free(&p->k.stations);
    memset(&p->launch, 0, sizeof p->launch);
    p->k.team = p->k.cook_at = 0;
    p->k.zoom = 0;
    p->res = res;
    p->events = json_object_get(res->journey, "journey");
    p->nevents = (int)json_array_size(p->events);
    p->have = program_launch_report(res, &p->launch, p->why, sizeof p->why) == 0;
    p->watched = p->have ? (int)json_integer_value(json_object_get(json_object_get(res->trace, "trace"), "event")) : -1;
    if (p->have) {
        stations_measure(&p->k.stations, &p->launch);
        p->sel = p->watched;
    }
    if (p->sel >= p->nevents)
        p->sel = p->nevents > 0 ? p->nevents - 1 : 0;
}

/* Shows the event under the cursor: a shipment's load starts from its side, the watched launch's
   replay from its start. */
static void program_show(program_screen *p)
{
    json_t *e = json_array_get(p->events, (size_t)p->sel);
    int step = program_step_of(e);
    const char *kind = json_string_value(json_object_get(e, "kind"));
    memset(&p->ship, 0, sizeof p->ship);
    p->ship.started = 1;
    p->focus = 0;
    p->k.report = &p->ship;
    if (kind && !strcmp(kind, "copy") && (step == 1 || step == 3)) {
        kitchen_copy c = {.bytes = (size_t)json_integer_value(json_object_get(e, "bytes")),
                          .ms = json_real_value(json_object_get(e, "ms"))};
        c.gb_per_s = c.ms > 0 ? (double)c.bytes / (c.ms * 1e6) : 0;
        if (step == 1)
            p->ship.ship_in = c;
        else
            p->ship.ship_out = c;
        kitchen_screen_go(&p->k, step);
    } else if (p->have && p->sel == p->watched) {
        p->k.report = &p->launch;
        kitchen_screen_go(&p->k, 2);
    } else {
        kitchen_screen_go(&p->k, 0); /* nothing moves */
    }
}

/* Opens the kitchen on the program's first run (arg: ui_program_arg). */
static int program_open(ui_state *s, void *self, const void *arg)
{
    (void)s;
    program_screen *p = self;
    p->arg = arg;
    p->k.pipe_y = -1;
    program_take(p, p->arg->res);
    program_show(p);
    return 0;
}

/* Frees a re-run (its job's data). */
static void program_rerun_free(void *data)
{
    program_rerun *r = data;
    if (r)
        program_result_free(&r->res);
    free(r);
}

/* The job of a re-run: the program built (from the cache) and run again, boxed, watching a launch. */
static int program_rerun_work(job *j, void *data)
{
    program_rerun *r = data;
    r->spec.cancel = job_token(j);
    r->rc = program_try(&r->spec, &r->res, &r->err);
    return r->rc;
}

/* Enter on a launch: runs the program again with that launch (the K-th of its kernel) checked
   and watched. */
static void program_watch(ui_state *s, program_screen *p)
{
    json_t *e = json_array_get(p->events, (size_t)p->sel);
    const char *kernel = json_string_value(json_object_get(e, "kernel"));
    if (!kernel || !program_event_is(e, "launch")) {
        snprintf(s->message, sizeof s->message, "%s", _(" Enter watches a launch: choose one (↑↓)."));
        return;
    }
    if (p->have && p->sel == p->watched)
        return;
    if (job_running(p->rerun)) {
        snprintf(s->message, sizeof s->message, "%s", _(" Still running the program: Esc stops it."));
        return;
    }
    long nth = 0;
    for (int i = 0; i <= p->sel; i++) {
        const char *k = json_string_value(json_object_get(json_array_get(p->events, (size_t)i), "kernel"));
        if (k && !strcmp(k, kernel))
            nth++;
    }
    program_rerun *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(s->message, sizeof s->message, "%s", _(" Not enough memory to run it again."));
        return;
    }
    r->spec = *p->arg->spec;
    snprintf(r->check, sizeof r->check, "%s:%ld", kernel, nth);
    r->spec.check_launch = r->check;
    r->spec.watch = 1;
    r->spec.capture = 1; /* no input, its output kept for `o` */
    char what[300];
    snprintf(what, sizeof what, _("running %s again, watching launch %ld of %s"), p->arg->name, nth, kernel);
    job *j = ui_job_start(s, what, program_rerun_work, r, program_rerun_free);
    if (!j)
        return;
    job_free(p->rerun); /* a finished one that brought nothing */
    p->rerun = j;
    p->k.playing = 0; /* the run shown stays until the new one is in */
}

/* After the loop wakes: a finished re-run's result becomes the run shown (the screen's own). */
static int program_wake(ui_state *s, void *self, int readable)
{
    (void)readable;
    program_screen *p = self;
    if (!p->rerun || job_running(p->rerun))
        return p->k.playing;
    program_rerun *r = job_data(p->rerun);
    if (r && r->rc == 0 && r->res.journey) {
        program_result_free(&p->owned);
        p->owned = r->res;
        memset(&r->res, 0, sizeof r->res);
        program_take(p, &p->owned);
        if (!p->have)
            snprintf(s->message, sizeof s->message, " %.290s", p->why);
        program_show(p);
    } else if (r && r->rc != 0) {
        snprintf(s->message, sizeof s->message, " %.290s", r->err.message);
    } else if (r) {
        snprintf(s->message, sizeof s->message, " %.290s", r->res.message[0] ? r->res.message : _("the program did not run to its end"));
    }
    job_free(p->rerun);
    p->rerun = NULL;
    return 1;
}

/* The re-run under way, for the key line. */
static job *program_running(const void *self)
{
    const program_screen *p = self;
    return job_running(p->rerun) ? p->rerun : NULL;
}

/* Frees what the screen holds. */
static void program_close(ui_state *s, void *self)
{
    (void)s;
    program_screen *p = self;
    job_free(p->rerun);
    kitchen_report_free(&p->launch);
    stations_free(&p->k.stations);
    program_result_free(&p->owned);
}

/* Frames while a load or the replay moves. */
static int program_tick(const void *self)
{
    return ((const program_screen *)self)->k.playing ? KITCHEN_FRAME_MS : 0;
}

/* The journey's list: one row an event, the step it belongs to first, the cursor's row marked. */
static void program_draw_list(ui_state *s, program_screen *p, layout_rect r)
{
    if (p->sel < p->top)
        p->top = p->sel;
    if (p->sel >= p->top + r.h)
        p->top = p->sel - r.h + 1;
    char line[600], text[500];
    for (int row = 0; row < r.h && p->top + row < p->nevents; row++) {
        int i = p->top + row;
        json_t *e = json_array_get(p->events, (size_t)i);
        program_event_line(e, p->have && i == p->watched, text, sizeof text);
        int step = program_step_of(e);
        snprintf(line, sizeof line, "%c%d %-9s %s", i == p->sel ? '>' : ' ', step + 1, program_step_name(step), text);
        draw_text(s, r.y + row, r.x, r.w, line, i == p->sel ? UI_SELECTED : step == 2 ? UI_TEXT : UI_DIM);
    }
    if (p->nevents == 0)
        draw_text(s, r.y, r.x, r.w, _("The program made no call to the kitchen (no allocation, copy or launch)."), UI_DIM);
}

/* A launch that is not the watched one: its figures from the journey, and how to watch it. */
static void program_draw_launch(ui_state *s, const program_screen *p, json_t *e, layout_rect body, int *y)
{
    char line[600];
    counters c;
    if (program_launch_counters(e, &c)) {
        kitchen_report r;
        memset(&r, 0, sizeof r);
        r.counters = c;
        kitchen_ui_draw_counters(s, &r, body, y);
    } else {
        kitchen_ui_line(s, body, y, _("A plain launch: run fast and not counted (the checked one is the first at its "
                                      "line, or the one --check-launch names). Its guard pages still stop a cook "
                                      "that reaches outside a buffer, and name its team."),
                        UI_TEXT);
    }
    (*y)++;
    snprintf(line, sizeof line, "%s", p->rerun && job_running(p->rerun) ? _("Running the program again...")
                                      : _("Enter: watch this launch: the program runs again (same arguments, no input) "
                                          "with it the checked one, and the kitchen replays it."));
    kitchen_ui_line(s, body, y, line, UI_MARK);
}

/* The event under the cursor, below the list. */
static void program_draw_event(ui_state *s, program_screen *p, layout_rect body, int y)
{
    json_t *e = json_array_get(p->events, (size_t)p->sel);
    const char *kind = json_string_value(json_object_get(e, "kind"));
    char line[600];
    if (!kind)
        return;
    if (!strcmp(kind, "copy") && (p->k.step == 1 || p->k.step == 3)) {
        const kitchen_copy *c = p->k.step == 1 ? &p->ship.ship_in : &p->ship.ship_out;
        char bytes[32], took[32];
        chef_format_bytes((double)c->bytes, bytes, sizeof bytes);
        chef_format_ms(c->ms, took, sizeof took);
        snprintf(line, sizeof line, _("%s in %s on this machine (%.3g GB/s), from %s host memory"), bytes, took,
                 c->gb_per_s, json_is_true(json_object_get(e, "pinned")) ? _("pinned") : _("pageable"));
        kitchen_ui_line(s, body, &y, line, UI_TEXT);
        y++;
        kitchen_ui_draw_road(s, &p->k, body, &y, c, p->k.step == 3);
    } else if (!strcmp(kind, "launch") && p->have && p->sel == p->watched) {
        if (p->launch.modeled) {
            snprintf(line, sizeof line, _("MODELED on %s: %.4f ms (%s-bound), from the emulator's counts: not a measurement"),
                     p->launch.model_device.name, p->launch.model.ms, model_bound_name(p->launch.model.bound));
            kitchen_ui_line(s, body, &y, line, UI_MARK);
        }
        kitchen_ui_draw_cook(s, &p->k, body, &y);
    } else if (!strcmp(kind, "launch")) {
        program_draw_launch(s, p, e, body, &y);
    } else if (!strcmp(kind, "alloc")) {
        kitchen_ui_line(s, body, &y, _("Prepare: room in the kitchen's pantry (device memory), or pinned or managed "
                                       "memory on the head chef's side, taken before anything is shipped."),
                        UI_TEXT);
    } else if (!strcmp(kind, "free")) {
        kitchen_ui_line(s, body, &y, _("Cleaning up: the room given back. What a program never gives back is said at "
                                       "its end (device memory never freed)."),
                        UI_TEXT);
    } else if (!strcmp(kind, "copy")) {
        kitchen_ui_line(s, body, &y, _("A copy that does not cross the road: from one buffer to another on the same side."),
                        UI_TEXT);
    } else {
        kitchen_ui_line(s, body, &y, _("The head chef waits here until the kitchen has finished what was sent to it: "
                                       "a launch returns at once, and its results (or its fault) are known at a wait."),
                        UI_TEXT);
    }
}

/* The re-run's output, scrolled. */
static void program_draw_output(ui_state *s, program_screen *p, layout_rect body)
{
    const char *out = p->res->output;
    if (!out) {
        draw_text(s, body.y, body.x, body.w,
                  _("This run's output went to your terminal before the kitchen opened (q shows it). A re-run's (Enter "
                    "on a launch) is kept here."),
                  UI_DIM);
        return;
    }
    int line = 0, y = body.y;
    for (const char *at = out; *at && y < body.y + body.h;) {
        size_t len = strcspn(at, "\n");
        if (line++ >= p->output_top) {
            char text[512];
            snprintf(text, sizeof text, "%.*s", (int)(len < sizeof text - 1 ? len : sizeof text - 1), at);
            draw_text(s, y++, body.x, body.w, text, UI_CODE);
        }
        at += len + (at[len] == '\n');
    }
}

/* Draws the screen: the title, the five steps with the event's highlighted, the journey, the event. */
static void program_draw(ui_state *s, void *self)
{
    program_screen *p = self;
    kitchen_screen_advance(&p->k);
    layout_rect title = {0, 0, COLS, 1}, footer = {0, LINES - 1, COLS, 1}, body = {1, 1, COLS - 2, LINES - 2};
    char line[700];
    const program_result *res = p->res;
    snprintf(line, sizeof line, _(" Your program %s on the CPU emulator: it exited %d%s"), p->arg->name, res->exit_status,
             res->kernel_faulted ? _(", a kernel broke a rule") : "");
    draw_text(s, title.y, title.x, title.w, line, UI_TITLE);
    int on_launch = p->have && p->sel == p->watched && p->k.report == &p->launch;
    if (job_running(p->rerun))
        ui_job_draw(s, p->rerun, footer);
    else
        draw_text(s, footer.y, footer.x, footer.w,
                  p->output             ? _(" ↑↓ scroll  o or Esc back to the journey  q quit")
                  : p->focus && on_launch ? _(" ↑↓ a team  z zoom  f floor  a memory  s steps  Space pause  Esc the journey  ? help")
                  : on_launch ? _(" ↑↓ event  Enter its teams  z zoom  f floor  a memory  s steps  o output  q quit  ? help")
                              : _(" ↑↓ event  Enter watch a launch  Space pause  . step  o output  q quit  ? help"),
                  UI_TITLE);
    json_t *e = json_array_get(p->events, (size_t)p->sel);
    int y = body.y;
    int step = program_step_of(e);
    int keep = p->k.step;
    p->k.step = step; /* the pipeline lights the event's step */
    kitchen_ui_draw_pipeline(s, &p->k, body, y);
    p->k.step = keep;
    y += 2;
    if (p->output) {
        program_draw_output(s, p, (layout_rect){body.x, y, body.w, body.y + body.h - y});
        return;
    }
    int list_h = p->focus && on_launch ? 3 : (body.y + body.h - y) * 2 / 5; /* the teams take the room they need */
    if (list_h < PROGRAM_LIST_MIN && !(p->focus && on_launch))
        list_h = PROGRAM_LIST_MIN;
    if (list_h > p->nevents)
        list_h = p->nevents > 0 ? p->nevents : 1;
    program_draw_list(s, p, (layout_rect){body.x, y, body.w, list_h});
    y += list_h;
    if (y < body.y + body.h)
        draw_text(s, y++, body.x, body.w, "", UI_RULE);
    if (!p->have && p->sel == 0 && y < body.y + body.h)
        kitchen_ui_line(s, body, &y, p->why, UI_DIM);
    program_draw_event(s, p, (layout_rect){body.x, y, body.w, body.y + body.h - y}, y);
}

/* Keys: ↑↓ an event, Enter watches a launch, the kitchen's keys on the watched one, o the output,
   q quits (`try --kitchen` ends). */
static void program_key(ui_state *s, void *self, int key)
{
    program_screen *p = self;
    if (job_running(p->rerun) && key == 27) {
        job_cancel(p->rerun);
        return;
    }
    if (p->output) {
        if (key == 'o' || key == 27)
            p->output = 0;
        else if (key == KEY_DOWN || key == 'j')
            p->output_top++;
        else if ((key == KEY_UP || key == 'k') && p->output_top > 0)
            p->output_top--;
        else if (key == 'q')
            s->quit = 1;
        return;
    }
    int on_launch = p->have && p->sel == p->watched && p->k.report == &p->launch;
    if (p->focus && on_launch) { /* the watched launch's keys: its teams, the zoom, its views */
        if (kitchen_screen_team_key(&p->k, key))
            return;
        if (key == 27 || key == 'q' || key == '\t') {
            p->focus = 0;
            return;
        }
    }
    switch (key) {
    case KEY_UP:
    case 'k':
        if (p->sel > 0) {
            p->sel--;
            program_show(p);
        }
        break;
    case KEY_DOWN:
    case 'j':
        if (p->sel + 1 < p->nevents) {
            p->sel++;
            program_show(p);
        }
        break;
    case KEY_PPAGE:
        p->sel = p->sel > 10 ? p->sel - 10 : 0;
        program_show(p);
        break;
    case KEY_NPAGE:
        p->sel = p->sel + 10 < p->nevents ? p->sel + 10 : (p->nevents > 0 ? p->nevents - 1 : 0);
        program_show(p);
        break;
    case '\r':
    case '\n':
    case KEY_ENTER:
    case '\t':
        if (on_launch)
            p->focus = 1;
        else if (key != '\t')
            program_watch(s, p);
        break;
    case ' ':
        p->k.playing = !p->k.playing;
        p->k.clock_ms = chef_now_ms();
        break;
    case '.':
        kitchen_screen_once(&p->k);
        break;
    case 'o':
        p->output = 1;
        break;
    case 'z':
    case 'f':
    case 'a':
    case 's':
        if (!on_launch) {
            snprintf(s->message, sizeof s->message, "%s",
                     _(" Choose the watched launch first (or Enter on a launch to watch it)."));
        } else if (key == 'z') {
            p->focus = 1;
            kitchen_screen_team_key(&p->k, key);
        } else if (key == 'f') {
            ui_open(s, &ui_screen_floor, &p->launch);
        } else if (key == 's') {
            ui_open(s, &ui_screen_steps, &p->launch);
        } else {
            ui_memory_arg m = {.report = &p->launch};
            ui_open(s, &ui_screen_memory, &m);
        }
        break;
    case 'q':
    case 27:
        s->quit = 1;
        break;
    default:
        break;
    }
}

static const char *const program_help[] = {
    N_("↑ ↓ j k      the journey's events, in the order of the program's calls"),
    N_("Enter        on a launch: watch it (the program runs again with it the checked one);"),
    N_("             on the watched launch: its teams (↑↓ a team, z zoom, Esc back to the journey)"),
    N_("z            zoom into a team of the watched launch (←→↑↓ its cooks, < > another team)"),
    N_("f            the floor plan of the watched launch (and the modeled GPU's)"),
    N_("a            the memory view of its team 0"),
    N_("s            the step-through of its team 0, barrier by barrier"),
    N_("Space .      pause or play the load or the replay; one step"),
    N_("o            the output of the last re-run"),
    N_("q            leave the kitchen"),
    NULL,
};

const ui_screen_class ui_screen_program = {
    .name = "program",
    .size = sizeof(program_screen),
    .open = program_open,
    .draw = program_draw,
    .key = program_key,
    .close = program_close,
    .wake = program_wake,
    .tick = program_tick,
    .running = program_running,
    .help = program_help,
};
