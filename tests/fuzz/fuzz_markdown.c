/*
 * fuzz_markdown.c - the Markdown layout (markdown.c, markdown_table.c over md4c): what `cudachef
 * read` and the reader screen do with a page's text.
 *
 * Input: a width byte, a byte whose lowest bit picks the screen or plain text, then the Markdown
 * (not NUL-terminated: the layout must keep to the size it is given). Lines of code marked with
 * `@mark tree` or `@mark global-index` are flagged, as a lesson with those marks would have them.
 */
#include <stdio.h>
#include <string.h>

#include "fuzz.h"
#include "lessons/markdown.h"
#include "base/text.h"

FUZZ_TARGET(markdown)
{
    static FILE *sink;
    static char *marks[] = {"tree", "global-index", "a"};
    if (size < 2)
        return 0;
    if (!sink)
        sink = fopen("/dev/null", "w");
    int width = data[0], target = data[1] & 1 ? MD_TARGET_PLAIN : MD_TARGET_SCREEN;
    int nmarks = (data[1] >> 1) % 4;
    md_doc doc;
    int rc = markdown_render((const char *)data + 2, size - 2, width, target, marks, nmarks, &doc);
    if (rc == 0 && sink)
        markdown_print(&doc, sink);
    for (int i = 0; i < doc.nlines; i++)
        for (int k = 0; k < doc.lines[i].nspans; k++)
            text_width(doc.lines[i].spans[k].text, strlen(doc.lines[i].spans[k].text));
    markdown_free(&doc);
    return 0;
}
