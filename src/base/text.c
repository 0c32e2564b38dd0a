/*
 * text.c - the display width of UTF-8 text (text.h), from wcwidth in a UTF-8 locale of its own,
 * whatever locale the program runs in.
 */
#include "base/text.h"

#include <locale.h>
#include <pthread.h>
#include <string.h>
#include <wchar.h>

static locale_t text_utf8 = (locale_t)0;
static pthread_once_t text_once = PTHREAD_ONCE_INIT;

/* Makes the UTF-8 locale once, for every thread (a job's thread measures text too). */
static void text_locale_make(void)
{
    text_utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
}

/* The display width of UTF-8 text in terminal columns. */
int text_width(const char *text, size_t len)
{
    pthread_once(&text_once, text_locale_make);
    locale_t old = text_utf8 ? uselocale(text_utf8) : (locale_t)0;
    int width = 0;
    mbstate_t st;
    memset(&st, 0, sizeof st);
    for (size_t i = 0; i < len;) {
        wchar_t wc;
        size_t n = mbrtowc(&wc, text + i, len - i, &st);
        if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
            memset(&st, 0, sizeof st);
            width++;
            i++;
            continue;
        }
        int w = wcwidth(wc);
        width += w < 0 ? 1 : w;
        i += n;
    }
    if (text_utf8)
        uselocale(old);
    return width;
}
