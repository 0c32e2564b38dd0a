/*
 * fuzz_check_result.c - what the checking child reports about a learner's kernel, read back by the
 * parent (exercise_runs_parse in exercise_check.c: one JSON object a line, with jansson) and
 * explained (exercise_diagnose.c). The child runs the learner's code in its own process, so its
 * report is not to be trusted: any line, any numbers.
 *
 * Input: a status byte (how the check ended), a byte that picks the recipe (an array one or a
 * matrix one), then the compiler's log and the result pipe's lines, separated by a FUZZ_SEPARATOR
 * line.
 */
#include <stdlib.h>
#include <string.h>

#include "grading/exercise_check.h"
#include "fuzz.h"

FUZZ_TARGET(check_result)
{
    static char *recipes[] = {"vector-add", "matmul-naive", "sum-reduce", "matmul-tiled"};
    if (size < 2)
        return 0;
    exercise ex;
    memset(&ex, 0, sizeof ex);
    ex.name = "fuzz-ex";
    ex.recipe = recipes[data[1] % 4];
    ex.kernel = "vector_add";
    ex.timeout_s = 20;
    exercise_result *res = calloc(1, sizeof *res);
    if (!res)
        return 0;
    res->status = (exercise_status)(data[0] % (EXERCISE_ENVIRONMENT + 1));
    res->flooded = data[0] >> 7;
    fuzz_part parts[2];
    size_t n = fuzz_split(data + 2, size - 2, parts, 2);
    res->build_log = fuzz_string(parts[0].data, parts[0].size);
    char *lines = n > 1 ? fuzz_string(parts[1].data, parts[1].size) : NULL;
    exercise_runs_parse(lines, res);
    exercise_diagnose(&ex, res);
    exercise_status_name(res->status);
    exercise_status_exit(res->status);
    free(lines);
    free(res->build_log);
    free(res);
    return 0;
}
