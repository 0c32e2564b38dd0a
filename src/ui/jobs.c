/*
 * jobs.c - long work from the full-screen interface: every kitchen run, exercise check, sweep and
 * the GPU probe is a job (base/job.h) whose news wakes the loop through the self-pipe, so the
 * screen keeps drawing and answering keys while it runs. While the screen shown waits for its job
 * the key line says what runs and for how long, and Esc stops it (tui.c); a GPU kernel already
 * launched cannot be stopped, and the line says it will stop after it.
 */
#include <stdio.h>
#include <string.h>

#include "base/i18n.h"
#include "base/text.h"
#include "ui/ui.h"

/* The loop's side of a job's news: a byte on the self-pipe (safe from any thread). */
static void ui_job_notify(void *ctx)
{
    (void)ctx;
    tui_wake_loop();
}

/* Starts work as a job that wakes the loop. */
job *ui_job_start(ui_state *s, const char *what, job_work work, void *data, void (*data_free)(void *))
{
    job_spec spec = {what, work, data, data_free, ui_job_notify, NULL};
    chef_error err = {0};
    job *j = job_start(&spec, &err);
    if (!j) {
        snprintf(s->message, sizeof s->message, " %.290s", err.message);
        if (data_free)
            data_free(data);
    }
    return j;
}

/* "cooking vector-add... 2.4 s" with what the work said last, into out. */
static void ui_job_text(job *j, char *out, size_t size)
{
    char said[300];
    job_said(j, said, sizeof said);
    double s = job_elapsed_ms(j) / 1e3;
    if (said[0])
        snprintf(out, size, "%s... %.1f s: %s", job_what(j), s, said);
    else
        snprintf(out, size, "%s... %.1f s", job_what(j), s);
}

/* The key line while a job runs. */
void ui_job_draw(const ui_state *s, job *j, layout_rect footer)
{
    char text[600], line[800];
    ui_job_text(j, text, sizeof text);
    snprintf(line, sizeof line, " %s   %s", text,
             job_cancelled(j) ? _("stopping (a GPU kernel already running finishes first)") : _("Esc stops it   ? help"));
    draw_text(s, footer.y, footer.x, footer.w, line, UI_TITLE);
}

/* The body of a screen while its job runs. */
void ui_job_draw_body(const ui_state *s, job *j, layout_rect body)
{
    char text[600];
    ui_job_text(j, text, sizeof text);
    int y = body.y + body.h / 2 - 1;
    draw_text(s, y < body.y ? body.y : y, body.x + 2, body.w - 4, text, UI_HEADING);
    if (y + 2 < body.y + body.h)
        draw_text(s, y + 2, body.x + 2, body.w - 4,
                  job_cancelled(j) ? _("Stopping: a GPU kernel already running finishes first.")
                                   : _("The screen answers while it runs: Esc stops it, q goes back."),
                  UI_DIM);
}
