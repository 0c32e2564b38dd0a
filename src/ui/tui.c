/*
 * tui.c - cudachef's full-screen interface: the terminal, the signals and the loop.
 *
 * `cudachef` with no command on a terminal comes here. The loop sleeps in poll() until a key or a
 * signal arrives (no busy loop): signal handlers only set a sig_atomic_t flag and write a byte to
 * a pipe that poll watches. SIGWINCH redraws at the new size; SIGINT and SIGTERM end the loop and
 * restore the terminal; SIGSEGV and SIGABRT restore it and then die as they would have. Below
 * LAYOUT_MIN_COLS x LAYOUT_MIN_ROWS a screen asks for a larger terminal. NO_COLOR, --no-color and
 * terminals without colour get the monochrome theme; --ascii and non-UTF-8 locales get ASCII.
 *
 * While an exercise is open, a third descriptor joins the poll: the inotify watch on the learner's
 * file (screen_exercise.c), so a save is checked without a key; when the watch has to poll
 * instead, the exercise screen asks for a tick (s->tick_ms) and looks at the file at each one.
 *
 * The first frame never waits for CUDA: starting the CUDA runtime can take seconds on a GPU
 * machine, so the GPU is probed in a background thread (tui_probe_*) while the home screen says
 * "checking for a GPU...". The thread fills its own struct, sets an atomic flag and writes a byte
 * to the same self-pipe the signals use; the loop wakes, joins the thread and only then reads the
 * struct, so nothing is shared while it is being written.
 */
#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "engine/backend.h"
#include "base/chef.h"
#include "base/i18n.h"
#include "ui/tui.h"
#include "ui/ui.h"
#include "base/text.h"

static volatile sig_atomic_t tui_resized;
static volatile sig_atomic_t tui_stop;      /* the signal that asks to stop, 0 none */
static int tui_wake[2] = {-1, -1};          /* a byte written here wakes poll */
static int tui_started;                     /* curses is on */

/* Wakes the loop: a byte on the self-pipe (write is safe in a signal handler and in any thread). */
void tui_wake_loop(void)
{
    if (tui_wake[1] >= 0) {
        char byte = 0;
        ssize_t ignored = write(tui_wake[1], &byte, 1);
        (void)ignored;
    }
}

/* SIGWINCH, SIGINT, SIGTERM: note it and wake the loop; nothing else is safe here. */
static void tui_on_signal(int sig)
{
    int saved = errno;
    if (sig == SIGWINCH)
        tui_resized = 1;
    else
        tui_stop = sig;
    tui_wake_loop();
    errno = saved;
}

/* SIGSEGV, SIGABRT: give the terminal back, then die of the same signal (the handler was reset). */
static void tui_on_crash(int sig)
{
    if (tui_started && !isendwin())
        endwin();
    raise(sig);
}

/* At exit, whatever the path: the terminal is never left in curses mode. */
static void tui_at_exit(void)
{
    if (tui_started && !isendwin())
        endwin();
}

/* `try --kitchen`: the demo to open at once, and the learner's kernel (tui_open_kitchen). */
static const lesson_demo *tui_pending_demo;
static const char *tui_pending_kernel;

/* Makes the next tui_main open a kitchen straight away. */
void tui_open_kitchen(const struct lesson_demo *demo, const char *kernel)
{
    tui_pending_demo = demo;
    tui_pending_kernel = kernel;
}

/* 1 for an option of the full-screen interface. */
int tui_option(const char *argument)
{
    return strcmp(argument, "--no-color") == 0 || strcmp(argument, "--ascii") == 0 ||
           strcmp(argument, "--classroom") == 0;
}

/* Installs a handler for sig; 0, or -1 with a message. */
static int tui_handle(int sig, void (*handler)(int), int flags)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sa.sa_flags = flags;
    sigemptyset(&sa.sa_mask);
    if (sigaction(sig, &sa, NULL) != 0) {
        fprintf(stderr, "cudachef: could not handle signal %d: %s\n", sig, strerror(errno));
        return -1;
    }
    return 0;
}

/* The self-pipe and the signal handlers; 0, or -1 with a message. */
static int tui_signals(void)
{
    if (pipe2(tui_wake, O_NONBLOCK | O_CLOEXEC) != 0) {
        fprintf(stderr, "cudachef: could not make a pipe: %s\n", strerror(errno));
        return -1;
    }
    if (tui_handle(SIGWINCH, tui_on_signal, SA_RESTART) != 0 || tui_handle(SIGINT, tui_on_signal, SA_RESTART) != 0 ||
        tui_handle(SIGTERM, tui_on_signal, SA_RESTART) != 0 || tui_handle(SIGSEGV, tui_on_crash, SA_RESETHAND) != 0 ||
        tui_handle(SIGABRT, tui_on_crash, SA_RESETHAND) != 0)
        return -1;
    return 0;
}

/* The background probe of the GPU: written only by its thread until done is set, then read only
   by the main thread after pthread_join. */
static struct tui_probe {
    pthread_t thread;
    int started;        /* the thread was created (main thread only) */
    atomic_int done;    /* set by the thread once info and found are final */
    backend_info info;  /* what backend_gpu_probe found */
    int found;          /* 1 when a GPU will cook */
} tui_probe;

/* The probe thread: asks CUDA for a GPU (possibly slow), then wakes the loop. */
static void *tui_probe_run(void *unused)
{
    (void)unused;
    /* CUDACHEF_PROBE_DELAY_MS makes the probe that much slower, as a slow CUDA start would be: the
       benchmark and the tests use it to check that the first frame never waits for CUDA */
    const char *delay = getenv("CUDACHEF_PROBE_DELAY_MS");
    long ms = delay ? strtol(delay, NULL, 10) : 0;
    if (ms > 0 && ms <= 60000) {
        struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
        while (nanosleep(&t, &t) != 0 && errno == EINTR) {
        }
    }
    memset(&tui_probe.info, 0, sizeof tui_probe.info);
    tui_probe.found = backend_gpu_probe(&tui_probe.info) == 0;
    atomic_store_explicit(&tui_probe.done, 1, memory_order_release);
    tui_wake_loop();
    return NULL;
}

/* Who will cook, as the home screen says it: the GPU's name, or the CPU emulator and why. */
static void tui_backend_text(ui_state *s, const backend_info *info, int found)
{
    s->gpu = found;
    if (found)
        snprintf(s->backend, sizeof s->backend, "%s", info->name);
    else
        snprintf(s->backend, sizeof s->backend, "%s: %s", _("CPU emulator"), info->no_gpu_reason);
}

/* Starts run(NULL) in a thread of its own with every signal blocked there (they belong to the
   loop); 1 when it started. */
int tui_thread_start(pthread_t *thread, void *(*run)(void *))
{
    sigset_t all, saved;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &saved);
    int started = pthread_create(thread, NULL, run, NULL) == 0;
    pthread_sigmask(SIG_SETMASK, &saved, NULL);
    return started;
}

/* Starts the probe in the background; if no thread can be made, probes here instead (slower first
   answer, same result). */
static void tui_probe_start(ui_state *s)
{
    tui_probe.started = tui_thread_start(&tui_probe.thread, tui_probe_run);
    if (!tui_probe.started) {
        tui_probe_run(NULL);
        tui_backend_text(s, &tui_probe.info, tui_probe.found);
    }
}

/* After a wake-up: when the probe is done, joins its thread and shows what it found; 1 if so. */
static int tui_probe_collect(ui_state *s)
{
    if (!tui_probe.started || !atomic_load_explicit(&tui_probe.done, memory_order_acquire))
        return 0;
    pthread_join(tui_probe.thread, NULL);
    tui_probe.started = 0;
    tui_backend_text(s, &tui_probe.info, tui_probe.found);
    return 1;
}

/* At the end: a probe still inside CUDA is left to finish on its own (never waited for). Returns
   1 when it is still running: the process must then end with _exit, since exit's clean-up (the
   CUDA runtime's own destructors) would run under that thread's feet and crash. */
static int tui_probe_stop(void)
{
    int running = tui_probe.started && !atomic_load_explicit(&tui_probe.done, memory_order_acquire);
    if (tui_probe.started)
        pthread_detach(tui_probe.thread);
    tui_probe.started = 0;
    return running;
}

/* The screen shown while the terminal is too small. */
static void tui_draw_too_small(ui_state *s)
{
    char line[160], now[80];
    snprintf(line, sizeof line, _("Please enlarge the terminal to %d x %d"), LAYOUT_MIN_COLS, LAYOUT_MIN_ROWS);
    snprintf(now, sizeof now, _("(now %d x %d; q quits)"), COLS, LINES);
    int y = LINES / 2 - 1 < 0 ? 0 : LINES / 2 - 1;
    int w = text_width(line, strlen(line));
    draw_text(s, y, w < COLS ? (COLS - w) / 2 : 0, COLS < w ? COLS : w, line, UI_HEADING);
    w = text_width(now, strlen(now));
    if (y + 1 < LINES)
        draw_text(s, y + 1, w < COLS ? (COLS - w) / 2 : 0, COLS < w ? COLS : w, now, UI_TEXT);
}

static double tui_frame_ms; /* when the last frame was drawn (chef_now_ms) */

/* Draws the whole screen; curses sends only what changed, so nothing flickers. */
static void tui_draw(ui_state *s)
{
    tui_frame_ms = chef_now_ms();
    erase();
    if (layout_too_small(COLS, LINES))
        tui_draw_too_small(s);
    else if (s->screen == UI_SCREEN_READER)
        reader_draw(s);
    else if (s->screen == UI_SCREEN_KITCHEN)
        kitchen_screen_draw(s);
    else if (s->screen == UI_SCREEN_OUTPUT)
        demo_output_draw(s);
    else if (s->screen == UI_SCREEN_EXERCISE)
        exercise_screen_draw(s);
    else if (s->screen == UI_SCREEN_VERSUS)
        versus_screen_draw(s);
    else if (s->screen == UI_SCREEN_BENCH)
        bench_screen_draw(s);
    else
        home_draw(s);
    if (s->choosing && s->screen == UI_SCREEN_READER && !layout_too_small(COLS, LINES))
        demo_choose_draw(s);
    if (s->exercise.choosing && !layout_too_small(COLS, LINES))
        exercise_choose_draw(s);
    if (s->message[0] && !layout_too_small(COLS, LINES))
        draw_text(s, LINES - 1, 0, COLS, s->message, UI_MARK);
    if (s->help && !layout_too_small(COLS, LINES))
        help_draw(s);
    refresh();
}

/* Keeps why progress could not be read or written, for the home screen. */
static void tui_progress_note(ui_state *s, const chef_error *err)
{
    snprintf(s->progress_note, sizeof s->progress_note, _(" Progress is not being saved: %s (%s)"), err->message, err->hint);
}

/* Reads the progress file again into s->progress. */
static void tui_progress_reload(ui_state *s)
{
    chef_error err = {0};
    progress_free(&s->progress);
    if (progress_load(&s->progress, &err) != 0)
        tui_progress_note(s, &err);
}

/* Records the page reached in a lesson. */
void ui_progress_page(ui_state *s, const lesson *l, int page, int count)
{
    chef_error err = {0};
    if (progress_page(l->slug, page, count, &err) != 0)
        tui_progress_note(s, &err);
    else
        tui_progress_reload(s);
}

/* Records a demo run or an exercise passed. */
void ui_progress_mark(ui_state *s, const char *kind, const lesson *l, const char *name)
{
    chef_error err = {0};
    if (progress_mark(kind, l->slug, name, &err) != 0)
        tui_progress_note(s, &err);
    else
        tui_progress_reload(s);
}

/* A mouse event as the screens take it: the wheel scrolls (as arrow keys), a click goes to the
   screen under it; with the help overlay open, any click closes it. */
static void tui_mouse(ui_state *s)
{
    MEVENT ev;
    if (getmouse(&ev) != OK)
        return;
    if (ev.bstate & (BUTTON4_PRESSED | BUTTON5_PRESSED)) {
        int key = ev.bstate & BUTTON4_PRESSED ? KEY_UP : KEY_DOWN;
        if (s->help || s->screen == UI_SCREEN_KITCHEN || s->screen == UI_SCREEN_VERSUS)
            return;
        for (int i = 0; i < 3; i++)
            s->screen == UI_SCREEN_READER     ? reader_key(s, key)
            : s->screen == UI_SCREEN_EXERCISE ? exercise_screen_key(s, key)
            : s->screen == UI_SCREEN_OUTPUT   ? demo_output_key(s, key)
            : s->screen == UI_SCREEN_BENCH    ? bench_screen_key(s, key)
                                              : home_key(s, key);
        return;
    }
    if (!(ev.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED)))
        return;
    if (s->help)
        s->help = 0;
    else if (s->screen == UI_SCREEN_HOME)
        home_click(s, ev.y, ev.x);
    else if (s->screen == UI_SCREEN_KITCHEN)
        kitchen_screen_click(s, ev.y, ev.x);
}

/* Passes a key to the overlay or the screen shown. */
static void tui_key(ui_state *s, int key)
{
    if (key == KEY_MOUSE) {
        if (!layout_too_small(COLS, LINES))
            tui_mouse(s);
        return;
    }
    s->message[0] = '\0'; /* a message answers one key only */
    /* below the minimum size keys still reach the screen (q goes back), which is drawn once the
       terminal is large enough again */
    if (s->help) {
        help_key(s, key);
    } else if (s->choosing) {
        demo_choose_key(s, key);
    } else if (s->exercise.choosing) {
        exercise_choose_key(s, key);
    } else if (key == '?' && !(s->screen == UI_SCREEN_READER && s->reader.search.typing)) {
        s->help = 1;
    } else if (s->screen == UI_SCREEN_READER) {
        reader_key(s, key);
    } else if (s->screen == UI_SCREEN_KITCHEN) {
        kitchen_screen_key(s, key);
    } else if (s->screen == UI_SCREEN_OUTPUT) {
        demo_output_key(s, key);
    } else if (s->screen == UI_SCREEN_EXERCISE) {
        exercise_screen_key(s, key);
    } else if (s->screen == UI_SCREEN_VERSUS) {
        versus_screen_key(s, key);
    } else if (s->screen == UI_SCREEN_BENCH) {
        bench_screen_key(s, key);
    } else {
        home_key(s, key);
    }
}

/* Reads the new size of the terminal and tells curses. */
static void tui_resize(void)
{
    struct winsize ws;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 && ws.ws_col > 0)
        resizeterm(ws.ws_row, ws.ws_col);
}

/* Sleeps until a key, a signal or a save of the open exercise's file (or, while a screen moves,
   its next frame: s->tick_ms), then handles them; returns 0, or -1 when the loop must end on an
   error (the terminal went away). */
static int tui_wait(ui_state *s, int *dirty)
{
    /* fds[2] is the exercise's watch; poll skips it while it is -1 */
    struct pollfd fds[3] = {
        {STDIN_FILENO, POLLIN, 0}, {tui_wake[0], POLLIN, 0}, {exercise_screen_fd(s), POLLIN, 0}};
    /* frames come every tick_ms from the start of the last one, however long drawing took */
    int timeout = -1;
    if (s->tick_ms > 0) {
        double due = tui_frame_ms + s->tick_ms - chef_now_ms();
        timeout = due <= 0 ? 0 : (int)(due + 0.999);
    }
    int ready = poll(fds, 3, timeout);
    if (ready < 0)
        return errno == EINTR ? 0 : -1;
    /* a save seen (or, polling, looked for), and a check once it settled */
    if (exercise_screen_wake(s, fds[2].fd >= 0 && (fds[2].revents & POLLIN)))
        *dirty = 1;
    if (ready == 0) {
        *dirty = 1; /* the next frame of what moves */
        return 0;
    }
    if (fds[1].revents & POLLIN) {
        char drain[64];
        while (read(tui_wake[0], drain, sizeof drain) > 0)
            ;
        if (tui_probe_collect(s) | bench_screen_wake(s))
            *dirty = 1;
    }
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
        int key, got = 0;
        while ((key = getch()) != ERR) {
            got = 1;
            if (key == KEY_RESIZE)
                tui_resized = 1;
            else
                tui_key(s, key);
            *dirty = 1;
        }
        if (!got && (fds[0].revents & (POLLHUP | POLLERR)))
            return -1;
    }
    return 0;
}

/* Starts curses on the terminal with the theme; 0, or -1 with a message. */
static int tui_start(ui_state *s)
{
    const char *term = getenv("TERM");
    if (!term || !*term) {
        fprintf(stderr, "%s\n  %s\n", _("cudachef: TERM is not set, so this terminal cannot be driven full-screen"),
                _("hint: set TERM to your terminal's type (xterm-256color works in most), or use cudachef read 1"));
        return -1;
    }
    if (!newterm(NULL, stdout, stdin)) {
        fprintf(stderr, _("cudachef: this terminal (TERM=%s) cannot be driven full-screen\n"), term);
        fprintf(stderr, "  %s\n", _("hint: set TERM to your terminal's type (xterm-256color works in most), or use cudachef read 1"));
        return -1;
    }
    tui_started = 1;
    /* a terminal that cannot move the cursor (TERM=dumb, a printer) cannot show screens */
    const char *move = tigetstr("cup");
    if (!move || move == (const char *)-1) {
        endwin();
        fprintf(stderr, _("cudachef: this terminal (TERM=%s) cannot move its cursor, so it cannot show full screens\n"), term);
        fprintf(stderr, "  %s\n", _("hint: set TERM to your terminal's type (xterm-256color works in most), or use cudachef read 1"));
        return -1;
    }
    if (s->color && !has_colors())
        s->color = 0;
    char err[600];
    if (theme_load(!s->color ? "mono" : s->classroom ? "classroom" : "default", err, sizeof err) != 0) {
        endwin();
        fprintf(stderr, "cudachef: %s\n  hint: set CUDACHEF_DATA to the folder holding assets/\n", err);
        return -1;
    }
    if (s->color && start_color() == OK)
        theme_start_colors(use_default_colors() == OK);
    else
        s->color = 0;
    bkgd(theme_attr(UI_TEXT, s->color) | ' '); /* the theme's background everywhere, not only behind text */
    cbreak();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    nodelay(stdscr, TRUE);
    set_escdelay(25);
    /* clicks and the wheel (holding Shift still selects text in most terminals) */
    mousemask(BUTTON1_PRESSED | BUTTON4_PRESSED | BUTTON5_PRESSED, NULL);
    mouseinterval(0);
    curs_set(0);
    return 0;
}

/* The full-screen interface: options, terminal, loop, and the terminal given back. */
int tui_main(int argc, char **argv)
{
    ui_state s;
    memset(&s, 0, sizeof s);
    const char *no_color = getenv("NO_COLOR");
    s.color = !(no_color && *no_color);
    const char *codeset = nl_langinfo(CODESET);
    s.ascii = !codeset || strcmp(codeset, "UTF-8") != 0;
    const char *classroom_lesson = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--classroom") == 0) {
            s.classroom = 1;
            if (i + 1 < argc && argv[i + 1][0] != '-')
                classroom_lesson = argv[++i];
        } else if (strcmp(argv[i], "--no-color") == 0)
            s.color = 0;
        else if (strcmp(argv[i], "--ascii") == 0)
            s.ascii = 1;
        else {
            fprintf(stderr, "cudachef: unknown option '%s' (without a command: --no-color, --ascii, --lang, --classroom [LESSON])\n", argv[i]);
            return CHEF_EXIT_USAGE;
        }
    }
    /* Hangul cannot be drawn in ASCII: English then, said on the home screen and left on the
       terminal under the interface (in English: Korean is what cannot be shown) */
    const char *no_korean = " Korean needs a UTF-8 terminal (e.g. LANG=C.UTF-8) and no --ascii: showing English";
    if (s.ascii && i18n_current() == I18N_KO) {
        i18n_init(I18N_EN, chef_data_dir());
        snprintf(s.progress_note, sizeof s.progress_note, "%s", no_korean);
        fprintf(stderr, "cudachef:%s\n", no_korean);
    }
    chef_error err = {0};
    if (lesson_load_all(lesson_default_dir(), lesson_kernels_dir(), &s.lessons, &err) != 0) {
        chef_error_print(&err);
        return err.exit_code;
    }
    if (progress_load(&s.progress, &err) != 0)
        tui_progress_note(&s, &err);
    art_load("home", &s.home_art); /* none is fine: the home screen then has no picture */
    int classroom_index = -1;
    if (classroom_lesson) {
        const lesson *l = lesson_find(&s.lessons, classroom_lesson);
        if (!l) {
            fprintf(stderr, "cudachef: no lesson '%s' (cudachef list names them)\n", classroom_lesson);
            progress_free(&s.progress);
            lesson_set_free(&s.lessons);
            return CHEF_EXIT_USAGE;
        }
        classroom_index = (int)(l - s.lessons.lessons);
    }
    if (tui_signals() != 0 || atexit(tui_at_exit) != 0 || tui_start(&s) != 0) {
        progress_free(&s.progress);
        lesson_set_free(&s.lessons);
        return CHEF_EXIT_ENVIRONMENT;
    }
    int dirty = 1, code = CHEF_EXIT_OK;
    tui_draw(&s);       /* the first frame, "checking for a GPU..." */
    if (tui_pending_demo) {
        /* `try --kitchen`: the learner's own kernel, cooked at once (who cooks decides its sizes) */
        tui_probe_run(NULL);
        tui_backend_text(&s, &tui_probe.info, tui_probe.found);
        s.kernel = tui_pending_kernel;
        kitchen_screen_open(&s, tui_pending_demo);
    } else if (classroom_index >= 0) {
        /* the class's run needs to know who cooks (the demo's sizes depend on it): probe first */
        tui_probe_run(NULL);
        tui_backend_text(&s, &tui_probe.info, tui_probe.found);
        if (classroom_open(&s, classroom_index) != 0) { /* no run demo: the home screen, on that lesson */
            s.home_selected = classroom_index;
            snprintf(s.message, sizeof s.message,
                     _(" Lesson %d has no demo for the kitchen: Enter opens its pages, and r runs their demos."),
                     s.lessons.lessons[classroom_index].number);
        }
    } else {
        tui_probe_start(&s); /* a slow CUDA start never delays it */
    }
    while (!tui_stop && !s.quit) {
        if (tui_resized) {
            tui_resized = 0;
            tui_resize();
            dirty = 1;
        }
        if (dirty) {
            tui_draw(&s);
            dirty = 0;
        }
        if (tui_wait(&s, &dirty) != 0) {
            code = CHEF_EXIT_ENVIRONMENT;
            break;
        }
    }
    endwin();
    int probing = tui_probe_stop();
    probing |= bench_screen_stop(&s); /* a sweep still running is let go like a probe */
    versus_screen_close(&s);
    kitchen_screen_close(&s);
    demo_output_close(&s);
    exercise_screen_free(&s);
    reader_close(&s);
    progress_free(&s.progress);
    lesson_set_free(&s.lessons);
    if (tui_stop)
        code = 128 + tui_stop;
    if (probing) { /* quit while CUDA was still starting, or measuring: end without exit's clean-up (see above) */
        fflush(NULL);
        _exit(code);
    }
    return code;
}
