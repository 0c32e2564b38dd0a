/*
 * exercise_diagnose.c - says what went wrong with a learner's kernel, beyond "mismatch at index
 * i": common mistakes are told by the pattern of the errors across the runs.
 *
 *   - it did not compile: the compiler's first error line, and its words kept in full;
 *   - it never finished: an endless loop, or a barrier some cooks never reach;
 *   - it wrote or read out of bounds: which cook, which index (the emulator's checked launch);
 *   - every result still unwritten: no cook wrote, or the write is behind a test never true;
 *   - only the first team's elements right: the index forgot the team (blockIdx.x * blockDim.x);
 *   - every k-th element right: the index formula mixes up the steps;
 *   - only the last team's elements wrong: the bounds test is off;
 *   - right in the natural order, wrong with the cooks shuffled: a race or a missing barrier;
 *   - right results but more than 2 segments per warp (a coalescing exercise): the mapping.
 * The summary is one line; the explanation says what it probably means and what to try.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine/host_runtime.h"
#include "engine/recipes.h"
#include "grading/exercise_check.h"

/* The first line of the compiler's words that says "error", or the first line. */
static void diagnose_first_error(const char *log, char *out, size_t size)
{
    const char *line = log ? strstr(log, "error") : NULL;
    if (line)
        while (line > log && line[-1] != '\n')
            line--;
    else
        line = log ? log : "";
    const char *end = strchr(line, '\n');
    snprintf(out, size, "%.*s", (int)(end ? end - line : (long)strlen(line)), line);
}

/* The run to explain: the first that crashed; else, of the wrong ones, the largest in the natural
   order (its errors show the pattern best), else any wrong one; NULL when none went wrong. */
static const exercise_run *diagnose_first_bad(const exercise_result *res)
{
    const exercise_run *best = NULL;
    for (int i = 0; i < res->nruns; i++) {
        const exercise_run *r = &res->runs[i];
        if (r->code != CHEF_EXIT_OK && r->code != CHEF_EXIT_WRONG)
            return r;
        if (r->code == CHEF_EXIT_WRONG &&
            (!best || (best->shuffle && !r->shuffle) || (!r->shuffle == !best->shuffle && r->n > best->n)))
            best = r;
    }
    return best;
}

/* 1 when the same size came out differently in two cook orders (passed in one and failed in
   another, or with a different number of right elements): a race or a missing barrier. */
static int diagnose_order_matters(const exercise_result *res)
{
    for (int i = 0; i < res->nruns; i++)
        for (int j = i + 1; j < res->nruns; j++) {
            const exercise_run *a = &res->runs[i], *b = &res->runs[j];
            if (a->n != b->n || a->shuffle == b->shuffle || a->code > CHEF_EXIT_WRONG || b->code > CHEF_EXIT_WRONG)
                continue;
            if (a->code != b->code || a->taste.correct != b->taste.correct)
                return 1;
            /* both wrong in the same places, but with other values: the order decided them */
            if (a->taste.nmismatches > 0 && b->taste.nmismatches > 0) {
                float x = a->taste.mismatches[0].got, y = b->taste.mismatches[0].got;
                if (a->taste.mismatches[0].index != b->taste.mismatches[0].index ||
                    (!isnan(x) && !isnan(y) && fabsf(x - y) > 1e-3f * fmaxf(fabsf(x), fabsf(y))))
                    return 1;
            }
        }
    return 0;
}

/* 1 when the exercise's output is an n x n matrix cooked by a 2D grid (the multiplies, the transposes). */
static int diagnose_matrix(const exercise *ex)
{
    return strncmp(ex->recipe, "matmul", 6) == 0 || strncmp(ex->recipe, "transpose", 9) == 0;
}

/* The explanation of a wrong run, from the shape of its errors (matrix says the output is an n x n
   matrix, cooked by a 2D grid); *code gets its stable diagnosis code (docs/EXERCISES.md). */
static void diagnose_wrong(const exercise_result *res, const exercise_run *r, int matrix, char *out, size_t size,
                           const char **code)
{
    const verify_result *v = &r->taste;
    size_t n = v->checked, team = r->threads_per_block > 0 ? (size_t)r->threads_per_block : 1;
    size_t last_team_start = r->teams > 0 ? (size_t)(r->teams - 1) * team : 0;
    size_t cooks = (size_t)r->teams * team;
    if (diagnose_order_matters(res))
        *code = "race", snprintf(out, size, "%s",
                 _("The results change with the order in which the cooks run. Cooks are reading what other "
                   "cooks have not written yet, or writing over what others still read or write (a race). Within "
                   "a team, put __syncthreads() between writing the shared locker and reading it, and again before "
                   "it is written over; between teams no barrier helps: where several teams add into one place, "
                   "add with atomicAdd."));
    else if (n == 1 && v->nmismatches == 1 && !isnan(v->mismatches[0].got))
        *code = "sum-wrong", snprintf(out, size, _("The one result is %g where %g was expected. Every team adds its part into it: are "
                              "all the elements added once each (the tree's steps, the barrier between them, one "
                              "atomicAdd per team)?"),
                 (double)v->mismatches[0].got, (double)v->mismatches[0].expected);
    else if (n == 1 && v->nmismatches == 1)
        *code = "read-unfilled", snprintf(out, size, "%s",
                 _("The one result is not a number (NaN): a value no cook had written went into it. Every slot of "
                   "the shared locker is NaN until a cook fills it: is a slot read before its cook filled it (a "
                   "__syncthreads() missing after the fill), or one past those filled?"));
    else if (v->never_written == n)
        *code = "no-write", snprintf(out, size, "%s",
                 _("No result came out as a number: every element is still as the kitchen left it, with no value. "
                   "Is the write to the output missing, behind a test that is never true, or does the kernel add "
                   "into the output (+=) instead of writing its own sum?"));
    else if (v->zeros + v->correct == n && v->zeros > 0 && v->correct == 0)
        *code = "zeros", snprintf(out, size, "%s",
                 _("Every result is 0: nothing computed reached the output. Is the result written (or added) to "
                   "the output at all, behind a test that is true, and was what is added ever set (a loop that adds, "
                   "a locker slot that is filled)?"));
    else if (matrix && v->stride == (size_t)r->n + 1 && r->n > 1)
        *code = "swapped-axes", snprintf(out, size, "%s",
                 _("Only the diagonal is right: rows and columns are swapped somewhere. The element of row row and "
                   "column col is C[row * n + col]; check which of threadIdx.x and threadIdx.y picks each."));
    else if (matrix && v->never_written + v->correct == n && v->correct < n / 4)
        *code = "shared-index", snprintf(out, size, _("Only %zu of the %zu elements were written at all: the cooks share a handful of "
                              "places. Each cook needs its own row and column, from its team and its place in the "
                              "team in both directions: blockIdx.y * blockDim.y + threadIdx.y and "
                              "blockIdx.x * blockDim.x + threadIdx.x."),
                 v->correct, n);
    else if (v->never_written + v->correct == n && v->correct < team && n > team)
        *code = "shared-index", snprintf(out, size, _("Only %zu of the %zu elements were written at all: the cooks share a handful of "
                              "indices. Each cook needs its own: blockIdx.x * blockDim.x + threadIdx.x."),
                 v->correct, n);
    else if (v->correct_prefix == team && n > team && v->correct < 2 * team)
        *code = "missing-team", snprintf(out, size, _("Only the first team's %zu elements are right: every team cooked the same elements. "
                              "The index must include the team's start: blockIdx.x * blockDim.x + threadIdx.x."),
                 team);
    else if (v->right_run == team && cooks > team && v->right_period == cooks)
        *code = "missing-team", snprintf(out, size, _("Only the first %zu elements of every %zu are right: every team "
                              "walked the same elements, those of the first team. Each cook's start must include "
                              "its team's: blockIdx.x * blockDim.x + threadIdx.x."),
                 team, cooks);
    else if (v->stride > 1 && v->never_written > 0) /* the others written elsewhere, not wrongly */
        *code = "stride", snprintf(out, size, _("Only one element in every %zu is right (0, %zu, %zu, ...): the index formula puts "
                              "the cooks' elements %zu apart. Check what multiplies what in the index."),
                 v->stride, v->stride, 2 * v->stride, v->stride);
    else if (cooks > 0 && v->first_wrong == cooks && v->correct == cooks && n > cooks)
        *code = "grid-too-small", snprintf(out, size, _("Elements from %zu on have no cook: the grid has %zu cooks for %zu elements. Each cook "
                              "must go on to the next element a whole grid further: i += gridDim.x * blockDim.x."),
                 cooks, cooks, n);
    else if (v->first_wrong >= last_team_start && v->first_wrong < cooks && r->teams > 1)
        *code = "bounds-test", snprintf(out, size, _("Only the last team's elements are wrong (from element %zu on). Check the bounds "
                              "test: a cook may cook exactly when its element i is below n."),
                 v->first_wrong);
    else if (v->nmismatches > 0 && isnan(v->mismatches[0].got))
        *code = "unwritten", snprintf(out, size, _("%zu of %zu elements are wrong; %zu were never written, the first at index %zu: no "
                              "cook's index reached it. Which cook should cook it, and what index did that cook "
                              "compute?"),
                 n - v->correct, n, v->never_written, v->mismatches[0].index);
    else if (v->nmismatches > 0)
        *code = "wrong-values", snprintf(out, size, _("%zu of %zu elements are wrong, the first at index %zu (expected %g, got %g). "
                              "Which cook should cook that element, and what did it compute?"),
                 n - v->correct, n, v->mismatches[0].index, (double)v->mismatches[0].expected,
                 (double)v->mismatches[0].got);
    else
        *code = "wrong", snprintf(out, size, "%s", _("Some results are wrong."));
}

/* The stable diagnosis codes, in the order docs/EXERCISES.md lists them (NULL-terminated). */
static const char *const diagnosis_codes[] = {
    "build-error", "signature", "timeout", "environment", "crash", "out-of-bounds", "divergent-barrier", "lanes-missing", "wmma-layout", "flood",
    "uncoalesced", "bank-conflicts", "race", "copy-direction", "false-alarm", "error-ignored", "unchecked-launch", "leak",
    "missing-step", "missing-sync", "elapsed-not-ready", "not-event-time", "copies-timed", "span-launches", "no-warm-up",
    "extra-trip", "kitchen-skipped", "library-refused", "operand-order", "no-library", "handle-leak",
    "pageable-copy", "one-stream", "not-managed", "page-faults", "over-limit",
    "sum-wrong", "read-unfilled", "no-write", "zeros", "swapped-axes", "shared-index", "missing-team",
    "stride", "grid-too-small", "bounds-test", "unwritten", "wrong-values", "wrong", NULL};

/* 1 when code is one of the diagnosis codes. */
int exercise_diagnosis_known(const char *code)
{
    for (int i = 0; diagnosis_codes[i]; i++)
        if (strcmp(code, diagnosis_codes[i]) == 0)
            return 1;
    return 0;
}

/* Records the result's diagnosis code. */
static void diagnosis_set(exercise_result *res, const char *code)
{
    snprintf(res->diagnosis, sizeof res->diagnosis, "%s", code);
}

/* The fault a host run planned, for people: "cudaMalloc number 2", "the launch". */
static void diagnose_fault(const exercise_run *r, char *out, size_t size)
{
    if (r->fault_op == 1)
        snprintf(out, size, _("cudaMalloc number %d"), r->fault_call);
    else if (r->fault_op == 2)
        snprintf(out, size, _("cudaMemcpy number %d"), r->fault_call);
    else
        snprintf(out, size, "%s", _("the launch"));
}

/* --- the rules of check = timed and check = one-trip (lessons 7 and 8) --- */

/* An elapsed time read before the kitchen reached its events, in any plain run: 1 when said. */
static int diagnose_not_ready(const exercise *ex, exercise_result *res)
{
    for (int i = 0; ex->timed && i < res->nruns; i++) {
        const exercise_run *r = &res->runs[i];
        if (!r->host || r->fault_op || r->not_ready == 0)
            continue;
        diagnosis_set(res, "elapsed-not-ready");
        snprintf(res->summary, sizeof res->summary,
                 _("with n = %lld, cudaEventElapsedTime answered cudaErrorNotReady %d time(s): the kitchen had not "
                   "reached the stop event yet"),
                 (long long)r->n, r->not_ready);
        snprintf(res->explanation, sizeof res->explanation, "%s",
                 _("A launch returns before the cooks finish, and an event is only a mark in the queue. Before "
                   "reading the time, wait until the kitchen reaches the stop mark: cudaEventSynchronize(stop). "
                   "Without it a GPU answers cudaErrorNotReady and leaves the time unwritten."));
        return 1;
    }
    return 0;
}

/* What broke a timing or shipping rule in run r (right values, returned 0), or NULL; *why gets the
   explanation. */
static const char *diagnose_rule(const exercise *ex, const exercise_run *r, int64_t in, int64_t out,
                                 const char **why)
{
    if (ex->timed && r->span < 0)
        return *why = _("The time given back is none that cudaEventElapsedTime measured. Time the kitchen with its "
                        "own marks: cudaEventRecord(start) just before the launch, cudaEventRecord(stop) just after, "
                        "cudaEventSynchronize(stop), then cudaEventElapsedTime(ms, start, stop). A clock on the head "
                        "chef's side around an asynchronous launch times the handing over of the order."),
               "not-event-time";
    if (ex->timed && r->span_copies > 0)
        return *why = _("The span between the two events holds shipments (cudaMemcpy) besides the cooking: the time "
                        "mixes the road with the kitchen. Record start after the inputs are shipped in, and stop "
                        "right after the launch, before the result is shipped back."),
               "copies-timed";
    if (ex->timed && r->span_launches != 1)
        return *why = _("The span between the two events must hold exactly one launch, the timed one: none means the "
                        "marks are both before or both after it; two or more means the warm-up (or another launch) "
                        "is on the clock too."),
               "span-launches";
    if (ex->timed && !r->span_warm)
        return *why = _("The timed launch is the kernel's first, which pays for loading the kernel and waking the "
                        "GPU. Launch it once before start is recorded (a warm-up, checked like any launch) and time "
                        "the second."),
               "no-warm-up";
    if (ex->one_trip && (r->bytes_in > in || r->bytes_out > out))
        return *why = _("More was shipped than the dish needs: each input once into the kitchen, the result once "
                        "back. Between the steps the data stays in the kitchen's pantry (the d_ buffers): no "
                        "shipment back to the head chef and out again, no input shipped twice, and the output needs "
                        "no shipment in."),
               "extra-trip";
    if (ex->library && r->library_calls < 1)
        return *why = _("The product did not come from the recipe book: cublasSgemm was never called. Lesson 9's "
                        "dish is the library's: create a handle, call cublasSgemm on the kitchen's buffers, destroy "
                        "the handle."),
               "no-library";
    if (ex->library && r->handles_left > 0)
        return *why = _("The cuBLAS handle was never given back. cublasCreate takes resources on the GPU: every "
                        "cublasCreate needs its cublasDestroy, on every way out of the function."),
               "handle-leak";
    if (r->launches < ex->min_launches || (ex->one_trip && (r->launches < 1 || r->bytes_in < in || r->bytes_out < out)))
        return *why = _("The dish was not cooked in the kitchen: fewer launches went out than the dish has steps "
                        "(the others done by the head chef?), or the inputs or the result never travelled. Ship the "
                        "inputs in, launch the kernel for every step, ship the result back."),
               "kitchen-skipped";
    return NULL;
}

/* A cublasSgemm refused in any plain run, or (wrong values) a product that began with the recipe's
   first input untransposed, as row-major thinking suggests: 1 when said. */
static int diagnose_library(const exercise *ex, exercise_result *res)
{
    for (int i = 0; ex->library && i < res->nruns; i++) {
        const exercise_run *r = &res->runs[i];
        if (!r->host || r->fault_op)
            continue;
        if (r->library_refused > 0) {
            diagnosis_set(res, "library-refused");
            const char *name = host_cublas_status_name(r->library_status);
            snprintf(res->summary, sizeof res->summary, _("with n = %lld, cublasSgemm answered status %d (%s)"),
                     (long long)r->n, r->library_status, name ? name : "?");
            snprintf(res->explanation, sizeof res->explanation, "%s",
                     _("cuBLAS refused the call before cooking anything. CUBLAS_STATUS_INVALID_VALUE: a leading "
                       "dimension (lda, ldb, ldc) smaller than the rows of the matrix as it is stored (n here), a "
                       "negative size, or no alpha or beta; CUBLAS_STATUS_NOT_INITIALIZED: a handle cublasCreate "
                       "did not make. Compare every status with CUBLAS_STATUS_SUCCESS."));
            return 1;
        }
        if (r->operand_first && r->code == CHEF_EXIT_WRONG && r->taste.correct < r->taste.checked) {
            diagnosis_set(res, "operand-order");
            snprintf(res->summary, sizeof res->summary,
                     _("with n = %lld: cublasSgemm was given A first, and computed B x A"), (long long)r->n);
            snprintf(res->explanation, sizeof res->explanation, "%s",
                     _("cuBLAS reads a matrix column by column; read that way, our row-major A is its transpose. "
                       "cuBLAS then computes A^T B^T = (B A)^T, which read row by row is B x A. Pass B first, then "
                       "A: it computes B^T A^T = (A B)^T, which read row by row is exactly A x B."));
            return 1;
        }
    }
    return 0;
}

/* The first plain run with right values that broke a timing or shipping rule: 1 when said. */
static int diagnose_rules(const exercise *ex, exercise_result *res)
{
    for (int i = 0; (ex->timed || ex->one_trip || ex->min_launches || ex->library) && i < res->nruns; i++) {
        const exercise_run *r = &res->runs[i];
        int64_t in = 0, out = 0;
        const char *why = NULL, *code;
        if (!r->host || r->fault_op || r->returned != 0 || r->taste.checked == 0 ||
            r->taste.correct != r->taste.checked || (!ex->timed && exercise_host_bytes(ex, r, &in, &out) != 0) ||
            !(code = diagnose_rule(ex, r, in, out, &why)))
            continue;
        diagnosis_set(res, code);
        if (ex->library && r->library_calls < 1)
            snprintf(res->summary, sizeof res->summary,
                     _("with n = %lld the results are right, but no cublasSgemm made them"), (long long)r->n);
        else if (ex->library)
            snprintf(res->summary, sizeof res->summary,
                     _("with n = %lld the results are right, but %d cuBLAS handle(s) were never destroyed"),
                     (long long)r->n, r->handles_left);
        else if (!ex->timed)
            snprintf(res->summary, sizeof res->summary,
                     _("with n = %lld: %lld bytes shipped in and %lld out, %d launch(es); the dish needs %lld in "
                       "and %lld out"),
                     (long long)r->n, (long long)r->bytes_in, (long long)r->bytes_out, r->launches, (long long)in,
                     (long long)out);
        else if (!isfinite(r->outs[0]))
            snprintf(res->summary, sizeof res->summary,
                     _("with n = %lld the results are right, but no time was written into *ms"), (long long)r->n);
        else
            snprintf(res->summary, sizeof res->summary,
                     _("with n = %lld the results are right, but the time given back (%g ms) was not measured "
                       "fairly"),
                     (long long)r->n, (double)r->outs[0]);
        snprintf(res->explanation, sizeof res->explanation, "%s", why);
        return 1;
    }
    return 0;
}

/* ---- streams and managed memory (exercise.ini's check = streams, check = managed) ---- */

/* The diagnosis code of what a host run did not practise, or NULL. 'streams': no cudaMemcpyAsync
   from pageable memory, and with the largest size launches and queued copies in 2 or more streams
   of cudaStreamCreate's, none on the default stream; 'managed': the launches' buffers all managed,
   and no page faults (each prefetched to the device before the launch). */
const char *exercise_practice_miss(const exercise *ex, const exercise_run *r)
{
    if (!r->host || (r->fault_op && r->injected))
        return NULL;
    int64_t largest = 0;
    for (int i = 0; i < ex->nsizes; i++)
        largest = ex->sizes[i] > largest ? ex->sizes[i] : largest;
    if (ex->streams && r->pageable_copies > 0)
        return "pageable-copy";
    if (ex->streams && r->n == largest && (r->launch_streams < 2 || r->copy_streams < 2 || r->default_launches > 0))
        return "one-stream";
    if (ex->managed && (r->managed_args == 0 || r->unmanaged_args > 0))
        return "not-managed";
    if (ex->managed && r->page_faults > 0)
        return "page-faults";
    return NULL;
}

/* The first limit the run's counters break, or -1 (a plain run in the natural order, counted). */
int exercise_limit_miss(const exercise *ex, const exercise_run *r, double *per_work)
{
    const recipe *rc = ex->nlimits ? recipe_find(ex->recipe) : NULL;
    if (!rc || !rc->work || !r->counted || r->shuffle || r->host || r->code != CHEF_EXIT_OK)
        return -1;
    double work = rc->work(r->n);
    for (int i = 0; i < ex->nlimits && work > 0; i++) {
        double per = r->counter[ex->limit_counter[i]] / work;
        if (per > ex->limit_max[i]) {
            if (per_work)
                *per_work = per;
            return i;
        }
    }
    return -1;
}

/* Explains a run with right values that missed what the lesson practises (exercise_practice_miss). */
static void diagnose_practice(exercise_result *res, const exercise_run *r, const char *code)
{
    diagnosis_set(res, code);
    if (strcmp(code, "pageable-copy") == 0) {
        snprintf(res->summary, sizeof res->summary,
                 _("with n = %lld, %d cudaMemcpyAsync call(s) copied from or into pageable memory, so they could not "
                   "overlap anything"),
                 (long long)r->n, r->pageable_copies);
        snprintf(res->explanation, sizeof res->explanation, "%s",
                 _("The copy engines read and write only pinned memory by themselves. From pageable memory (the "
                   "head chef's own buffers, malloc) CUDA first copies through a staging area of its own, and "
                   "cudaMemcpyAsync returns only when that is done. Ship from buffers of cudaMallocHost: copy the "
                   "input into them, and the results out of them after waiting."));
    } else if (strcmp(code, "one-stream") == 0) {
        if (r->default_launches > 0)
            snprintf(res->summary, sizeof res->summary,
                     _("with n = %lld, %d launch(es) went to the default stream, which waits for every other "
                       "stream"),
                     (long long)r->n, r->default_launches);
        else
            snprintf(res->summary, sizeof res->summary,
                     _("with n = %lld the work went to %d stream(s) with launches and %d with copies: nothing can "
                       "overlap"),
                     (long long)r->n, r->launch_streams, r->copy_streams);
        snprintf(res->explanation, sizeof res->explanation, "%s",
                 _("Within one stream every order waits for the one before it. Cut the work into chunks and give "
                   "each chunk its own stream from cudaStreamCreate: its copy in, its launch (the fourth value of "
                   "<<<teams, cooks, 0, stream>>>) and its copy back all on that stream. The default stream (0) "
                   "waits for all the others, so keep the launches off it."));
    } else if (strcmp(code, "not-managed") == 0) {
        snprintf(res->summary, sizeof res->summary,
                 _("with n = %lld the kernel was given %d pointer(s) to memory that is not managed, and %d to managed "
                   "memory"),
                 (long long)r->n, r->unmanaged_args, r->managed_args);
        snprintf(res->explanation, sizeof res->explanation, "%s",
                 _("This exercise practises one pointer for both pantries: every array the kernel uses comes from "
                   "cudaMallocManaged, the head chef fills and reads it directly, and there is no cudaMalloc and no "
                   "cudaMemcpy."));
    } else {
        snprintf(res->summary, sizeof res->summary,
                 _("with n = %lld the launch met %ld page fault(s): pages of managed memory were not on the device "
                   "(%ld of them sent to the head chef by a prefetch)"),
                 (long long)r->n, r->page_faults, r->page_faults_host);
        snprintf(res->explanation, sizeof res->explanation, "%s",
                 _("A page the cooks touch away from the kitchen is fetched while they wait, one small trip at a "
                   "time. Before the launch, prefetch every array the kernel uses, all its bytes, to the device: "
                   "cudaMemPrefetchAsync(ptr, bytes, location, 0, stream) with a location of type "
                   "cudaMemLocationTypeDevice and the id cudaGetDevice gives."));
    }
}

/* A host exercise that ran and went wrong: the head chef's mistakes first (a copy the wrong way,
   an error said where none happened), then wrong values in the plain runs (as a kernel's), then
   what the fault runs showed (a failed call not noticed, a refused launch not noticed, memory not
   given back). 1 when it set the
   diagnosis, 0 to leave it to the kernel's patterns. */
static int diagnose_host(const exercise *ex, exercise_result *res, const exercise_run **plain_bad)
{
    const exercise_run *copy = NULL, *alarm = NULL, *ignored = NULL, *launch = NULL, *leak = NULL, *stale = NULL,
                       *practice = NULL, *skipped = NULL;
    const char *practice_code = NULL;
    *plain_bad = NULL;
    for (int i = 0; i < res->nruns; i++) {
        const exercise_run *r = &res->runs[i];
        if (!r->host)
            continue;
        if (r->wrong_copies > 0 && !copy)
            copy = r;
        int faulted = r->fault_op && r->injected;
        if (r->fault_op && !r->injected && !skipped)
            skipped = r;
        if (!faulted && !r->fault_op && r->returned != 0 && !alarm)
            alarm = r;
        if (faulted && r->returned == 0 && r->fault_op == 3 && !launch)
            launch = r;
        if (faulted && r->returned == 0 && r->fault_op != 3 && !ignored)
            ignored = r;
        if (r->leaked > 0 && !leak)
            leak = r;
        int values_wrong = r->taste.correct < r->taste.checked;
        if (!r->fault_op && r->code == CHEF_EXIT_WRONG && r->returned == 0 && !r->taste.passed && values_wrong &&
            r->taste.checked > 0 && (!*plain_bad || r->n > (*plain_bad)->n))
            *plain_bad = r;
        if (!faulted && values_wrong && r->taste.checked > 0 && r->unwaited > 0 && !stale)
            stale = r;
        const char *miss = values_wrong ? NULL : exercise_practice_miss(ex, r);
        if (miss && !practice)
            practice = r, practice_code = miss;
    }
    char what[80];
    if (copy) {
        diagnosis_set(res, "copy-direction");
        snprintf(res->summary, sizeof res->summary, "%s", copy->message);
        snprintf(res->explanation, sizeof res->explanation, "%s",
                 _("cudaMemcpy(destination, source, bytes, kind): the destination comes first, and the kind names "
                   "the way the food travels. Into the kitchen's pantry (d_ buffers) is cudaMemcpyHostToDevice; back "
                   "to the head chef's pantry is cudaMemcpyDeviceToHost."));
        return 1;
    }
    if (diagnose_not_ready(ex, res) || diagnose_library(ex, res))
        return 1;
    if (alarm) {
        diagnosis_set(res, "false-alarm");
        snprintf(res->summary, sizeof res->summary, _("with n = %lld no call failed, but the function returned %d"),
                 (long long)alarm->n, alarm->returned);
        snprintf(res->explanation, sizeof res->explanation, "%s",
                 _("Return 0 when every step went well, and something else only when a call did not return "
                   "cudaSuccess. Is a test the wrong way round (== where != is meant)?"));
        return 1;
    }
    if (diagnose_rules(ex, res))
        return 1;
    if (stale) {
        diagnosis_set(res, "missing-sync");
        snprintf(res->summary, sizeof res->summary,
                 _("with n = %lld the results were read before the work was waited for: %d queued operation(s) ran "
                   "only at a cudaFree or never"),
                 (long long)stale->n, stale->unwaited);
        snprintf(res->explanation, sizeof res->explanation, "%s",
                 _("A launch, a cudaMemcpyAsync and a cudaMemPrefetchAsync only put an order in a stream's queue "
                   "and return at once. Before the head chef reads what they make, wait for them: "
                   "cudaStreamSynchronize for each stream used, or cudaDeviceSynchronize."));
        return 1;
    }
    if (*plain_bad)
        return 0;
    if (skipped) {
        diagnose_fault(skipped, what, sizeof what);
        diagnosis_set(res, "missing-step");
        snprintf(res->summary, sizeof res->summary,
                 _("a run planned %s to fail, but the function never made that call"), what);
        snprintf(res->explanation, sizeof res->explanation, "%s",
                 _("The head chef's function does the five steps with the kitchen: a cudaMalloc for each buffer, "
                   "a cudaMemcpy for each input in and for the output back, and the kernel's launch. Results the "
                   "head chef works out alone, or with a step left out, do not count."));
        return 1;
    }
    if (practice) {
        diagnose_practice(res, practice, practice_code);
        return 1;
    }
    if (ignored) {
        diagnose_fault(ignored, what, sizeof what);
        diagnosis_set(res, "error-ignored");
        snprintf(res->summary, sizeof res->summary, _("%s failed, but the function returned 0 as if all went well"),
                 what);
        snprintf(res->explanation, sizeof res->explanation, "%s",
                 _("Every runtime call returns a cudaError_t: compare it with cudaSuccess, and when a call failed, "
                   "free what you allocated so far and return nonzero. The head chef must not serve a dish the "
                   "kitchen never cooked."));
        return 1;
    }
    if (launch) {
        diagnosis_set(res, "unchecked-launch");
        snprintf(res->summary, sizeof res->summary, "%s",
                 _("the launch failed, but the function returned 0 as if the kernel had cooked"));
        snprintf(res->explanation, sizeof res->explanation, "%s",
                 _("A launch returns nothing: kernel<<<...>>>(...) failing is only seen by asking. Right after it, "
                   "check cudaGetLastError() (the launch itself) and cudaDeviceSynchronize() (the kernel's run), "
                   "and on an error free what you hold and return nonzero."));
        return 1;
    }
    if (leak) {
        diagnosis_set(res, "leak");
        if (leak->fault_op && leak->injected) {
            diagnose_fault(leak, what, sizeof what);
            snprintf(res->summary, sizeof res->summary,
                     _("when %s failed, %d device allocation(s) were never freed"), what, leak->leaked);
        } else {
            snprintf(res->summary, sizeof res->summary, _("with n = %lld, %d device allocation(s) were never freed"),
                     (long long)leak->n, leak->leaked);
        }
        snprintf(res->explanation, sizeof res->explanation, "%s",
                 _("Every cudaMalloc needs its cudaFree on every way out of the function, the early returns after "
                   "an error too. One cleanup at the end that frees every buffer (cudaFree of a null pointer does "
                   "nothing), reached by every path, keeps the pantry clean."));
        return 1;
    }
    for (int i = 0; i < res->nruns; i++) /* a cuBLAS handle kept on a way out after an error */
        if (res->runs[i].host && res->runs[i].fault_op && res->runs[i].injected && res->runs[i].handles_left > 0) {
            diagnosis_set(res, "handle-leak");
            diagnose_fault(&res->runs[i], what, sizeof what);
            snprintf(res->summary, sizeof res->summary, _("when %s failed, a cuBLAS handle was never destroyed"),
                     what);
            snprintf(res->explanation, sizeof res->explanation, "%s",
                     _("Every cublasCreate needs its cublasDestroy on every way out of the function, the early "
                       "returns after an error too: destroy the handle in the one cleanup every path reaches."));
            return 1;
        }
    return 0;
}

/* Fills the summary and the explanation. */
void exercise_diagnose(const exercise *ex, exercise_result *res)
{
    char first[400];
    const exercise_run *bad = diagnose_first_bad(res);
    switch (res->status) {
    case EXERCISE_PASSED:
        snprintf(res->summary, sizeof res->summary, _("passed: %d runs, every element right"), res->nruns);
        res->explanation[0] = '\0';
        diagnosis_set(res, "");
        return;
    case EXERCISE_BUILD:
        diagnosis_set(res, "build-error");
        diagnose_first_error(res->build_log, first, sizeof first);
        snprintf(res->summary, sizeof res->summary, _("it does not compile: %s"), first);
        /* the glue's call disagrees with the kernel: the first error is in the kit's table, not in
           the learner's file (every log names exercise.def, which includes that file) */
        if (res->signature[0] &&
            (strstr(first, "emu_table.c") || strstr(first, "gpu_table.cu") || strstr(first, "exercise.def")))
            diagnosis_set(res, "signature"), snprintf(res->explanation, sizeof res->explanation,
                     _("The exercise calls your kernel as __global__ void %s: keep exactly those parameters. The "
                       "compiler's words are below."),
                     res->signature);
        else
            snprintf(res->explanation, sizeof res->explanation, "%s",
                     _("The compiler's words are below, as it wrote them. The first error is usually the one to "
                       "fix; the ones after it often follow from it."));
        return;
    case EXERCISE_TIMEOUT:
        diagnosis_set(res, "timeout");
        snprintf(res->summary, sizeof res->summary, _("it did not finish within %.0f s"),
                 res->timeout_s > 0 ? res->timeout_s : ex->timeout_s);
        snprintf(res->explanation, sizeof res->explanation, "%s",
                 _("A loop whose end is never reached (a counter that does not move towards it), or a "
                   "__syncthreads() that some cooks of a team never reach, keeps the kitchen busy forever."));
        return;
    case EXERCISE_ENVIRONMENT:
        diagnosis_set(res, "environment");
        if (!res->summary[0] && bad)
            snprintf(res->summary, sizeof res->summary, "%s", bad->message);
        return;
    case EXERCISE_CRASH:
        diagnosis_set(res, "crash");
        if (bad && bad->cause == CHEF_CAUSE_OUT_OF_BOUNDS) {
            diagnosis_set(res, "out-of-bounds");
            snprintf(res->summary, sizeof res->summary, "%s", bad->message);
            if (diagnose_matrix(ex))
                snprintf(res->explanation, sizeof res->explanation,
                         _("With n = %lld a cook touched memory outside the matrices. A cook whose row or column "
                           "is past the edge must do nothing: test row < n && col < n, and check that every index "
                           "stays below n * n."),
                         (long long)bad->n);
            else
                snprintf(res->explanation, sizeof res->explanation,
                         _("With n = %lld a cook touched memory outside the arrays. A cook whose element is past "
                           "the end must do nothing (test i < n before touching a[i]), and every index it reads "
                           "must be below n too."),
                         (long long)bad->n);
        } else if (bad && bad->cause == CHEF_CAUSE_BARRIER) {
            diagnosis_set(res, "divergent-barrier");
            snprintf(res->summary, sizeof res->summary, "%s", bad->message);
            snprintf(res->explanation, sizeof res->explanation, "%s",
                     _("Every cook of a team must reach the same __syncthreads(): do not put it inside an if that "
                       "only some cooks take."));
        } else if (bad && bad->cause == CHEF_CAUSE_WARP && strstr(bad->message, "wmma::") &&
                   (strstr(bad->message, "ldm") || strstr(bad->message, "aligned"))) {
            diagnosis_set(res, "wmma-layout");
            snprintf(res->summary, sizeof res->summary, "%s", bad->message);
            snprintf(res->explanation, sizeof res->explanation, "%s",
                     _("A WMMA load or store must point at a 32-byte boundary, and its ldm (in elements) must be "
                       "a multiple of 16 bytes: 8 halves or 4 floats. Pad the locker's rows to such a length, and "
                       "start each tile at a row and column that keep the boundary."));
        } else if (bad && bad->cause == CHEF_CAUSE_WARP) {
            diagnosis_set(res, "lanes-missing");
            snprintf(res->summary, sizeof res->summary, "%s", bad->message);
            snprintf(res->explanation, sizeof res->explanation, "%s",
                     _("Every lane named in a warp call's mask (__shfl_*_sync, __ballot_sync, __syncwarp) must reach "
                       "that same call: do not put it inside an if that only some lanes take, and do not let lanes "
                       "return before it."));
        } else if (res->flooded) {
            diagnosis_set(res, "flood");
            snprintf(res->explanation, sizeof res->explanation, "%s",
                     _("Every cook that reaches a printf prints: thousands of cooks print thousands of lines. "
                       "Print from one cook only, for example if (i == 0)."));
        } else {
            if (!res->summary[0])
                snprintf(res->summary, sizeof res->summary, "%s",
                         bad && bad->message[0] ? bad->message : _("the kernel crashed"));
            snprintf(res->explanation, sizeof res->explanation, "%s",
                     _("A crash usually means a pointer went somewhere it must not: an index far outside the "
                       "arrays, or one computed from an uninitialised variable."));
        }
        return;
    case EXERCISE_WRONG:
        break;
    }
    if (ex->host) {
        const exercise_run *plain_bad = NULL;
        if (diagnose_host(ex, res, &plain_bad))
            return;
        if (plain_bad)
            bad = plain_bad;
    }
    /* every run right: then the writes were scattered (a coalescing exercise) */
    if (!bad) {
        for (int i = 0; i < res->nruns && !bad; i++)
            if (res->runs[i].segments > 2)
                bad = &res->runs[i];
        for (int i = 0; i < res->nruns && !bad; i++) {
            double per = 0;
            int limit = exercise_limit_miss(ex, &res->runs[i], &per);
            if (limit < 0)
                continue;
            const exercise_run *r = &res->runs[i];
            int id = ex->limit_counter[limit];
            diagnosis_set(res, "over-limit");
            snprintf(res->summary, sizeof res->summary,
                     _("right results, but with n = %lld the launch counted %.4g %s (%s): %.4g per multiply-add, "
                       "at most %.4g are wanted"),
                     (long long)r->n, r->counter[id], counter_table[id].metric, _(counter_table[id].label), per,
                     ex->limit_max[limit]);
            snprintf(res->explanation, sizeof res->explanation, "%s",
                     _("The counters are Nsight Compute's, counted on the emulator for each launch: cudachef try "
                       "prints them for your kernel. A kernel left of the roofline's ridge is held back by what it "
                       "fetches: fetch each number from device memory once for many multiply-adds, keep it in the "
                       "team's shared locker or in a cook's registers, and reuse it there."));
            return;
        }
        diagnosis_set(res, bad ? "uncoalesced" : "wrong");
        for (int i = 0; i < res->nruns && !bad && ex->conflict_free; i++)
            if (res->runs[i].conflicts > 0) {
                bad = &res->runs[i];
                diagnosis_set(res, "bank-conflicts");
                snprintf(res->summary, sizeof res->summary,
                         _("right results, but the shared locker's accesses had %lld bank conflicts with n = %lld (none "
                           "are wanted)"),
                         (long long)bad->conflicts, (long long)bad->n);
                snprintf(res->explanation, sizeof res->explanation, "%s",
                         _("A warp asks one bank for several distinct words: cooks of a warp reading a column of a "
                           "tile 32 words wide all land in one bank. Give the tile one extra column (33 words a row), "
                           "so each row starts one bank further along."));
                return;
            }
        if (bad) {
            snprintf(res->summary, sizeof res->summary,
                     _("right results, but a warp's 32 writes touch %d memory segments (2 at most are wanted)"),
                     bad->segments);
            snprintf(res->explanation, sizeof res->explanation, "%s",
                     _("Neighbouring cooks (threadIdx.x next to each other) should write neighbouring elements "
                       "of a row: let threadIdx.x pick the column."));
        }
        return;
    }
    if (bad->shuffle)
        snprintf(res->summary, sizeof res->summary,
                 _("wrong with n = %lld when the cooks ran in a shuffled order: right %zu of %zu"),
                 (long long)bad->n, bad->taste.correct, bad->taste.checked);
    else
        snprintf(res->summary, sizeof res->summary, _("wrong with n = %lld: right %zu of %zu"),
                 (long long)bad->n, bad->taste.correct, bad->taste.checked);
    const char *code = "wrong";
    diagnose_wrong(res, bad, diagnose_matrix(ex), res->explanation, sizeof res->explanation, &code);
    diagnosis_set(res, code);
}
