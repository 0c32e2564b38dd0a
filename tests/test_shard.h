/*
 * test_shard.h - a test program's cases split over several processes that run side by side
 * (scripts/run-tests.sh's CUDACHEF_TEST_SHARDS, used by make valgrind: memcheck runs one
 * program's threads one at a time, so its longest program would keep one core busy alone).
 *
 * With CUDACHEF_TEST_SHARD=K/N, test_shard_select keeps every Nth case of the program's table,
 * from the Kth on, and says so in one line; without it, every case. The N processes together run
 * each case once, and scripts/run-tests.sh adds up their counts.
 */
#ifndef CUDACHEF_TEST_SHARD_H
#define CUDACHEF_TEST_SHARD_H

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>

/* Keeps in tests[0..n) the cases of this process's shard, in order; their number. */
static inline size_t test_shard_select(struct CMUnitTest *tests, size_t n)
{
    const char *spec = getenv("CUDACHEF_TEST_SHARD");
    unsigned k = 0, of = 0;
    char end = 0;
    if (!spec || !*spec)
        return n;
    if (sscanf(spec, "%u/%u%c", &k, &of, &end) != 2 || of < 1 || k < 1 || k > of) {
        fprintf(stderr, "test: CUDACHEF_TEST_SHARD='%s' is not K/N with 1 <= K <= N\n", spec);
        exit(2);
    }
    size_t kept = 0;
    for (size_t i = 0; i < n; i++)
        if (i % of == k - 1)
            tests[kept++] = tests[i];
    printf("shard %u of %u: %zu of the %zu cases\n", k, of, kept, n);
    return kept;
}

#endif
