/*
 * verifier.c - the taste of a grading check, done by the trusted cudachef process, never by the
 * process the learner's code runs in.
 *
 * Before the check starts, this process plans every run it will ask for (the recipe's buffers at
 * that size), fills the inputs from the seed into its own private copy, and lays every run's
 * buffers out in one shared memory file (memfd) that it owns: the inputs copied in, each output
 * poisoned (NaN). The boxed child gets the file as fd 4, cooks each run on those inputs and writes
 * each output back into its place. Once the box is gone, this process computes the expected
 * output from its private inputs (the learner could rewrite the shared pages, never these) and
 * compares what the shared output holds. Nothing the child says (its result lines, its exit code)
 * can make a wrong output right: an output nobody wrote is still NaN.
 * The file opens with a header of text (VERIFIER_HEADER_BYTES): the runs asked and the check's
 * nonce, which the child reads and wipes before the learner's code is loaded, so that neither is
 * on its command line for that code to read (exercise_runner.c).
 */
#include "grading/verifier.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/i18n.h"
#include "engine/recipes.h"

/* The kitchen parameters of one asked run, as the child builds them (exercise_runner.c). */
void verifier_params(const exercise *ex, const exercise_run *run, uint64_t seed, kitchen_params *p)
{
    kitchen_params_default(p);
    p->recipe = ex->recipe;
    p->n = run->n;
    p->threads_per_block = run->threads_per_block;
    p->blocks = run->blocks;
    p->rtol = ex->rtol;
    p->atol = ex->atol;
    p->seed = seed;
    p->seed_given = 1;
}

/* Plans and fills every run, and makes the shared memory. */
int verifier_prepare(verifier *v, const exercise *ex, const exercise_run *asked, int nruns, const backend_info *info,
                     uint64_t seed, chef_error *err)
{
    memset(v, 0, sizeof *v);
    v->fd = -1;
    const recipe *rc = recipe_find(ex->recipe);
    if (!rc)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, _("unknown recipe '%s'"), ex->recipe);
    size_t total = 0;
    for (int i = 0; i < nruns && i < EXERCISE_MAX_RUNS; i++) {
        verifier_run *vr = &v->runs[v->nruns++];
        kitchen_params p;
        verifier_params(ex, &asked[i], seed, &p);
        if (p.n == 0)
            p.n = rc->default_n;
        if (p.threads_per_block == 0)
            p.threads_per_block = rc->default_threads_per_block;
        vr->plan.seed = seed;
        chef_error why = {0};
        vr->offset = total;
        if (rc->plan(&p, info, &vr->plan, &why) != 0)
            continue; /* the child meets the same refusal and says so */
        vr->planned = 1;
        for (int b = 0; b < vr->plan.nbuffers; b++) {
            kitchen_buffer *kb = &vr->plan.buffers[b];
            kb->host = calloc(kb->count ? kb->count : 1, sizeof(float));
            vr->planned &= kb->host != NULL;
            vr->floats += kb->count;
        }
        if (!vr->planned) { /* more than this process can hold: the child, under tighter limits,
                               says so in the kitchen's own words, and the run is not passed */
            for (int b = 0; b < vr->plan.nbuffers; b++) {
                free(vr->plan.buffers[b].host);
                vr->plan.buffers[b].host = NULL;
            }
            vr->floats = 0;
            continue;
        }
        rc->fill(&vr->plan);
        total += vr->floats;
    }
    v->floats = total;
    size_t bytes = VERIFIER_HEADER_BYTES + (total ? total : 1) * sizeof(float);
    v->fd = memfd_create("cudachef-check", MFD_CLOEXEC);
    if (v->fd < 0 || ftruncate(v->fd, (off_t)bytes) != 0) {
        int e = errno;
        verifier_free(v);
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, "cannot make the check's shared memory: %s", strerror(e));
    }
    void *map = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, v->fd, 0);
    if (map == MAP_FAILED) {
        int e = errno;
        verifier_free(v);
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, "cannot map the check's shared memory: %s", strerror(e));
    }
    v->base = map;
    v->region = (float *)(v->base + VERIFIER_HEADER_BYTES);
    for (int i = 0; i < v->nruns; i++) {
        verifier_run *vr = &v->runs[i];
        float *at = v->region + vr->offset;
        for (int b = 0; vr->planned && b < vr->plan.nbuffers; b++) {
            kitchen_buffer *kb = &vr->plan.buffers[b];
            if (kb->is_output)
                memset(at, 0xFF, kb->count * sizeof(float)); /* NaN: what no cook wrote */
            else
                memcpy(at, kb->host, kb->count * sizeof(float));
            at += kb->count;
        }
    }
    return 0;
}

/* Tastes run i's output in the shared memory against this process's own reference. */
void verifier_taste(verifier *v, const exercise *ex, int i, exercise_run *run)
{
    verifier_run *vr = &v->runs[i];
    memset(&run->taste, 0, sizeof run->taste);
    const recipe *rc = recipe_find(ex->recipe);
    if (!vr->planned || !rc)
        return;
    const kitchen_buffer *out = &vr->plan.buffers[vr->plan.nbuffers - 1];
    kitchen_params p;
    verifier_params(ex, run, vr->plan.seed, &p);
    /* a run of the same size before it (another cook order) has the same answer: computed once */
    for (int j = 0; j < i && !vr->expected; j++)
        if (v->runs[j].expected && v->runs[j].plan.n == vr->plan.n && v->runs[j].floats == vr->floats)
            vr->expected = v->runs[j].expected;
    if (!vr->expected) {
        vr->expected = calloc(out->count ? out->count : 1, sizeof(float));
        if (!vr->expected)
            return; /* not tasted: not passed */
        vr->owns_expected = 1;
        (kitchen_use_blas(rc, &p, &vr->plan) ? rc->reference_fast : rc->reference)(&vr->plan, vr->expected);
    }
    double rtol, atol;
    kitchen_tolerance(rc, &p, vr->plan.n, &rtol, &atol);
    const float *got = v->region + vr->offset + (vr->floats - out->count);
    verify_compare(got, vr->expected, out->count, rtol, atol, &run->taste);
}

/* Writes the header's text. */
int verifier_header_set(verifier *v, const char *text)
{
    size_t n = strlen(text);
    if (!v->base || n >= VERIFIER_HEADER_BYTES)
        return -1;
    memcpy(v->base, text, n + 1);
    return 0;
}

/* Frees the private copies and the shared memory. */
void verifier_free(verifier *v)
{
    for (int i = 0; i < v->nruns; i++) {
        for (int b = 0; b < v->runs[i].plan.nbuffers; b++) {
            free(v->runs[i].plan.buffers[b].host);
            v->runs[i].plan.buffers[b].host = NULL;
        }
        if (v->runs[i].owns_expected)
            free(v->runs[i].expected);
    }
    if (v->base)
        munmap(v->base, VERIFIER_HEADER_BYTES + (v->floats ? v->floats : 1) * sizeof(float));
    if (v->fd >= 0)
        close(v->fd);
    memset(v, 0, sizeof *v);
    v->fd = -1;
}
