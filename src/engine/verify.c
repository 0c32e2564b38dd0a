/*
 * verify.c - element-wise comparison with a tolerance.
 */
#include "engine/verify.h"

#include <math.h>
#include <string.h>

/* True when got matches expected within the tolerance. */
int verify_close(float got, float expected, double rtol, double atol)
{
    if (isnan(got) || isnan(expected))
        return 0;
    if (isinf(got) || isinf(expected))
        return got == expected;
    return fabs((double)got - (double)expected) <= atol + rtol * fabs((double)expected);
}

void verify_compare(const float *got, const float *expected, size_t n, double rtol, double atol,
                    verify_result *r)
{
    memset(r, 0, sizeof *r);
    r->checked = n;
    size_t first_right = 0, second_right = 0, nright = 0;
    int prefix = 1;
    for (size_t i = 0; i < n; i++) {
        double err = fabs((double)got[i] - (double)expected[i]);
        if (isnan(err))
            err = INFINITY;
        if (err > r->max_abs_error)
            r->max_abs_error = err;
        if (expected[i] != 0.0f) {
            double rel = err / fabs((double)expected[i]);
            if (rel > r->max_rel_error)
                r->max_rel_error = rel;
        }
        if (verify_close(got[i], expected[i], rtol, atol)) {
            r->correct++;
            if (prefix)
                r->correct_prefix++;
            if (nright == 1)
                second_right = i;
            else if (nright == 0)
                first_right = i;
            nright++;
            continue;
        }
        if (prefix)
            r->first_wrong = i;
        prefix = 0;
        r->last_wrong = i;
        if (isnan(got[i]))
            r->never_written++;
        else if (got[i] == 0.0f)
            r->zeros++;
        if (r->nmismatches < VERIFY_MAX_MISMATCHES) {
            r->mismatches[r->nmismatches].index = i;
            r->mismatches[r->nmismatches].expected = expected[i];
            r->mismatches[r->nmismatches].got = got[i];
            r->nmismatches++;
        }
    }
    r->passed = r->correct == r->checked;
    /* right elements exactly every stride-th (0, s, 2s, ...), and only those: a telltale index */
    size_t s = second_right - first_right;
    if (!r->passed && nright >= 2 && first_right == 0 && s > 1 && (n - 1) / s + 1 == nright) {
        size_t ok = 1;
        for (size_t i = 0; i < n && ok; i += s)
            ok = verify_close(got[i], expected[i], rtol, atol);
        r->stride = ok ? s : 0;
    }
    /* right in runs of the same length, one run every period elements from 0: every round of a loop
       (or every team) cooked the same first elements */
    size_t run = r->correct_prefix, period = run;
    while (period < n && !verify_close(got[period], expected[period], rtol, atol))
        period++;
    if (!r->passed && run > 0 && period < n) {
        int ok = 1;
        for (size_t i = 0; i < n && ok; i++)
            ok = verify_close(got[i], expected[i], rtol, atol) == (i % period < run);
        if (ok) {
            r->right_run = run;
            r->right_period = period;
        }
    }
}
