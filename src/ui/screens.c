/*
 * screens.c - the table of screens (screens.h) and the stack of the screens open: ui_open puts a
 * screen on top with its own zeroed state, ui_back takes it off and frees what it held; the loop
 * (tui.c) draws and feeds the one on top, an overlay over the ones below it.
 */
#include "ui/screens.h"

#include <stdio.h>
#include <stdlib.h>

#include "base/i18n.h"

#define UI_SCREEN_ROW(name) &ui_screen_##name,
const ui_screen_class *const ui_screens[] = {UI_SCREEN_TABLE(UI_SCREEN_ROW) NULL};
#undef UI_SCREEN_ROW

/* Opens a screen on top of the one shown. */
int ui_open(ui_state *s, const ui_screen_class *cls, const void *arg)
{
    if (s->depth >= UI_STACK_MAX) {
        snprintf(s->message, sizeof s->message, "%s", _(" Too many screens are open: go back first (q)."));
        return -1;
    }
    void *self = calloc(1, cls->size ? cls->size : 1);
    if (!self) {
        snprintf(s->message, sizeof s->message, "%s", _(" Not enough memory to open that screen."));
        return -1;
    }
    ui_layer *layer = &s->stack[s->depth++];
    layer->cls = cls;
    layer->self = self;
    s->typing = 0;
    if (cls->open && cls->open(s, self, arg) != 0) {
        /* it did not open: it may have opened others meanwhile only if it succeeded, so it is on top */
        if (s->depth > 0 && s->stack[s->depth - 1].self == self)
            s->depth--;
        if (cls->close)
            cls->close(s, self);
        free(self);
        return -1;
    }
    return 0;
}

/* Closes the screen shown. */
void ui_back(ui_state *s)
{
    if (s->depth == 0)
        return;
    ui_layer layer = s->stack[--s->depth];
    s->typing = 0;
    if (layer.cls->close)
        layer.cls->close(s, layer.self);
    free(layer.self);
}

/* Closes screens until one of class cls is on top. */
void ui_back_to(ui_state *s, const ui_screen_class *cls)
{
    while (s->depth > 1 && s->stack[s->depth - 1].cls != cls)
        ui_back(s);
}

/* The screen shown. */
const ui_layer *ui_top(const ui_state *s)
{
    return s->depth > 0 ? &s->stack[s->depth - 1] : NULL;
}

/* The screen below the one shown. */
const ui_layer *ui_below(const ui_state *s)
{
    return s->depth > 1 ? &s->stack[s->depth - 2] : NULL;
}

/* 1 when the screen shown is of class cls. */
int ui_showing(const ui_state *s, const ui_screen_class *cls)
{
    const ui_layer *top = ui_top(s);
    return top && top->cls == cls;
}

/* Closes every screen (their jobs still running are stopped and let go: job_live counts them). */
void ui_close_all(ui_state *s)
{
    while (s->depth > 0)
        ui_back(s);
}

/* Closes the screen whose state is self, and every screen above it. */
void ui_close(ui_state *s, const void *self)
{
    int at = -1;
    for (int i = 0; i < s->depth; i++)
        if (s->stack[i].self == self)
            at = i;
    while (at >= 0 && s->depth > at)
        ui_back(s);
}
