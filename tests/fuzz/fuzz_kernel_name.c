/*
 * fuzz_kernel_name.c - finding the __global__ function in a learner's source (exercise_kernel_name
 * in exercise.c), which reads whatever the learner saved: comments, half-written code, any bytes.
 *
 * Input: a size byte (the room given for the name, exactly that many bytes), the name wanted on
 * the first line (none when it is empty), then the source.
 */
#include <stdlib.h>
#include <string.h>

#include "grading/exercise.h"
#include "fuzz.h"

FUZZ_TARGET(kernel_name)
{
    if (size < 1)
        return 0;
    size_t room = data[0];
    char *text = fuzz_string(data + 1, size - 1);
    char *want = NULL, *source = text, *newline = strchr(text, '\n');
    if (newline) {
        *newline = '\0';
        want = *text ? text : NULL;
        source = newline + 1;
    }
    char *out = malloc(room ? room : 1);
    if (out) {
        exercise_kernel_name(source, want, out, room);
        free(out);
    }
    free(text);
    return 0;
}
