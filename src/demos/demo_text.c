/*
 * demo_text.c - paragraphs for the text reports of the demos and of `cudachef bench`: wrapped at
 * spaces to a width counted in terminal columns (Hangul takes two), so that a report in English
 * or Korean fits an 80-column terminal without cutting a word or a character in two.
 */
#include "demos/demo.h"

#include <string.h>

#include "base/text.h"

/* Prints text wrapped at spaces to fit width columns (see demo.h). */
void demo_wrap(FILE *out, const char *text, int col, int indent, int width)
{
    int line_start = 1;
    for (const char *p = text; *p;) {
        while (*p == ' ')
            p++;
        size_t len = strcspn(p, " ");
        if (!len)
            break;
        int w = text_width(p, len);
        if (!line_start && col + 1 + w > width) {
            fprintf(out, "\n%*s", indent, "");
            col = indent;
            line_start = 1;
        }
        if (!line_start) {
            fputc(' ', out);
            col++;
        }
        fwrite(p, 1, len, out);
        col += w;
        line_start = 0;
        p += len;
    }
    fputc('\n', out);
}
