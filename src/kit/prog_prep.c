/*
 * prog_prep.c - the source pass over a whole program's preprocessed C++ (see prog_prep.h).
 *
 * It reads the text once, token by token (literals, numbers, identifiers, punctuation; the
 * preprocessor's line markers `# 12 "file.cu" 3` tell the file and line of what follows, and
 * whether it is a system header), and rewrites in place:
 *
 *   kernel<T, 4><<<grid, block, shared, stream>>>(a, n + 1)
 * becomes
 *   ::cudachef::launch<TU, SITE>("kernel<T, 4>", "file.cu", 42, grid, block,
 *       [=, cudachef_a0 = (a), cudachef_a1 = (n + 1)]() { kernel<T, 4>(cudachef_a0, cudachef_a1); },
 *       shared, stream)
 *
 * (the closure keeps the arguments' values, literals go in as they are so 0 and NULL still convert
 * to pointers; the kernel is called directly, so its default arguments and template deduction work
 * as in CUDA), and
 *
 *   __shared__ float tile[16][16];
 * becomes
 *   static thread_local __attribute__((aligned(16))) float cudachef_shared_tile[16][16];
 *   static thread_local unsigned long long cudachef_gen_tile;
 *   auto *const cudachef_ptr_tile = (decltype(cudachef_shared_tile) *)emu_shared_seen(...);
 *
 * with every later use of `tile` in its block written `(*cudachef_ptr_tile)`, so the first cook of
 * each team poisons and registers it and the checked build sees every access (docs/EMULATOR.md).
 * `extern __shared__ T s[]` is the worker's dynamic shared area (its assembler name). __device__,
 * __constant__ and __managed__ go (a `static` before a variable of theirs too, so that the plain
 * and checked builds share one copy); __noinline__ outside an attribute goes.
 *
 * Every newline stays, so the compiler's messages keep the learner's lines. The reader never goes
 * back over text it has passed except for a launch's kernel name, and looks ahead a bounded
 * distance, so the pass is linear in the text's size.
 */
#include "prog_prep.h"
#include "text_out.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PP_MAX_NAMES 256     /* __shared__ names in scope at once */
#define PP_NAME_MAX 128
#define PP_MAX_PIECES 64     /* arguments of one launch */
#define PP_LOOKAHEAD 4096    /* how far a declaration is looked at to tell a variable from a function */

#define PP_MAX_KERNELS 256   /* kernels whose reference parameters are remembered */

/* A kernel (a __global__ function) with parameters that are references: a launch passes those
   arguments by reference (the object the caller named, as CUDA passes its address), the others by
   value. */
typedef struct pp_kernel {
    char name[PP_NAME_MAX];
    unsigned long long refs; /* bit q: parameter q is a non-const lvalue reference */
} pp_kernel;

/* A __shared__ name in scope: until the block at depth closes (file scope: depth 0, to the end). */
typedef struct pp_name {
    char name[PP_NAME_MAX];
    int depth;
} pp_name;

/* The reader. */
typedef struct pp {
    const char *s;
    size_t len, i;
    int line, system, tu, site, depth;
    char file[256];
    text_out o;
    pp_name names[PP_MAX_NAMES];
    int nnames;
    char prev[PP_NAME_MAX]; /* the last token if it was an identifier, else "" */
    size_t prev_at;         /* where it starts in the output */
    char prevc, prevc2;     /* the last two punctuation characters, when the last token was one */
    size_t stmt_at;         /* where the output's current declaration or statement starts */
    prog_prep_info *info;
    int device_pending;     /* a __global__ or __device__ function's body is the next '{' */
    int device_depth;       /* > 0: inside one (the depth of its body) */
    pp_kernel kernels[PP_MAX_KERNELS];
    int nkernels;
} pp;


/* Appends text as the inside of a C string literal. */
static void pp_put_string(text_out *o, const char *s, size_t len)
{
    for (size_t k = 0; k < len; k++) {
        char c = s[k] == '\n' || s[k] == '\t' ? ' ' : s[k];
        if (c == '"' || c == '\\')
            text_put(o, "\\", 1);
        text_put(o, &c, 1);
    }
}

/* Appends text on one line: its newlines as spaces, and the preprocessor's line markers inside it
   (a macro of a system header expanded in the middle of a line) left out; pp_resync puts the
   line back after the construct. */
static void pp_put_flat(text_out *o, const char *s, size_t len)
{
    size_t from = 0;
    for (size_t k = 0; k < len; k++)
        if (s[k] == '\n') {
            text_put(o, s + from, k - from);
            text_put(o, " ", 1);
            from = k + 1;
            if (from < len && s[from] == '#') { /* a line marker: to its end */
                while (from < len && s[from] != '\n')
                    from++;
                k = from - 1;
            }
        }
    text_put(o, s + from, len - from);
}

static int pp_ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '$';
}

/* Counts the newlines of s[from, to). */
static int pp_lines(const char *s, size_t from, size_t to)
{
    int n = 0;
    for (size_t k = from; k < to; k++)
        n += s[k] == '\n';
    return n;
}

/* The length of the literal, comment or line marker at i (0 if none). Raw strings R"d(...)d" too. */
static size_t pp_skip_len(const pp *p, size_t i, int at_line_start)
{
    const char *s = p->s;
    size_t len = p->len, j = i;
    if (j + 1 < len && s[j] == '/' && s[j + 1] == '/') {
        while (j < len && s[j] != '\n')
            j++;
        return j - i;
    }
    if (j + 1 < len && s[j] == '/' && s[j + 1] == '*') {
        j += 2;
        while (j + 1 < len && !(s[j] == '*' && s[j + 1] == '/'))
            j++;
        return (j + 1 < len ? j + 2 : len) - i;
    }
    if (s[j] == 'R' && j + 1 < len && s[j + 1] == '"' && (j == 0 || !pp_ident_char(s[j - 1]) ||
                                                         s[j - 1] == 'L' || s[j - 1] == 'u' || s[j - 1] == 'U' ||
                                                         s[j - 1] == '8')) {
        size_t d = j + 2, open = d;
        while (open < len && open - d < 16 && s[open] != '(')
            open++;
        if (open >= len || s[open] != '(')
            return 0;
        size_t dl = open - d;
        for (size_t k = open + 1; k < len; k++)
            if (s[k] == ')' && k + 1 + dl < len && memcmp(s + k + 1, s + d, dl) == 0 && s[k + 1 + dl] == '"')
                return k + 2 + dl - i;
        return len - i;
    }
    if (s[j] == '"' || s[j] == '\'') {
        char q = s[j++];
        while (j < len && s[j] != q && s[j] != '\n')
            j += s[j] == '\\' && j + 1 < len ? 2 : 1;
        return (j < len && s[j] == q ? j + 1 : j) - i;
    }
    if (s[j] == '#' && at_line_start) {
        while (j < len && s[j] != '\n')
            j++;
        return j - i;
    }
    return 0;
}

/* A line marker `# LINE "FILE" FLAGS` (or `#line LINE "FILE"`): the file and line of what follows. */
static void pp_marker(pp *p, const char *s, size_t len)
{
    size_t k = 1;
    while (k < len && s[k] == ' ')
        k++;
    if (k + 4 <= len && memcmp(s + k, "line", 4) == 0)
        k += 4;
    while (k < len && s[k] == ' ')
        k++;
    if (k >= len || !isdigit((unsigned char)s[k]))
        return; /* #pragma and its kin */
    long line = strtol(s + k, NULL, 10);
    while (k < len && isdigit((unsigned char)s[k]))
        k++;
    while (k < len && s[k] == ' ')
        k++;
    if (k < len && s[k] == '"') {
        size_t e = k + 1, w = 0;
        while (e < len && s[e] != '"' && w + 1 < sizeof p->file) {
            if (s[e] == '\\' && e + 1 < len)
                e++;
            p->file[w++] = s[e++];
        }
        p->file[w] = 0;
        p->system = 0;
        for (size_t f = e + 1; f < len; f++)
            if (s[f] == '3' && (f + 1 == len || s[f + 1] == ' ') && s[f - 1] == ' ')
                p->system = 1;
    }
    p->line = (int)line - 1; /* the marker's own newline makes it line */
}

/* After a construct rewritten onto one line, from the reader's old position to its new one: the
   file and line its text ended at are followed (line markers inside it too), and the output goes
   on at that line with a line marker of its own (also when force: lines the construct's start took
   out of the output), so every later line keeps its number. */
static void pp_resync(pp *p, size_t from, size_t to, int force)
{
    int newlines = force;
    for (size_t k = from; k < to; k++) {
        if (p->s[k] != '\n')
            continue;
        newlines++;
        p->line++;
        if (k + 1 < to && p->s[k + 1] == '#') {
            size_t e = k + 1;
            while (e < to && p->s[e] != '\n')
                e++;
            pp_marker(p, p->s + k + 1, e - k - 1);
            k = e - 1;
        }
    }
    if (newlines == 0)
        return;
    text_printf(&p->o, "\n# %d \"", p->line);
    pp_put_string(&p->o, p->file, strlen(p->file));
    text_put(&p->o, p->system ? "\" 3\n" : "\"\n", p->system ? 4 : 2);
}

/* The end (index of the ';' at depth 0) of the declaration from i, or len. */
static size_t pp_semicolon(const pp *p, size_t i)
{
    int depth = 0;
    while (i < p->len) {
        size_t skip = pp_skip_len(p, i, 0);
        if (skip) {
            i += skip;
            continue;
        }
        char c = p->s[i];
        if (c == '(' || c == '[' || c == '{')
            depth++;
        else if (c == ')' || c == ']' || c == '}') {
            if (--depth < 0)
                return p->len;
        } else if (c == ';' && depth == 0)
            return i;
        i++;
    }
    return p->len;
}

/* Whether the '<' at i opens template arguments: a matching '>' within a short distance, with
   only what template arguments hold between, followed by '(' , '::' or '{'. Returns the index after
   the '>' or 0. */
static size_t pp_template_end(const char *s, size_t len, size_t i)
{
    int depth = 0;
    size_t end = i + 256 < len ? i + 256 : len;
    for (size_t k = i; k < end; k++) {
        char c = s[k];
        if (c == '<')
            depth++;
        else if (c == '>') {
            if (--depth == 0) {
                size_t n = k + 1;
                while (n < len && isspace((unsigned char)s[n]))
                    n++;
                if (n < len && (s[n] == '(' || s[n] == '{' || (s[n] == ':' && n + 1 < len && s[n + 1] == ':')))
                    return k + 1;
                return 0;
            }
        } else if (c == ';' || c == '{' || c == '}' || c == '"' || c == '\'' || c == '|' || c == '?')
            return 0;
    }
    return 0;
}

/* Splits s[from, to) at commas of depth 0 (brackets, and template arguments by pp_template_end).
   Returns the number of pieces (at most max), each as [starts[k], ends[k]). */
static int pp_split(const pp *p, size_t from, size_t to, size_t *starts, size_t *ends, int max)
{
    const char *s = p->s;
    int n = 0, depth = 0;
    size_t start = from;
    for (size_t k = from; k <= to && n < max;) {
        if (k < to) {
            size_t skip = pp_skip_len(p, k, 0);
            if (skip) {
                k += skip;
                continue;
            }
        }
        char c = k < to ? s[k] : ',';
        if (c == '(' || c == '[' || c == '{')
            depth++;
        else if (c == ')' || c == ']' || c == '}')
            depth--;
        else if (c == '<' && depth == 0 && k > from && pp_ident_char(s[k - 1])) {
            size_t e = pp_template_end(s, to, k);
            if (e) {
                k = e;
                continue;
            }
        } else if (c == ',' && depth == 0) {
            starts[n] = start;
            ends[n++] = k;
            start = k + 1;
        }
        k++;
    }
    return n;
}

/* Trims blanks and newlines around s[*from, *to). */
static void pp_trim(const char *s, size_t *from, size_t *to)
{
    while (*from < *to && isspace((unsigned char)s[*from]))
        (*from)++;
    while (*to > *from && isspace((unsigned char)s[*to - 1]))
        (*to)--;
}

/* Whether s[from, to) is one literal a launch may pass as it is (a number, nullptr, NULL's
   __null, true, false): it then converts as the kernel's parameter wants (0 to a pointer). */
static int pp_literal(const char *s, size_t from, size_t to)
{
    size_t n = to - from;
    if (n == 0)
        return 0;
    if ((n == 7 && memcmp(s + from, "nullptr", 7) == 0) || (n == 6 && memcmp(s + from, "__null", 6) == 0) ||
        (n == 4 && memcmp(s + from, "true", 4) == 0) || (n == 5 && memcmp(s + from, "false", 5) == 0))
        return 1;
    if (!isdigit((unsigned char)s[from]))
        return 0;
    for (size_t k = from; k < to; k++)
        if (!pp_ident_char(s[k]) && s[k] != '.' && s[k] != '\'' &&
            !((s[k] == '+' || s[k] == '-') && (s[k - 1] == 'e' || s[k - 1] == 'E' || s[k - 1] == 'p' || s[k - 1] == 'P')))
            return 0;
    return 1;
}

/* The CUDA words the emulator does not run, by name or by the start of a name (prefix): the first
   use in the learner's own files is refused, named. */
typedef struct pp_refusal {
    const char *word;
    int prefix; /* 1: any name that starts with word followed by a capital letter (or by '_', for the
                   runtime's and the driver's names: cudaGraph_t) */
    const char *what;
} pp_refusal;

static const pp_refusal pp_refusals[] = {
    {"cudaCreateTextureObject", 0, "a texture (cudaCreateTextureObject)"},
    {"cudaCreateSurfaceObject", 0, "a surface (cudaCreateSurfaceObject)"},
    {"cudaBindTexture", 1, "a texture reference (cudaBindTexture)"},
    {"cudaMallocArray", 0, "a CUDA array (cudaMallocArray), for textures"},
    {"cudaMalloc3DArray", 0, "a CUDA array (cudaMalloc3DArray), for textures"},
    {"cudaMallocMipmappedArray", 0, "a CUDA array (cudaMallocMipmappedArray), for textures"},
    {"tex1Dfetch", 0, "a texture fetch (tex1Dfetch)"},
    {"tex1D", 1, "a texture fetch (tex1D)"},
    {"tex2D", 1, "a texture fetch (tex2D)"},
    {"tex3D", 1, "a texture fetch (tex3D)"},
    {"texCubemap", 1, "a texture fetch (texCubemap)"},
    {"surf1Dwrite", 0, "a surface write (surf1Dwrite)"},
    {"surf2Dwrite", 0, "a surface write (surf2Dwrite)"},
    {"surf3Dwrite", 0, "a surface write (surf3Dwrite)"},
    {"surf2DLayeredwrite", 0, "a surface write (surf2DLayeredwrite)"},
    {"surfCubemapwrite", 0, "a surface write (surfCubemapwrite)"},
    {"surf1Dread", 0, "a surface read (surf1Dread)"},
    {"surf2Dread", 0, "a surface read (surf2Dread)"},
    {"surf3Dread", 0, "a surface read (surf3Dread)"},
    {"cudaGraph", 1, "a CUDA graph (cudaGraph...)"},
    {"cudaStreamBeginCapture", 1, "a CUDA graph (stream capture)"},
    {"cudaIpc", 1, "memory shared between processes (cudaIpc...)"},
    {"cuInit", 0, "the driver API (cuInit)"},
    {"cuDevice", 1, "the driver API (cuDevice...)"},
    {"cuCtx", 1, "the driver API (cuCtx...)"},
    {"cuModule", 1, "the driver API (cuModule...)"},
    {"cuMem", 1, "the driver API (cuMem...)"},
    {"cuLaunch", 1, "the driver API (cuLaunch...)"},
    {"cuLink", 1, "the driver API (cuLink...)"},
    {"cuStream", 1, "the driver API (cuStream...)"},
    {"cuEvent", 1, "the driver API (cuEvent...)"},
    {"cuFunc", 1, "the driver API (cuFunc...)"},
    {"cuGraph", 1, "the driver API (cuGraph...)"},
    {"cuTex", 1, "the driver API (cuTex...)"},
    {"cuArray", 1, "the driver API (cuArray...)"},
    {"cuDriverGetVersion", 0, "the driver API (cuDriverGetVersion)"},
    {"cuGetProcAddress", 0, "the driver API (cuGetProcAddress)"},
};

/* The refusal of an identifier s[0, n), or NULL when the emulator runs it. */
static const char *pp_refused(const char *s, size_t n)
{
    if (n < 4 || (s[0] != 'c' && s[0] != 't' && s[0] != 's'))
        return NULL;
    for (size_t r = 0; r < sizeof pp_refusals / sizeof *pp_refusals; r++) {
        size_t w = strlen(pp_refusals[r].word);
        if (n < w || memcmp(s, pp_refusals[r].word, w) != 0)
            continue;
        if (n == w || (pp_refusals[r].prefix && (isupper((unsigned char)s[w]) || (s[w] == '_' && s[0] == 'c'))))
            return pp_refusals[r].what;
    }
    return NULL;
}

/* Notes the first construct the emulator cannot run, in the learner's own files. */
static void pp_unsupported(pp *p, const char *what)
{
    if (p->system || !p->info || p->info->unsupported[0])
        return;
    snprintf(p->info->unsupported, sizeof p->info->unsupported, "%s", what);
    snprintf(p->info->unsupported_file, sizeof p->info->unsupported_file, "%s", p->file);
    p->info->unsupported_line = p->line;
}

/* The start in the output of the kernel expression that ends there: a name with its qualifiers
   and template arguments, or a parenthesised expression. */
static size_t pp_callee_start(const text_out *o, size_t end)
{
    const char *s = o->p;
    size_t j = end;
    for (;;) {
        while (j > 0 && isspace((unsigned char)s[j - 1]))
            j--;
        if (j > 0 && s[j - 1] == ')') {
            int depth = 0;
            while (j > 0) {
                char c = s[--j];
                if (c == ')')
                    depth++;
                else if (c == '(' && --depth == 0)
                    break;
            }
            return j;
        }
        if (j > 0 && s[j - 1] == ']') { /* an array of kernels: fpDeriv[fp]<<<...>>> */
            int depth = 0;
            while (j > 0) {
                char c = s[--j];
                if (c == ']')
                    depth++;
                else if (c == '[' && --depth == 0)
                    break;
            }
            continue;
        }
        if (j > 0 && s[j - 1] == '>') {
            int depth = 0;
            while (j > 0) {
                char c = s[--j];
                if (c == '>')
                    depth++;
                else if (c == '<' && --depth == 0)
                    break;
            }
            while (j > 0 && isspace((unsigned char)s[j - 1]))
                j--;
        }
        size_t k = j;
        while (k > 0 && pp_ident_char(s[k - 1]))
            k--;
        if (k == j)
            return j;
        j = k;
        size_t q = j;
        while (q > 0 && isspace((unsigned char)s[q - 1]))
            q--;
        if (q >= 2 && s[q - 1] == ':' && s[q - 2] == ':') {
            j = q - 2;
            size_t r = j;
            while (r > 0 && isspace((unsigned char)s[r - 1]))
                r--;
            if (r == 0 || !(pp_ident_char(s[r - 1]) || s[r - 1] == '>')) /* ::name at global scope */
                return j;
            continue;
        }
        if (q >= 8 && memcmp(s + q - 8, "template", 8) == 0 && (q == 8 || !pp_ident_char(s[q - 9])))
            continue; /* ns::template kernel<T> */
        return j;
    }
}

/* A launch: the output ends with its kernel, the reader stands at its <<<. */
/* The last identifier of s[from, to) outside template arguments ("ns::kernel<T, 4>" gives
   "kernel"); 0 with *at and *n set, -1 when none. */
static int pp_base_name(const char *s, size_t from, size_t to, size_t *at, size_t *n)
{
    int angle = 0, found = -1;
    for (size_t k = from; k < to;) {
        if (s[k] == '<')
            angle++;
        else if (s[k] == '>' && angle > 0)
            angle--;
        if (angle == 0 && (isalpha((unsigned char)s[k]) || s[k] == '_') && (k == from || !pp_ident_char(s[k - 1]))) {
            size_t e = k;
            while (e < to && pp_ident_char(s[e]))
                e++;
            *at = k;
            *n = e - k;
            found = 0;
            k = e;
            continue;
        }
        k++;
    }
    return found;
}

/* After `__global__` at i: the kernel's name and which of its parameters are non-const lvalue
   references, remembered for its launches (looked at within PP_LOOKAHEAD, so the pass stays
   linear). */
static void pp_kernel_params(pp *p, size_t i)
{
    const char *s = p->s;
    size_t end = i + PP_LOOKAHEAD < p->len ? i + PP_LOOKAHEAD : p->len, open = i;
    while (open < end && s[open] != '(' && s[open] != ';' && s[open] != '{')
        open++;
    size_t at, n;
    if (open >= end || s[open] != '(' || pp_base_name(s, i, open, &at, &n) != 0 || n >= PP_NAME_MAX)
        return;
    size_t close = open + 1;
    for (int depth = 1; close < end; close++) {
        if (s[close] == '(')
            depth++;
        else if (s[close] == ')' && --depth == 0)
            break;
    }
    if (close >= end)
        return;
    size_t starts[PP_MAX_PIECES], ends[PP_MAX_PIECES];
    int np = pp_split(p, open + 1, close, starts, ends, PP_MAX_PIECES);
    unsigned long long refs = 0;
    for (int q = 0; q < np && q < 64; q++) {
        int angle = 0, ref = 0, constant = 0;
        for (size_t k = starts[q]; k < ends[q]; k++) {
            if (s[k] == '<')
                angle++;
            else if (s[k] == '>' && angle > 0)
                angle--;
            else if (angle == 0 && s[k] == '&')
                ref = k + 1 < ends[q] && s[k + 1] == '&' ? 0 : (k > starts[q] && s[k - 1] == '&') ? 0 : 1;
            else if (angle == 0 && k + 5 <= ends[q] && memcmp(s + k, "const", 5) == 0 &&
                     (k == starts[q] || !pp_ident_char(s[k - 1])) && (k + 5 == ends[q] || !pp_ident_char(s[k + 5])))
                constant = 1;
            if (ref && s[k] != '&')
                break; /* the first '&' decides: what follows is the name */
        }
        if (ref && !constant)
            refs |= 1ULL << q;
    }
    if (!refs)
        return;
    for (int k = 0; k < p->nkernels; k++)
        if (strlen(p->kernels[k].name) == n && memcmp(p->kernels[k].name, s + at, n) == 0) {
            p->kernels[k].refs |= refs;
            return;
        }
    if (p->nkernels == PP_MAX_KERNELS)
        return;
    snprintf(p->kernels[p->nkernels].name, PP_NAME_MAX, "%.*s", (int)n, s + at);
    p->kernels[p->nkernels++].refs = refs;
}

/* The reference parameters of the kernel a launch names (its callee's text). */
static unsigned long long pp_kernel_refs(const pp *p, const char *callee)
{
    size_t at, n;
    if (p->nkernels == 0 || pp_base_name(callee, 0, strlen(callee), &at, &n) != 0)
        return 0;
    for (int k = 0; k < p->nkernels; k++)
        if (strlen(p->kernels[k].name) == n && memcmp(p->kernels[k].name, callee + at, n) == 0)
            return p->kernels[k].refs;
    return 0;
}

static int pp_launch(pp *p, char *why, size_t why_size)
{
    const char *s = p->s;
    int line = p->line;
    if (p->device_depth)
        pp_unsupported(p, "dynamic parallelism (a launch inside a kernel)");
    size_t end = p->o.n, start = pp_callee_start(&p->o, end);
    size_t cs = start, ce = end;
    pp_trim(p->o.p, &cs, &ce);
    if (cs == ce) {
        snprintf(why, why_size, "%s:%d: a launch <<<...>>> without a kernel before it", p->file, line);
        return -1;
    }
    char *callee = strndup(p->o.p + cs, ce - cs);
    if (!callee) {
        snprintf(why, why_size, "out of memory");
        return -1;
    }
    int cut_lines = pp_lines(p->o.p, start, end); /* lines of the kernel's name, taken out below */
    /* the configuration, to its >>> */
    size_t c0 = p->i + 3, k = c0;
    int depth = 0;
    while (k < p->len) {
        size_t skip = pp_skip_len(p, k, 0);
        if (skip) {
            k += skip;
            continue;
        }
        char c = s[k];
        if (c == '(' || c == '[' || c == '{')
            depth++;
        else if (c == ')' || c == ']' || c == '}')
            depth--;
        else if (depth == 0 && k + 3 <= p->len && memcmp(s + k, ">>>", 3) == 0)
            break;
        if (depth < 0 || c == ';') {
            k = p->len;
            break;
        }
        k++;
    }
    size_t c1 = k, open = k + 3;
    while (open < p->len && isspace((unsigned char)s[open]))
        open++;
    if (c1 >= p->len || open >= p->len || s[open] != '(') {
        snprintf(why, why_size, "%s:%d: a launch %s<<<...>>> without its >>> or its (arguments)", p->file, line, callee);
        free(callee);
        return -1;
    }
    size_t a0 = open + 1, a1 = a0;
    for (depth = 1; a1 < p->len; a1++) {
        size_t skip = pp_skip_len(p, a1, 0);
        if (skip) {
            a1 += skip - 1;
            continue;
        }
        if (s[a1] == '(' || s[a1] == '[' || s[a1] == '{')
            depth++;
        else if ((s[a1] == ')' || s[a1] == ']' || s[a1] == '}') && --depth == 0)
            break;
    }
    if (a1 >= p->len) {
        snprintf(why, why_size, "%s:%d: the launch of %s has no ')' after its arguments", p->file, line, callee);
        free(callee);
        return -1;
    }
    size_t cfg_s[PP_MAX_PIECES], cfg_e[PP_MAX_PIECES], arg_s[PP_MAX_PIECES], arg_e[PP_MAX_PIECES];
    int ncfg = pp_split(p, c0, c1, cfg_s, cfg_e, PP_MAX_PIECES);
    size_t as = a0, ae = a1;
    pp_trim(s, &as, &ae);
    int nargs = as == ae ? 0 : pp_split(p, a0, a1, arg_s, arg_e, PP_MAX_PIECES);
    if (ncfg < 2 || ncfg > 4) {
        snprintf(why, why_size, "%s:%d: the launch of %s needs 2 to 4 values between <<< and >>>, not %d", p->file, line,
                 callee, ncfg);
        free(callee);
        return -1;
    }
    /* the launch */
    p->o.n = start;
    text_printf(&p->o, "::cudachef::launch<%d, %d>(\"", p->tu, p->site++);
    pp_put_string(&p->o, callee, strlen(callee));
    text_put(&p->o, "\", \"", 4);
    pp_put_string(&p->o, p->file, strlen(p->file));
    text_printf(&p->o, "\", %d, ", line);
    for (int q = 0; q < 2; q++) {
        pp_put_flat(&p->o, s + cfg_s[q], cfg_e[q] - cfg_s[q]);
        text_put(&p->o, ", ", 2);
    }
    text_put(&p->o, "[=", 2);
    unsigned long long refs = pp_kernel_refs(p, callee);
    for (int q = 0; q < nargs; q++) {
        size_t f = arg_s[q], t = arg_e[q];
        pp_trim(s, &f, &t);
        if (pp_literal(s, f, t))
            continue;
        /* a reference parameter gets the object the caller named, as CUDA passes its address; the
           others the argument's bytes, as CUDA copies them (no destructor runs on the copy) */
        if (q < 64 && (refs >> q & 1))
            text_printf(&p->o, ", &cudachef_a%d = (", q);
        else
            text_printf(&p->o, ", cudachef_a%d = ::cudachef::kernel_arg_of((", q);
        pp_put_flat(&p->o, s + f, t - f);
        text_put(&p->o, q < 64 && (refs >> q & 1) ? ")" : "))", q < 64 && (refs >> q & 1) ? 1 : 2);
    }
    text_put(&p->o, "]() mutable { ", 14);
    text_put(&p->o, callee, strlen(callee));
    text_put(&p->o, "(", 1);
    for (int q = 0; q < nargs; q++) {
        size_t f = arg_s[q], t = arg_e[q];
        pp_trim(s, &f, &t);
        if (q > 0)
            text_put(&p->o, ", ", 2);
        if (pp_literal(s, f, t))
            text_put(&p->o, s + f, t - f);
        else
            text_printf(&p->o, q < 64 && (refs >> q & 1) ? "cudachef_a%d" : "::cudachef::arg(cudachef_a%d)", q);
    }
    text_put(&p->o, "); }", 4);
    for (int q = 2; q < ncfg; q++) {
        text_put(&p->o, ", ", 2);
        pp_put_flat(&p->o, s + cfg_s[q], cfg_e[q] - cfg_s[q]);
    }
    text_put(&p->o, ")", 1);
    pp_resync(p, p->i, a1 + 1, cut_lines > 0);
    p->i = a1 + 1;
    p->stmt_at = p->o.n;
    if (p->info)
        p->info->launches++;
    free(callee);
    return 0;
}

/* One declarator's name: the last identifier at depth 0 before its first '[', '=', '(' of an
   initialiser or its end. 0 with *at and *n set, -1 when none. */
static int pp_declarator_name(const char *d, size_t len, size_t *at, size_t *n)
{
    int depth = 0, found = 0;
    for (size_t j = 0; j < len;) {
        char c = d[j];
        if (c == '[' && depth == 0)
            break;
        if (c == '=' && depth == 0)
            break;
        if (c == '(' || c == '[' || c == '<')
            depth++;
        else if (c == ')' || c == ']' || c == '>')
            depth--;
        if (isalpha((unsigned char)c) || c == '_') {
            size_t k = j;
            while (k < len && pp_ident_char(d[k]))
                k++;
            if (depth == 0 && !(k - j == 8 && memcmp(d + j, "unsigned", 8) == 0)) {
                *at = j;
                *n = k - j;
                found = 1;
            }
            j = k;
            continue;
        }
        j++;
    }
    return found && *n < PP_NAME_MAX ? 0 : -1;
}

/* A __shared__ declaration: the reader stands after __shared__; is_extern when `extern` came
   before it (already taken out of the output). */
static int pp_shared(pp *p, int is_extern, char *why, size_t why_size)
{
    const char *s = p->s;
    size_t from = p->i, semi = pp_semicolon(p, from);
    if (semi >= p->len) {
        snprintf(why, why_size, "%s:%d: a __shared__ declaration without its ';'", p->file, p->line);
        return -1;
    }
    size_t st[PP_MAX_PIECES], en[PP_MAX_PIECES];
    int n = pp_split(p, from, semi, st, en, PP_MAX_PIECES);
    char found[PP_MAX_PIECES][PP_NAME_MAX];
    /* extern: the worker's dynamic shared area, by its assembler name at file scope, else as a
       reference to an array (GCC drops assembler names of a template's block-scope externs) */
    int by_name = is_extern && p->depth == 0;
    if (!is_extern)
        text_put(&p->o, "static thread_local __attribute__((aligned(16))) ", 49);
    else if (by_name)
        text_put(&p->o, "extern __thread ", 16);
    for (int k = 0; k < n; k++) {
        size_t at = 0, len = 0;
        if (pp_declarator_name(s + st[k], en[k] - st[k], &at, &len) != 0) {
            snprintf(why, why_size, "%s:%d: a __shared__ declaration whose name cannot be found", p->file, p->line);
            return -1;
        }
        at += st[k];
        memcpy(found[k], s + at, len);
        found[k][len] = 0;
        if (k > 0)
            text_put(&p->o, ",", 1);
        if (by_name) {
            pp_put_flat(&p->o, s + st[k], en[k] - st[k]);
            text_put(&p->o, " __asm__(\"emu_dynamic_shared\")", 30);
        } else if (is_extern) {
            pp_put_flat(&p->o, s + st[k], at - st[k]);
            text_printf(&p->o, "(&%s)", found[k]);
            pp_put_flat(&p->o, s + at + len, en[k] - at - len);
            text_printf(&p->o, " = *reinterpret_cast<std::remove_reference_t<decltype(%s)> *>(cudachef_dynamic_shared)",
                      found[k]);
        } else {
            pp_put_flat(&p->o, s + st[k], at - st[k]);
            text_printf(&p->o, "cudachef_shared_%s", found[k]);
            pp_put_flat(&p->o, s + at + len, en[k] - at - len);
        }
    }
    text_put(&p->o, ";", 1);
    if (!is_extern)
        for (int k = 0; k < n; k++) {
            const char *v = found[k];
            text_printf(&p->o, " static thread_local unsigned long long cudachef_gen_%s;", v);
            if (p->depth == 0)
                text_printf(&p->o,
                          " static inline decltype(cudachef_shared_%s) *cudachef_at_%s() { return (decltype("
                          "cudachef_shared_%s) *)emu_shared_seen((void *)&cudachef_shared_%s, sizeof cudachef_shared_%s, "
                          "&cudachef_gen_%s, \"%s\"); }",
                          v, v, v, v, v, v, v);
            else
                text_printf(&p->o,
                          " auto *const cudachef_ptr_%s = (decltype(cudachef_shared_%s) *)emu_shared_seen((void *)&"
                          "cudachef_shared_%s, sizeof cudachef_shared_%s, &cudachef_gen_%s, \"%s\");",
                          v, v, v, v, v, v);
            if (p->nnames < PP_MAX_NAMES) {
                memcpy(p->names[p->nnames].name, v, strlen(v) + 1); /* shorter than PP_NAME_MAX */
                p->names[p->nnames++].depth = p->depth;
            }
        }
    pp_resync(p, from, semi + 1, 0);
    p->i = semi + 1;
    p->stmt_at = p->o.n;
    return 0;
}

/* Whether the declaration after a storage word at i declares a variable (its first '(' , '{',
   ';', '=' or '[' at depth 0 is one of the last three). */
static int pp_is_variable(const pp *p, size_t i)
{
    size_t end = i + PP_LOOKAHEAD < p->len ? i + PP_LOOKAHEAD : p->len;
    int angle = 0;
    for (size_t k = i; k < end; k++) {
        char c = p->s[k];
        if (c == '<')
            angle++;
        else if (c == '>')
            angle--;
        else if (angle <= 0 && (c == '(' || c == '{'))
            return 0;
        else if (angle <= 0 && (c == ';' || c == '=' || c == '['))
            return 1;
    }
    return 0;
}

/* The __shared__ name an identifier refers to, or -1. */
static int pp_shared_name(const pp *p, const char *id, size_t n)
{
    if (p->prevc == '.' || (p->prevc == '>' && p->prevc2 == '-') || (p->prevc == ':' && p->prevc2 == ':'))
        return -1;
    for (int k = p->nnames - 1; k >= 0; k--)
        if (strlen(p->names[k].name) == n && memcmp(p->names[k].name, id, n) == 0)
            return k;
    return -1;
}

/* Handles the identifier s[i, k): 1 when it was written (or dropped), -1 on error. */
static int pp_identifier(pp *p, size_t k, char *why, size_t why_size)
{
    const char *id = p->s + p->i;
    size_t n = k - p->i;
#define PP_IS(word) (n == sizeof(word) - 1 && memcmp(id, word, sizeof(word) - 1) == 0)
    if (PP_IS("__shared__")) {
        /* extern or static anywhere before it in the declaration (extern float __shared__ s[]) is
           taken out: the rewrite writes its own */
        int is_extern = 0;
        for (size_t w = p->stmt_at; w < p->o.n; w++) {
            if (!(isalpha((unsigned char)p->o.p[w]) || p->o.p[w] == '_') || (w > 0 && pp_ident_char(p->o.p[w - 1])))
                continue;
            size_t e = w;
            while (e < p->o.n && pp_ident_char(p->o.p[e]))
                e++;
            int ext = e - w == 6 && memcmp(p->o.p + w, "extern", 6) == 0;
            if (ext || (e - w == 6 && memcmp(p->o.p + w, "static", 6) == 0)) {
                memset(p->o.p + w, ' ', 6);
                is_extern |= ext;
            }
            w = e;
        }
        p->i = k;
        p->prev[0] = 0;
        return pp_shared(p, is_extern, why, why_size) == 0 ? 1 : -1;
    }
    if (PP_IS("__global__")) { /* a kernel: its reference parameters remembered, the word gone */
        pp_kernel_params(p, k);
        p->device_pending = !p->device_depth;
        text_put(&p->o, " ", 1);
        p->i = k;
        return 1;
    }
    if (PP_IS("__device__") || PP_IS("__constant__") || PP_IS("__managed__")) {
        int variable = pp_is_variable(p, k);
        if (strcmp(p->prev, "static") == 0 && variable)
            p->o.n = p->prev_at; /* one copy for both builds */
        if (!variable && PP_IS("__device__") && !p->device_depth)
            p->device_pending = 1; /* a device function: a launch in its body is dynamic parallelism */
        text_put(&p->o, " ", 1);
        p->i = k;
        return 1;
    }
    if (PP_IS("__noinline__") && p->prevc != '(' && p->prevc != ',') {
        p->i = k;
        return 1;
    }
    if (PP_IS("asm") || PP_IS("__asm__") || PP_IS("__asm"))
        pp_unsupported(p, "inline assembly (asm, PTX)");
    const char *refused = pp_refused(id, n);
    if (refused)
        pp_unsupported(p, refused);
    int name = p->depth >= 0 ? pp_shared_name(p, id, n) : -1;
    if (name >= 0) {
        if (p->names[name].depth == 0)
            text_printf(&p->o, "(*cudachef_at_%s())", p->names[name].name);
        else
            text_printf(&p->o, "(*cudachef_ptr_%s)", p->names[name].name);
        p->i = k;
        p->prev[0] = 0;
        p->prevc = ')';
        return 1;
    }
    return 0;
#undef PP_IS
}

int prog_prep_source(const char *src, size_t len, int tu, char **out, prog_prep_info *info, char *why, size_t why_size)
{
    pp *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(why, why_size, "out of memory");
        return -1;
    }
    p->s = src;
    p->len = len;
    p->line = 1;
    p->tu = tu;
    p->info = info;
    if (info)
        memset(info, 0, sizeof *info);
    snprintf(p->file, sizeof p->file, "%s", "<program>");
    int at_line_start = 1, rc = 0;
    while (p->i < len && !p->o.failed) {
        char c = src[p->i];
        if (c == '\n') {
            text_put(&p->o, "\n", 1);
            p->line++;
            p->i++;
            at_line_start = 1;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            text_put(&p->o, &c, 1);
            p->i++;
            continue;
        }
        size_t skip = pp_skip_len(p, p->i, at_line_start);
        at_line_start = 0;
        if (skip) {
            if (c == '#') {
                pp_marker(p, src + p->i, skip);
                p->stmt_at = p->o.n + skip;
            }
            else
                p->line += pp_lines(src, p->i, p->i + skip);
            text_put(&p->o, src + p->i, skip);
            p->i += skip;
            p->prev[0] = 0;
            p->prevc = 0;
            continue;
        }
        if (isdigit((unsigned char)c) || (c == '.' && p->i + 1 < len && isdigit((unsigned char)src[p->i + 1]))) {
            size_t k = p->i + 1;
            while (k < len && (pp_ident_char(src[k]) || src[k] == '.' ||
                               (src[k] == '\'' && k + 1 < len && pp_ident_char(src[k + 1])) ||
                               ((src[k] == '+' || src[k] == '-') && strchr("eEpP", src[k - 1]))))
                k++;
            text_put(&p->o, src + p->i, k - p->i);
            p->i = k;
            p->prev[0] = 0;
            p->prevc = 0;
            continue;
        }
        if (isalpha((unsigned char)c) || c == '_' || c == '$') {
            size_t k = p->i;
            while (k < len && pp_ident_char(src[k]))
                k++;
            int done = pp_identifier(p, k, why, why_size);
            if (done < 0) {
                rc = -1;
                break;
            }
            if (done)
                continue;
            p->prev_at = p->o.n;
            size_t n = k - p->i < PP_NAME_MAX ? k - p->i : 0;
            memcpy(p->prev, src + p->i, n);
            p->prev[n] = 0;
            p->prevc = p->prevc2 = 0;
            text_put(&p->o, src + p->i, k - p->i);
            p->i = k;
            continue;
        }
        if (c == '<' && p->i + 2 < len && src[p->i + 1] == '<' && src[p->i + 2] == '<') {
            if (pp_launch(p, why, why_size) != 0) {
                rc = -1;
                break;
            }
            p->prev[0] = 0;
            p->prevc = ')';
            continue;
        }
        if (c == ';' || c == '{' || c == '}')
            p->stmt_at = p->o.n + 1;
        if (c == ';' && p->device_pending)
            p->device_pending = 0; /* a declaration, not a definition */
        if (c == '{' && p->device_pending) {
            p->device_pending = 0;
            p->device_depth = p->depth + 1;
        } else if (c == '}' && p->device_depth && p->depth == p->device_depth) {
            p->device_depth = 0;
        }
        if (c == '{')
            p->depth++;
        else if (c == '}') {
            while (p->nnames > 0 && p->names[p->nnames - 1].depth >= p->depth && p->depth > 0)
                p->nnames--;
            if (p->depth > 0)
                p->depth--;
        }
        p->prevc2 = p->prevc;
        p->prevc = c;
        p->prev[0] = 0;
        text_put(&p->o, &c, 1);
        p->i++;
    }
    if (rc == 0 && p->o.failed) {
        snprintf(why, why_size, "out of memory");
        rc = -1;
    }
    if (rc == 0 && !p->o.p)
        text_put(&p->o, "", 0);
    if (rc == 0 && !p->o.failed) {
        *out = p->o.p;
    } else {
        free(p->o.p);
        if (rc == 0) {
            snprintf(why, why_size, "out of memory");
            rc = -1;
        }
    }
    free(p);
    return rc;
}
