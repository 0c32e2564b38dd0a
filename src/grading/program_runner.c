/*
 * program_runner.c - the child's side of running a learner's whole program on the emulator:
 * `cudachef-check __program --plain P.so --checked C.so [--check-launch K:N] [--watch] -- NAME ARGS...` (hidden; run only by
 * try, in a sandbox of its own, with the terminal's standard input, output and error).
 *
 * It loads the program's two builds (program_build.c): the plain one with its symbols visible to
 * what comes after it, then the checked one, linked so that its functions call their own checked
 * copies while its data (a __device__ or __constant__ variable, a libstdc++ object) is the plain
 * build's, one copy for both. Each launch site has a record of the same name in both builds
 * (src/kit/cxx/cudachef.h); the names come from each build's symbol table, so the runtime's first
 * launch at a site can run the checked twin of the plain record. Then it calls the program's main
 * with the learner's arguments, and at the end (main's return or exit()) says on standard error
 * what the runtime saw: a kernel's fault, device memory never freed.
 */
#include "grading/program_runner.h"

#include <assert.h>
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/chef.h"
#include "base/i18n.h"
#include "engine/host_runtime.h"
#include "kit/emu_kernel.h"
#include "kit/emu_runtime.h"

#define SITE_PREFIX "_ZN8cudachef7site_of" /* cudachef::site_of<...>::record, mangled */
#define PROGRAM_TRACE_BLOCKS (1u << 16) /* the watched launch's teams sent back (more: none, the floor
                                           then has no replay) */

/* The launch-site records of one build: their names and addresses. */
typedef struct program_sites {
    char **names;
    const void **at;
    int n;
} program_sites;

static program_sites program_plain, program_checked;
static int program_result_fd = 3; /* where what the runtime saw goes: fd 3 moved out of the program's way */

/* LeakSanitizer's switch, present only in a sanitizer build */
void __lsan_disable(void) __attribute__((weak));

/* The checked build's atomics and the like (src/emu/emu_tsan.c), linked in from the library
   because this names one of them; the learner's checked build finds them exported. */
void __tsan_atomic_thread_fence(int mo);
__attribute__((used)) static void (*const program_keep_tsan)(int) = __tsan_atomic_thread_fence;

/* Reads the site records from the symbol table of the shared object at path, loaded at base. */
static int program_sites_read(const char *path, uintptr_t base, program_sites *out)
{
    memset(out, 0, sizeof *out);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || (size_t)st.st_size < sizeof(Elf64_Ehdr)) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    size_t size = (size_t)st.st_size;
    const unsigned char *map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (map == MAP_FAILED)
        return -1;
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)map;
    int rc = -1;
    if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
        eh->e_shoff + (size_t)eh->e_shnum * sizeof(Elf64_Shdr) > size)
        goto done;
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(map + eh->e_shoff);
    for (int i = 0; i < eh->e_shnum; i++) {
        if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh->e_shnum)
            continue;
        const Elf64_Shdr *strs = &sh[sh[i].sh_link];
        if (sh[i].sh_offset + sh[i].sh_size > size || strs->sh_offset + strs->sh_size > size)
            goto done;
        const Elf64_Sym *sym = (const Elf64_Sym *)(map + sh[i].sh_offset);
        size_t nsym = sh[i].sh_size / sizeof *sym;
        const char *names = (const char *)(map + strs->sh_offset);
        for (size_t k = 0; k < nsym; k++) {
            if (sym[k].st_name >= strs->sh_size || ELF64_ST_TYPE(sym[k].st_info) != STT_OBJECT)
                continue;
            const char *name = names + sym[k].st_name;
            if (strncmp(name, SITE_PREFIX, sizeof SITE_PREFIX - 1) != 0 || !memchr(name, 0, strs->sh_size - sym[k].st_name))
                continue;
            char **nn = realloc(out->names, (size_t)(out->n + 1) * sizeof *nn);
            const void **na = realloc(out->at, (size_t)(out->n + 1) * sizeof *na);
            if (nn)
                out->names = nn;
            if (na)
                out->at = na;
            if (!nn || !na || !(out->names[out->n] = strdup(name)))
                goto done;
            out->at[out->n++] = (const void *)(base + sym[k].st_value);
        }
    }
    rc = 0;
done:
    munmap((void *)map, size);
    return rc;
}

/* The checked build's record for a plain build's one (NULL when it has none). */
static const emu_site *program_twin(const emu_site *plain)
{
    for (int i = 0; i < program_plain.n; i++) {
        if (program_plain.at[i] != plain)
            continue;
        for (int k = 0; k < program_checked.n; k++)
            if (strcmp(program_checked.names[k], program_plain.names[i]) == 0)
                return program_checked.at[k];
        return NULL;
    }
    return NULL;
}

/* Where a loaded object starts in memory. */
static uintptr_t program_base(void *handle)
{
    struct link_map *lm = NULL;
    return dlinfo(handle, RTLD_DI_LINKMAP, &lm) == 0 && lm ? (uintptr_t)lm->l_addr : 0;
}

/* assert() of the learner's code (it binds to this, exported, before the C library's): in a kernel
   the launch stops as a GPU's device-side assert does (cudaErrorAssert, sticky), with CUDA's words;
   in host code, as the C library's: the message and abort(). */
void __assert_fail(const char *assertion, const char *file, unsigned int line, const char *function)
{
    char msg[700];
    snprintf(msg, sizeof msg, "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.", file, line,
             function, emu_block_idx.x, emu_block_idx.y, emu_block_idx.z, emu_thread_idx.x, emu_thread_idx.y,
             emu_thread_idx.z, assertion);
    if (host_runtime_cook_assert(msg))
        abort(); /* not reached: the cook was switched away */
    fprintf(stderr, "%s:%u: %s: Assertion `%s' failed.\n", file, line, function, assertion);
    abort();
}

/* The journey's events as JSON (program_report.c reads them): one object per event. */
static json_t *program_journey_json(void)
{
    static const char *const kinds[] = {"alloc", "free", "copy", "launch", "sync"};
    static const char *const memory[] = {"device", "pinned", "managed"};
    static const char *const ways[] = {"host", "in", "out", "device"};
    static const char *const syncs[] = {"device", "stream", "event"};
    int n = 0;
    long dropped[HOST_EVENT_KINDS];
    const host_event *ev = host_runtime_journal(&n, dropped);
    json_t *list = json_array(), *root = json_object(), *skipped = json_object();
    for (int i = 0; i < n; i++) {
        const host_event *e = &ev[i];
        json_t *o = json_object();
        json_object_set_new(o, "kind", json_string(kinds[e->kind]));
        if (e->kind == HOST_EVENT_ALLOC || e->kind == HOST_EVENT_FREE) {
            json_object_set_new(o, "memory", json_string(memory[e->what % 3]));
            json_object_set_new(o, "number", json_integer(e->number));
            json_object_set_new(o, "bytes", json_integer((json_int_t)e->bytes));
        } else if (e->kind == HOST_EVENT_COPY) {
            json_object_set_new(o, "way", json_string(ways[e->what % 4]));
            json_object_set_new(o, "bytes", json_integer((json_int_t)e->bytes));
            json_object_set_new(o, "pinned", json_boolean(e->pinned));
            json_object_set_new(o, "ms", json_real(e->ms));
        } else if (e->kind == HOST_EVENT_LAUNCH) {
            json_object_set_new(o, "kernel", json_string(e->kernel ? e->kernel : "?"));
            json_object_set_new(o, "grid", json_pack("[III]", (json_int_t)e->grid[0], (json_int_t)e->grid[1],
                                                     (json_int_t)e->grid[2]));
            json_object_set_new(o, "block", json_pack("[III]", (json_int_t)e->block[0], (json_int_t)e->block[1],
                                                      (json_int_t)e->block[2]));
            json_object_set_new(o, "shared", json_integer((json_int_t)e->shared));
            json_object_set_new(o, "checked", json_boolean(e->checked));
            json_object_set_new(o, "faulted", json_boolean(e->faulted));
            json_object_set_new(o, "ms", json_real(e->ms));
            if (e->counted) {
                const counters *c = e->counted;
                json_t *values = json_object();
                for (int k = 0; k < COUNTER_COUNT; k++)
                    json_object_set_new(values, counter_table[k].metric, json_integer((json_int_t)c->value[k]));
                json_object_set_new(o, "counters",
                                    json_pack("{sI sI sI sI sI so}", "teams", (json_int_t)c->teams, "teams_counted",
                                              (json_int_t)c->teams_counted, "teams_checked", (json_int_t)c->teams_checked,
                                              "shared_bytes_per_team", (json_int_t)c->shared_bytes_per_team,
                                              "sectors_in_buffers", (json_int_t)c->sectors_in_buffers, "values", values));
            }
        } else {
            json_object_set_new(o, "what", json_string(syncs[e->what % 3]));
        }
        json_array_append_new(list, o);
    }
    for (int k = 0; k < HOST_EVENT_KINDS; k++)
        if (dropped[k])
            json_object_set_new(skipped, kinds[k], json_integer(dropped[k]));
    json_object_set_new(root, "journey", list);
    json_object_set_new(root, "not_kept", skipped);
    return root;
}

/* The watched launch's trace as JSON (program_kitchen.c reads it back), NULL when none was kept:
   the blocks as [block, station, start, end] in a row, each cook's record as an array in
   trace_thread's order, team 0's memory instructions as objects. */
static json_t *program_trace_json(void)
{
    int event = -1;
    const trace *t = host_runtime_watched(&event);
    if (!t)
        return NULL;
    json_t *o = json_object(), *blocks = json_array(), *threads = json_array(), *accesses = json_array();
    json_object_set_new(o, "event", json_integer(event));
    json_object_set_new(o, "stopped", json_boolean(t->stopped));
    json_object_set_new(o, "stopped_team", json_integer(t->stopped_team));
    json_object_set_new(o, "watched_team", json_integer(t->watched_team));
    json_object_set_new(o, "accesses_left_out", json_integer((json_int_t)t->accesses_left_out));
    if (t->nblocks <= PROGRAM_TRACE_BLOCKS)
        for (size_t i = 0; i < t->nblocks; i++) {
            const trace_block *b = &t->blocks[i];
            json_array_append_new(blocks, json_integer(b->block));
            json_array_append_new(blocks, json_integer(b->station));
            json_array_append_new(blocks, json_integer((json_int_t)b->start_ns));
            json_array_append_new(blocks, json_integer((json_int_t)b->end_ns));
        }
    for (size_t i = 0; t->threads && i < t->nthreads; i++) {
        const trace_thread *c = &t->threads[i];
        json_array_append_new(threads, json_pack("[IIIIIIIIIIIIII]", (json_int_t)c->block, (json_int_t)c->thread,
                                                 (json_int_t)c->buffer, (json_int_t)c->element,
                                                 (json_int_t)c->last_element, (json_int_t)c->writes,
                                                 (json_int_t)c->reads, (json_int_t)c->shared_writes,
                                                 (json_int_t)c->read_buffer, (json_int_t)c->first_read,
                                                 (json_int_t)c->last_read, (json_int_t)c->barriers,
                                                 (json_int_t)c->outside, (json_int_t)c->stuck));
    }
    for (size_t i = 0; t->accesses && i < t->naccesses; i++) {
        const trace_access *a = &t->accesses[i];
        json_t *address = json_array();
        for (int l = 0; l < TRACE_WARP; l++)
            json_array_append_new(address, json_integer((json_int_t)a->address[l]));
        json_array_append_new(accesses, json_pack("{sI sI sI sI sI sI sI so sI ss sI sI sI}", "warp", (json_int_t)a->warp,
                                                  "phase", (json_int_t)a->phase, "space", (json_int_t)a->space, "op",
                                                  (json_int_t)a->op, "size", (json_int_t)a->size, "elem_size",
                                                  (json_int_t)a->elem_size, "lanes", (json_int_t)a->lanes, "address",
                                                  address, "base", (json_int_t)a->base, "label", a->label, "units",
                                                  (json_int_t)a->units, "ideal", (json_int_t)a->ideal, "lines",
                                                  (json_int_t)a->lines));
    }
    json_object_set_new(o, "blocks", blocks);
    json_object_set_new(o, "threads", threads);
    json_object_set_new(o, "accesses", accesses);
    return json_pack("{so}", "trace", o);
}

/* At the program's end (its status): what the runtime saw, on standard error and fd 3. */
static void program_at_exit(int status, void *unused)
{
    (void)unused;
    host_runtime_stats st;
    fflush(stdout);
    host_runtime_end(&st);
    json_t *journey = program_journey_json();
    char *text = json_dumps(journey, JSON_COMPACT);
    json_decref(journey);
    if (text) {
        dprintf(program_result_fd, "%s\n", text);
        free(text);
    }
    json_t *watched = program_trace_json();
    if (watched && (text = json_dumps(watched, JSON_COMPACT))) {
        dprintf(program_result_fd, "%s\n", text);
        free(text);
    }
    json_decref(watched);
    dprintf(program_result_fd, "{\"exit\": %d, \"kernel_faulted\": %d, \"leaked\": %d, \"leaked_bytes\": %zu, \"cause\": %d}\n",
            status, st.kernel_faulted, st.leaked, st.leaked_bytes, st.cause);
    if (st.message[0])
        fprintf(stderr, "cudachef: %s\n", st.message);
    if (st.leaked > 0)
        fprintf(stderr, _("cudachef: %d device allocation(s) never freed (%zu bytes): cudaFree each cudaMalloc\n"),
                st.leaked, st.leaked_bytes);
    fflush(stderr);
}

int program_runner_main(int argc, char **argv)
{
    const char *plain = NULL, *checked = NULL;
    int i = 1;
    for (; i < argc; i++) {
        if (strcmp(argv[i], "--plain") == 0 && i + 1 < argc)
            plain = argv[++i];
        else if (strcmp(argv[i], "--checked") == 0 && i + 1 < argc)
            checked = argv[++i];
        else if (strcmp(argv[i], "--watch") == 0)
            host_runtime_watch(1);
        else if (strcmp(argv[i], "--check-launch") == 0 && i + 1 < argc && strrchr(argv[i + 1], ':')) {
            char kernel[128];
            const char *colon = strrchr(argv[++i], ':');
            snprintf(kernel, sizeof kernel, "%.*s", (int)(colon - argv[i]), argv[i]);
            host_runtime_check_launch(kernel, strtol(colon + 1, NULL, 10));
        }
        else if (strcmp(argv[i], "--") == 0) {
            i++;
            break;
        } else {
            fprintf(stderr, "cudachef-check __program: unknown argument %s\n", argv[i]);
            return CHEF_EXIT_USAGE;
        }
    }
    if (!plain || i >= argc) {
        fprintf(stderr, "cudachef-check __program --plain P.so [--checked C.so] -- NAME ARGS...\n");
        return CHEF_EXIT_USAGE;
    }
    void *p = dlopen(plain, RTLD_NOW | RTLD_GLOBAL);
    if (!p) {
        const char *why = dlerror(), *missing = why ? strstr(why, "undefined symbol: ") : NULL;
        if (missing) /* a library's function the program's build was not linked with (OpenGL's, say) */
            fprintf(stderr,
                    _("cudachef: the program calls %s, which is in none of the libraries a program is linked with "
                      "on the emulator: run this program on a GPU (--backend gpu)\n"),
                    missing + 18);
        else
            fprintf(stderr, "cudachef: cannot load the program's build: %s\n", why ? why : "");
        return CHEF_EXIT_ENVIRONMENT;
    }
    void *c = checked ? dlopen(checked, RTLD_NOW | RTLD_LOCAL) : NULL;
    if (checked && !c) {
        fprintf(stderr, "cudachef: cannot load the program's checked build: %s\n", dlerror());
        return CHEF_EXIT_ENVIRONMENT;
    }
    if (program_sites_read(plain, program_base(p), &program_plain) != 0 ||
        (c && program_sites_read(checked, program_base(c), &program_checked) != 0)) {
        fprintf(stderr, "cudachef: cannot read the program's launch sites\n");
        return CHEF_EXIT_ENVIRONMENT;
    }
    int (*entry)(int, char **, char **) = (int (*)(int, char **, char **))dlsym(p, "main");
    if (!entry) {
        fprintf(stderr, "cudachef: the program has no main\n");
        return CHEF_EXIT_USAGE;
    }
    /* in a build of cudachef with AddressSanitizer (make asan), what the program leaves allocated
       is its own business (this process ends with it), not a leak of cudachef's */
    if (__lsan_disable)
        __lsan_disable();
    host_runtime_program(program_twin);
    host_runtime_begin(HOST_FAULT_NONE, 0);
    on_exit(program_at_exit, NULL);
    /* the result pipe is moved to a descriptor of its own, closed on exec, and fd 3 closed: a program
       that writes to fd 3 (as a line of ours) writes nowhere. Its code runs in this process, so this
       keeps honest mistakes out, not a determined forger: the parent bounds every figure it reads */
    int moved = fcntl(3, F_DUPFD_CLOEXEC, 64);
    if (moved >= 0) {
        program_result_fd = moved;
        close(3);
    }
    dprintf(program_result_fd, "{\"started\": 1}\n");
    extern char **environ;
    exit(entry(argc - i, argv + i, environ));
}
