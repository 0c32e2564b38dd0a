/*
 * text.c - the display width of UTF-8 text (text.h), from wcwidth in a UTF-8 locale of its own,
 * whatever locale the program runs in; UTF-8's characters, and making bytes valid UTF-8.
 */
#include "base/text.h"

#include <locale.h>
#include <pthread.h>
#include <stdlib.h>
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

/* The length of the UTF-8 character at s (1 to 4), or 0 when the bytes there are not UTF-8. */
int text_utf8_length(const char *text)
{
    const unsigned char *s = (const unsigned char *)text;
    if (s[0] < 0x80)
        return 1;
    int n = s[0] >= 0xC2 && s[0] <= 0xDF ? 2 : s[0] >= 0xE0 && s[0] <= 0xEF ? 3 : s[0] >= 0xF0 && s[0] <= 0xF4 ? 4 : 0;
    for (int k = 1; k < n; k++)
        if ((s[k] & 0xC0) != 0x80)
            return 0;
    /* no overlong forms, no surrogates, nothing past U+10FFFF */
    if ((s[0] == 0xE0 && s[1] < 0xA0) || (s[0] == 0xED && s[1] > 0x9F) || (s[0] == 0xF0 && s[1] < 0x90) ||
        (s[0] == 0xF4 && s[1] > 0x8F))
        return 0;
    return n;
}

/* 1 for C0, DEL and C1. */
int text_is_control(const char *text, int n)
{
    const unsigned char *s = (const unsigned char *)text;
    return n == 1 ? s[0] < 0x20 || s[0] == 0x7F : n == 2 && s[0] == 0xC2 && s[1] < 0xA0;
}

/* A valid UTF-8 copy of text, U+FFFD for each byte that starts no character. */
char *text_utf8_valid(const char *text)
{
    size_t len = strlen(text);
    char *out = malloc(3 * len + 1); /* a byte becomes at most 3 */
    if (!out)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < len;) {
        int n = text_utf8_length(text + i);
        if (n == 0) {
            memcpy(out + k, "\xEF\xBF\xBD", 3);
            k += 3;
            i++;
        } else {
            memcpy(out + k, text + i, (size_t)n);
            k += (size_t)n;
            i += (size_t)n;
        }
    }
    out[k] = '\0';
    return out;
}
