/*
 * emu_prep.c - the emulator's source pass over a kernel file (see emu_prep.h).
 *
 * It reads C tokens (skipping comments, string and character literals and preprocessor lines)
 * and rewrites declarations that use __shared__, and the host's CUDA C++ that is not C (below):
 *
 *   __shared__ float tile[16][16];          (in a function)
 * becomes
 *   EMU_SHARED float emu_shared_tile[16][16]; static _Thread_local unsigned long long emu_shared_gen_tile;
 *   __typeof__(emu_shared_tile) *const emu_shared_ptr_tile = emu_shared_seen(&emu_shared_tile, ...);
 *   #define tile (*emu_shared_ptr_tile)       (#undef at the end of the block)
 *
 * so the first cook of each team to reach the declaration poisons and registers the array, and
 * the checked build reaches it through a pointer it cannot see through (every access is counted,
 * constant indices too). At file scope the pointer comes from a small function instead. An
 * extern __shared__ array is declared as the emulator's dynamic shared area (EMU_DYNAMIC_SHARED
 * and its assembler name, in emu_kernel.h). #line directives keep every line where it was.
 *
 * Host code (an exercise's five steps, emu_runtime.h): a launch `NAME<<<G, B>>>(ARGS)` (or
 * `<<<G, B, S>>>`) becomes `emu_launch_NAME(EMU_CONFIG(G, B), ARGS)`, and CUDA C++'s constructor
 * `dim3 grid(x, y);` inside a function becomes `dim3 grid = EMU_DIM3(x, y);`. A <<< inside a
 * comment, a string or a preprocessor line is left as it is.
 *
 * CUDA's warp matrix functions (emu_wmma.h): `#include <mma.h>` (or <cuda_fp16.h>, <cuda_bf16.h>)
 * becomes `#include "emu_wmma.h"`, `using namespace nvcuda;` goes, the namespaces in
 * `nvcuda::wmma::NAME` and `wmma::precision::tf32` go, `wmma::fragment<ARGS>` becomes
 * `EMU_WMMA_FRAGMENT(ARGS)` and `NAME.num_elements` becomes `EMU_WMMA_COUNT(NAME)`.
 *
 * Built into the program (for a learner's file, src/grading/exercise_build.c) and into the build's
 * own tool over kernels/ (tools/emu-prep.c, the Makefile).
 */
#include "emu_prep.h"
#include "text_out.h"
#include "planted.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PREP_MAX_NAMES 64   /* __shared__ names open at once in one block */
#define PREP_MAX_DEPTH 128  /* nested braces followed */
#define PREP_NAME_MAX 128
#define PREP_WMMA_REACH 4096 /* how far a WMMA construct is looked for: each is a few words, and a bound
                                keeps the pass linear on any text (a file of "fragment<" alone) */


/* The reader: position, line, and what the last significant token was. */
typedef struct prep_in {
    const char *s;
    size_t len, i;
    int line;
} prep_in;

/* Length of the comment, literal or preprocessor line starting at i (0 if none), counting its newlines. */
static size_t prep_skip_len(const prep_in *in, size_t i, int at_line_start, int *newlines)
{
    const char *s = in->s;
    size_t len = in->len, j = i;
    *newlines = 0;
    if (j + 1 < len && s[j] == '/' && s[j + 1] == '/') {
        while (j < len && s[j] != '\n')
            j++;
        return j - i;
    }
    if (j + 1 < len && s[j] == '/' && s[j + 1] == '*') {
        j += 2;
        while (j + 1 < len && !(s[j] == '*' && s[j + 1] == '/'))
            *newlines += s[j++] == '\n';
        return (j + 1 < len ? j + 2 : len) - i;
    }
    if (s[j] == '"' || s[j] == '\'') {
        char q = s[j++];
        while (j < len && s[j] != q && s[j] != '\n')
            j += s[j] == '\\' && j + 1 < len ? 2 : 1;
        return (j < len && s[j] == q ? j + 1 : j) - i;
    }
    if (s[j] == '#' && at_line_start) {
        while (j < len && s[j] != '\n') {
            if (s[j] == '\\' && j + 1 < len && s[j + 1] == '\n') {
                (*newlines)++;
                j++;
            }
            j++;
        }
        return j - i;
    }
    return 0;
}

/* Whether identifier characters start at s[i]. */
static int prep_ident_start(char c)
{
    return isalpha((unsigned char)c) || c == '_';
}

/* One declarator's name: the last identifier before its first '[' or '=' at depth 0 (or its end). */
static int prep_declarator_name(const char *d, size_t len, size_t *at, size_t *name_len)
{
    int depth = 0, found = 0;
    for (size_t j = 0; j < len;) {
        char c = d[j];
        if (c == '(' || c == '[') {
            if (c == '[' && depth == 0)
                break;
            depth++;
        } else if (c == ')' || c == ']') {
            depth--;
        } else if (c == '=' && depth == 0) {
            break;
        }
        if (prep_ident_start(c)) {
            size_t k = j;
            while (k < len && (isalnum((unsigned char)d[k]) || d[k] == '_'))
                k++;
            if (depth == 0) {
                *at = j;
                *name_len = k - j;
                found = 1;
            }
            j = k;
            continue;
        }
        j++;
    }
    return found && *name_len < PREP_NAME_MAX ? 0 : -1;
}

/* The names declared in one __shared__ declaration (the text after __shared__, before ';'), split at
   commas of depth 0. Returns how many (at most max), each with its offset and length in decl. */
static int prep_split(const char *decl, size_t len, size_t *starts, size_t *ends, int max)
{
    int n = 0, depth = 0;
    size_t start = 0;
    for (size_t j = 0; j <= len && n < max; j++) {
        char c = j < len ? decl[j] : ',';
        if (c == '(' || c == '[' || c == '{')
            depth++;
        else if (c == ')' || c == ']' || c == '}')
            depth--;
        else if (c == ',' && depth == 0) {
            starts[n] = start;
            ends[n++] = j;
            start = j + 1;
        }
    }
    return n;
}

/* The end (index of ';') of the declaration starting at i, skipping comments and literals. */
static size_t prep_find_semicolon(const prep_in *in, size_t i)
{
    int depth = 0;
    while (i < in->len) {
        int nl;
        size_t skip = prep_skip_len(in, i, 0, &nl);
        if (skip) {
            i += skip;
            continue;
        }
        char c = in->s[i];
        if (c == '(' || c == '[' || c == '{')
            depth++;
        else if (c == ')' || c == ']' || c == '}') {
            if (--depth < 0)
                return in->len;
        } else if (c == ';' && depth == 0)
            return i;
        i++;
    }
    return in->len;
}

/* Counts the newlines of s[from, to). */
static int prep_lines(const char *s, size_t from, size_t to)
{
    int n = 0;
    for (size_t j = from; j < to; j++)
        n += s[j] == '\n';
    return n;
}

/* Writes one rewritten __shared__ declaration (decl: the text after __shared__, without ';').
   names gets the names declared in a block, to be undefined at its end. */
static int prep_shared(text_out *o, const char *decl, size_t len, int is_extern, int file_scope, int line,
                       char names[][PREP_NAME_MAX], int *nnames)
{
    size_t starts[PREP_MAX_NAMES], ends[PREP_MAX_NAMES];
    int n = prep_split(decl, len, starts, ends, PREP_MAX_NAMES);
    char found[PREP_MAX_NAMES][PREP_NAME_MAX];
    text_put(o, is_extern ? "EMU_DYNAMIC_SHARED" : "EMU_SHARED", is_extern ? 18 : 10);
    for (int k = 0; k < n; k++) {
        size_t at = 0, nlen = 0;
        if (prep_declarator_name(decl + starts[k], ends[k] - starts[k], &at, &nlen) != 0)
            return -1;
        at += starts[k];
        memcpy(found[k], decl + at, nlen);
        found[k][nlen] = 0;
        if (k > 0)
            text_put(o, ",", 1);
        if (is_extern) { /* every extern __shared__ array starts at the launch's dynamic area */
            text_put(o, decl + starts[k], ends[k] - starts[k]);
            text_put(o, " EMU_DYNAMIC_SHARED_NAME", 24);
        } else {
            text_put(o, decl + starts[k], at - starts[k]);
            text_printf(o, "emu_shared_%s", found[k]);
            text_put(o, decl + at + nlen, ends[k] - at - nlen);
        }
    }
    text_put(o, ";", 1);
    if (is_extern)
        return 0;
    for (int k = 0; k < n; k++) {
        const char *v = found[k];
        text_printf(o, " static _Thread_local unsigned long long emu_shared_gen_%s;", v);
        if (file_scope)
            text_printf(o,
                        " static inline __typeof__(emu_shared_%s) *emu_shared_at_%s(void) { return (__typeof__("
                        "emu_shared_%s) *)emu_shared_seen(&emu_shared_%s, sizeof emu_shared_%s, &emu_shared_gen_%s, "
                        "\"%s\"); }",
                        v, v, v, v, v, v, v);
        else
            text_printf(o,
                        " __typeof__(emu_shared_%s) *const emu_shared_ptr_%s = (__typeof__(emu_shared_%s) *)"
                        "emu_shared_seen(&emu_shared_%s, sizeof emu_shared_%s, &emu_shared_gen_%s, \"%s\");",
                        v, v, v, v, v, v, v);
    }
    text_put(o, "\n", 1);
    for (int k = 0; k < n; k++) {
        if (file_scope)
            text_printf(o, "#define %s (*emu_shared_at_%s())\n", found[k], found[k]);
        else
            text_printf(o, "#define %s (*emu_shared_ptr_%s)\n", found[k], found[k]);
        if (!file_scope && *nnames < PREP_MAX_NAMES)
            snprintf(names[(*nnames)++], PREP_NAME_MAX, "%.*s", PREP_NAME_MAX - 1, found[k]);
    }
    text_printf(o, "#line %d\n", line);
    return 0;
}

/* The position of the first character at or after i that is not a space or a tab. */
static size_t prep_blank_end(const prep_in *in, size_t i)
{
    while (i < in->len && (in->s[i] == ' ' || in->s[i] == '\t'))
        i++;
    return i;
}

/* The end of the bracketed text opening at i ('(' or '{'): the index after its closing bracket
   (comments and literals skipped), or len. */
static size_t prep_bracket_end(const prep_in *in, size_t i)
{
    int depth = 0, nl;
    while (i < in->len) {
        size_t skip = prep_skip_len(in, i, 0, &nl);
        if (skip) {
            i += skip;
            continue;
        }
        char c = in->s[i++];
        if (c == '(' || c == '[' || c == '{')
            depth++;
        else if ((c == ')' || c == ']' || c == '}') && --depth == 0)
            return i;
    }
    return in->len;
}

/* CUDA C++'s dim3 constructor (the identifier dim3 ends at k, inside a function): each declarator
   `NAME(ARGS)` of `dim3 NAME(ARGS), ...;` becomes `NAME = EMU_DIM3(ARGS)`, and `dim3(ARGS)` becomes
   `EMU_DIM3(ARGS)` (emu_runtime.h). 1 when rewritten (the reader then stands at the '(' of
   dim3(ARGS), or at the declaration's ';'), 0 when it is some other use of dim3. */
static int prep_dim3(text_out *o, prep_in *in, size_t k)
{
    const char *s = in->s;
    size_t j = prep_blank_end(in, k);
    if (j < in->len && s[j] == '(') {
        text_put(o, "EMU_DIM3", 8);
        in->i = j;
        return 1;
    }
    if (j >= in->len || !prep_ident_start(s[j]))
        return 0;
    size_t after = j;
    while (after < in->len && (isalnum((unsigned char)s[after]) || s[after] == '_'))
        after++;
    after = prep_blank_end(in, after);
    if (after >= in->len || s[after] != '(')
        return 0; /* dim3 grid = ...; dim3 grid; a parameter: C already */
    text_put(o, "dim3 ", 5);
    while (j < in->len) { /* one declarator a turn, up to the declaration's ';' */
        size_t name = j;
        while (j < in->len && (isalnum((unsigned char)s[j]) || s[j] == '_'))
            j++;
        text_put(o, s + name, j - name);
        size_t open = prep_blank_end(in, j);
        size_t next = open;
        if (open < in->len && s[open] == '(') {
            next = prep_bracket_end(in, open);
            text_put(o, " = EMU_DIM3", 11);
            text_put(o, s + open, next - open);
            in->line += prep_lines(s, open, next);
        }
        /* the rest of the declarator (= value, blanks) as it is, to its ',' or ';' */
        int nl;
        while (next < in->len && s[next] != ',' && s[next] != ';') {
            size_t skip = prep_skip_len(in, next, 0, &nl);
            size_t to = skip ? next + skip : s[next] == '(' || s[next] == '{' ? prep_bracket_end(in, next) : next + 1;
            text_put(o, s + next, to - next);
            in->line += prep_lines(s, next, to);
            next = to;
        }
        if (next >= in->len || s[next] == ';') {
            in->i = next;
            return 1;
        }
        text_put(o, ",", 1);
        j = next + 1;
        while (j < in->len && isspace((unsigned char)s[j])) {
            text_put(o, s + j, 1);
            in->line += s[j] == '\n';
            j++;
        }
        if (j >= in->len || !prep_ident_start(s[j])) {
            in->i = j;
            return 1;
        }
    }
    in->i = j;
    return 1;
}

/* A launch being rewritten: where its >>> stands, where its '(' stands, and whether it has no
   arguments. */
typedef struct prep_launch_at {
    size_t end, open;
    int empty;
} prep_launch_at;

/* A launch: the identifier NAME (from at to k) followed by <<<CONFIG>>>(ARGS) becomes
   emu_launch_NAME(EMU_CONFIG(CONFIG), ARGS), the launcher emu_table.c makes of the .def list
   (emu_runtime.h). The <<< and >>> are found outside comments and literals; the configuration and
   the arguments then go through the pass as any text (prep_launch_close writes what stands for
   >>>( once the reader reaches it). 1 when started (the reader stands after the <<<), 0 when NAME
   is no launch, -1 with why when the launch is cut short. */
static int prep_launch(text_out *o, prep_in *in, size_t at, size_t k, prep_launch_at *l, char *why, size_t why_size)
{
    const char *s = in->s;
    size_t j = prep_blank_end(in, k);
    if (j + 3 > in->len || memcmp(s + j, "<<<", 3) != 0)
        return 0;
    size_t end = j + 3;
    int depth = 0, nl;
    while (end < in->len) {
        size_t skip = prep_skip_len(in, end, 0, &nl);
        if (skip) {
            end += skip;
            continue;
        }
        char c = s[end];
        if (c == '(' || c == '[' || c == '{')
            depth++;
        else if (c == ')' || c == ']' || c == '}')
            depth--;
        else if (depth == 0 && end + 3 <= in->len && memcmp(s + end, ">>>", 3) == 0)
            break;
        if (depth < 0 || c == ';')
            end = in->len;
        else
            end++;
    }
    size_t open = end + 3;
    while (open < in->len && isspace((unsigned char)s[open]))
        open++;
    if (end >= in->len || open >= in->len || s[open] != '(') {
        snprintf(why, why_size, "line %d: a launch %.*s<<<...>>> without its >>> or its (arguments)", in->line,
                 (int)(k - at), s + at);
        return -1;
    }
    size_t first = open + 1;
    while (first < in->len && isspace((unsigned char)s[first]))
        first++;
    text_printf(o, "emu_launch_%.*s(EMU_CONFIG(", (int)(k - at), s + at);
    l->end = end;
    l->open = open;
    l->empty = first < in->len && s[first] == ')';
    in->i = j + 3;
    return 1;
}

/* At a launch's >>>: closes the configuration, keeps the lines up to its '(' and goes on after it. */
static void prep_launch_close(text_out *o, prep_in *in, prep_launch_at *l)
{
    text_put(o, l->empty ? ")" : "), ", l->empty ? 1 : 3);
    for (size_t w = l->end + 3; w < l->open; w++)
        if (in->s[w] == '\n') {
            text_put(o, "\n", 1);
            in->line++;
        }
    in->i = l->open + 1;
    l->end = (size_t)-1;
}

/* The headers of CUDA's half, bfloat16 and warp matrix types: on the emulator, emu_wmma.h. */
static int prep_wmma_include(const char *s, size_t len)
{
    static const char *const names[] = {"mma.h", "cuda_fp16.h", "cuda_bf16.h"};
    size_t i = 1;
    while (i < len && (s[i] == ' ' || s[i] == '\t'))
        i++;
    if (len - i < 7 || memcmp(s + i, "include", 7) != 0)
        return 0;
    i += 7;
    while (i < len && (s[i] == ' ' || s[i] == '\t'))
        i++;
    if (i >= len || s[i] != '<')
        return 0;
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        size_t n = strlen(names[k]);
        if (len - i > n + 1 && memcmp(s + i + 1, names[k], n) == 0 && s[i + 1 + n] == '>')
            return 1;
    }
    return 0;
}

/* Whether the identifier s[0..n) is a namespace of CUDA's warp matrix functions, whose `NAME::` the
   emulator drops (nvcuda::wmma::mma_sync is mma_sync, wmma::precision::tf32 is tf32). */
static int prep_wmma_namespace(const char *s, size_t n)
{
    return (n == 6 && memcmp(s, "nvcuda", 6) == 0) || (n == 4 && memcmp(s, "wmma", 4) == 0) ||
           (n == 9 && memcmp(s, "precision", 9) == 0) || (n == 12 && memcmp(s, "experimental", 12) == 0);
}

/* Writes s[from..to) without the namespaces prep_wmma_namespace names (inside fragment<...>). */
static void prep_put_unqualified(text_out *o, const char *s, size_t from, size_t to)
{
    size_t i = from;
    while (i < to) {
        if (prep_ident_start(s[i])) {
            size_t k = i;
            while (k < to && (isalnum((unsigned char)s[k]) || s[k] == '_'))
                k++;
            size_t after = k;
            while (after < to && (s[after] == ' ' || s[after] == '\t'))
                after++;
            if (prep_wmma_namespace(s + i, k - i) && after + 1 < to && s[after] == ':' && s[after + 1] == ':') {
                i = after + 2;
                while (i < to && (s[i] == ' ' || s[i] == '\t'))
                    i++;
                continue;
            }
            text_put(o, s + i, k - i);
            i = k;
            continue;
        }
        text_put(o, s + i, 1);
        i++;
    }
}

/* CUDA C++'s warp matrix words at the identifier from at to k (emu_wmma.h): `using namespace
   nvcuda;` dropped, `NAMESPACE::` dropped, `fragment<ARGS>` made EMU_WMMA_FRAGMENT(ARGS), and
   `NAME.num_elements` made EMU_WMMA_COUNT(NAME). 1 when rewritten (the reader moved on), else 0. */
static int prep_wmma(text_out *o, prep_in *in, size_t at, size_t k)
{
    const char *s = in->s;
    size_t n = k - at, j = prep_blank_end(in, k);
    if (n == 5 && memcmp(s + at, "using", 5) == 0) {
        size_t w = prep_blank_end(in, j);
        if (in->len - w > 9 && memcmp(s + w, "namespace", 9) == 0) {
            w = prep_blank_end(in, w + 9);
            size_t name = w;
            while (w < in->len && (isalnum((unsigned char)s[w]) || s[w] == '_'))
                w++;
            if (w - name == 6 && memcmp(s + name, "nvcuda", 6) == 0) {
                size_t semi = prep_blank_end(in, w); /* `using namespace nvcuda;` (blanks at most) */
                if (semi < in->len && s[semi] == ';') {
                    in->line += prep_lines(s, k, semi);
                    for (int l = prep_lines(s, k, semi); l > 0; l--)
                        text_put(o, "\n", 1);
                    in->i = semi + 1;
                    return 1;
                }
            }
        }
        return 0;
    }
    if (prep_wmma_namespace(s + at, n) && j + 1 < in->len && s[j] == ':' && s[j + 1] == ':') {
        in->i = prep_blank_end(in, j + 2);
        return 1;
    }
    if (n == 8 && memcmp(s + at, "fragment", 8) == 0 && j < in->len && s[j] == '<') {
        size_t close = j + 1, reach = j + PREP_WMMA_REACH < in->len ? j + PREP_WMMA_REACH : in->len;
        while (close < reach && s[close] != '>' && s[close] != ';' && s[close] != '{')
            close++;
        if (close >= reach)
            return 0;
        if (close >= in->len || s[close] != '>')
            return 0;
        text_put(o, "EMU_WMMA_FRAGMENT(", 18);
        prep_put_unqualified(o, s, j + 1, close);
        text_put(o, ")", 1);
        in->line += prep_lines(s, j, close);
        in->i = close + 1;
        return 1;
    }
    if (n == 12 && memcmp(s + at, "num_elements", 12) == 0) {
        size_t e = o->n; /* the written text must end with NAME. or NAME[...]. */
        while (e > 0 && (o->p[e - 1] == ' ' || o->p[e - 1] == '\t'))
            e--;
        if (e == 0 || o->p[e - 1] != '.')
            return 0;
        size_t end = --e, floor = e > PREP_WMMA_REACH ? e - PREP_WMMA_REACH : 0;
        while (e > floor && o->p[e - 1] == ']') { /* an element of an array of fragments */
            int depth = 0;
            do {
                e--;
                depth += o->p[e] == ']' ? 1 : o->p[e] == '[' ? -1 : 0;
            } while (e > floor && depth > 0);
            if (depth > 0)
                return 0;
        }
        size_t name_end = e;
        while (e > 0 && (isalnum((unsigned char)o->p[e - 1]) || o->p[e - 1] == '_'))
            e--;
        if (e == name_end || !prep_ident_start(o->p[e]) || end - e >= PREP_NAME_MAX)
            return 0;
        char name[PREP_NAME_MAX];
        memcpy(name, o->p + e, end - e);
        name[end - e] = 0;
        o->n = e;
        text_printf(o, "EMU_WMMA_COUNT(%s)", name);
        in->i = k;
        return 1;
    }
    return 0;
}

int emu_prep_source(const char *src, size_t len, const char *shown_as, char **out, char *why, size_t why_size)
{
    text_out o = {0};
    prep_in in = {src, len, 0, 1};
    PLANTED_FAULTS("kit");
    char(*names)[PREP_MAX_NAMES][PREP_NAME_MAX] = malloc(sizeof *names * PREP_MAX_DEPTH);
    int nnames[PREP_MAX_DEPTH] = {0};
    if (!names) {
        snprintf(why, why_size, "out of memory");
        return -1;
    }
    int depth = 0, line_start = 1;
    char prev[PREP_NAME_MAX] = ""; /* the last identifier, if it was the last token */
    text_printf(&o, "#line 1 \"");
    for (const char *c = shown_as; *c; c++) {
        if (*c == '"' || *c == '\\')
            text_put(&o, "\\", 1);
        text_put(&o, c, 1);
    }
    text_put(&o, "\"\n", 2);
    prep_launch_at launch = {(size_t)-1, 0, 0};
    while (in.i < len && !o.failed) {
        int nl;
        if (in.i == launch.end) {
            prep_launch_close(&o, &in, &launch);
            continue;
        }
        size_t skip = prep_skip_len(&in, in.i, line_start, &nl);
        if (skip && src[in.i] == '#' && prep_wmma_include(src + in.i, skip)) {
            text_put(&o, "#include \"emu_wmma.h\"", 21);
            in.i += skip;
            continue;
        }
        if (skip) {
            text_put(&o, src + in.i, skip);
            in.line += nl;
            in.i += skip;
            continue;
        }
        char c = src[in.i];
        if (prep_ident_start(c)) {
            size_t k = in.i;
            while (k < len && (isalnum((unsigned char)src[k]) || src[k] == '_'))
                k++;
            size_t n = k - in.i;
            line_start = 0;
            if (n == 10 && memcmp(src + in.i, "__shared__", 10) == 0) {
                size_t semi = prep_find_semicolon(&in, k);
                if (semi >= len) {
                    snprintf(why, why_size, "line %d: a __shared__ declaration without its ';'", in.line);
                    free(o.p);
                    free(names);
                    return -1;
                }
                int is_extern = strcmp(prev, "extern") == 0;
                int d = depth < PREP_MAX_DEPTH ? depth : PREP_MAX_DEPTH - 1;
                in.line += prep_lines(src, k, semi);
                if (prep_shared(&o, src + k, semi - k, is_extern, depth == 0, in.line, names[d], &nnames[d]) != 0) {
                    snprintf(why, why_size, "line %d: a __shared__ declaration whose name cannot be found", in.line);
                    free(o.p);
                    free(names);
                    return -1;
                }
                in.i = semi + 1;
                prev[0] = 0;
                continue;
            }
            if (prep_wmma(&o, &in, in.i, k)) {
                prev[0] = 0;
                continue;
            }
            if (n == 4 && memcmp(src + in.i, "dim3", 4) == 0 && depth > 0 && prep_dim3(&o, &in, k)) {
                prev[0] = 0;
                continue;
            }
            int launched = launch.end == (size_t)-1 ? prep_launch(&o, &in, in.i, k, &launch, why, why_size) : 0;
            if (launched < 0) {
                free(o.p);
                free(names);
                return -1;
            }
            if (launched > 0) {
                prev[0] = 0;
                continue;
            }
            if (n < sizeof prev) {
                memcpy(prev, src + in.i, n);
                prev[n] = 0;
            } else {
                prev[0] = 0;
            }
            text_put(&o, src + in.i, n);
            in.i = k;
            continue;
        }
        if (c == '{') {
            depth++;
            if (depth < PREP_MAX_DEPTH)
                nnames[depth] = 0;
        } else if (c == '}') {
            int d = depth < PREP_MAX_DEPTH ? depth : PREP_MAX_DEPTH - 1;
            if (depth > 0 && nnames[d] > 0) {
                text_put(&o, "\n", 1);
                for (int k = 0; k < nnames[d]; k++)
                    text_printf(&o, "#undef %s\n", names[d][k]);
                text_printf(&o, "#line %d\n", in.line);
                nnames[d] = 0;
            }
            if (depth > 0)
                depth--;
        }
        if (c == '\n') {
            in.line++;
            line_start = 1;
        } else if (!isspace((unsigned char)c)) {
            line_start = 0;
            prev[0] = 0;
        }
        text_put(&o, &c, 1);
        in.i++;
    }
    free(names);
    if (o.failed) {
        snprintf(why, why_size, "out of memory");
        free(o.p);
        return -1;
    }
    if (!o.p)
        text_put(&o, "", 0);
    *out = o.p ? o.p : calloc(1, 1);
    return *out ? 0 : -1;
}

int emu_prep_file(const char *path_in, const char *shown_as, const char *path_out, char *why, size_t why_size)
{
    FILE *f = fopen(path_in, "rb");
    if (!f) {
        snprintf(why, why_size, "cannot read %s: %s", path_in, strerror(errno));
        return -1;
    }
    char *src = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len + 65536 > cap) {
            char *p = realloc(src, cap = cap ? cap * 2 : 65536 * 2);
            if (!p) {
                free(src);
                fclose(f);
                snprintf(why, why_size, "out of memory");
                return -1;
            }
            src = p;
        }
        size_t got = fread(src + len, 1, cap - len, f);
        len += got;
        if (got == 0)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(src);
        snprintf(why, why_size, "cannot read %s", path_in);
        return -1;
    }
    char *out = NULL;
    int rc = emu_prep_source(src, len, shown_as, &out, why, why_size);
    free(src);
    if (rc != 0)
        return -1;
    f = fopen(path_out, "wb");
    if (!f || fputs(out, f) < 0 || fclose(f) != 0) {
        snprintf(why, why_size, "cannot write %s: %s", path_out, strerror(errno));
        free(out);
        return -1;
    }
    free(out);
    return 0;
}
